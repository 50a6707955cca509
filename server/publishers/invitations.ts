// Joining a publisher by invitation (the crates.io way): an owner invites an email address, the
// person signed in with that address (verified by the sign-in provider) accepts or declines.
// The owner's answer never depends on whether the address is registered, so inviting cannot be
// used to find out who uses the registry.
import { and, asc, eq, gt, sql } from 'drizzle-orm'
import type { Schemas } from '../http/operations'
import type { Caller } from '../http/context'
import type { Db } from '../db/client'
import {
  publisherInvitations,
  publisherMembers,
  publishers,
  users,
  type PublisherInvitation,
} from '../db/schema'
import { conflict, forbidden, notFound } from '../http/errors'
import { BANNED_PUBLISHER_MESSAGE } from './access'

type MyInvitation = Schemas['MyInvitation']
type ApiInvitation = Schemas['PublisherInvitation']
type PublisherMemberRole = Schemas['PublisherMemberRole']

/** How long an invitation can be accepted. */
export const INVITATION_TTL_MS = 30 * 24 * 60 * 60 * 1000

const iso = (date: Date | string) => new Date(date).toISOString()

export function toApiInvitation(row: PublisherInvitation): ApiInvitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    createdAt: iso(row.createdAt),
    expiresAt: iso(row.expiresAt),
  }
}

/** A publisher's pending (unexpired) invitations, oldest first. */
export async function pendingInvitations(
  db: Db,
  publisherId: string,
  now = new Date(),
): Promise<PublisherInvitation[]> {
  return db
    .select()
    .from(publisherInvitations)
    .where(
      and(
        eq(publisherInvitations.publisherId, publisherId),
        gt(publisherInvitations.expiresAt, now),
      ),
    )
    .orderBy(asc(publisherInvitations.createdAt), asc(publisherInvitations.id))
}

/**
 * Invites `email` (again: the role and expiry are renewed). 409 only when the address belongs to
 * a member, which owners see in the member list anyway.
 */
export async function invite(
  db: Db,
  publisherId: string,
  email: string,
  role: PublisherMemberRole,
  invitedBy: string | null,
  now = new Date(),
): Promise<void> {
  const address = email.trim().toLowerCase()
  const [member] = await db
    .select({ id: publisherMembers.id })
    .from(publisherMembers)
    .innerJoin(users, eq(users.id, publisherMembers.userId))
    .where(
      and(eq(publisherMembers.publisherId, publisherId), eq(sql`lower(${users.email})`, address)),
    )
    .limit(1)
  if (member) {
    throw conflict(
      `The user with the email '${email.trim()}' is already a member of '${publisherId}'.`,
    )
  }
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS)
  await db
    .insert(publisherInvitations)
    .values({ publisherId, email: address, role, invitedBy, createdAt: now, expiresAt })
    .onConflictDoUpdate({
      target: [publisherInvitations.publisherId, publisherInvitations.email],
      set: { role, invitedBy, createdAt: now, expiresAt },
    })
}

export async function cancelInvitation(
  db: Db,
  publisherId: string,
  invitationId: string,
): Promise<void> {
  const deleted = await db
    .delete(publisherInvitations)
    .where(
      and(
        eq(publisherInvitations.id, invitationId),
        eq(publisherInvitations.publisherId, publisherId),
      ),
    )
    .returning({ id: publisherInvitations.id })
  if (deleted.length === 0) {
    throw notFound(`Publisher '${publisherId}' has no invitation '${invitationId}'.`)
  }
}

/** The caller's address, if the sign-in provider vouches for it. */
function verifiedAddress(caller: Caller): string | null {
  return caller.emailVerified && caller.email ? caller.email.toLowerCase() : null
}

export async function invitationsFor(
  db: Db,
  caller: Caller,
  now = new Date(),
): Promise<MyInvitation[]> {
  const address = verifiedAddress(caller)
  if (!address) return []
  const rows = await db
    .select({ invitation: publisherInvitations, publisher: publishers })
    .from(publisherInvitations)
    .innerJoin(publishers, eq(publishers.id, publisherInvitations.publisherId))
    .where(and(eq(publisherInvitations.email, address), gt(publisherInvitations.expiresAt, now)))
    .orderBy(asc(publisherInvitations.createdAt))
  return rows.map(({ invitation, publisher }) => ({
    id: invitation.id,
    publisher: { id: publisher.id, name: publisher.name, logo: publisher.logo },
    role: invitation.role,
    createdAt: iso(invitation.createdAt),
    expiresAt: iso(invitation.expiresAt),
  }))
}

/** The caller's own, unexpired invitation; anything else is a 404 (nothing is revealed). */
async function ownInvitation(db: Db, caller: Caller, invitationId: string, now: Date) {
  const [found] = await db
    .select({ invitation: publisherInvitations, publisher: publishers })
    .from(publisherInvitations)
    .innerJoin(publishers, eq(publishers.id, publisherInvitations.publisherId))
    .where(eq(publisherInvitations.id, invitationId))
  const missing = notFound(`You have no invitation '${invitationId}'.`)
  if (!found || found.invitation.email !== caller.email.toLowerCase()) throw missing
  if (!verifiedAddress(caller)) {
    throw forbidden(
      `Verify your email address (${caller.email}) first: invitations are accepted only with a verified address.`,
    )
  }
  if (new Date(found.invitation.expiresAt).getTime() <= now.getTime()) {
    throw notFound(
      `Your invitation to '${found.publisher.id}' has expired. Ask one of its owners to invite you again.`,
    )
  }
  return found
}

/** Makes the caller a member with the invited role; the invitation is used up. */
export async function acceptInvitation(
  db: Db,
  caller: Caller,
  invitationId: string,
  now = new Date(),
): Promise<string> {
  const { invitation, publisher } = await ownInvitation(db, caller, invitationId, now)
  if (publisher.status === 'PublisherStatusBanned') {
    throw forbidden(BANNED_PUBLISHER_MESSAGE(publisher.id))
  }
  await db.transaction(async (tx) => {
    await tx
      .insert(publisherMembers)
      .values({ publisherId: publisher.id, userId: caller.id, role: invitation.role })
      .onConflictDoNothing()
    await tx.delete(publisherInvitations).where(eq(publisherInvitations.id, invitation.id))
  })
  return publisher.id
}

export async function declineInvitation(
  db: Db,
  caller: Caller,
  invitationId: string,
  now = new Date(),
): Promise<void> {
  const { invitation } = await ownInvitation(db, caller, invitationId, now)
  await db.delete(publisherInvitations).where(eq(publisherInvitations.id, invitation.id))
}
