import type {
  ListNodesForPublisherParams,
  ListNodesForPublisherV2Params,
  NodeListResponse,
  PublisherMember,
  ValidatePublisherParams,
  ValidatePublisherResponse,
} from '@/src/api/generated/model'
import type { HandlerMap, RequestContext } from '../context'
import { notFound } from '../errors'
import { canSeeHidden } from '../services/access'
import { listNodes, type NodeFilters } from '../services/nodes'
import {
  findPublisher,
  listPublisherRows,
  membersOf,
  publisherIdProblem,
} from '../services/publishers'
import { pageInfo, toApiNode, toApiPublisher } from '../services/serialize'
import { paging, versionView } from './common'

/** Member emails are private: only the publisher's members and admins see them. */
function withoutEmails(members: PublisherMember[]): PublisherMember[] {
  return members.map((member) => ({
    ...member,
    user: member.user && { id: member.user.id, name: member.user.name },
  }))
}

/** The publisher if the caller may see it: banned publishers are 404 to the public. */
async function visiblePublisher(context: RequestContext, publisherId: string) {
  const publisher = await findPublisher(context.deps.db, publisherId)
  const mayManage = publisher
    ? await canSeeHidden(context.deps.db, context.caller, publisher.id)
    : false
  if (!publisher || (publisher.status === 'PublisherStatusBanned' && !mayManage)) {
    throw notFound(`Publisher '${publisherId}' does not exist.`)
  }
  return { publisher, mayManage }
}

async function publisherNodeFilters(
  context: RequestContext,
  publisherId: string,
  includeBanned: boolean | undefined,
): Promise<NodeFilters> {
  const { mayManage } = await visiblePublisher(context, publisherId)
  // Members and admins asking with include_banned also see banned nodes; deleted ones never.
  return { publisherId, visibility: includeBanned && mayManage ? 'withBanned' : 'public' }
}

export const publisherHandlers: HandlerMap = {
  async listPublishers(_request, _reply, context) {
    const rows = await listPublisherRows(context.deps.db, context.caller?.isAdmin === true)
    return rows.map((row) => toApiPublisher(row))
  },

  async getPublisher(request, _reply, context) {
    const { publisherId } = request.params as { publisherId: string }
    const { publisher, mayManage } = await visiblePublisher(context, publisherId)
    const members = (await membersOf(context.deps.db, [publisher.id])).get(publisher.id) ?? []
    return toApiPublisher(publisher, mayManage ? members : withoutEmails(members))
  },

  async validatePublisher(request, _reply, context): Promise<ValidatePublisherResponse> {
    const { username } = request.query as ValidatePublisherParams
    const id = username.trim()
    const problem = publisherIdProblem(id)
    if (problem) return { isAvailable: false, message: problem }
    if (await findPublisher(context.deps.db, id)) {
      return { isAvailable: false, message: `The publisher id '${id}' is already taken.` }
    }
    return { isAvailable: true }
  },

  async listNodesForPublisher(request, _reply, context) {
    const { publisherId } = request.params as { publisherId: string }
    const query = request.query as ListNodesForPublisherParams
    const filters = await publisherNodeFilters(context, publisherId, query.include_banned)
    // The unpaginated (v1) list: a publisher has tens of nodes, not thousands.
    const result = await listNodes(context.deps.db, filters, 'name', { page: 1, limit: 1000 })
    const view = versionView(context, false)
    return result.rows.map((row) => toApiNode(row, view))
  },

  async listNodesForPublisherV2(request, _reply, context): Promise<NodeListResponse> {
    const { publisherId } = request.params as { publisherId: string }
    const query = request.query as ListNodesForPublisherV2Params
    const filters = await publisherNodeFilters(context, publisherId, query.include_banned)
    const { page, limit } = paging(query)
    const result = await listNodes(context.deps.db, filters, 'name', { page, limit })
    const view = versionView(context, false)
    return {
      nodes: result.rows.map((row) => toApiNode(row, view)),
      ...pageInfo(result.total, page, limit),
    }
  },
}
