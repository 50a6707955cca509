// Node rows kept between requests: reused while their three rows (node, latest version,
// publisher) are unchanged, read again as soon as any of them changed, whoever changed it.
import { eq, inArray } from 'drizzle-orm'
import { nodes, nodeVersions, publishers } from '../db/schema'
import type { Schemas } from '../http/operations'
import type { NodeWithRelations } from '../http/serialize'
import { BACKENDS, createTestApp, get, type TestApp } from '../test/harness'
import { OrderingCache } from './ordering-cache'
import { countDownloads, listNodes, searchNodes, type NodeReadCaches } from './queries'
import { NodeRowCache } from './row-cache'

type NodeListResponse = Schemas['NodeListResponse']

jest.setTimeout(60_000)

describe('NodeRowCache', () => {
  it('answers only for the stamp a row was kept with', () => {
    const cache = new NodeRowCache<string>(10)
    const row = 'row a'
    cache.set('a', '1 2 3', row)
    expect(cache.get('a', '1 2 3')).toBe(row)
    expect(cache.get('a', '1 2 4')).toBeUndefined()
    expect(cache.holds('a')).toBe(true)
    expect(cache.holds('b')).toBe(false)
  })

  it('drops the least recently used row when full, and keeps nothing when off', () => {
    const cache = new NodeRowCache<string>(2)
    cache.set('a', 's', 'row a')
    cache.set('b', 's', 'row b')
    cache.get('a', 's')
    cache.set('c', 's', 'row c')
    expect([cache.holds('a'), cache.holds('b'), cache.holds('c')]).toEqual([true, false, true])

    const off = new NodeRowCache<string>(0)
    off.set('a', 's', 'row a')
    expect(off.enabled).toBe(false)
    expect(off.size).toBe(0)
  })
})

describe.each(BACKENDS)('node rows kept between reads on %s', (backend) => {
  let h: TestApp

  beforeAll(async () => {
    h = await createTestApp({ postgres: backend === 'postgres' })
  })

  afterAll(async () => {
    await h?.close()
  })

  const cachesOf = (db: TestApp['db']): NodeReadCaches => ({
    orderings: new OrderingCache(db, 60_000),
    rows: new NodeRowCache(1_000),
  })

  it('reuses unchanged rows and reads again each one whose node, version or publisher changed', async () => {
    const caches = cachesOf(h.db)
    const page = () => listNodes(h.db, {}, 'name', { page: 1, limit: 30 }, caches)
    const first = await page()
    expect(first.rows.length).toBeGreaterThan(5)
    expect(caches.rows.size).toBe(first.rows.length)
    const again = await page()
    again.rows.forEach((row, i) => expect(row).toBe(first.rows[i]))

    // Four nodes of four other publishers than a fifth, untouched one.
    const byPublisher = new Map<string, NodeWithRelations>()
    for (const row of first.rows) {
      if (row.latestVersion && !byPublisher.has(row.publisher.id)) {
        byPublisher.set(row.publisher.id, row)
      }
    }
    const [described, versioned, renamedPublisher, installed, untouched] = [...byPublisher.values()]
    expect(untouched).toBeDefined()
    // Straight in the database, as another API process or the operator command would.
    await h.db
      .update(nodes)
      .set({ description: 'Described anew' })
      .where(eq(nodes.id, described.node.id))
    await h.db
      .update(nodeVersions)
      .set({ changelog: 'A new changelog' })
      .where(eq(nodeVersions.id, versioned.latestVersion?.id ?? ''))
    await h.db
      .update(publishers)
      .set({ description: 'A publisher described anew' })
      .where(eq(publishers.id, renamedPublisher.publisher.id))
    await countDownloads(h.db, [
      {
        nodeId: installed.node.id,
        versionId: installed.latestVersion?.id ?? '',
        count: 5,
      },
    ])

    const after = await page()
    const rowNamed = (id: string) => after.rows.find((row) => row.node.id === id)
    expect(rowNamed(described.node.id)?.node.description).toBe('Described anew')
    expect(rowNamed(versioned.node.id)?.latestVersion?.changelog).toBe('A new changelog')
    for (const row of after.rows.filter((r) => r.publisher.id === renamedPublisher.publisher.id)) {
      expect(row.publisher.description).toBe('A publisher described anew')
    }
    expect(rowNamed(installed.node.id)?.node.downloads).toBe(installed.node.downloads + 5)
    expect(rowNamed(untouched.node.id)).toBe(untouched)
    expect(after.rows.map((row) => row.node.id)).toEqual(first.rows.map((row) => row.node.id))
  })

  it('counts matching classes per search even when the rows are kept', async () => {
    const caches = cachesOf(h.db)
    const [withClasses] = await h.db
      .select({ name: nodes.name })
      .from(nodes)
      .where(inArray(nodes.status, ['NodeStatusActive']))
      .limit(1)
    const search = (comfyNodeSearch?: string) =>
      searchNodes(
        h.db,
        { search: withClasses.name, comfyNodeSearch },
        {},
        'relevance',
        { page: 1, limit: 10 },
        caches,
      )
    const first = await search()
    expect(first.rows.length).toBeGreaterThan(0)
    expect(caches.rows.size).toBeGreaterThan(0)
    const again = await search()
    expect(again.rows.map((row) => row.comfyNodesMatched)).toEqual(
      first.rows.map((row) => row.comfyNodesMatched),
    )
    expect(again.rows[0]).not.toBe(first.rows[0])
    expect(again.rows[0].node).toBe(first.rows[0].node)
  })

  it('shows over HTTP what another process changed at once', async () => {
    const list = () => get<NodeListResponse>(h.app, '/nodes?sort=name&limit=10')
    const before = await list()
    expect(before.status).toBe(200)
    const [target] = before.body.nodes
    await h.db
      .update(nodes)
      .set({ description: 'Changed elsewhere' })
      .where(eq(nodes.id, target.id ?? ''))
    const after = await list()
    expect(after.body.nodes[0]).toMatchObject({ id: target.id, description: 'Changed elsewhere' })
    expect(after.body.nodes.slice(1)).toEqual(before.body.nodes.slice(1))
  })
})
