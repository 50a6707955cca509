// Reading publishers and their members, and checking a proposed publisher id.
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm'
import type { Schemas } from '../http/operations'
import { UNCLAIMED_PUBLISHER } from '@/src/lib/constants'
import type { Db } from '../db/client'
import { stringRule } from '../http/contract'
import { publisherMembers, publishers, users, type Publisher } from '../db/schema'

type ApiPublisherMember = Schemas['PublisherMember']

/** The `PublisherId` schema of openapi.yml. */
const PUBLISHER_ID = stringRule('PublisherId')

/** Ids that would be confusing or impersonate the registry itself. */
export const RESERVED_PUBLISHER_IDS = new Set([
  'admin',
  'administrator',
  'api',
  'auth',
  'comfy',
  'comfyui',
  'comfy-org',
  'comfyorg',
  'comfy-registry',
  'registry',
  'nodes',
  'node',
  'publishers',
  'publisher',
  'users',
  'user',
  'login',
  'logout',
  'signup',
  'settings',
  'support',
  'help',
  'docs',
  'about',
  'static',
  // /publishers/create is the create-publisher page.
  'create',
  'unclaimed',
  'system',
  'root',
  'null',
  'undefined',
])

/** Why an id cannot be used as a new publisher id, or null when it can (apart from being taken). */
export function publisherIdProblem(id: string): string | null {
  // `admin-…` ids belong to the registry (the unclaimed publisher is one).
  if (id === UNCLAIMED_PUBLISHER.id || id.startsWith('admin-')) return `'${id}' is reserved.`
  if (id.length === 0) return 'Enter a publisher id.'
  if (id.length > PUBLISHER_ID.maxLength)
    return `A publisher id has at most ${PUBLISHER_ID.maxLength} characters.`
  if (!PUBLISHER_ID.pattern.test(id)) {
    return 'A publisher id starts with a lowercase letter and contains only lowercase letters, digits and hyphens.'
  }
  if (id.endsWith('-')) return 'A publisher id cannot end with a hyphen.'
  if (RESERVED_PUBLISHER_IDS.has(id)) return `'${id}' is reserved.`
  return null
}

export async function findPublisher(db: Db, id: string): Promise<Publisher | null> {
  const [row] = await db.select().from(publishers).where(eq(publishers.id, id))
  return row ?? null
}

/** Every registered publisher (not the reserved one of unclaimed nodes). */
export async function listPublisherRows(db: Db, includeBanned: boolean): Promise<Publisher[]> {
  return db
    .select()
    .from(publishers)
    .where(
      and(
        ne(publishers.id, UNCLAIMED_PUBLISHER.id),
        includeBanned ? undefined : eq(publishers.status, 'PublisherStatusActive'),
      ),
    )
    .orderBy(asc(publishers.id))
}

export async function membersOf(
  db: Db,
  publisherIds: string[],
): Promise<Map<string, ApiPublisherMember[]>> {
  const byPublisher = new Map<string, ApiPublisherMember[]>()
  if (publisherIds.length === 0) return byPublisher
  const rows = await db
    .select({ member: publisherMembers, user: users })
    .from(publisherMembers)
    .innerJoin(users, eq(users.id, publisherMembers.userId))
    .where(inArray(publisherMembers.publisherId, publisherIds))
    .orderBy(sql`${publisherMembers.role} = 'owner' desc`, publisherMembers.createdAt)
  for (const { member, user } of rows) {
    const list = byPublisher.get(member.publisherId) ?? []
    list.push({
      id: member.id,
      role: member.role,
      user: { id: user.id, email: user.email, name: user.name },
    })
    byPublisher.set(member.publisherId, list)
  }
  return byPublisher
}

export async function publishersOfUser(db: Db, userId: string): Promise<Publisher[]> {
  const rows = await db
    .select({ publisher: publishers })
    .from(publisherMembers)
    .innerJoin(publishers, eq(publishers.id, publisherMembers.publisherId))
    .where(eq(publisherMembers.userId, userId))
    .orderBy(asc(publishers.id))
  return rows.map((row) => row.publisher)
}
