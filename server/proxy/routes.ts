// `/proxy/<provider>/...`: a signed-in user or a customer's API key looks up a job at an AI
// provider. The lookup is forwarded with the registry's own key (forward.ts), its answer passed
// through as the provider gave it, and recorded for admins (proxy_lookups).
// See docs/ARCHITECTURE.md, "Provider lookups".
import { and, count, desc, eq, type SQL } from 'drizzle-orm'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { RequestContext } from '../http/context'
import type { HandlerMap } from '../http/operations'
import { badRequest, unauthorized } from '../http/errors'
import { requireAdmin } from '../publishers/access'
import { pageInfo } from '../http/serialize'
import { paging } from '../nodes/visibility'
import { customers, proxyLookups, users } from '../db/schema'
import { forwardLookup } from './forward'
import { PROVIDERS, upstreamPath, type Provider } from './providers'

/** Providers' job addresses are short; a longer one would only make the provider refuse it. */
const MAX_UPSTREAM_PATH = 2000

const isProvider = (name: string): name is Provider => PROVIDERS.some((p) => p === name)

async function lookup(request: FastifyRequest, reply: FastifyReply, context: RequestContext) {
  if (!context.caller) throw unauthorized()
  const name = request.url.split('/')[2] ?? ''
  if (!isProvider(name)) throw badRequest(`'${name}' is not a provider of the proxy.`)
  const { config } = context.deps
  let path: string
  let answer
  try {
    path = upstreamPath(name, request.url)
    if (path.length > MAX_UPSTREAM_PATH) {
      throw badRequest(
        `The lookup's path and query are longer than ${MAX_UPSTREAM_PATH} characters.`,
      )
    }
    answer = await forwardLookup(config.proxy, name, path)
  } catch (error) {
    // A path that would leave the provider's base URL (`..`): the contract's ids have no pattern.
    if (error instanceof RangeError) throw badRequest(error.message)
    throw error
  }
  // Recorded by user: a lookup is a read, and opens no credit account.
  await context.proxyLog.record({
    userId: context.caller.id,
    provider: name,
    path,
    status: answer.status,
    outcome: answer.outcome,
    latencyMs: answer.latencyMs,
  })
  // Already JSON: sent as it is, not through the contract's response serializers (which would
  // drop what the provider's body has beyond the documented fields).
  return reply
    .status(answer.status)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify(answer.body))
}

export const proxyHandlers: HandlerMap = {
  klingGetAccountCosts: lookup,
  klingListImageGenerations: lookup,
  klingGetImageGeneration: lookup,
  klingListVirtualTryOns: lookup,
  klingGetVirtualTryOn: lookup,
  klingListVideoEffects: lookup,
  klingGetVideoEffect: lookup,
  klingListImage2VideoTasks: lookup,
  klingGetImage2VideoTask: lookup,
  klingListLipSyncTasks: lookup,
  klingGetLipSyncTask: lookup,
  klingListText2VideoTasks: lookup,
  klingGetText2VideoTask: lookup,
  klingListVideoExtendTasks: lookup,
  klingGetVideoExtendTask: lookup,
  lumaGetGeneration: lookup,
  minimaxGetVideoGeneration: lookup,
  moonvalleyGetPrompt: lookup,
  openaiGetResponse: lookup,
  pikaGetVideo: lookup,
  pixverseGetVideoResult: lookup,
  runwayGetTask: lookup,
  stabilityGetResult: lookup,
  tripoGetTask: lookup,
  tripoGetUserBalance: lookup,

  async listProxyLookups(request, _reply, context) {
    requireAdmin(context.caller)
    const { provider, customer_id: customerId } = request.query
    const { page, limit } = paging(request.query)
    const conditions: SQL[] = []
    if (provider) conditions.push(eq(proxyLookups.provider, provider))
    if (customerId) conditions.push(eq(customers.id, customerId))
    const where = and(...conditions)
    const { db } = context.deps
    const [rows, [{ total }]] = await Promise.all([
      db
        .select({ lookup: proxyLookups, email: users.email, customerId: customers.id })
        .from(proxyLookups)
        .innerJoin(users, eq(users.id, proxyLookups.userId))
        .leftJoin(customers, eq(customers.userId, proxyLookups.userId))
        .where(where)
        .orderBy(desc(proxyLookups.createdAt), desc(proxyLookups.id))
        .limit(limit)
        .offset((page - 1) * limit),
      db
        .select({ total: count() })
        .from(proxyLookups)
        .leftJoin(customers, eq(customers.userId, proxyLookups.userId))
        .where(where),
    ])
    return {
      lookups: rows.map(({ lookup: row, email, customerId: account }) => ({
        id: row.id,
        user_id: row.userId,
        customer_id: account ?? undefined,
        email,
        provider: row.provider,
        path: row.path,
        status: row.status,
        outcome: row.outcome,
        latency_ms: Math.round(row.latencyMs * 100) / 100,
        createdAt: new Date(row.createdAt).toISOString(),
      })),
      ...pageInfo(total, page, limit),
    }
  },
}
