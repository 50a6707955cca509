import type { RequestContext } from '../http/context'
import type { HandlerMap } from '../http/operations'
import { badRequest, notFound, unauthorized } from '../http/errors'
import { requireAdmin } from '../publishers/access'
import { paging } from '../nodes/visibility'
import {
  customerById,
  customerOfUser,
  listCustomers,
  listEvents,
  openAccount,
  recordEvent,
  toApiBalance,
  toApiCustomer,
  toApiEvent,
  type NewEvent,
} from './accounts'
import { createApiKey, deleteApiKey, listApiKeys, toApiKey } from './api-keys'

function signedIn(context: RequestContext) {
  if (!context.caller) throw unauthorized()
  return context.caller
}

const emptyPage = (page: number, limit: number) => ({
  events: [],
  total: 0,
  page,
  limit,
  totalPages: 0,
})

/** What an admin's event moves the balance by; the contract's signs, checked. */
function signedAmount(type: NewEvent['type'], amount: number): number {
  if (type === 'adjustment') {
    if (amount === 0) throw badRequest('An adjustment must move the balance: amount_micros is 0.')
    return amount
  }
  if (amount <= 0) {
    throw badRequest(`amount_micros of ${type} must be positive (usage is taken from the balance).`)
  }
  return type === 'api_usage' ? -amount : amount
}

export const customerHandlers: HandlerMap = {
  async getAuthenticatedCustomer(_request, _reply, context) {
    return toApiCustomer(await openAccount(context.deps.db, signedIn(context).id))
  },

  async getCustomerBalance(_request, _reply, context) {
    const account = await customerOfUser(context.deps.db, signedIn(context).id)
    if (!account) {
      throw notFound('You have no credit account yet: GET /customers/me opens it.')
    }
    return toApiBalance(account.customer)
  },

  async getCustomerEvents(request, _reply, context) {
    const { page, limit } = paging(request.query)
    const account = await customerOfUser(context.deps.db, signedIn(context).id)
    if (!account) return emptyPage(page, limit)
    const { filter, since, until } = request.query
    return listEvents(
      context.deps.db,
      account.customer.id,
      { type: filter, since, until },
      { page, limit },
    )
  },

  async listCustomerApiKeys(_request, _reply, context) {
    const account = await customerOfUser(context.deps.db, signedIn(context).id)
    if (!account) return []
    return (await listApiKeys(context.deps.db, account.customer.id)).map((row) => toApiKey(row))
  },

  async createCustomerApiKey(request, reply, context) {
    const account = await openAccount(context.deps.db, signedIn(context).id)
    const { row, key } = await createApiKey(context.deps.db, account.customer.id, {
      name: request.body.name,
      description: request.body.description ?? '',
    })
    reply.status(201)
    return toApiKey(row, key)
  },

  async deleteCustomerApiKey(request, reply, context) {
    const account = await customerOfUser(context.deps.db, signedIn(context).id)
    const deleted =
      account !== null &&
      (await deleteApiKey(context.deps.db, account.customer.id, request.params.keyId))
    if (!deleted) throw notFound(`You have no API key '${request.params.keyId}'.`)
    return reply.status(204).send()
  },

  async listCustomers(request, _reply, context) {
    requireAdmin(context.caller)
    return listCustomers(context.deps.db, request.query.email?.trim(), paging(request.query))
  },

  async getCustomerById(request, _reply, context) {
    requireAdmin(context.caller)
    return toApiCustomer(await customerById(context.deps.db, request.params.customerId))
  },

  async getCustomerBalanceById(request, _reply, context) {
    requireAdmin(context.caller)
    const account = await customerById(context.deps.db, request.params.customerId)
    return toApiBalance(account.customer)
  },

  async getCustomerEventsById(request, _reply, context) {
    requireAdmin(context.caller)
    const { customerId } = request.params
    await customerById(context.deps.db, customerId)
    const { filter, since, until } = request.query
    return listEvents(
      context.deps.db,
      customerId,
      { type: filter, since, until },
      paging(request.query),
    )
  },

  async recordCustomerEvent(request, reply, context) {
    const admin = requireAdmin(context.caller)
    const { event_type: type, amount_micros: amount, reason } = request.body
    const event = await recordEvent(context.deps.db, request.params.customerId, {
      type,
      amountMicros: signedAmount(type, amount),
      description: reason.trim(),
      actorUserId: admin.id,
    })
    reply.status(201)
    return toApiEvent(event)
  },
}
