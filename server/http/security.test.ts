// Security headers on every API answer (public, signed in, refused, failed, unknown route), and
// no caching of answers to credentials while anonymous answers keep their own caching.
import type { LightMyRequestResponse } from 'fastify'
import { firebaseTokenVerifier } from '../auth/verifier'
import { signUpUser, TEST_PROJECT_ID, type TestUser } from '../test/auth'
import { createTestApp, get, send, type TestApp } from '../test/harness'
import { buildApp } from './app'
import { API_CONTENT_SECURITY_POLICY, CREDENTIALED_CACHE_CONTROL } from './security'

jest.setTimeout(180_000)

function expectSecurityHeaders(response: LightMyRequestResponse) {
  expect(response.headers['x-content-type-options']).toBe('nosniff')
  expect(response.headers['x-frame-options']).toBe('DENY')
  expect(response.headers['content-security-policy']).toBe(API_CONTENT_SECURITY_POLICY)
}

describe('API security headers', () => {
  let h: TestApp
  let user: TestUser

  beforeAll(async () => {
    h = await createTestApp({ nodes: 6, publishers: 2 })
    user = await signUpUser()
  })

  afterAll(async () => {
    await h?.close()
  })

  it('keeps the caching of public answers for anonymous callers', async () => {
    const features = await get(h.app, '/features')
    expect(features.status).toBe(200)
    expectSecurityHeaders(features.response)
    expect(features.response.headers['cache-control']).toBe('public, max-age=300')

    const nodes = await get(h.app, '/nodes')
    expect(nodes.status).toBe(200)
    expectSecurityHeaders(nodes.response)
    expect(nodes.response.headers['cache-control']).not.toBe(CREDENTIALED_CACHE_CONTROL)
  })

  it('keeps public archives cacheable for a year', async () => {
    const list = await get<{ nodes: { latest_version?: { downloadUrl?: string } }[] }>(
      h.app,
      '/nodes',
    )
    const downloadUrl = list.body.nodes.find((node) => node.latest_version?.downloadUrl)
      ?.latest_version?.downloadUrl
    expect(downloadUrl).toBeDefined()
    const archive = await h.app.inject({
      method: 'GET',
      url: new URL(String(downloadUrl)).pathname,
    })
    expect(archive.statusCode).toBe(200)
    expectSecurityHeaders(archive)
    expect(archive.headers['cache-control']).toBe('public, max-age=31536000, immutable')
  })

  it('answers signed-in callers with no-store, even where the anonymous answer is cached', async () => {
    const features = await get(h.app, '/features', { authorization: `Bearer ${user.idToken}` })
    expect(features.status).toBe(200)
    expectSecurityHeaders(features.response)
    expect(features.response.headers['cache-control']).toBe(CREDENTIALED_CACHE_CONTROL)

    const me = await send(h.app, 'GET', '/users', { as: user })
    expect(me.status).toBe(200)
    expectSecurityHeaders(me.response)
    expect(me.response.headers['cache-control']).toBe(CREDENTIALED_CACHE_CONTROL)
  })

  it('answers writes (tokens in the body or the link) with no-store', async () => {
    const publish = await send(h.app, 'POST', '/publishers/nobody/nodes/nothing/versions', {
      body: {
        personal_access_token: 'not-a-token',
        node: { id: 'nothing', name: 'n', repository: 'https://github.com/a/b', license: 'MIT' },
        node_version: { version: '1.0.0', changelog: '', dependencies: [] },
      },
    })
    expect(publish.status).toBeGreaterThanOrEqual(400)
    expect(publish.status).toBeLessThan(500)
    expectSecurityHeaders(publish.response)
    expect(publish.response.headers['cache-control']).toBe(CREDENTIALED_CACHE_CONTROL)
  })

  it('sends them on refusals and on unknown routes', async () => {
    const refused = await send(h.app, 'GET', '/users', { as: 'not-a-valid-token' })
    expect(refused.status).toBe(401)
    expectSecurityHeaders(refused.response)
    expect(refused.response.headers['cache-control']).toBe(CREDENTIALED_CACHE_CONTROL)

    const anonymous = await get(h.app, '/users')
    expect(anonymous.status).toBe(401)
    expectSecurityHeaders(anonymous.response)

    const badInput = await get(h.app, '/nodes?limit=oops')
    expect(badInput.status).toBe(400)
    expectSecurityHeaders(badInput.response)

    const missing = await get(h.app, '/no/such/route')
    expect(missing.status).toBe(404)
    expectSecurityHeaders(missing.response)
  })

  it('sends them on server errors', async () => {
    const failing = await buildApp(
      {
        db: h.db,
        storage: h.storage,
        verifier: firebaseTokenVerifier(TEST_PROJECT_ID),
        config: h.config,
      },
      {
        handlers: {
          getFeatures: async () => {
            throw new Error('boom')
          },
        },
      },
    )
    try {
      const broken = await get(failing, '/features', { authorization: `Bearer ${user.idToken}` })
      expect(broken.status).toBe(500)
      expectSecurityHeaders(broken.response)
      expect(broken.response.headers['cache-control']).toBe(CREDENTIALED_CACHE_CONTROL)
      // No handler at all: 501.
      const missing = await get(failing, '/nodes')
      expect(missing.status).toBe(501)
      expectSecurityHeaders(missing.response)
    } finally {
      await failing.close()
    }
  })

  it('still lets the website call across origins (preflight)', async () => {
    const preflight = await h.app.inject({
      method: 'OPTIONS',
      url: '/users',
      headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'GET' },
    })
    expect(preflight.statusCode).toBe(204)
    expect(preflight.headers['access-control-allow-origin']).toBe('http://localhost:3000')
    expectSecurityHeaders(preflight)
  })
})
