// A publisher's audit trail (listPublisherEvents): who changed its publishing rights (trusted
// publishers, tokens) and how each version was published. Written in the same transaction as the
// change it records; rows are never changed.
import { count, desc, eq } from 'drizzle-orm'
import type { Schemas } from '../http/operations'
import type { Db } from '../db/client'
import { publisherEvents, type PublisherEventKind, type PublisherEventRow } from '../db/schema'
import { pageInfo } from '../http/serialize'

type ApiPublisherEvent = Schemas['PublisherEvent']

export interface NewPublisherEvent {
  publisherId: string
  kind: PublisherEventKind
  actor: string
  nodeId?: string
  detail: string
}

export async function recordPublisherEvent(db: Db, event: NewPublisherEvent): Promise<void> {
  await db.insert(publisherEvents).values({
    publisherId: event.publisherId,
    kind: event.kind,
    actor: event.actor,
    nodeId: event.nodeId ?? '',
    detail: event.detail,
  })
}

export function toApiPublisherEvent(row: PublisherEventRow): ApiPublisherEvent {
  return {
    id: row.id,
    publisher_id: row.publisherId,
    kind: row.kind,
    actor: row.actor,
    node_id: row.nodeId,
    detail: row.detail,
    created_at: new Date(row.createdAt).toISOString(),
  }
}

/** A page of the publisher's events, newest first. */
export async function listPublisherEvents(
  db: Db,
  publisherId: string,
  page: number,
  limit: number,
): Promise<Schemas['PublisherEventListResponse']> {
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(publisherEvents)
      .where(eq(publisherEvents.publisherId, publisherId))
      .orderBy(desc(publisherEvents.createdAt), desc(publisherEvents.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db
      .select({ total: count() })
      .from(publisherEvents)
      .where(eq(publisherEvents.publisherId, publisherId)),
  ])
  return { events: rows.map(toApiPublisherEvent), ...pageInfo(total, page, limit) }
}

/** How a member appears in the trail: their email, else their user id. */
export const memberActor = (caller: { id: string; email: string }) => caller.email || caller.id
