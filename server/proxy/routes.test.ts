// `/proxy/...` over the API: who may look up (a signed-in user or a customer's API key), what
// travels upstream (the registry's key, nothing of the caller's), what comes back (the provider's
// answer or a clear 502/503/504), what admins see of it, and the per-account limit.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Schemas } from '../http/operations'
import { signUpUser, signUpVerifiedUser, uniqueEmail, type TestUser } from '../test/auth'
import { startFakeProvider, type FakeProvider } from '../test/fake-provider'
import { BACKENDS, createTestApp, expectErrorBody, send, type TestApp } from '../test/harness'

type LookupPage = Schemas['ProxyLookupListResponse']

jest.setTimeout(60_000)

const LUMA_KEY = 'luma-registry-key-0123456789'

/** A provider that answers after `ms`. */
async function startSlowProvider(ms: number) {
  const server = http.createServer((_request, response) => {
    const timer = setTimeout(() => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end('{}')
    }, ms)
    response.on('close', () => clearTimeout(timer))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

describe.each(BACKENDS)('provider lookups on %s', (backend) => {
  let h: TestApp
  let provider: FakeProvider
  let slow: Awaited<ReturnType<typeof startSlowProvider>>
  let admin: TestUser
  let user: TestUser
  let apiKey: string

  beforeAll(async () => {
    provider = await startFakeProvider()
    slow = await startSlowProvider(5_000)
    h = await createTestApp({
      postgres: backend === 'postgres',
      nodes: 2,
      publishers: 1,
      env: {
        PROXY_LUMA_URL: provider.url,
        PROXY_LUMA_KEY: LUMA_KEY,
        PROXY_RUNWAY_URL: slow.url,
        PROXY_RUNWAY_KEY: 'runway-key',
        // Nothing listens there: the port of a server already closed.
        PROXY_TRIPO_URL: 'http://127.0.0.1:9',
        PROXY_TRIPO_KEY: 'tripo-key',
        PROXY_TIMEOUT_MS: '300',
      },
    })
    ;[admin, user] = await Promise.all([
      signUpVerifiedUser(h.adminEmail),
      signUpUser(uniqueEmail('comfy')),
    ])
    const created = await send<Schemas['ApiKey']>(h.app, 'POST', '/customers/api-keys', {
      as: user,
      body: { name: 'ComfyUI' },
    })
    apiKey = created.body.key ?? ''
  })

  afterAll(async () => {
    await h?.close()
    await provider?.close()
    await slow?.close()
  })

  it('passes the provider answer through, with its key and nothing of the caller', async () => {
    const reply = await send(h.app, 'GET', '/proxy/luma/generations/job-1?verbose=1', {
      headers: { 'x-api-key': apiKey, cookie: 'session=secret', 'x-forwarded-for': '1.2.3.4' },
    })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({ id: 'job-1', path: '/generations/job-1?verbose=1', state: 'done' })
    const upstream = provider.requests.at(-1)
    expect(upstream?.headers.authorization).toBe(`Bearer ${LUMA_KEY}`)
    expect(upstream?.headers).not.toHaveProperty('cookie')
    expect(upstream?.headers).not.toHaveProperty('x-api-key')
    expect(upstream?.headers).not.toHaveProperty('x-forwarded-for')

    const missing = await send(h.app, 'GET', '/proxy/luma/generations/missing-7', { as: user })
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ error: { code: 'not_found', message: 'No task missing-7' } })
    expect(JSON.stringify([reply.body, missing.body])).not.toContain(LUMA_KEY)
  })

  it('asks for a signed-in user or a valid API key', async () => {
    expectErrorBody(await send(h.app, 'GET', '/proxy/luma/generations/job-1'), 401)
    const wrong = await send(h.app, 'GET', '/proxy/luma/generations/job-1', {
      headers: { 'x-api-key': `${apiKey}x` },
    })
    expect(expectErrorBody(wrong, 401).message).toContain('API key')
    // The provider's key is the registry's, never the caller's way in.
    const theirs = await send(h.app, 'GET', '/proxy/luma/generations/job-1', {
      headers: { 'x-api-key': LUMA_KEY },
    })
    expectErrorBody(theirs, 401)
  })

  it('answers clear errors for a provider not configured, too slow or unreachable', async () => {
    const missing = await send(h.app, 'GET', '/proxy/pika/videos/v1', { as: user })
    expect(expectErrorBody(missing, 503).message).toContain('PROXY_PIKA_URL')
    const started = performance.now()
    const late = await send(h.app, 'GET', '/proxy/runway/tasks/t1', { as: user })
    expect(expectErrorBody(late, 504).message).toContain('300 ms')
    expect(performance.now() - started).toBeLessThan(4_000)
    expectErrorBody(await send(h.app, 'GET', '/proxy/tripo/v2/openapi/task/t1', { as: user }), 502)
    // A dot-segment id never reaches the provider (the router refuses it; forward.ts would too).
    const asked = provider.requests.length
    const climbing = await send(h.app, 'GET', '/proxy/luma/generations/%2e%2e', { as: user })
    expect([400, 404]).toContain(climbing.status)
    expect(provider.requests.length).toBe(asked)
    const long = await send(h.app, 'GET', `/proxy/luma/generations/job-1?x=${'y'.repeat(2100)}`, {
      as: user,
    })
    expect(expectErrorBody(long, 400).message).toContain('longer than')
    expect(provider.requests.length).toBe(asked)
    expect(JSON.stringify([missing.body, late.body])).not.toContain('runway-key')
  })

  it('records every lookup for admins only', async () => {
    const before = await send<LookupPage>(h.app, 'GET', '/admin/proxy-lookups?provider=luma', {
      as: admin,
    })
    await send(h.app, 'GET', '/proxy/luma/generations/recorded-1', { as: user })
    const after = await send<LookupPage>(h.app, 'GET', '/admin/proxy-lookups?provider=luma', {
      as: admin,
    })
    expect(after.body.total).toBe(before.body.total + 1)
    expect(after.body.lookups[0]).toMatchObject({
      email: user.email,
      provider: 'luma',
      path: '/generations/recorded-1',
      status: 200,
      outcome: 'answered',
    })
    const timeouts = await send<LookupPage>(h.app, 'GET', '/admin/proxy-lookups?provider=runway', {
      as: admin,
    })
    expect(timeouts.body.lookups.map((lookup) => lookup.outcome)).toContain('timeout')
    expectErrorBody(await send(h.app, 'GET', '/admin/proxy-lookups', { as: user }), 403)
    expectErrorBody(
      await send(h.app, 'GET', '/admin/proxy-lookups?provider=nobody', { as: admin }),
      400,
    )
  })
})

describe('provider lookups per account', () => {
  let h: TestApp
  let provider: FakeProvider

  beforeAll(async () => {
    provider = await startFakeProvider()
    h = await createTestApp({
      nodes: 1,
      publishers: 1,
      // 600 a minute scaled down to 3.
      env: { PROXY_LUMA_URL: provider.url, PROXY_LUMA_KEY: LUMA_KEY, RATE_LIMIT_SCALE: '0.005' },
    })
  })

  afterAll(async () => {
    await h?.close()
    await provider?.close()
  })

  it('limits each account, not everyone', async () => {
    const [one, two] = await Promise.all([
      signUpUser(uniqueEmail('a')),
      signUpUser(uniqueEmail('b')),
    ])
    for (let i = 0; i < 3; i++) {
      expect((await send(h.app, 'GET', `/proxy/luma/generations/j${i}`, { as: one })).status).toBe(
        200,
      )
    }
    const limited = await send(h.app, 'GET', '/proxy/luma/generations/j4', { as: one })
    expect(expectErrorBody(limited, 429).message).toContain('provider lookups')
    expect((await send(h.app, 'GET', '/proxy/luma/generations/j5', { as: two })).status).toBe(200)
  })
})
