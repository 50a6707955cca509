// Changing nodes: create (by a publisher or, unclaimed, by an admin), update metadata, delete
// (soft: NodeStatusDeleted keeps the id reserved), claim into a publisher, and ratings.
import { and, eq, ne, sql } from 'drizzle-orm'
import type { Schemas } from '../http/operations'
import { UNCLAIMED_PUBLISHER } from '@/src/lib/constants'
import type { Db } from '../db/client'
import { isUniqueViolation } from '../db/errors'
import { nodeColumns, nodeReviews, nodes, type NewNode, type NodeRow } from '../db/schema'
import { badRequest, conflict, notFound } from '../http/errors'
import type { DeprecationState } from './deprecation'
import { defined, httpUrl, imageUrl, labelList, nonBlank, shortText, text } from '../http/validate'

type UpdateNodeRequest = Schemas['UpdateNodeRequest']

/** The writable node fields of a request, checked and trimmed; omitted fields stay undefined. */
export function nodeFields(body: UpdateNodeRequest) {
  return defined({
    name: nonBlank('name', body.name),
    description: text(body.description),
    author: text(body.author),
    license: text(body.license),
    icon: imageUrl('icon', body.icon),
    bannerUrl: imageUrl('banner_url', body.banner_url),
    repository: httpUrl('repository', body.repository),
    tags: labelList('tags', body.tags),
    category: text(body.category),
    supportedOs: labelList('supported_os', body.supported_os),
    supportedAccelerators: labelList('supported_accelerators', body.supported_accelerators),
    supportedComfyuiVersion: shortText('supported_comfyui_version', body.supported_comfyui_version),
    supportedComfyuiFrontendVersion: shortText(
      'supported_comfyui_frontend_version',
      body.supported_comfyui_frontend_version,
    ),
  })
}

/** The live node (not deleted) that already uses this repository, other than `exceptNodeId`. */
export async function nodeWithRepository(
  db: Db,
  repository: string,
  exceptNodeId?: string,
): Promise<string | null> {
  if (!repository.trim()) return null
  // The same predicates as the unique index nodes_repository_key_idx, so it answers the lookup.
  const [holder] = await db
    .select({ id: nodes.id })
    .from(nodes)
    .where(
      and(
        sql`registry_repository_key(${nodes.repository}) = registry_repository_key(${repository})`,
        ne(nodes.status, 'NodeStatusDeleted'),
        ne(nodes.repository, ''),
        exceptNodeId ? ne(nodes.id, exceptNodeId) : undefined,
      ),
    )
    .limit(1)
  return holder?.id ?? null
}

export const DUPLICATE_REPOSITORY = (repository: string, nodeId: string) =>
  `The repository ${repository} already belongs to node '${nodeId}'. Each repository is registered once; claim or update that node instead.`

/** The unique index behind "one live node per repository" (migration 0004). */
export const REPOSITORY_INDEX = 'nodes_repository_key_idx'

/**
 * Runs a write that may give a node a repository. The check before it gives the clear message
 * naming the other node; the unique index decides races (two creates at once): the loser gets
 * the same answer.
 */
async function withFreeRepository<T>(
  db: Db,
  repository: string | undefined,
  nodeId: string | undefined,
  refusal: (message: string) => Error,
  write: () => Promise<T>,
): Promise<T> {
  if (repository) {
    const holder = await nodeWithRepository(db, repository, nodeId)
    if (holder) throw refusal(DUPLICATE_REPOSITORY(repository, holder))
  }
  try {
    return await write()
  } catch (error) {
    if (!repository || !isUniqueViolation(error, REPOSITORY_INDEX)) throw error
    throw refusal(
      `The repository ${repository} was just registered by another node. Each repository is registered once.`,
    )
  }
}

export async function findNodeRow(db: Db, nodeId: string): Promise<NodeRow | null> {
  const [row] = await db
    .select(nodeColumns)
    .from(nodes)
    .where(eq(sql`lower(${nodes.id})`, nodeId.toLowerCase()))
  return row ?? null
}

export async function createNode(
  db: Db,
  publisherId: string,
  id: string,
  fields: ReturnType<typeof nodeFields>,
  refusal: (message: string) => Error = conflict,
): Promise<NodeRow> {
  const taken = () => conflict(`The node id '${id}' is already taken (ids ignore case).`)
  if (await findNodeRow(db, id)) throw taken()
  const values: NewNode = { ...fields, id, publisherId, name: fields.name ?? id }
  const [created] = await withFreeRepository(db, fields.repository, undefined, refusal, () =>
    db
      .insert(nodes)
      .values(values)
      .returning(nodeColumns)
      .catch((error: unknown) => {
        // Someone took the id between the check and the insert.
        if (
          isUniqueViolation(error, 'nodes_lower_id_idx') ||
          isUniqueViolation(error, 'nodes_pkey')
        )
          throw taken()
        throw error
      }),
  )
  return created
}

export async function updateNode(
  db: Db,
  node: NodeRow,
  body: UpdateNodeRequest,
  refusal: (message: string) => Error = conflict,
  /** The owners' deprecation (deprecationChange); publishing passes none. */
  deprecation: Partial<DeprecationState> = {},
): Promise<void> {
  if (body.id !== undefined && body.id.toLowerCase() !== node.id.toLowerCase()) {
    throw badRequest(`Invalid field 'id': a node id cannot change ('${body.id}' ≠ '${node.id}').`)
  }
  const fields = { ...nodeFields(body), ...deprecation }
  if (Object.keys(fields).length === 0) return
  await withFreeRepository(db, fields.repository, node.id, refusal, () =>
    db
      .update(nodes)
      .set({ ...fields, updatedAt: sql`now()` })
      .where(eq(nodes.id, node.id)),
  )
}

export async function deleteNode(db: Db, nodeId: string): Promise<void> {
  await db
    .update(nodes)
    .set({ status: 'NodeStatusDeleted', updatedAt: sql`now()` })
    .where(eq(nodes.id, nodeId))
}

/** Moves an unclaimed node into a publisher; false when it was claimed meanwhile. */
export async function claimNode(db: Db, nodeId: string, publisherId: string): Promise<boolean> {
  const claimed = await db
    .update(nodes)
    .set({ publisherId, updatedAt: sql`now()` })
    .where(and(eq(nodes.id, nodeId), eq(nodes.publisherId, UNCLAIMED_PUBLISHER.id)))
    .returning({ id: nodes.id })
  return claimed.length === 1
}

/** One rating per user and node (a new one replaces the old); the node's average follows. */
export async function rateNode(db: Db, nodeId: string, userId: string, star: number) {
  await db.transaction(async (tx) => {
    await tx
      .insert(nodeReviews)
      .values({ nodeId, userId, star })
      .onConflictDoUpdate({
        target: [nodeReviews.nodeId, nodeReviews.userId],
        set: { star, createdAt: sql`now()` },
      })
    await tx.execute(
      sql`update ${nodes} set rating = r.avg, rating_count = r.count
          from (select coalesce(avg(star), 0)::float8 as avg, count(*)::int as count
                from ${nodeReviews} where ${nodeReviews.nodeId} = ${nodeId}) as r
          where ${nodes.id} = ${nodeId}`,
    )
  })
}

export function missingNode(nodeId: string) {
  return notFound(`Node '${nodeId}' does not exist.`)
}
