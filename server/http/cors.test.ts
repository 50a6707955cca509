// The website (another origin) calls every write method with its request headers (seed section 7).
import { createTestApp, type TestApp } from '../test/harness'

jest.setTimeout(60_000)

const WEBSITE = 'http://web.test'

describe('CORS for the website', () => {
  let h: TestApp

  beforeAll(async () => {
    h = await createTestApp({ nodes: 0, publishers: 1, env: { CORS_ORIGINS: WEBSITE } })
  })

  afterAll(async () => {
    await h?.close()
  })

  it.each(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])(
    'allows %s from the website',
    async (method) => {
      const reply = await h.app.inject({
        method: 'OPTIONS',
        url: '/publishers/acme/nodes/x',
        headers: {
          origin: WEBSITE,
          'access-control-request-method': method,
          'access-control-request-headers':
            'authorization,cache-control,pragma,expires,content-type',
        },
      })
      expect(reply.statusCode).toBe(204)
      expect(reply.headers['access-control-allow-origin']).toBe(WEBSITE)
      expect(String(reply.headers['access-control-allow-methods']).split(/,\s*/)).toContain(method)
      expect(String(reply.headers['access-control-allow-headers'])).toContain('authorization')
      // Kept at least as long as Chromium allows (2 hours): a repeat visit makes no preflight.
      expect(Number(reply.headers['access-control-max-age'])).toBeGreaterThanOrEqual(7200)
    },
  )

  it('gives other origins no CORS grant', async () => {
    const reply = await h.app.inject({
      method: 'OPTIONS',
      url: '/nodes',
      headers: { origin: 'http://evil.test', 'access-control-request-method': 'DELETE' },
    })
    expect(reply.headers['access-control-allow-origin']).toBeUndefined()
  })
})
