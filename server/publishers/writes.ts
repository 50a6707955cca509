// Changing publishers: create (the creator becomes owner), update, delete, and the member list
// (add by email, change role, remove), always keeping at least one owner.
import { and, eq, ne, sql } from 'drizzle-orm'
import type { Schemas } from '../http/operations'
import { UNCLAIMED_PUBLISHER } from '@/src/lib/constants'
import type { Caller } from '../http/context'
import type { Db, Tx } from '../db/client'
import { nodes, publisherMembers, publishers, type Publisher } from '../db/schema'
import { badRequest, conflict, notFound } from '../http/errors'
import { findPublisher, publisherIdProblem } from './queries'
import { defined, httpUrl, imageUrl, nonBlank, supportContact, text } from '../http/validate'

type CreatePublisherRequest = Schemas['CreatePublisherRequest']
type PublisherMemberRole = Schemas['PublisherMemberRole']
type UpdatePublisherRequest = Schemas['UpdatePublisherRequest']

function publisherFields(body: UpdatePublisherRequest) {
  return defined({
    name: nonBlank('name', body.name),
    description: text(body.description),
    website: httpUrl('website', body.website),
    support: supportContact('support', body.support),
    sourceCodeRepo: httpUrl('source_code_repo', body.source_code_repo),
    logo: imageUrl('logo', body.logo),
  })
}

export async function createPublisher(
  db: Db,
  caller: Caller,
  body: CreatePublisherRequest,
): Promise<Publisher> {
  const id = body.id.trim()
  const problem = publisherIdProblem(id)
  if (problem) throw badRequest(`Invalid field 'id': ${problem}`)
  const fields = publisherFields(body)
  const taken = () => conflict(`The publisher id '${id}' is already taken. Choose another id.`)
  if (await findPublisher(db, id)) throw taken()
  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(publishers)
      .values({ id, name: fields.name ?? id, ...fields })
      .onConflictDoNothing()
      .returning()
    // Someone else took the id between the check and the insert.
    if (!created) throw taken()
    await tx.insert(publisherMembers).values({ publisherId: id, userId: caller.id, role: 'owner' })
    return created
  })
}

export async function updatePublisher(
  db: Db,
  publisher: Publisher,
  body: UpdatePublisherRequest,
): Promise<Publisher> {
  if (body.id !== undefined && body.id !== publisher.id) {
    throw badRequest(
      `Invalid field 'id': a publisher id cannot change ('${body.id}' ≠ '${publisher.id}').`,
    )
  }
  const fields = publisherFields(body)
  if (Object.keys(fields).length === 0) return publisher
  const [updated] = await db
    .update(publishers)
    .set(fields)
    .where(eq(publishers.id, publisher.id))
    .returning()
  return updated
}

/**
 * Deletes a publisher whose nodes are all deleted. Its deleted nodes stay (their ids remain
 * reserved and admins still see them) under the unclaimed publisher; members and tokens go with it.
 */
export async function deletePublisher(db: Db, publisherId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockPublisher(tx, publisherId)
    const [{ live }] = await tx
      .select({ live: sql<number>`count(*)::int` })
      .from(nodes)
      .where(and(eq(nodes.publisherId, publisherId), ne(nodes.status, 'NodeStatusDeleted')))
    if (live > 0) {
      throw conflict(
        `Publisher '${publisherId}' still has ${live} node${live === 1 ? '' : 's'}. Delete ${live === 1 ? 'it' : 'them'} first.`,
      )
    }
    await tx
      .update(nodes)
      .set({ publisherId: UNCLAIMED_PUBLISHER.id })
      .where(eq(nodes.publisherId, publisherId))
    await tx.delete(publishers).where(eq(publishers.id, publisherId))
  })
}

/** Serialises membership changes of one publisher (the "one owner remains" rule needs it). */
async function lockPublisher(tx: Tx, publisherId: string): Promise<void> {
  await tx.execute(
    sql`select 1 from ${publishers} where ${publishers.id} = ${publisherId} for update`,
  )
}

async function ownerCount(tx: Tx, publisherId: string): Promise<number> {
  const [{ owners }] = await tx
    .select({ owners: sql<number>`count(*)::int` })
    .from(publisherMembers)
    .where(and(eq(publisherMembers.publisherId, publisherId), eq(publisherMembers.role, 'owner')))
  return owners
}

async function findMember(tx: Tx, publisherId: string, userId: string) {
  const [member] = await tx
    .select()
    .from(publisherMembers)
    .where(and(eq(publisherMembers.publisherId, publisherId), eq(publisherMembers.userId, userId)))
  if (!member) throw notFound(`User '${userId}' is not a member of publisher '${publisherId}'.`)
  return member
}

const LAST_OWNER = (publisherId: string) =>
  conflict(
    `Publisher '${publisherId}' must keep at least one owner. Make another member an owner first.`,
  )

export async function setMemberRole(
  db: Db,
  publisherId: string,
  userId: string,
  role: PublisherMemberRole,
): Promise<void> {
  await db.transaction(async (tx) => {
    await lockPublisher(tx, publisherId)
    const member = await findMember(tx, publisherId, userId)
    if (member.role === role) return
    if (member.role === 'owner' && (await ownerCount(tx, publisherId)) <= 1) {
      throw LAST_OWNER(publisherId)
    }
    await tx.update(publisherMembers).set({ role }).where(eq(publisherMembers.id, member.id))
  })
}

export async function removeMember(db: Db, publisherId: string, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockPublisher(tx, publisherId)
    const member = await findMember(tx, publisherId, userId)
    if (member.role === 'owner' && (await ownerCount(tx, publisherId)) <= 1) {
      throw LAST_OWNER(publisherId)
    }
    await tx.delete(publisherMembers).where(eq(publisherMembers.id, member.id))
  })
}
