// Who may see or change what. The server decides; the UI only mirrors these answers.
import { and, eq } from 'drizzle-orm'
import type { Caller } from '../context'
import type { Db } from '../db/client'
import { publisherMembers } from '../db/schema'

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
