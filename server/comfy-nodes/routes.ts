import { and, desc, eq, sql } from 'drizzle-orm'
import type { RequestContext } from '../http/context'
import type { HandlerMap, Schemas } from '../http/operations'
import { comfyNodes, nodes } from '../db/schema'
import { badRequest, notFound } from '../http/errors'
import { findNode, publiclyVisible } from '../nodes/queries'
import { pageInfo, toApiComfyNode, toApiNode } from '../http/serialize'
import {
  findComfyNode,
  findVersion,
  listComfyNodeIndex,
  listComfyNodesOfVersion,
} from '../versions/queries'
import { paging, versionView, visibleNode } from '../nodes/visibility'

type ComfyNode = Schemas['ComfyNode']
type ComfyNodeListResponse = Schemas['ComfyNodeListResponse']

async function visibleVersion(context: RequestContext, nodeId: string, versionId: string) {
  const { row, mayManage } = await visibleNode(context, nodeId)
  const found = await findVersion(context.deps.db, row.node, versionId)
  if (!found || (found.status !== 'NodeVersionStatusActive' && !mayManage)) {
    throw notFound(`Version ${versionId} of node '${row.node.id}' does not exist.`)
  }
  return found
}

/** The list envelope, with today's registry's `totalNumberOfPages` beside `totalPages`. */
function comfyNodeList(
  items: ComfyNode[],
  total: number,
  page: number,
  limit: number,
): ComfyNodeListResponse {
  const info = pageInfo(total, page, limit)
  return { comfy_nodes: items, ...info, totalNumberOfPages: info.totalPages }
}

export const comfyNodeHandlers: HandlerMap = {
  async listAllComfyNodes(request, _reply, context): Promise<ComfyNodeListResponse> {
    const query = request.query
    if (query.node_version !== undefined && query.node_id === undefined) {
      throw badRequest("Query parameter 'node_version' needs 'node_id' (the node it belongs to).")
    }
    const { page, limit } = paging(query)
    const result = await listComfyNodeIndex(
      context.deps.db,
      {
        nodeId: query.node_id,
        nodeVersion: query.node_version,
        comfyNodeName: query.comfy_node_name,
      },
      { page, limit },
    )
    const items = result.rows.map((row) => ({
      ...toApiComfyNode(row.comfyNode),
      node_id: row.nodeId,
      node_version: row.nodeVersion,
    }))
    return comfyNodeList(items, result.total, page, limit)
  },

  async listComfyNodes(request, _reply, context): Promise<ComfyNodeListResponse> {
    const { nodeId, versionId } = request.params
    const version = await visibleVersion(context, nodeId, versionId)
    const { page, limit } = paging(request.query)
    const result = await listComfyNodesOfVersion(context.deps.db, version.id, { page, limit })
    return comfyNodeList(result.rows.map(toApiComfyNode), result.total, page, limit)
  },

  async getComfyNode(request, _reply, context) {
    const { nodeId, versionId, comfyNodeName } = request.params
    const version = await visibleVersion(context, nodeId, versionId)
    const found = await findComfyNode(context.deps.db, version.id, comfyNodeName)
    if (!found)
      throw notFound(
        `Version ${version.version} of '${nodeId}' has no ComfyUI node '${comfyNodeName}'.`,
      )
    return toApiComfyNode(found)
  },

  /** The public node whose latest version provides this class; the most downloaded wins. */
  async getNodeByComfyNodeName(request, _reply, context) {
    const { comfyNodeName } = request.params
    const [match] = await context.deps.db
      .select({ id: nodes.id })
      .from(comfyNodes)
      .innerJoin(nodes, eq(nodes.latestVersionId, comfyNodes.nodeVersionId))
      .where(and(eq(comfyNodes.comfyNodeName, comfyNodeName), publiclyVisible()))
      .orderBy(desc(nodes.downloads), sql`${nodes.id}`)
      .limit(1)
    const row = match ? await findNode(context.deps.db, match.id) : null
    if (!row) throw notFound(`No node provides the ComfyUI node '${comfyNodeName}'.`)
    return toApiNode(row, versionView(context, false))
  },
}
