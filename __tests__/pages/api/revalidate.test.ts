/**
 * @jest-environment node
 */
// POST /api/revalidate/nodes/{id}: proof through the registry API (a fake one on loopback), 404
// for unknown nodes, a rate limit per client address, and the pages of every language.
import type { NextApiRequest, NextApiResponse } from 'next'
import handler from '@/pages/api/revalidate/nodes/[nodeId]'
import { LANGUAGES, REVALIDATE_RATE_LIMIT } from '@/src/lib/constants'
import { fakeRegistryApi } from '../../fake-api'

/** The fake API: tokens are "owner", "stranger" and "member"; nodes "open" and "gone" (deleted). */
fakeRegistryApi((request, response) => {
  const token = (request.headers.authorization ?? '').replace(/^Bearer /, '')
  const send = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' })
    response.end(JSON.stringify(body))
  }
  const url = request.url ?? ''
  if (!['owner', 'stranger', 'member'].includes(token)) return send(401, { message: 'bad token' })
  if (url === '/nodes/open')
    return send(200, { publisher: { id: 'acme' }, status: 'NodeStatusActive' })
  if (url === '/nodes/gone' && token === 'member') {
    return send(200, { publisher: { id: 'acme' }, status: 'NodeStatusDeleted' })
  }
  if (url === '/publishers/acme/nodes/open/permissions')
    return send(200, { canEdit: token === 'owner' })
  return send(404, { message: 'not found' })
})

let address = 0

async function call(
  nodeId: string,
  token?: string,
  client = `10.0.0.${++address}`,
  extraHeaders: Record<string, string> = {},
) {
  const revalidated: string[] = []
  const reply = { status: 0, body: undefined as unknown, headers: {} as Record<string, string> }
  const res = {
    status(code: number) {
      reply.status = code
      return res
    },
    json(body: unknown) {
      reply.body = body
      return res
    },
    end() {
      return res
    },
    setHeader(name: string, value: string) {
      reply.headers[name.toLowerCase()] = value
      return res
    },
    async revalidate(path: string) {
      revalidated.push(path)
    },
  }
  const req = {
    method: 'POST',
    query: { nodeId },
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...extraHeaders },
    socket: { remoteAddress: client },
  }
  await handler(req as unknown as NextApiRequest, res as unknown as NextApiResponse)
  return { ...reply, revalidated }
}

describe('POST /api/revalidate/nodes/{id}', () => {
  describe('from the registry API (a version became Active), with the shared secret', () => {
    beforeAll(() => {
      process.env.REVALIDATE_SECRET = 'shared-secret-for-tests'
    })
    afterAll(() => {
      delete process.env.REVALIDATE_SECRET
    })

    it('regenerates every language without a user token, beyond the per-address limit', async () => {
      const secret = { 'x-revalidate-secret': 'shared-secret-for-tests' }
      for (let i = 0; i <= REVALIDATE_RATE_LIMIT.capacity; i++) {
        const reply = await call(`from-api-${i}`, undefined, '127.0.0.1', secret)
        expect(reply.status).toBe(204)
        expect(reply.revalidated).toHaveLength(LANGUAGES.length)
      }
    })

    it('a wrong secret is no proof: it needs a user token as before', async () => {
      const reply = await call('open', undefined, undefined, { 'x-revalidate-secret': 'guess' })
      expect(reply.status).toBe(401)
      expect(reply.revalidated).toEqual([])
    })
  })

  it('regenerates the node page of every language for its owner', async () => {
    const reply = await call('open', 'owner')
    expect(reply.status).toBe(204)
    expect(reply.revalidated.sort()).toEqual(
      LANGUAGES.map(({ code }) => (code === 'en' ? '/nodes/open' : `/${code}/nodes/open`)).sort(),
    )
  })

  it('refuses the anonymous (401), others (403) and unknown nodes (404), regenerating nothing', async () => {
    for (const [nodeId, token, status] of [
      ['open', undefined, 401],
      ['open', 'forged', 401],
      ['open', 'stranger', 403],
      ['no-such-node', 'owner', 404],
      ['gone', 'stranger', 404],
    ] as const) {
      const reply = await call(nodeId, token)
      expect({ nodeId, token, status: reply.status }).toEqual({ nodeId, token, status })
      expect(reply.revalidated).toEqual([])
    }
  })

  it('lets the publisher’s members regenerate a node the public no longer sees', async () => {
    expect((await call('gone', 'member')).status).toBe(204)
  })

  it(`allows ${REVALIDATE_RATE_LIMIT.capacity} calls a minute per address, then 429`, async () => {
    const client = '192.0.2.7'
    for (let i = 0; i < REVALIDATE_RATE_LIMIT.capacity; i++) {
      expect((await call('no-such-node', 'owner', client)).status).toBe(404)
    }
    const refused = await call('open', 'owner', client)
    expect(refused.status).toBe(429)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect(refused.revalidated).toEqual([])
    // Another address is not affected.
    expect((await call('open', 'owner', '192.0.2.8')).status).toBe(204)
  })
})
