// Reading node versions and the comfy nodes inside them.
import { and, asc, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { versionSemverDesc } from '../db/ordering'
import {
  comfyNodes,
  nodes,
  nodeVersions,
  type NodeVersion,
  type NodeVersionStatus,
} from '../db/schema'
import { cachedCount } from '../db/count-cache'
import { publiclyVisible, type Paging } from '../nodes/queries'

export const PUBLIC_VERSION_STATUSES: NodeVersionStatus[] = ['NodeVersionStatusActive']

export async function listVersionsOfNode(
  db: Db,
  nodeId: string,
  statuses: NodeVersionStatus[],
  limit?: number,
): Promise<NodeVersion[]> {
  const query = db
    .select()
    .from(nodeVersions)
    .where(and(eq(nodeVersions.nodeId, nodeId), inArray(nodeVersions.status, statuses)))
    .orderBy(...versionSemverDesc)
  return limit === undefined ? query : query.limit(limit)
}

/** A version by semver string, or the node's latest Active version for `latest`. */
export async function findVersion(
  db: Db,
  node: { id: string; latestVersionId: string | null },
  selector: string,
): Promise<NodeVersion | null> {
  const condition =
    selector === 'latest'
      ? node.latestVersionId
        ? eq(nodeVersions.id, node.latestVersionId)
        : null
      : and(eq(nodeVersions.nodeId, node.id), eq(nodeVersions.version, selector))
  if (!condition) return null
  const [row] = await db.select().from(nodeVersions).where(condition)
  return row ?? null
}

export interface AllVersionsFilter {
  nodeId?: string
  statuses: NodeVersionStatus[]
  /** Only versions of this publisher's nodes. */
  publisherId?: string
  createdAfter?: Date
  createdBefore?: Date
  /** By publication time: `newest` (default) or `oldest` first. */
  sort?: 'newest' | 'oldest'
}

/**
 * The version's node is Active. Asked as "its node is not one of the few that are not Active"
 * (every version has its node): an anti-join against nodes_not_active_idx, which keeps the
 * review queue's count off the nodes table (100k nodes: ~10x faster than `exists … Active`).
 */
export const versionOfActiveNode = sql`not exists (select 1 from ${nodes} where ${nodes.id} = ${nodeVersions.nodeId} and ${nodes.status} <> 'NodeStatusActive')`

export async function listAllVersions(
  db: Db,
  filter: AllVersionsFilter,
  paging: Paging,
): Promise<{ rows: (NodeVersion & { publisherId: string })[]; total: number }> {
  const conditions = [inArray(nodeVersions.status, filter.statuses)]
  if (filter.nodeId)
    conditions.push(eq(sql`lower(${nodeVersions.nodeId})`, filter.nodeId.toLowerCase()))
  if (filter.publisherId) {
    conditions.push(
      inArray(
        nodeVersions.nodeId,
        db.select({ id: nodes.id }).from(nodes).where(eq(nodes.publisherId, filter.publisherId)),
      ),
    )
  }
  if (filter.createdAfter) conditions.push(gte(nodeVersions.createdAt, filter.createdAfter))
  if (filter.createdBefore) conditions.push(lt(nodeVersions.createdAt, filter.createdBefore))
  // Versions of banned or deleted nodes stay out of this public feed.
  conditions.push(versionOfActiveNode)
  const where = and(...conditions)
  const [found, total] = await Promise.all([
    db
      .select({ version: nodeVersions, publisherId: nodes.publisherId })
      .from(nodeVersions)
      .innerJoin(nodes, eq(nodes.id, nodeVersions.nodeId))
      .where(where)
      .orderBy(
        ...(filter.sort === 'oldest'
          ? [asc(nodeVersions.createdAt), asc(nodeVersions.id)]
          : [desc(nodeVersions.createdAt), nodeVersions.id]),
      )
      .limit(paging.limit)
      .offset((paging.page - 1) * paging.limit),
    // A long review queue's total (thousands) is reused for a few seconds, as listings' are.
    cachedCount(
      db,
      db
        .select({ total: sql<number>`count(*)::int` })
        .from(nodeVersions)
        .where(where),
    ),
  ])
  return { rows: found.map(({ version, publisherId }) => ({ ...version, publisherId })), total }
}

export async function listComfyNodesOfVersion(db: Db, versionId: string, paging: Paging) {
  const where = eq(comfyNodes.nodeVersionId, versionId)
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(comfyNodes)
      .where(where)
      .orderBy(comfyNodes.comfyNodeName)
      .limit(paging.limit)
      .offset((paging.page - 1) * paging.limit),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(comfyNodes)
      .where(where),
  ])
  return { rows, total }
}

export async function findComfyNode(db: Db, versionId: string, name: string) {
  const [row] = await db
    .select()
    .from(comfyNodes)
    .where(and(eq(comfyNodes.nodeVersionId, versionId), eq(comfyNodes.comfyNodeName, name)))
  return row ?? null
}

export interface ComfyNodeIndexFilter {
  nodeId?: string
  /** With nodeId: this Active version instead of the latest. */
  nodeVersion?: string
  comfyNodeName?: string
}

/**
 * The public index of ComfyUI node classes (GET /comfy-nodes): public nodes' latest Active
 * versions (or one chosen Active version of one node), each class with its node and version.
 */
export async function listComfyNodeIndex(db: Db, filter: ComfyNodeIndexFilter, paging: Paging) {
  const conditions = [publiclyVisible(), eq(nodeVersions.status, 'NodeVersionStatusActive')]
  if (filter.nodeId) conditions.push(eq(sql`lower(${nodes.id})`, filter.nodeId.toLowerCase()))
  conditions.push(
    filter.nodeVersion
      ? eq(nodeVersions.version, filter.nodeVersion)
      : eq(nodes.latestVersionId, nodeVersions.id),
  )
  if (filter.comfyNodeName) conditions.push(eq(comfyNodes.comfyNodeName, filter.comfyNodeName))
  const where = and(...conditions)
  const [rows, total] = await Promise.all([
    db
      .select({ comfyNode: comfyNodes, nodeId: nodes.id, nodeVersion: nodeVersions.version })
      .from(comfyNodes)
      .innerJoin(nodeVersions, eq(nodeVersions.id, comfyNodes.nodeVersionId))
      .innerJoin(nodes, eq(nodes.id, nodeVersions.nodeId))
      .where(where)
      .orderBy(nodes.id, comfyNodes.comfyNodeName)
      .limit(paging.limit)
      .offset((paging.page - 1) * paging.limit),
    cachedCount(
      db,
      db
        .select({ total: sql<number>`count(*)::int` })
        .from(comfyNodes)
        .innerJoin(nodeVersions, eq(nodeVersions.id, comfyNodes.nodeVersionId))
        .innerJoin(nodes, eq(nodes.id, nodeVersions.nodeId))
        .where(where),
    ),
  ])
  return { rows, total }
}
