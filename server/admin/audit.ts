// The audit log of admin actions (table `admin_actions`). Every admin change writes its rows with
// `recordActions` inside the transaction that makes the change, so a change and its record exist
// together or not at all. Rows are never changed afterwards, except `undone_by` (undo.ts).
import { and, desc, eq, or, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../db/client'
import { adminActions, type AdminActionRow, type NewAdminAction } from '../db/schema'
import type { Caller } from '../http/context'
import type { Schemas } from '../http/operations'
import type { Paging } from '../nodes/queries'

type ApiAdminAction = Schemas['AdminAction']

/** One change to record: everything but the actor, who is the caller. */
export type ActionRecord = Omit<NewAdminAction, 'actorId' | 'actorEmail' | 'createdAt'>

export async function recordActions(
  tx: Db,
  actor: Caller,
  records: readonly ActionRecord[],
): Promise<AdminActionRow[]> {
  if (records.length === 0) return []
  return tx
    .insert(adminActions)
    .values(records.map((record) => ({ ...record, actorId: actor.id, actorEmail: actor.email })))
    .returning()
}

export function toApiAction(row: AdminActionRow): ApiAdminAction {
  return {
    id: row.id,
    actor_id: row.actorId,
    actor_email: row.actorEmail,
    action: row.action,
    subject_type: row.subjectType,
    subject_id: row.subjectId,
    subject_label: row.subjectLabel,
    from_value: row.fromValue,
    to_value: row.toValue,
    reason: row.reason,
    batch_id: row.batchId ?? undefined,
    undone_by: row.undoneBy ?? undefined,
    undoes: row.undoes ?? undefined,
    created_at: new Date(row.createdAt).toISOString(),
  }
}

export interface ActionFilters {
  /** A user id or an email (any case). */
  actor?: string
  action?: AdminActionRow['action']
  subjectId?: string
  batchId?: string
}

export async function listActions(
  db: Db,
  filters: ActionFilters,
  paging: Paging,
): Promise<{ rows: AdminActionRow[]; total: number }> {
  const conditions: (SQL | undefined)[] = []
  if (filters.actor) {
    conditions.push(
      or(
        eq(adminActions.actorId, filters.actor),
        eq(sql`lower(${adminActions.actorEmail})`, filters.actor.toLowerCase()),
      ),
    )
  }
  if (filters.action) conditions.push(eq(adminActions.action, filters.action))
  if (filters.subjectId) conditions.push(eq(adminActions.subjectId, filters.subjectId))
  if (filters.batchId) conditions.push(eq(adminActions.batchId, filters.batchId))
  const where = and(...conditions)
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(adminActions)
      .where(where)
      .orderBy(desc(adminActions.createdAt), desc(adminActions.id))
      .limit(paging.limit)
      .offset((paging.page - 1) * paging.limit),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(adminActions)
      .where(where),
  ])
  return { rows, total }
}
