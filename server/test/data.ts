/** Reading and shaping the seeded rows directly, for expectations and test setup. */
import { randomBytes } from 'node:crypto'
import { and, eq, getTableName, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { refreshLatestVersion } from '../db/latest-version'
import { semverSortKey } from '../db/semver'
import {
  adminActions,
  customerApiKeys,
  customerEvents,
  customers,
  jobs,
  nodeReviews,
  nodes,
  nodeVersions,
  pendingUploads,
  personalAccessTokens,
  publisherInvitations,
  publisherMembers,
  publishers,
  releases,
  publisherEvents,
  trustedPublishers,
  trustedPublishingTokens,
  trustedPublishingUsedJtis,
  users,
  type NodeStatus,
  type NodeVersionStatus,
  type PublisherMemberRole,
  type PublisherStatus,
} from '../db/schema'
import type { TestUser } from './auth'

export interface NodeFacts {
  id: string
  name: string
  status: NodeStatus
  publisherId: string | null
  publisherStatus: PublisherStatus | null
  tags: string[]
  supportedOs: string[]
  supportedAccelerators: string[]
  downloads: number
}

/** Every node with its publisher's status, straight from the tables. */
export async function nodeFacts(db: Db): Promise<NodeFacts[]> {
  const rows = await db
    .select({
      id: nodes.id,
      name: nodes.name,
      status: nodes.status,
      publisherId: nodes.publisherId,
      publisherStatus: publishers.status,
      tags: nodes.tags,
      supportedOs: nodes.supportedOs,
      supportedAccelerators: nodes.supportedAccelerators,
      downloads: nodes.downloads,
    })
    .from(nodes)
    .leftJoin(publishers, eq(publishers.id, nodes.publisherId))
  return rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

/** What anonymous callers may see: Active nodes whose publisher is not banned. */
export function isPublic(node: NodeFacts): boolean {
  return node.status === 'NodeStatusActive' && node.publisherStatus !== 'PublisherStatusBanned'
}

export async function setNodeStatus(db: Db, id: string, status: NodeStatus): Promise<void> {
  await db.update(nodes).set({ status }).where(eq(nodes.id, id))
}

export async function setPublisherStatus(
  db: Db,
  id: string,
  status: PublisherStatus,
): Promise<void> {
  await db.update(publishers).set({ status }).where(eq(publishers.id, id))
}

/** Makes a signed-up test user a member of a publisher (creating the users row if needed). */
export async function addMember(
  db: Db,
  user: TestUser,
  publisherId: string,
  role: PublisherMemberRole = 'owner',
): Promise<void> {
  await db
    .insert(users)
    .values({ id: user.uid, email: user.email, name: user.email.split('@')[0] })
    .onConflictDoNothing()
  await db
    .insert(publisherMembers)
    .values({ publisherId, userId: user.uid, role })
    .onConflictDoNothing()
}

export interface VersionSpec {
  version: string
  status: NodeVersionStatus
  /** Days after 2026-01-01 (versions get distinct, increasing creation times by default). */
  day?: number
}

/** Inserts a node with the given versions (no archives) and refreshes its latest version. */
export async function insertNodeWithVersions(
  db: Db,
  node: {
    id: string
    publisherId: string
    name?: string
    description?: string
    tags?: string[]
    repository?: string
  },
  versions: readonly VersionSpec[],
): Promise<void> {
  await db.insert(nodes).values({
    id: node.id,
    publisherId: node.publisherId,
    name: node.name ?? node.id,
    description: node.description ?? '',
    tags: node.tags ?? [],
    repository: node.repository ?? '',
  })
  if (versions.length === 0) return
  await db.insert(nodeVersions).values(
    versions.map((spec, index) => ({
      nodeId: node.id,
      version: spec.version,
      ...semverSortKey(spec.version),
      status: spec.status,
      createdAt: new Date(Date.UTC(2026, 0, 1 + (spec.day ?? index))),
    })),
  )
  await refreshLatestVersion(db, node.id)
}

/** An upload link (valid for an hour) for an existing version, as publishing creates it; its token. */
export async function insertUploadLink(
  db: Db,
  publisherId: string,
  nodeId: string,
  version: string,
): Promise<string> {
  const [row] = await db
    .select({ id: nodeVersions.id })
    .from(nodeVersions)
    .where(and(eq(nodeVersions.nodeId, nodeId), eq(nodeVersions.version, version)))
  const token = randomBytes(24).toString('base64url')
  await db.insert(pendingUploads).values({
    token,
    nodeVersionId: row.id,
    storageKey: `${publisherId}/${nodeId}/${version}/node.zip`,
    expiresAt: new Date(Date.now() + 60 * 60 * 1000),
  })
  return token
}

/** The tables writes touch (users aside: signing in refreshes them), for snapshotState. */
const STATE_TABLES = [
  publishers,
  publisherMembers,
  nodes,
  nodeVersions,
  personalAccessTokens,
  pendingUploads,
  nodeReviews,
  publisherInvitations,
  jobs,
  adminActions,
  customers,
  customerEvents,
  customerApiKeys,
  releases,
  trustedPublishers,
  trustedPublishingTokens,
  trustedPublishingUsedJtis,
  publisherEvents,
]

/**
 * Row count and a sum of 64-bit hashes of every row's text, per table, in one query: a refused
 * request must leave this exactly as it was. (A sum needs no sort, so it stays cheap enough to
 * take thousands of times; any changed, added or removed row changes it.)
 */
export async function tableChecksums(db: Db, tables: readonly string[]): Promise<string> {
  const parts = tables.map(
    (table) =>
      sql`select ${table} as t, count(*)::int as n,
          coalesce(sum(hashtextextended(x::text, 0)), 0)::text as h
          from ${sql.identifier(table)} x`,
  )
  const result = (await db.execute(sql.join(parts, sql` union all `))) as unknown as {
    rows: { t: string; n: number; h: string }[]
  }
  return result.rows.map((row) => `${row.t}:${row.n}:${row.h}`).join('\n')
}

/**
 * The registry's mutable state, for "a refused call changed nothing" checks: the checksums of
 * every table in STATE_TABLES, computed inside the database, and the archive keys. (Reading every
 * row into JS instead made the authorization matrix, which snapshots a growing database twice per
 * call, the slowest suite.) Per table, so a failing comparison names the tables that changed.
 */
export async function snapshotState(db: Db, storage?: { keys(): string[] }): Promise<string> {
  const tables = await tableChecksums(db, STATE_TABLES.map(getTableName))
  return `${tables}\narchives: ${JSON.stringify(storage?.keys() ?? [])}`
}
