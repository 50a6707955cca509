/**
 * Rate limits (server/http/rate-limits.ts, API_RATE_LIMITS): each limited class answers 429 with
 * Retry-After and the JSON error after its limit, per address, per publisher, per upload link and
 * per user; a limited publish changes nothing; with Redis, two API processes share one count.
 * The limits run at RATE_LIMIT_SCALE 0.2 here, which also shows that the scale applies.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { API_RATE_LIMITS, type RateLimitRule } from '@/src/lib/constants'
import { firebaseTokenVerifier } from '../auth/verifier'
import { loadConfig } from '../config'
import type { Schemas } from './operations'
import { buildApp } from './app'
import { isRateLimited, memoryStore, redisStore } from './rate-limits'
import { listOperations, loadContract, type OperationInfo } from './contract'
import { signUpUser, TEST_PROJECT_ID, uniqueEmail, type TestUser } from '../test/auth'
import { snapshotState } from '../test/data'
import {
  BACKENDS,
  createTestApp,
  expectErrorBody,
  request,
  type JsonReply,
  type TestApp,
} from '../test/harness'

jest.setTimeout(120_000)

const SCALE = 0.2
const LIMITS_ON = { RATE_LIMIT_SCALE: String(SCALE) }
const maxOf = (rule: RateLimitRule) => Math.max(1, Math.round(rule.max * SCALE))

let addressCount = 0
/** A client address of its own (so tests do not share per-address counts). */
function freshAddress(): string {
  addressCount += 1
  return `10.${Math.floor(addressCount / 250) % 250}.${addressCount % 250}.${1 + Math.floor(Math.random() * 250)}`
}

/** The 429 answer: Retry-After in whole seconds within the window, and the JSON error. */
function expectLimited(reply: JsonReply<unknown>, rule: RateLimitRule) {
  const body = expectErrorBody(reply, 429)
  expect(body.error).toBe('Too Many Requests')
  const retryAfter = Number(reply.response.headers['retry-after'])
  expect(Number.isInteger(retryAfter)).toBe(true)
  expect(retryAfter).toBeGreaterThanOrEqual(1)
  expect(retryAfter).toBeLessThanOrEqual(rule.windowMs / 1000)
  expect(body.message).toMatch(new RegExp(`try again in ${retryAfter} seconds?\\.`, 'i'))
}

interface Caller {
  address: string
  user?: TestUser
}

function search(app: FastifyInstance, from: Caller) {
  return request(app, {
    method: 'GET',
    url: '/nodes/search?search=demo',
    remoteAddress: from.address,
  })
}

function publish(
  app: FastifyInstance,
  from: Caller,
  publisherId: string,
  token: string,
  nodeId = `rl-node-${randomBytes(4).toString('hex')}`,
) {
  return request(app, {
    method: 'POST',
    url: `/publishers/${publisherId}/nodes/${nodeId}/versions`,
    remoteAddress: from.address,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({
      personal_access_token: token,
      node: {},
      node_version: { version: '1.0.0' },
    }),
  })
}

function upload(app: FastifyInstance, from: Caller, link: string) {
  return request(app, {
    method: 'PUT',
    url: `/uploads/${link}`,
    remoteAddress: from.address,
    headers: { 'content-type': 'application/zip' },
    payload: Buffer.from('PK'),
  })
}

/** A signed-in write that is cheap and changes nothing: removing a publisher that is not there. */
function write(app: FastifyInstance, from: Caller) {
  return request(app, {
    method: 'DELETE',
    url: '/publishers/no-such-publisher-rl',
    remoteAddress: from.address,
    headers: from.user ? { authorization: `Bearer ${from.user.idToken}` } : {},
  })
}

const randomLink = () => randomBytes(24).toString('base64url')
const wrongToken = () => `wrong_${randomBytes(16).toString('hex')}`

async function createPublisher(h: TestApp, owner: TestUser, id: string): Promise<string> {
  const as = { authorization: `Bearer ${owner.idToken}`, 'content-type': 'application/json' }
  const created = await request(h.app, {
    method: 'POST',
    url: '/publishers',
    headers: as,
    payload: JSON.stringify({ id, name: id }),
  })
  expect(created.status).toBe(201)
  const token = await request<Schemas['PersonalAccessToken']>(h.app, {
    method: 'POST',
    url: `/publishers/${id}/tokens`,
    headers: as,
    payload: JSON.stringify({ name: 'cli' }),
  })
  expect(token.status).toBe(201)
  return token.body.token ?? ''
}

describe.each(BACKENDS)('rate limits on %s', (backend) => {
  let h: TestApp
  let owner: TestUser
  const publishers: { id: string; token: string }[] = []

  beforeAll(async () => {
    h = await createTestApp({
      postgres: backend === 'postgres',
      nodes: 6,
      publishers: 2,
      env: LIMITS_ON,
    })
    owner = await signUpUser(uniqueEmail('rl-owner'))
    for (const name of ['a', 'b', 'c']) {
      const id = `rl-${name}-${backend}`
      publishers.push({ id, token: await createPublisher(h, owner, id) })
    }
  })

  afterAll(async () => {
    await h?.close()
  })

  it('limits searches per address', async () => {
    const rule = API_RATE_LIMITS.searchesPerIp
    const client = { address: freshAddress() }
    for (let i = 0; i < maxOf(rule); i += 1) expect((await search(h.app, client)).status).toBe(200)
    expectLimited(await search(h.app, client), rule)
    // Another address is not affected; listing without a search term is not limited.
    expect((await search(h.app, { address: freshAddress() })).status).toBe(200)
    const listing = await request(h.app, {
      method: 'GET',
      url: '/nodes',
      remoteAddress: client.address,
    })
    expect(listing.status).toBe(200)
  })

  it('limits refused publish tokens per publisher, across addresses, and then changes nothing', async () => {
    const rule = API_RATE_LIMITS.publishFailuresPerPublisher
    const [target, other] = publishers
    for (let i = 0; i < maxOf(rule); i += 1) {
      const reply = await publish(h.app, { address: freshAddress() }, target.id, wrongToken())
      expect(reply.status).toBe(401)
    }
    // Even the right token, from a new address, is refused now, and nothing is written.
    const before = await snapshotState(h.db, h.storage)
    expectLimited(await publish(h.app, { address: freshAddress() }, target.id, target.token), rule)
    expect(await snapshotState(h.db, h.storage)).toBe(before)
    // Another publisher publishes as usual.
    expect((await publish(h.app, { address: freshAddress() }, other.id, other.token)).status).toBe(
      201,
    )
  })

  it('limits refused publish tokens per address, across publishers', async () => {
    const rule = API_RATE_LIMITS.publishFailuresPerIp
    const client = { address: freshAddress() }
    const [, second, third] = publishers
    for (let i = 0; i < maxOf(rule); i += 1) {
      // A different publisher each time (one that does not exist is refused the same way).
      const reply = await publish(h.app, client, `rl-missing-${i}-${backend}`, wrongToken())
      expect(reply.status).toBe(401)
    }
    const before = await snapshotState(h.db, h.storage)
    expectLimited(
      await publish(h.app, client, third.id, third.token),
      API_RATE_LIMITS.publishFailuresPerIp,
    )
    expect(await snapshotState(h.db, h.storage)).toBe(before)
    // The guesses from this address did not count against the publishers.
    expect(
      (await publish(h.app, { address: freshAddress() }, second.id, second.token)).status,
    ).toBe(201)
  })

  it('does not count publishes whose token was accepted', async () => {
    const { id, token } = publishers[2]
    const client = { address: freshAddress() }
    const times = maxOf(API_RATE_LIMITS.publishFailuresPerPublisher) + 1
    for (let i = 0; i < times; i += 1) {
      expect((await publish(h.app, client, id, token)).status).toBe(201)
    }
  })

  it('limits uploads per link and per address', async () => {
    const perLink = API_RATE_LIMITS.uploadsPerLink
    const link = randomLink()
    for (let i = 0; i < maxOf(perLink); i += 1) {
      expect((await upload(h.app, { address: freshAddress() }, link)).status).toBe(404)
    }
    expectLimited(await upload(h.app, { address: freshAddress() }, link), perLink)

    const perAddress = API_RATE_LIMITS.uploadsPerIp
    const client = { address: freshAddress() }
    for (let i = 0; i < maxOf(perAddress); i += 1) {
      expect((await upload(h.app, client, randomLink())).status).toBe(404)
    }
    expectLimited(await upload(h.app, client, randomLink()), perAddress)
  })

  it('limits signed-in writes per user, across addresses', async () => {
    const rule = API_RATE_LIMITS.signedInWritesPerUser
    const user = await signUpUser(uniqueEmail('rl-writer'))
    for (let i = 0; i < maxOf(rule); i += 1) {
      expect((await write(h.app, { address: freshAddress(), user })).status).toBe(404)
    }
    expectLimited(await write(h.app, { address: freshAddress(), user }), rule)
    // Reads are not limited, and another user still writes.
    const reading = await request(h.app, {
      method: 'GET',
      url: '/users',
      remoteAddress: freshAddress(),
      headers: { authorization: `Bearer ${user.idToken}` },
    })
    expect(reading.status).toBe(200)
    expect((await write(h.app, { address: freshAddress(), user: owner })).status).toBe(404)
  })

  it('limits signed-in writes per address, signed in or not', async () => {
    const rule = API_RATE_LIMITS.signedInWritesPerIp
    const address = freshAddress()
    for (let i = 0; i < maxOf(rule); i += 1) {
      expect((await write(h.app, { address })).status).toBe(401)
    }
    expectLimited(await write(h.app, { address, user: owner }), rule)
  })
})

describe('without rate limits (the test harness default, RATE_LIMIT_SCALE=0)', () => {
  it('never answers 429', async () => {
    const h = await createTestApp({ nodes: 2, publishers: 1 })
    try {
      // More uploads to one link than its limit allows: each is a plain 404 (no such link).
      const link = randomLink()
      for (let i = 0; i <= API_RATE_LIMITS.uploadsPerLink.max; i += 1) {
        expect((await upload(h.app, { address: '10.250.0.1' }, link)).status).toBe(404)
      }
    } finally {
      await h.close()
    }
  })
})

describe('behind the website (TRUST_PROXY=loopback, as npm start runs it)', () => {
  // The website renders search pages by calling the API with the visitor's address in
  // X-Forwarded-For (src/lib/ssr.ts): each visitor has their own count, and the header counts only
  // when it comes from a trusted address.
  const searchAs = (app: FastifyInstance, remoteAddress: string, forwardedFor: string) =>
    request(app, {
      method: 'GET',
      url: '/nodes/search?search=demo',
      remoteAddress,
      headers: { 'x-forwarded-for': forwardedFor },
    })

  it("counts each visitor of the website by the address it forwards, and ignores others' headers", async () => {
    const h = await createTestApp({
      nodes: 2,
      publishers: 1,
      env: { ...LIMITS_ON, TRUST_PROXY: 'loopback' },
    })
    try {
      const rule = API_RATE_LIMITS.searchesPerIp
      const visitor = freshAddress()
      for (let i = 0; i < maxOf(rule); i += 1) {
        expect((await searchAs(h.app, '127.0.0.1', visitor)).status).toBe(200)
      }
      expectLimited(await searchAs(h.app, '127.0.0.1', visitor), rule)
      // Another visitor through the same website is not limited.
      expect((await searchAs(h.app, '127.0.0.1', freshAddress())).status).toBe(200)
      // A client elsewhere cannot take another's count (or escape its own) by sending the header.
      const outsider = freshAddress()
      for (let i = 0; i < maxOf(rule); i += 1) {
        expect((await searchAs(h.app, outsider, freshAddress())).status).toBe(200)
      }
      expectLimited(await searchAs(h.app, outsider, freshAddress()), rule)
    } finally {
      await h.close()
    }
  })
})

describe('the contract', () => {
  it('documents 429 (TooManyRequests) on exactly the limited operations', () => {
    const contract = loadContract()
    const documented = (operation: OperationInfo) => {
      const item = contract.paths[operation.path] ?? {}
      const value: unknown = Reflect.get(item, operation.method.toLowerCase())
      const responses: unknown =
        typeof value === 'object' && value !== null ? Reflect.get(value, 'responses') : undefined
      return typeof responses === 'object' && responses !== null && '429' in responses
    }
    const operations = listOperations(contract)
    const wrong = operations
      .filter((operation) => documented(operation) !== isRateLimited(operation))
      .map((operation) => operation.operationId)
    expect(wrong).toEqual([])
    expect(operations.filter(isRateLimited).length).toBeGreaterThan(3)
  })
})

describe('settings', () => {
  it('refuses a RATE_LIMIT_SCALE that is not a number of 0 or more', () => {
    expect(() => loadConfig({ RATE_LIMIT_SCALE: 'lots' })).toThrow(/RATE_LIMIT_SCALE/)
    expect(() => loadConfig({ RATE_LIMIT_SCALE: '-1' })).toThrow(/RATE_LIMIT_SCALE/)
    expect(loadConfig({}).rateLimitScale).toBe(1)
  })

  it('stops the start with a clear error when REDIS_URL does not answer', async () => {
    await expect(redisStore('redis://127.0.0.1:1', 'test:')).rejects.toThrow(/^REDIS_URL: /)
  })

  it('keeps the memory store bounded and starts a new window when one ends', async () => {
    const store = memoryStore(2)
    await store.hit('a', 60_000)
    await store.hit('b', 60_000)
    await store.hit('c', 60_000)
    // 'a' was dropped to make room: it starts again at 1.
    expect((await store.hit('a', 60_000)).count).toBe(1)
    expect((await store.hit('short', 1)).count).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect((await store.hit('short', 1)).count).toBe(1)
  })
})

const redisUrl = process.env.TEST_REDIS_URL
// Without TEST_REDIS_URL (e.g. redis://127.0.0.1:6379) this part is skipped; .ci/run sets it
// when a Redis answers locally.
const describeWithRedis = redisUrl ? describe : describe.skip

describeWithRedis('shared through Redis (TEST_REDIS_URL)', () => {
  let h: TestApp
  let second: FastifyInstance
  let owner: TestUser

  beforeAll(async () => {
    h = await createTestApp({
      nodes: 2,
      publishers: 1,
      env: {
        ...LIMITS_ON,
        REDIS_URL: redisUrl ?? '',
        // A prefix of its own per run, so parallel runs never share counts.
        REDIS_KEY_PREFIX: `${process.env.TEST_REDIS_PREFIX ?? 'test:'}${randomUUID()}:`,
      },
    })
    // A second API process over the same database and the same Redis.
    second = await buildApp({
      db: h.db,
      storage: h.storage,
      verifier: firebaseTokenVerifier(TEST_PROJECT_ID),
      config: h.config,
    })
    await second.ready()
    owner = await signUpUser(uniqueEmail('rl-redis'))
  })

  afterAll(async () => {
    await second?.close()
    await h?.close()
  })

  it('counts the searches of both processes together', async () => {
    const rule = API_RATE_LIMITS.searchesPerIp
    const client = { address: freshAddress() }
    for (let i = 0; i < maxOf(rule); i += 1) {
      expect((await search(i % 2 === 0 ? h.app : second, client)).status).toBe(200)
    }
    expectLimited(await search(h.app, client), rule)
    expectLimited(await search(second, client), rule)
  })

  it('counts refused publish tokens together and takes accepted ones back', async () => {
    const id = 'rl-redis-pub'
    const token = await createPublisher(h, owner, id)
    const rule = API_RATE_LIMITS.publishFailuresPerIp
    const client = { address: freshAddress() }
    // Accepted tokens do not count, on either process.
    for (let i = 0; i < maxOf(rule) + 1; i += 1) {
      expect((await publish(i % 2 === 0 ? h.app : second, client, id, token)).status).toBe(201)
    }
    for (let i = 0; i < maxOf(rule); i += 1) {
      expect((await publish(i % 2 === 0 ? second : h.app, client, id, wrongToken())).status).toBe(
        401,
      )
    }
    expectLimited(await publish(h.app, client, id, token), rule)
    expectLimited(await publish(second, client, id, token), rule)
  })
})
