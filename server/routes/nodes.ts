import type {
  InstallNodeParams,
  ListAllNodesParams,
  NodeListResponse,
  SearchNodesParams,
} from '@/src/api/generated/model'
import type { HandlerMap, RequestContext } from '../context'
import { notFound } from '../errors'
import {
  countDownload,
  listNodes,
  searchNodes,
  type NodeFilters,
  type NodePage,
  type NodeSort,
} from '../services/nodes'
import { pageInfo, toApiNode, toApiNodeVersion } from '../services/serialize'
import { findVersion } from '../services/versions'
import { paging, versionView, visibleNode } from './common'

function filtersOf(
  query: ListAllNodesParams | SearchNodesParams,
  context: RequestContext,
): NodeFilters {
  return {
    tags: query.tags,
    supportedOs: query.supported_os,
    supportedAccelerators: query.supported_accelerators,
    publisherId: query.publisher_id,
    nodeIds: 'node_id' in query ? query.node_id : undefined,
    // Only admins may see banned and deleted nodes in lists; others asking are ignored.
    visibility:
      query.include_banned === true && context.caller?.isAdmin === true ? 'all' : 'public',
  }
}

function nodeListResponse(
  result: NodePage,
  page: number,
  limit: number,
  context: RequestContext,
): NodeListResponse {
  const view = versionView(context, false)
  return {
    nodes: result.rows.map((row) => toApiNode(row, view)),
    ...pageInfo(result.total, page, limit),
  }
}

export const nodeHandlers: HandlerMap = {
  async listAllNodes(request, _reply, context) {
    const query = request.query as ListAllNodesParams
    const { page, limit } = paging(query)
    const result = await listNodes(
      context.deps.db,
      filtersOf(query, context),
      (query.sort ?? 'downloads') as NodeSort,
      {
        page,
        limit,
      },
    )
    return nodeListResponse(result, page, limit, context)
  },

  async searchNodes(request, _reply, context) {
    const query = request.query as SearchNodesParams
    const { page, limit } = paging(query)
    const result = await searchNodes(
      context.deps.db,
      {
        search: query.search,
        comfyNodeSearch: query.comfy_node_search,
        repositoryUrlSearch: query.repository_url_search,
      },
      filtersOf(query, context),
      (query.sort ?? 'relevance') as NodeSort,
      { page, limit },
    )
    return nodeListResponse(result, page, limit, context)
  },

  async getNode(request, _reply, context) {
    const { nodeId } = request.params as { nodeId: string }
    const { row } = await visibleNode(context, nodeId)
    return toApiNode(row, versionView(context, false))
  },

  async installNode(request, _reply, context) {
    const { nodeId } = request.params as { nodeId: string }
    const { version = 'latest' } = request.query as InstallNodeParams
    const { row } = await visibleNode(context, nodeId)
    const found = await findVersion(context.deps.db, row.node, version)
    if (!found || found.status !== 'NodeVersionStatusActive' || !found.storageKey) {
      throw notFound(
        version === 'latest'
          ? `Node '${row.node.id}' has no installable version yet.`
          : `Version ${version} of node '${row.node.id}' does not exist or cannot be installed.`,
      )
    }
    await countDownload(context.deps.db, row.node.id, found.id)
    return toApiNodeVersion(found, versionView(context, false))
  },
}
