import type { User } from '@/src/api/generated/model'
import type { HandlerMap } from '../context'
import { unauthorized } from '../errors'
import { publishersOfUser } from '../services/publishers'
import { toApiPublisher } from '../services/serialize'

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

  async listPublishersForUser(_request, _reply, context) {
    if (!context.caller) throw unauthorized()
    const rows = await publishersOfUser(context.deps.db, context.caller.id)
    return rows.map((row) => toApiPublisher(row))
  },
}
