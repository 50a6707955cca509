// Rate limits of the API (API_RATE_LIMITS in src/lib/constants.ts): fixed-window counters kept
// in this process's memory, or in Redis (REDIS_URL) when several API processes share the load so
// they share one count. A limited caller gets 429 with Retry-After and the usual JSON error,
// before the handler runs, so a limited request changes nothing.
//
// Own counters rather than @fastify/rate-limit: that plugin runs one limit per request and counts
// every request, while a publish must be limited per address and per publisher and should count
// only refused tokens (a publisher's CI may publish many nodes at once).
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify'
import { Redis } from 'ioredis'
import { API_RATE_LIMITS, type RateLimitRule } from '@/src/lib/constants'
import type { ServerConfig } from '../config'
import type { Caller } from './context'
import { routeOperationId, type OperationInfo } from './contract'
import { HttpError } from './errors'

export interface Count {
  /** Hits in the current window, this one included. */
  count: number
  /** Milliseconds until the window ends. */
  resetMs: number
}

export interface RateLimitStore {
  /** Counts a hit on `key`; the first hit starts a window of `windowMs`. */
  hit(key: string, windowMs: number): Promise<Count>
  /** Takes a hit back (a publish whose token was accepted was no guess). */
  undo(key: string): Promise<void>
  close(): Promise<void>
}

/** One process's counters; the oldest are dropped beyond `maxKeys` so memory stays bounded. */
export function memoryStore(maxKeys = 100_000): RateLimitStore {
  const windows = new Map<string, { count: number; resetAt: number }>()
  return {
    async hit(key, windowMs) {
      const now = Date.now()
      let entry = windows.get(key)
      if (!entry || entry.resetAt <= now) {
        windows.delete(key)
        if (windows.size >= maxKeys) {
          for (const [old, value] of windows) if (value.resetAt <= now) windows.delete(old)
          if (windows.size >= maxKeys) windows.delete(windows.keys().next().value as string)
        }
        entry = { count: 0, resetAt: now + windowMs }
        windows.set(key, entry)
      }
      entry.count += 1
      return { count: entry.count, resetMs: entry.resetAt - now }
    },
    async undo(key) {
      const entry = windows.get(key)
      if (entry && entry.resetAt > Date.now() && entry.count > 0) entry.count -= 1
    },
    async close() {
      windows.clear()
    },
  }
}

// Atomic in Redis, so processes hitting the same key at once still count every hit.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`
// Never below zero, and never on an expired key (DECR would create one without an expiry).
const UNDO_SCRIPT = `
if redis.call('PTTL', KEYS[1]) > 0 and tonumber(redis.call('GET', KEYS[1])) > 0 then
  redis.call('DECR', KEYS[1])
end
return 0`

/** Counters shared by every API process connected to the same Redis. */
export async function redisStore(url: string, prefix: string): Promise<RateLimitStore> {
  // No offline queue: while Redis is unreachable a count fails at once (and the request is let
  // through, see `take`) instead of waiting for a reconnect.
  const redis = new Redis(url, {
    keyPrefix: `${prefix}rate:`,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
  })
  // Reported by the failing commands; without a listener ioredis would print every retry.
  redis.on('error', () => undefined)
  // A wrong REDIS_URL stops the start with a clear error.
  await redis.connect().catch((error: unknown) => {
    redis.disconnect()
    throw new Error(
      `REDIS_URL: cannot connect to Redis (${error instanceof Error ? error.message : String(error)}).`,
    )
  })
  return {
    async hit(key, windowMs) {
      const reply: unknown = await redis.eval(HIT_SCRIPT, 1, key, windowMs)
      const [count, ttl] = Array.isArray(reply) ? reply.map(Number) : []
      if (count === undefined || ttl === undefined) throw new Error('Unexpected Redis reply')
      return { count, resetMs: ttl }
    },
    async undo(key) {
      await redis.eval(UNDO_SCRIPT, 1, key)
    },
    async close() {
      redis.disconnect()
    },
  }
}

function pathParam(request: FastifyRequest, name: string): string {
  const params: unknown = request.params
  const value: unknown =
    typeof params === 'object' && params !== null ? Reflect.get(params, name) : undefined
  return typeof value === 'string' ? value : ''
}

interface Limit {
  name: keyof typeof API_RATE_LIMITS
  /** For the message: "Too many {what} {from}." */
  what: string
  from: string
}

const PUBLISH_PER_IP: Limit = {
  name: 'publishFailuresPerIp',
  what: 'publish attempts with a refused token',
  from: 'from your address',
}
const PUBLISH_PER_PUBLISHER: Limit = {
  name: 'publishFailuresPerPublisher',
  what: 'publish attempts with a refused token',
  from: 'for this publisher',
}
const UPLOAD_PER_IP: Limit = { name: 'uploadsPerIp', what: 'uploads', from: 'from your address' }
const UPLOAD_PER_LINK: Limit = { name: 'uploadsPerLink', what: 'uploads', from: 'to this link' }
const EXCHANGE_PER_IP: Limit = {
  name: 'trustedPublishingExchangesPerIp',
  what: 'OIDC token exchanges',
  from: 'from your address',
}
const SEARCH_PER_IP: Limit = { name: 'searchesPerIp', what: 'searches', from: 'from your address' }
const SUGGEST_PER_IP: Limit = {
  name: 'suggestionsPerIp',
  what: 'suggestions',
  from: 'from your address',
}
const WRITES_PER_IP: Limit = {
  name: 'signedInWritesPerIp',
  what: 'changes',
  from: 'from your address',
}
const PROXY_PER_CUSTOMER: Limit = {
  name: 'proxyLookupsPerCustomer',
  what: 'provider lookups',
  from: 'by your account',
}
const WRITES_PER_USER: Limit = {
  name: 'signedInWritesPerUser',
  what: 'changes',
  from: 'by your account',
}

/** A publish that ends with one of these was a refused token (or a refused request): it counts. */
const REFUSED_PUBLISH = new Set([401, 403, 429])

/** Lookups at AI providers (`/proxy/...`), limited per account. */
const isProxyLookup = (operation: OperationInfo) => operation.tag === 'proxy'

const isSignedInWrite = (operation: OperationInfo) =>
  operation.access === 'signedIn' && operation.changesState

const LIMITED_OPERATIONS = new Set([
  'publishNodeVersion',
  'uploadNodeVersionArchive',
  'searchNodes',
  'suggestNodes',
  'exchangeTrustedPublishingToken',
])

/** The operations with a limit: openapi.yml documents their 429 (pinned by rate-limits.test.ts). */
export const isRateLimited = (operation: OperationInfo) =>
  LIMITED_OPERATIONS.has(operation.operationId) ||
  isSignedInWrite(operation) ||
  isProxyLookup(operation)

export interface RateLimits {
  /** Per-user limit of signed-in writes; called once the caller is known. */
  checkCaller(operation: OperationInfo, caller: Caller | null, reply: FastifyReply): Promise<void>
}

/**
 * Adds the limits to the routes registered after it (call it before the contract's routes) and
 * answers the per-user check for the operation resolver. RATE_LIMIT_SCALE=0: no limits at all.
 */
export async function registerRateLimits(
  app: FastifyInstance,
  config: ServerConfig,
  operations: Map<string, OperationInfo>,
): Promise<RateLimits> {
  if (config.rateLimitScale === 0) return { checkCaller: async () => undefined }
  const counters = config.redisUrl
    ? await redisStore(config.redisUrl, config.redisKeyPrefix)
    : memoryStore()
  app.addHook('onClose', async () => counters.close())

  const ruleOf = (limit: Limit): RateLimitRule => {
    const rule = API_RATE_LIMITS[limit.name]
    return {
      max: Math.max(1, Math.round(rule.max * config.rateLimitScale)),
      windowMs: rule.windowMs,
    }
  }

  /** Counts a hit; refuses the request (429) when it is over the limit. */
  async function take(limit: Limit, subject: string, reply: FastifyReply): Promise<string> {
    const rule = ruleOf(limit)
    const key = `${limit.name}:${subject}`
    let counted: Count
    try {
      counted = await counters.hit(key, rule.windowMs)
    } catch (error) {
      // Redis is down: serve without limits rather than refuse everyone.
      reply.log.warn({ err: error }, 'rate limit not checked')
      return key
    }
    if (counted.count <= rule.max) return key
    const seconds = Math.max(1, Math.ceil(counted.resetMs / 1000))
    reply.header('retry-after', String(seconds))
    throw new HttpError(
      429,
      'Too Many Requests',
      `Too many ${limit.what} ${limit.from}. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
    )
  }

  // Publish keys counted for a request, taken back when its token was accepted.
  const publishKeys = new WeakMap<FastifyRequest, string[]>()

  const limitPublish: onRequestHookHandler = async (request, reply) => {
    const keys: string[] = []
    publishKeys.set(request, keys)
    // Per address first: an address over its limit adds nothing to the publisher's count.
    keys.push(await take(PUBLISH_PER_IP, request.ip, reply))
    keys.push(
      await take(PUBLISH_PER_PUBLISHER, pathParam(request, 'publisherId').toLowerCase(), reply),
    )
  }

  app.addHook('onRoute', (route) => {
    const operationId = routeOperationId(route.schema)
    const operation = operationId ? operations.get(operationId) : undefined
    if (!operation) return
    const hooks: onRequestHookHandler[] = []
    if (operation.operationId === 'publishNodeVersion') {
      hooks.push(limitPublish)
      route.onSend = [
        ...[route.onSend ?? []].flat(),
        async (request, reply, payload) => {
          if (!REFUSED_PUBLISH.has(reply.statusCode)) {
            await Promise.all((publishKeys.get(request) ?? []).map((key) => counters.undo(key)))
          }
          return payload
        },
      ]
    } else if (operation.operationId === 'uploadNodeVersionArchive') {
      // Checked before the body is read.
      hooks.push(async (request, reply) => {
        await take(UPLOAD_PER_IP, request.ip, reply)
        await take(UPLOAD_PER_LINK, pathParam(request, 'uploadToken'), reply)
      })
    } else if (operation.operationId === 'searchNodes') {
      hooks.push(async (request, reply) => void (await take(SEARCH_PER_IP, request.ip, reply)))
    } else if (operation.operationId === 'exchangeTrustedPublishingToken') {
      hooks.push(async (request, reply) => void (await take(EXCHANGE_PER_IP, request.ip, reply)))
    } else if (operation.operationId === 'suggestNodes') {
      hooks.push(async (request, reply) => void (await take(SUGGEST_PER_IP, request.ip, reply)))
    } else if (isSignedInWrite(operation)) {
      hooks.push(async (request, reply) => void (await take(WRITES_PER_IP, request.ip, reply)))
    }
    if (hooks.length > 0) route.onRequest = [...[route.onRequest ?? []].flat(), ...hooks]
  })

  return {
    async checkCaller(operation, caller, reply) {
      if (caller && isSignedInWrite(operation)) await take(WRITES_PER_USER, caller.id, reply)
      if (caller && isProxyLookup(operation)) await take(PROXY_PER_CUSTOMER, caller.id, reply)
    },
  }
}
