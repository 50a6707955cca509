// The website's page cache in Redis, shared by every `next start` process on the same REDIS_URL
// (docs/ARCHITECTURE.md, "Several website processes"). Next's default cache lives in each
// process's memory and `.next` folder, so regenerating a page (`res.revalidate`, after an owner's
// edit, an admin decision or a new Active version) would reach only the process that got the
// call. With this handler the regenerated page replaces the one entry all processes read.
//
// - No copy in process memory: every read asks Redis (one GET of the page's JSON), so a process
//   never serves a page another one has replaced. next.config.js also sets cacheMaxMemorySize: 0.
// - Keys: REDIS_KEY_PREFIX + `pages:` + the build id + Next's key, so a new deploy never serves
//   pages rendered by an older build; old builds' entries expire on their own.
// - Each entry lives in Redis as long as Next would serve it: its `expire` time (next.config.js
//   `expireTime`), else MAX_TTL_S. Past `expire` Next renders again before answering anyway.
// - Entries are JSON; Buffers (App Router payloads, unused here) are base64 and Maps kept.
// - revalidateTag deletes the entries that carry the tag (a set per tag); the pages router does
//   not use tags, its regeneration goes through `res.revalidate`, which renders and calls set().
// - A Redis that is down or slow never breaks a page: reads are misses (the page is rendered) and
//   writes are dropped, with one warning per outage.
// Next makes one handler per request, so the connection is kept per process (per REDIS_URL).
'use strict'

const fs = require('node:fs')
const path = require('node:path')
const { Redis } = require('ioredis')

/** Entries without an expire time (fetch cache, `revalidate: false`) leave Redis after this. */
const MAX_TTL_S = 14 * 24 * 60 * 60
/** A command Redis has not answered in this time is a miss (or a dropped write). */
const COMMAND_TIMEOUT_MS = 1000
/** How long the first request of a process waits for the first connection. */
const FIRST_CONNECT_WAIT_MS = 2000

/** @type {Map<string, { redis: Redis, firstReady: Promise<boolean>, down: boolean }>} */
const connections = new Map()

function connection(url) {
  let shared = connections.get(url)
  if (shared) return shared
  // No offline queue: while Redis is unreachable a command fails at once instead of waiting.
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: COMMAND_TIMEOUT_MS,
  })
  const current = { redis, firstReady: Promise.resolve(false), down: false }
  // Reported once per outage by `report`; without a listener ioredis would print every retry.
  redis.on('error', () => undefined)
  redis.on('ready', () => {
    if (current.down) console.warn('Page cache: Redis answers again; pages are shared again.')
    current.down = false
  })
  current.firstReady = Promise.race([
    redis.connect().then(
      () => true,
      () => false,
    ),
    new Promise((resolve) => setTimeout(() => resolve(false), FIRST_CONNECT_WAIT_MS).unref()),
  ])
  connections.set(url, current)
  return current
}

function report(shared, error) {
  if (shared.down) return
  shared.down = true
  const reason = error instanceof Error ? error.message : String(error)
  console.warn(
    `Page cache: Redis does not answer (${reason}); pages are rendered without the shared cache until it does.`,
  )
}

/** @type {Map<string, string>} serverDistDir → build id */
const buildIds = new Map()

function buildIdOf(serverDistDir) {
  const dir = serverDistDir ?? path.join(process.cwd(), '.next', 'server')
  let id = buildIds.get(dir)
  if (id === undefined) {
    try {
      id = fs.readFileSync(path.join(dir, '..', 'BUILD_ID'), 'utf8').trim()
    } catch {
      id = 'unbuilt'
    }
    buildIds.set(dir, id)
  }
  return id
}

// JSON with Buffers and Maps: the replacer looks at the holder's own value (`this[key]`),
// because JSON.stringify has already turned a Buffer into { type, data } through its toJSON.
function replacer(key, value) {
  const raw = this[key]
  if (Buffer.isBuffer(raw)) return { $base64: raw.toString('base64') }
  if (raw instanceof Map) return { $map: [...raw] }
  return value
}

function reviver(_key, value) {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    if (typeof value.$base64 === 'string') return Buffer.from(value.$base64, 'base64')
    if (Array.isArray(value.$map)) return new Map(value.$map)
  }
  return value
}

function ttlSeconds(cacheControl) {
  const expire = cacheControl && cacheControl.expire
  if (typeof expire === 'number' && Number.isFinite(expire) && expire > 0) {
    return Math.min(Math.ceil(expire), MAX_TTL_S)
  }
  return MAX_TTL_S
}

/** The tags an entry can be invalidated by: a fetch's own, or a rendered route's header. */
function tagsOf(data, ctx) {
  const tags = new Set([...((ctx && ctx.tags) || []), ...((data && data.tags) || [])])
  const header = data && data.headers && data.headers['x-next-cache-tags']
  if (typeof header === 'string') header.split(',').forEach((tag) => tag && tags.add(tag))
  return [...tags]
}

class RedisCacheHandler {
  constructor(ctx) {
    const url = process.env.REDIS_URL
    if (!url)
      throw new Error('cache-handler.js needs REDIS_URL (next.config.js sets it up only then).')
    this.shared = connection(url)
    this.prefix = `${process.env.REDIS_KEY_PREFIX ?? 'registry:'}pages:${buildIdOf(ctx && ctx.serverDistDir)}:`
  }

  /** The Redis connection, or undefined while it is down (the caller then does without). */
  async usable() {
    const { redis } = this.shared
    if (redis.status === 'ready') return redis
    const connected = await this.shared.firstReady
    if (connected && redis.status === 'ready') return redis
    report(this.shared, new Error(`connection ${redis.status}`))
    return undefined
  }

  async get(key) {
    const redis = await this.usable()
    if (!redis) return null
    try {
      const stored = await redis.get(this.prefix + key)
      if (stored === null) return null
      const { lastModified, value, cacheControl } = JSON.parse(stored, reviver)
      return { lastModified, value, cacheControl }
    } catch (error) {
      report(this.shared, error)
      return null
    }
  }

  async set(key, data, ctx) {
    const redis = await this.usable()
    if (!redis) return
    const cacheControl = ctx && ctx.cacheControl
    const entry = JSON.stringify({ lastModified: Date.now(), value: data, cacheControl }, replacer)
    const ttl = ttlSeconds(cacheControl)
    const redisKey = this.prefix + key
    const write = redis.multi().set(redisKey, entry, 'EX', ttl)
    for (const tag of tagsOf(data, ctx)) {
      const tagKey = `${this.prefix}tag:${tag}`
      write.sadd(tagKey, redisKey).expire(tagKey, MAX_TTL_S)
    }
    try {
      await write.exec()
    } catch (error) {
      report(this.shared, error)
    }
  }

  /** Removes every entry with one of the tags: the next request renders it afresh. */
  async revalidateTag(tags) {
    const redis = await this.usable()
    if (!redis) return
    try {
      for (const tag of [tags].flat()) {
        const tagKey = `${this.prefix}tag:${tag}`
        const keys = await redis.smembers(tagKey)
        await redis.del(tagKey, ...keys)
      }
    } catch (error) {
      report(this.shared, error)
    }
  }

  // Nothing is kept per request.
  resetRequestCache() {}

  /** Closes this process's connections (tests). */
  static closeAll() {
    const open = [...connections.values()]
    connections.clear()
    for (const { redis } of open) redis.disconnect()
  }
}

module.exports = RedisCacheHandler
