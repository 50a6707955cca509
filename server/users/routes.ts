import type { HandlerMap, Schemas } from '../http/operations'
import { notFound, unauthorized } from '../http/errors'
import { acceptInvitation, declineInvitation, invitationsFor } from '../publishers/invitations'
import { findPublisher, publishersOfUser } from '../publishers/queries'
import { toApiPublisher } from '../http/serialize'

type MyInvitation = Schemas['MyInvitation']
type User = Schemas['User']

export const userHandlers: HandlerMap = {
  async getUser(_request, _reply, context): Promise<User> {
    const caller = context.caller
    if (!caller) throw unauthorized()
    return {
      id: caller.id,
      email: caller.email,
      name: caller.name,
      isApproved: caller.isApproved,
      isAdmin: caller.isAdmin,
    }
  },

  async listMyInvitations(_request, _reply, context): Promise<MyInvitation[]> {
    if (!context.caller) throw unauthorized()
    return invitationsFor(context.deps.db, context.caller)
  },

  async acceptPublisherInvitation(request, _reply, context) {
    const { invitationId } = request.params
    if (!context.caller) throw unauthorized()
    const publisherId = await acceptInvitation(context.deps.db, context.caller, invitationId)
    const publisher = await findPublisher(context.deps.db, publisherId)
    if (!publisher) throw notFound(`Publisher '${publisherId}' does not exist.`)
    return toApiPublisher(publisher)
  },

  async declinePublisherInvitation(request, reply, context) {
    const { invitationId } = request.params
    if (!context.caller) throw unauthorized()
    await declineInvitation(context.deps.db, context.caller, invitationId)
    return reply.status(204).send()
  },

  async listPublishersForUser(_request, _reply, context) {
    if (!context.caller) throw unauthorized()
    const rows = await publishersOfUser(context.deps.db, context.caller.id)
    return rows.map((row) => toApiPublisher(row))
  },
}
