import type { RequestContext } from '../http/context'
import type { HandlerMap, Schemas } from '../http/operations'
import type { Publisher } from '../db/schema'
import { forbidden, notFound, unauthorized } from '../http/errors'
import {
  canEditPublisher,
  canSeeHidden,
  requireNotBannedOwner,
  requirePublisherWrite,
} from './access'
import { findNodeRow } from '../nodes/writes'
import { cancelInvitation, invite, pendingInvitations, toApiInvitation } from './invitations'
import {
  createPublisher,
  deletePublisher,
  removeMember,
  setMemberRole,
  updatePublisher,
} from './writes'
import { listNodes, type NodeFilters } from '../nodes/queries'
import { findPublisher, listPublisherRows, membersOf, publisherIdProblem } from './queries'
import { pageInfo, toApiNode, toApiPublisher } from '../http/serialize'
import { isPubliclyVisible, paging, versionView } from '../nodes/visibility'

type NodeListResponse = Schemas['NodeListResponse']
type PermissionResponse = Schemas['PermissionResponse']
type PublisherMember = Schemas['PublisherMember']
type ValidatePublisherResponse = Schemas['ValidatePublisherResponse']

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

/** The publisher as its members and admins see it (member emails, pending invitations). */
async function managedView(context: RequestContext, publisher: Publisher) {
  const [members, invitations] = await Promise.all([
    membersOf(context.deps.db, [publisher.id]),
    pendingInvitations(context.deps.db, publisher.id),
  ])
  return toApiPublisher(
    publisher,
    members.get(publisher.id) ?? [],
    invitations.map(toApiInvitation),
  )
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
  async listPublishers(request, _reply, context) {
    const withBanned = request.query.include_banned === true && context.caller?.isAdmin === true
    const rows = await listPublisherRows(context.deps.db, withBanned)
    return rows.map((row) => toApiPublisher(row))
  },

  async getPublisher(request, _reply, context) {
    const { publisherId } = request.params
    const { publisher, mayManage } = await visiblePublisher(context, publisherId)
    if (mayManage) return managedView(context, publisher)
    const members = (await membersOf(context.deps.db, [publisher.id])).get(publisher.id) ?? []
    return toApiPublisher(publisher, withoutEmails(members))
  },

  async validatePublisher(request, _reply, context): Promise<ValidatePublisherResponse> {
    const { username } = request.query
    const id = username.trim()
    const problem = publisherIdProblem(id)
    if (problem) return { isAvailable: false, message: problem }
    if (await findPublisher(context.deps.db, id)) {
      return { isAvailable: false, message: `The publisher id '${id}' is already taken.` }
    }
    return { isAvailable: true }
  },

  async listNodesForPublisher(request, _reply, context) {
    const { publisherId } = request.params
    const query = request.query
    const filters = await publisherNodeFilters(context, publisherId, query.include_banned)
    // The unpaginated (v1) list: a publisher has tens of nodes, not thousands.
    const result = await listNodes(
      context.deps.db,
      filters,
      'name',
      { page: 1, limit: 1000 },
      context.nodeCaches,
    )
    const view = versionView(context, false)
    return result.rows.map((row) => toApiNode(row, view))
  },

  async listNodesForPublisherV2(request, _reply, context): Promise<NodeListResponse> {
    const { publisherId } = request.params
    const query = request.query
    const filters = await publisherNodeFilters(context, publisherId, query.include_banned)
    const { page, limit } = paging(query)
    const result = await listNodes(
      context.deps.db,
      filters,
      'name',
      { page, limit },
      context.nodeCaches,
    )
    const view = versionView(context, false)
    return {
      nodes: result.rows.map((row) => toApiNode(row, view)),
      ...pageInfo(result.total, page, limit),
    }
  },

  async createPublisher(request, reply, context) {
    const caller = context.caller
    if (!caller) throw unauthorized()
    await requireNotBannedOwner(context.deps.db, caller)
    const created = await createPublisher(context.deps.db, caller, request.body)
    return reply.status(201).send(await managedView(context, created))
  },

  async updatePublisher(request, _reply, context) {
    const { publisherId } = request.params
    const { publisher } = await requirePublisherWrite(context.deps.db, context.caller, publisherId)
    const updated = await updatePublisher(context.deps.db, publisher, request.body)
    return managedView(context, updated)
  },

  async deletePublisher(request, reply, context) {
    const { publisherId } = request.params
    const { publisher } = await requirePublisherWrite(context.deps.db, context.caller, publisherId)
    await deletePublisher(context.deps.db, publisher.id)
    return reply.status(204).send()
  },

  async getPermissionOnPublisher(request, _reply, context): Promise<PermissionResponse> {
    const { publisherId } = request.params
    const { publisher } = await visiblePublisher(context, publisherId)
    return { canEdit: await canEditPublisher(context.deps.db, context.caller, publisher) }
  },

  async getPermissionOnPublisherNodes(request, _reply, context): Promise<PermissionResponse> {
    const { publisherId, nodeId } = request.params
    const { publisher, mayManage } = await visiblePublisher(context, publisherId)
    const node = await findNodeRow(context.deps.db, nodeId)
    const hidden =
      node !== null && !mayManage && !isPubliclyVisible({ node, publisher, latestVersion: null })
    if (!node || node.publisherId !== publisher.id || hidden) {
      throw notFound(`Publisher '${publisher.id}' has no node '${nodeId}'.`)
    }
    const editable =
      context.caller?.isAdmin === true ||
      (node.status === 'NodeStatusActive' &&
        (await canEditPublisher(context.deps.db, context.caller, publisher)))
    return { canEdit: editable }
  },

  async addPublisherMember(request, reply, context) {
    const { publisherId } = request.params
    const body = request.body
    const { publisher } = await requirePublisherWrite(context.deps.db, context.caller, publisherId)
    await invite(context.deps.db, publisher.id, body.email, body.role, context.caller?.id ?? null)
    return reply.status(201).send(await managedView(context, publisher))
  },

  async cancelPublisherInvitation(request, reply, context) {
    const { publisherId, invitationId } = request.params
    const { publisher } = await requirePublisherWrite(context.deps.db, context.caller, publisherId)
    await cancelInvitation(context.deps.db, publisher.id, invitationId)
    return reply.status(204).send()
  },

  async updatePublisherMember(request, _reply, context) {
    const { publisherId, userId } = request.params
    const { role } = request.body
    const { publisher } = await requirePublisherWrite(context.deps.db, context.caller, publisherId)
    await setMemberRole(context.deps.db, publisher.id, userId, role)
    return managedView(context, publisher)
  },

  async removePublisherMember(request, reply, context) {
    const { publisherId, userId } = request.params
    const { publisher, role } = await requirePublisherWrite(
      context.deps.db,
      context.caller,
      publisherId,
      { allowMembers: true },
    )
    // Plain members may only remove themselves (leave the publisher).
    if (role === 'member' && !context.caller?.isAdmin && userId !== context.caller?.id) {
      throw forbidden(
        `Only owners of publisher '${publisher.id}' can remove other members; you can only leave it yourself.`,
      )
    }
    await removeMember(context.deps.db, publisher.id, userId)
    return reply.status(204).send()
  },
}
