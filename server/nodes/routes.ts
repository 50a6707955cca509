import { SUGGESTIONS_MAX, UNCLAIMED_PUBLISHER } from '@/src/lib/constants'
import type { FastifyReply } from 'fastify'
import type { RequestContext } from '../http/context'
import type { HandlerMap, QueryOf, Schemas } from '../http/operations'
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../http/errors'
import {
  requireNodeWrite,
  requireNotBannedOwner,
  requirePublisherWrite,
} from '../publishers/access'
import { assertCanAdministerRepository, parseGithubRepository } from './github'
import {
  claimNode,
  createNode,
  deleteNode,
  findNodeRow,
  nodeFields,
  rateNode,
  updateNode,
} from './writes'
import {
  dailyDownloads,
  findNode,
  listNodes,
  rowStampOf,
  searchNodes,
  type ListedNode,
  type NodeFilters,
  type NodePage,
} from './queries'
import { StoredNodeJson, type SharedNodeJson } from './shared-json'
import { pageInfo, toApiNode, toApiNodeVersion, type NodeWithRelations } from '../http/serialize'
import { pageWriter, serializedPage, SerializedAnswer, type PageWriter } from '../http/serialized'
import { findVersion } from '../versions/queries'
import { suggest } from './suggest'
import { deprecationChange } from './deprecation'
import { paging, versionView, visibleNode } from './visibility'

type NodeListResponse = Schemas['NodeListResponse']

function filtersOf(
  query: QueryOf<'listAllNodes'> | QueryOf<'searchNodes'>,
  context: RequestContext,
): NodeFilters {
  return {
    tags: query.tags,
    supportedOs: query.supported_os,
    supportedAccelerators: query.supported_accelerators,
    publisherId: query.publisher_id,
    nodeIds: 'node_id' in query ? query.node_id : undefined,
    // Only admins may see banned and deleted nodes in lists; others asking are ignored.
    ...(query.include_banned === true && context.caller?.isAdmin === true
      ? { visibility: 'all', statuses: query.node_statuses }
      : { visibility: 'public' }),
  }
}

/** A node as its publisher's owners and admins see it, after a change. */
export async function managedNode(context: RequestContext, nodeId: string) {
  const row = await findNode(context.deps.db, nodeId)
  if (!row) throw notFound(`Node '${nodeId}' does not exist.`)
  return toApiNode(row, versionView(context, true))
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

/**
 * A page of the listing written from each node's JSON: kept while its row is kept unchanged
 * (serialized.ts), or stored by a process for its rows as they are (shared-json.ts). The JSON
 * written here is stored for the others.
 */
function listingPage(
  writer: PageWriter<NodeListResponse>,
  result: NodePage<ListedNode>,
  page: number,
  limit: number,
  context: RequestContext,
  storedJson: SharedNodeJson,
): SerializedAnswer<NodeListResponse> {
  // Stored by a process for these nodes as they are (shared-pages.ts).
  if (result.stored !== undefined) return SerializedAnswer.gzipped(result.stored)
  // Public view only (no status reasons): a node's JSON then depends on its rows alone.
  const view = versionView(context, false)
  const itemsJson = result.rows.map((row) => {
    if (row instanceof StoredNodeJson) return row.json
    return writer.item(
      row,
      () => toApiNode(row, view),
      (json) => {
        const stamp = rowStampOf(row)
        if (stamp) storedJson.keep(row.node.id, stamp, json)
      },
    )
  })
  const answer = writer.page(itemsJson, pageInfo(result.total, page, limit))
  if (result.share) context.nodeCaches.sharedPages?.keep(result.share, answer.json)
  return answer
}

/** A page of the listing, each node's JSON kept while its row is kept unchanged (serialized.ts). */
function listingResponse(
  result: NodePage,
  page: number,
  limit: number,
  reply: FastifyReply,
  context: RequestContext,
): NodeListResponse | SerializedAnswer<NodeListResponse> {
  const view = versionView(context, false)
  const serialized = serializedPage<NodeListResponse, NodeWithRelations>(
    reply,
    'nodes',
    result.rows,
    (row) => toApiNode(row, view),
    pageInfo(result.total, page, limit),
  )
  return serialized ?? nodeListResponse(result, page, limit, context)
}

export const nodeHandlers: HandlerMap = {
  async listAllNodes(request, reply, context) {
    const query = request.query
    const { page, limit } = paging(query)
    const db = context.deps.db
    const filters = filtersOf(query, context)
    const sort = query.sort ?? 'downloads'
    const writer = pageWriter<NodeListResponse>(reply, 'nodes')
    const { storedJson } = context.nodeCaches
    if (writer && storedJson) {
      const caches = context.nodeCaches
      const result = await listNodes(db, filters, sort, { page, limit }, caches, storedJson)
      return listingPage(writer, result, page, limit, context, storedJson)
    }
    const result = await listNodes(db, filters, sort, { page, limit }, context.nodeCaches)
    return listingResponse(result, page, limit, reply, context)
  },

  async searchNodes(request, _reply, context) {
    const query = request.query
    const { page, limit } = paging(query)
    const result = await searchNodes(
      context.deps.db,
      {
        search: query.search,
        comfyNodeSearch: query.comfy_node_search,
        repositoryUrlSearch: query.repository_url_search,
      },
      filtersOf(query, context),
      query.sort ?? 'relevance',
      { page, limit },
      context.nodeCaches,
    )
    return nodeListResponse(result, page, limit, context)
  },

  async suggestNodes(request, _reply, context) {
    const { q, limit = SUGGESTIONS_MAX } = request.query
    return { suggestions: await suggest(context.deps.db, q, limit) }
  },

  async getNode(request, _reply, context) {
    const { nodeId } = request.params
    const { row } = await visibleNode(context, nodeId)
    return toApiNode(row, versionView(context, false))
  },

  async getNodeDailyDownloads(request, _reply, context) {
    const { nodeId } = request.params
    const { days = 30 } = request.query
    const { row } = await visibleNode(context, nodeId)
    return { node_id: row.node.id, ...(await dailyDownloads(context.deps.db, row.node.id, days)) }
  },

  async installNode(request, _reply, context) {
    const { nodeId } = request.params
    const { version = 'latest' } = request.query
    const resolve = async () => {
      const { row } = await visibleNode(context, nodeId)
      const found = await findVersion(context.deps.db, row.node, version)
      if (!found || found.status !== 'NodeVersionStatusActive' || !found.storageKey) {
        throw notFound(
          version === 'latest'
            ? `Node '${row.node.id}' has no installable version yet.`
            : `Version ${version} of node '${row.node.id}' does not exist or cannot be installed.`,
        )
      }
      return {
        nodeId: row.node.id,
        versionId: found.id,
        answer: toApiNodeVersion(found, versionView(context, false)),
      }
    }
    // The lookup is a public read like any other (shared by a crowd installing the same node);
    // every install is still counted.
    const install =
      context.caller === null
        ? await context.publicCache.answer(`installNode ${request.url}`, resolve)
        : await resolve()
    await context.downloads.count(install.nodeId, install.versionId)
    return install.answer
  },

  async createNode(request, reply, context) {
    const { publisherId } = request.params
    const body = request.body
    const { publisher } = await requirePublisherWrite(
      context.deps.db,
      context.caller,
      publisherId,
      {
        forNodes: true,
      },
    )
    const created = await createNode(context.deps.db, publisher.id, body.id, nodeFields(body))
    return reply.status(201).send(await managedNode(context, created.id))
  },

  async updateNode(request, _reply, context) {
    const { publisherId, nodeId } = request.params
    const { node } = await requireNodeWrite(context.deps.db, context.caller, publisherId, nodeId)
    // Deprecation only here, never from a publish (whose body is not stripped of extra keys).
    const deprecation = deprecationChange(node, request.body)
    await updateNode(context.deps.db, node, request.body, undefined, deprecation)
    return managedNode(context, node.id)
  },

  async deleteNode(request, reply, context) {
    const { publisherId, nodeId } = request.params
    const { node } = await requireNodeWrite(context.deps.db, context.caller, publisherId, nodeId)
    await deleteNode(context.deps.db, node.id)
    return reply.status(204).send()
  },

  async claimMyNode(request, reply, context) {
    const { publisherId, nodeId } = request.params
    const { GH_TOKEN: githubToken } = request.body
    const { db, config } = context.deps
    const { publisher } = await requirePublisherWrite(db, context.caller, publisherId)
    const node = await findNodeRow(db, nodeId)
    if (!node || node.status === 'NodeStatusDeleted') {
      throw notFound(`Node '${nodeId}' does not exist.`)
    }
    if (node.publisherId !== UNCLAIMED_PUBLISHER.id) {
      throw conflict(
        node.publisherId === publisher.id
          ? `Node '${node.id}' already belongs to '${publisher.id}'.`
          : `Node '${node.id}' is already claimed by another publisher.`,
      )
    }
    if (node.status === 'NodeStatusBanned') {
      throw forbidden(`Node '${node.id}' is banned and cannot be claimed.`)
    }
    const repository = parseGithubRepository(node.repository)
    if (!repository) {
      throw badRequest(
        `Node '${node.id}' has no GitHub repository (${node.repository || 'none'}), so ownership cannot be checked. Ask the registry admins to claim it for you.`,
      )
    }
    await assertCanAdministerRepository(config.githubApiUrl, githubToken, repository)
    if (!(await claimNode(db, node.id, publisher.id))) {
      throw conflict(`Node '${node.id}' was claimed by another publisher in the meantime.`)
    }
    return reply.status(204).send()
  },

  async postNodeReview(request, _reply, context) {
    const { nodeId } = request.params
    const { star } = request.query
    const caller = context.caller
    if (!caller) throw unauthorized()
    await requireNotBannedOwner(context.deps.db, caller)
    const { row } = await visibleNode(context, nodeId)
    await rateNode(context.deps.db, row.node.id, caller.id, star)
    const updated = await findNode(context.deps.db, row.node.id)
    if (!updated) throw notFound(`Node '${nodeId}' does not exist.`)
    return toApiNode(updated, versionView(context, false))
  },
}
