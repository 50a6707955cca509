// Who may see or change what. The server decides; the UI only mirrors these answers.
//
// Writes to a publisher (its settings, members, tokens, nodes and versions) need an owner of the
// publisher or an admin. A banned publisher is frozen: its owners and members cannot change
// anything (403), admins still can. A user who owns a banned publisher cannot start a new one
// or rate nodes either, so a ban cannot be sidestepped.
import { and, eq } from 'drizzle-orm'
import { UNCLAIMED_PUBLISHER } from '@/src/lib/constants'
import type { Caller } from '../http/context'
import type { Db } from '../db/client'
import { publisherMembers, publishers, type NodeRow, type Publisher } from '../db/schema'
import { forbidden, notFound, unauthorized } from '../http/errors'
import { findNodeRow } from '../nodes/writes'
import { findPublisher } from './queries'

export type MemberRole = 'owner' | 'member'

export async function memberRole(
  db: Db,
  caller: Caller | null,
  publisherId: string | null,
): Promise<MemberRole | null> {
  if (!caller || !publisherId) return null
  const [row] = await db
    .select({ role: publisherMembers.role })
    .from(publisherMembers)
    .where(
      and(eq(publisherMembers.publisherId, publisherId), eq(publisherMembers.userId, caller.id)),
    )
  return row?.role ?? null
}

/** Admins and the publisher's members see hidden things (banned, deleted, pending versions). */
export async function canSeeHidden(
  db: Db,
  caller: Caller | null,
  publisherId: string | null,
): Promise<boolean> {
  if (!caller) return false
  if (caller.isAdmin) return true
  return (await memberRole(db, caller, publisherId)) !== null
}

export const BANNED_PUBLISHER_MESSAGE = (publisherId: string) =>
  `Publisher '${publisherId}' is banned: its settings, members, tokens, nodes and versions cannot be changed. Contact the registry admins if you think this is a mistake.`

/** May the caller edit this publisher and everything in it? (The `canEdit` answers.) */
export async function canEditPublisher(
  db: Db,
  caller: Caller | null,
  publisher: Publisher,
): Promise<boolean> {
  if (!caller || publisher.id === UNCLAIMED_PUBLISHER.id) return false
  if (caller.isAdmin) return true
  if (publisher.status === 'PublisherStatusBanned') return false
  return (await memberRole(db, caller, publisher.id)) === 'owner'
}

export interface PublisherWriteAccess {
  publisher: Publisher
  /** The caller's role in the publisher (null for admins who are not members). */
  role: MemberRole | null
}

/**
 * The publisher, if the caller may change it; otherwise the right refusal: 404 when it does not
 * exist (or is banned and hidden from the caller), 403 for banned publishers and non-owners.
 * `allowMembers` lets plain members through (removing themselves); the caller checks the rest.
 * The reserved publisher of unclaimed nodes has no members, settings or tokens: only its nodes
 * can be changed, by admins (`forNodes`).
 */
export async function requirePublisherWrite(
  db: Db,
  caller: Caller | null,
  publisherId: string,
  options: { allowMembers?: boolean; forNodes?: boolean } = {},
): Promise<PublisherWriteAccess> {
  if (!caller) throw unauthorized()
  const publisher = await findPublisher(db, publisherId)
  if (!publisher) throw notFound(`Publisher '${publisherId}' does not exist.`)
  if (publisher.id === UNCLAIMED_PUBLISHER.id && !(options.forNodes && caller.isAdmin)) {
    throw forbidden(
      `'${publisher.id}' is the registry's reserved publisher of unclaimed nodes: it cannot be changed. Claim a node into your own publisher instead.`,
    )
  }
  const role = await memberRole(db, caller, publisher.id)
  if (caller.isAdmin) return { publisher, role }
  if (publisher.status === 'PublisherStatusBanned') {
    // Outsiders do not learn that a banned publisher exists (as for reads).
    if (!role) throw notFound(`Publisher '${publisherId}' does not exist.`)
    throw forbidden(BANNED_PUBLISHER_MESSAGE(publisher.id))
  }
  if (role === 'owner' || (role === 'member' && options.allowMembers)) return { publisher, role }
  throw forbidden(
    role === 'member'
      ? `Only owners of publisher '${publisher.id}' can do this; you are a member.`
      : `You are not an owner of publisher '${publisher.id}'.`,
  )
}

/**
 * A node of the publisher the caller may change. Deleted nodes are gone for everyone but admins
 * (404); banned nodes are frozen for their owners (403).
 */
export async function requireNodeWrite(
  db: Db,
  caller: Caller | null,
  publisherId: string,
  nodeId: string,
): Promise<PublisherWriteAccess & { node: NodeRow }> {
  const access = await requirePublisherWrite(db, caller, publisherId, { forNodes: true })
  const node = await findNodeRow(db, nodeId)
  const isAdmin = caller?.isAdmin === true
  if (
    !node ||
    node.publisherId !== access.publisher.id ||
    (node.status === 'NodeStatusDeleted' && !isAdmin)
  ) {
    throw notFound(`Publisher '${access.publisher.id}' has no node '${nodeId}'.`)
  }
  if (node.status === 'NodeStatusBanned' && !isAdmin) {
    throw forbidden(
      `Node '${node.id}' is banned and cannot be changed. Contact the registry admins if you think this is a mistake.`,
    )
  }
  return { ...access, node }
}

/** Refuses owners of a banned publisher (creating publishers, rating nodes); admins pass. */
export async function requireNotBannedOwner(db: Db, caller: Caller): Promise<void> {
  if (caller.isAdmin) return
  const [banned] = await db
    .select({ id: publishers.id })
    .from(publisherMembers)
    .innerJoin(publishers, eq(publishers.id, publisherMembers.publisherId))
    .where(
      and(
        eq(publisherMembers.userId, caller.id),
        eq(publisherMembers.role, 'owner'),
        eq(publishers.status, 'PublisherStatusBanned'),
      ),
    )
    .limit(1)
  if (banned) {
    throw forbidden(
      `You own the banned publisher '${banned.id}', so you cannot do this. Contact the registry admins if you think this is a mistake.`,
    )
  }
}

export function requireAdmin(caller: Caller | null): Caller {
  if (!caller) throw unauthorized()
  if (!caller.isAdmin) throw forbidden('Only registry admins can do this.')
  return caller
}
