// The public read cache as clients see it (server/http/public-cache.ts): anonymous answers of
// `x-public-cache` reads are shared for PUBLIC_CACHE_MS, a change made through the API shows at
// once, and signed-in callers always read the database.
import { eq } from 'drizzle-orm'
import { nodes } from '../db/schema'
import type { Schemas } from './operations'
import { signUpUser, uniqueEmail, type TestUser } from '../test/auth'
import { BACKENDS, createTestApp, get, send, type TestApp } from '../test/harness'

type Node = Schemas['Node']
type NodeListResponse = Schemas['NodeListResponse']

const TTL_MS = 400

jest.setTimeout(60_000)

describe.each(BACKENDS)('public reads on %s', (backend) => {
  let h: TestApp
  let owner: TestUser
  const publisherId = `cache-${backend}`
  const nodeId = `cache-node-${backend}`

  beforeAll(async () => {
    h = await createTestApp({
      postgres: backend === 'postgres',
      env: { PUBLIC_CACHE_MS: String(TTL_MS) },
    })
    owner = await signUpUser(uniqueEmail('cache-owner'))
    const created = await send(h.app, 'POST', '/publishers', {
      as: owner,
      body: { id: publisherId, name: 'Cache tester' },
    })
    expect(created.status).toBe(201)
    const node = await send(h.app, 'POST', `/publishers/${publisherId}/nodes`, {
      as: owner,
      body: { id: nodeId, name: 'Cached node', description: 'first' },
    })
    expect(node.status).toBe(201)
  })

  afterAll(async () => {
    await h?.close()
  })

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
  const anonymousDescription = async () =>
    (await get<Node>(h.app, `/nodes/${nodeId}`)).body.description

  /** A change made behind this process's back, as another API process or the CLI would. */
  const describeDirectly = (description: string) =>
    h.db.update(nodes).set({ description }).where(eq(nodes.id, nodeId))

  it('shares an anonymous answer for PUBLIC_CACHE_MS; the signed-in caller reads afresh', async () => {
    expect(await anonymousDescription()).toBe('first')
    await describeDirectly('changed elsewhere')
    expect(await anonymousDescription()).toBe('first')
    const signedIn = await get<Node>(h.app, `/nodes/${nodeId}`, {
      authorization: `Bearer ${owner.idToken}`,
    })
    expect(signedIn.body.description).toBe('changed elsewhere')
    await sleep(TTL_MS + 100)
    expect(await anonymousDescription()).toBe('changed elsewhere')
  })

  it('shows a change made through the API at once, in every cached read', async () => {
    const listUrl = `/publishers/${publisherId}/nodes`
    const searchUrl = `/nodes/search?search=${encodeURIComponent('Cached node')}`
    expect(await anonymousDescription()).toBe('changed elsewhere')
    const listed = await get<Node[]>(h.app, listUrl)
    expect(listed.body.map((node) => node.name)).toEqual(['Cached node'])
    const found = await get<NodeListResponse>(h.app, searchUrl)
    expect(found.body.nodes.map((node) => node.id)).toContain(nodeId)

    const updated = await send<Node>(h.app, 'PUT', `/publishers/${publisherId}/nodes/${nodeId}`, {
      as: owner,
      body: { name: 'Renamed node', description: 'second' },
    })
    expect(updated.status).toBe(200)
    expect(await anonymousDescription()).toBe('second')
    expect((await get<Node[]>(h.app, listUrl)).body.map((node) => node.name)).toEqual([
      'Renamed node',
    ])
    const renamed = await get<NodeListResponse>(h.app, searchUrl)
    expect(renamed.body.nodes.find((node) => node.id === nodeId)?.name).toBe('Renamed node')
  })

  it('answers 404 for a node deleted through the API at once', async () => {
    expect((await get(h.app, `/nodes/${nodeId}`)).status).toBe(200)
    const deleted = await send(h.app, 'DELETE', `/publishers/${publisherId}/nodes/${nodeId}`, {
      as: owner,
    })
    expect(deleted.status).toBe(204)
    expect((await get(h.app, `/nodes/${nodeId}`)).status).toBe(404)
  })

  it('keeps different addresses apart', async () => {
    const first = await get<NodeListResponse>(h.app, '/nodes?limit=1&page=1')
    const second = await get<NodeListResponse>(h.app, '/nodes?limit=1&page=2')
    expect(first.body.nodes).toHaveLength(1)
    expect(second.body.nodes).toHaveLength(1)
    expect(first.body.nodes[0].id).not.toBe(second.body.nodes[0].id)
  })
})
