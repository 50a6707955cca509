// Cached orderings of listings and searches: reused while the catalogue generation stays, which
// every committed change of a node, publisher or class moves (whoever made it) and installs do
// not; pages walked one by one see every node once, and totalPages is what a client can walk.
import { eq, isNotNull, sql } from 'drizzle-orm'
import { nodes } from '../db/schema'
import type { Schemas } from '../http/operations'
import { setNodeStatus } from '../test/data'
import { BACKENDS, createTestApp, get, query, type TestApp } from '../test/harness'
import { countDownloads } from './queries'
import { catalogueGenerationOf, OrderingCache, orderingKey, type Ordering } from './ordering-cache'

type NodeListResponse = Schemas['NodeListResponse']

jest.setTimeout(60_000)

describe('orderingKey', () => {
  it('ignores the order of keys and of array items, and empty parts', () => {
    expect(orderingKey({ sort: 'name', tags: ['b', 'a'], publisher: undefined })).toBe(
      orderingKey({ tags: ['a', 'b'], sort: 'name', os: '' }),
    )
    expect(orderingKey({ sort: 'name' })).not.toBe(orderingKey({ sort: 'downloads' }))
  })
})

describe.each(BACKENDS)('cached orderings on %s', (backend) => {
  let h: TestApp

  beforeAll(async () => {
    h = await createTestApp({ postgres: backend === 'postgres' })
  })

  afterAll(async () => {
    await h?.close()
  })

  it('moves the catalogue generation once per committed change, never for installs or a rollback', async () => {
    const start = await catalogueGenerationOf(h.db)
    const node = await firstNodeOf(h)
    await h.db.transaction(async (tx) => {
      await tx
        .update(nodes)
        .set({ name: `${node.name}!` })
        .where(eq(nodes.id, node.id))
      await tx.update(nodes).set({ name: node.name }).where(eq(nodes.id, node.id))
    })
    expect(await catalogueGenerationOf(h.db)).toBe(start + 1)

    await countDownloads(h.db, [
      { nodeId: node.id, versionId: node.latestVersionId ?? '', count: 3 },
    ])
    expect(await catalogueGenerationOf(h.db)).toBe(start + 1)

    await expect(
      h.db.transaction(async (tx) => {
        await tx.update(nodes).set({ name: 'never' }).where(eq(nodes.id, node.id))
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')
    expect(await catalogueGenerationOf(h.db)).toBe(start + 1)
  })

  async function walk(path: string, params: Record<string, string | number>) {
    const limit = 7
    const first = await get<NodeListResponse>(h.app, `${path}${query({ ...params, limit })}`)
    expect(first.status).toBe(200)
    const { total, totalPages } = first.body
    const ids: string[] = []
    for (let page = 1; page <= totalPages + 1; page++) {
      const reply = await get<NodeListResponse>(
        h.app,
        `${path}${query({ ...params, limit, page })}`,
      )
      expect(reply.body).toMatchObject({ total, totalPages, page, limit })
      if (page > totalPages) expect(reply.body.nodes).toEqual([])
      else expect(reply.body.nodes.length).toBeGreaterThan(0)
      ids.push(...reply.body.nodes.map((node) => node.id ?? ''))
    }
    return { ids, total, totalPages, limit }
  }

  it.each([
    ['/nodes', { sort: 'downloads' }],
    ['/nodes', { sort: 'name' }],
    ['/nodes/search', { search: 'comfyui' }],
    ['/nodes/search', { search: 'comfyui', sort: 'newest' }],
  ])('walks %s %j page by page: every node once, totalPages pages', async (path, params) => {
    const { ids, total, totalPages, limit } = await walk(path, params)
    expect(total).toBeGreaterThan(limit)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids.length).toBe(total)
    expect(totalPages).toBe(Math.ceil(total / limit))
  })

  it('shows a change made behind the API at once, in listings and searches', async () => {
    const list = async () =>
      (await get<NodeListResponse>(h.app, `/nodes${query({ limit: 100, sort: 'name' })}`)).body
    const search = async (text: string) =>
      (await get<NodeListResponse>(h.app, `/nodes/search${query({ search: text, limit: 100 })}`))
        .body
    const before = await list()
    const shown = before.nodes[0]
    const id = shown.id ?? ''
    const searchedBefore = await search(shown.name ?? id)
    expect(searchedBefore.nodes.map((node) => node.id)).toContain(id)

    // As another process would: straight into the database.
    await setNodeStatus(h.db, id, 'NodeStatusBanned')
    const after = await list()
    expect(after.total).toBe(before.total - 1)
    expect(after.nodes.map((node) => node.id)).not.toContain(id)
    expect((await search(shown.name ?? id)).nodes.map((node) => node.id)).not.toContain(id)

    await setNodeStatus(h.db, id, 'NodeStatusActive')
    expect((await list()).total).toBe(before.total)
  })

  it('keeps an ordering by downloads for its age, whatever the installs', async () => {
    const downloadsOrder = async () =>
      (
        await get<NodeListResponse>(h.app, `/nodes${query({ limit: 100, sort: 'downloads' })}`)
      ).body.nodes.map((node) => node.id)
    const order = await downloadsOrder()
    const last = order[order.length - 1] ?? ''
    await h.db.execute(sql`update nodes set downloads = downloads + 100000000 where id = ${last}`)
    // The same ordering (the rows themselves are fresh: the count shows the new figure).
    expect(await downloadsOrder()).toEqual(order)
    const [node] = (
      await get<NodeListResponse>(h.app, `/nodes${query({ limit: 100, sort: 'downloads' })}`)
    ).body.nodes.filter((item) => item.id === last)
    expect(node.downloads).toBeGreaterThanOrEqual(100000000)
    await h.db.execute(sql`update nodes set downloads = downloads - 100000000 where id = ${last}`)
  })
})

describe('OrderingCache', () => {
  let h: TestApp

  beforeAll(async () => {
    h = await createTestApp({ nodes: 3, publishers: 1 })
  })

  afterAll(async () => {
    await h?.close()
  })

  function counted(ids: string[]) {
    const calls = { count: 0 }
    const compute = async (): Promise<Ordering> => {
      calls.count++
      return { ids, total: ids.length }
    }
    return { calls, compute }
  }

  it('computes once for identical requests, again after a change', async () => {
    const cache = new OrderingCache(h.db, 60_000)
    const { calls, compute } = counted(['a', 'b'])
    await Promise.all([cache.ordering('k', compute), cache.ordering('k', compute)])
    await cache.ordering('k', compute)
    expect(calls.count).toBe(1)

    const node = await firstNodeOf(h)
    await h.db
      .update(nodes)
      .set({ name: `${node.name}?` })
      .where(eq(nodes.id, node.id))
    await cache.ordering('k', compute)
    expect(calls.count).toBe(2)
  })

  it('answers in one read while the generation holds; after a change, from a new ordering', async () => {
    const cache = new OrderingCache(h.db, 60_000)
    let computed = 0
    const compute = async (): Promise<Ordering> => {
      computed++
      return { ids: [`v${computed}`], total: 1 }
    }
    const reads: string[] = []
    const read = async (ordering: Ordering) => {
      reads.push(ordering.ids[0])
      return { value: ordering.ids[0], generation: await catalogueGenerationOf(h.db) }
    }
    expect(await cache.answer('k', compute, read)).toBe('v1')
    expect(await cache.answer('k', compute, read)).toBe('v1')
    expect(reads).toEqual(['v1', 'v1'])

    const node = await firstNodeOf(h)
    await h.db
      .update(nodes)
      .set({ name: `${node.name}+` })
      .where(eq(nodes.id, node.id))
    expect(await cache.answer('k', compute, read)).toBe('v2')
    // The kept ordering's read saw the change; the answer was made again from a new one.
    expect(reads).toEqual(['v1', 'v1', 'v1', 'v2'])
    expect(await cache.answer('k', compute, read)).toBe('v2')
    expect(computed).toBe(2)

    // A read of an older generation (rows an anonymous page may show up to PUBLIC_CACHE_MS old,
    // RowReuse.staleMs) is answered from the newer ordering, which stays.
    const older = async (ordering: Ordering) => ({
      value: ordering.ids[0],
      generation: (await catalogueGenerationOf(h.db)) - 1,
    })
    expect(await cache.answer('k', compute, older)).toBe('v2')
    expect(await cache.answer('k', compute, read)).toBe('v2')
    expect(computed).toBe(2)
  })

  it('answers directly while no ordering of the catalogue is computed, from it once it is', async () => {
    const cache = new OrderingCache(h.db, 60_000)
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    let computed = 0
    const compute = async (): Promise<Ordering> => {
      computed++
      await held
      return { ids: ['kept'], total: 1 }
    }
    const read = async (ordering: Ordering) => ({
      value: ordering.ids[0],
      generation: await catalogueGenerationOf(h.db),
    })
    const direct = async () => 'direct'
    // A fresh cache: the first requests do not wait for the ordering being computed.
    expect(await cache.answer('k', compute, read, 1, direct)).toBe('direct')
    expect(await cache.answer('k', compute, read, 1, direct)).toBe('direct')
    release()
    await cache.ordering('k', compute)
    expect(await cache.answer('k', compute, read, 1, direct)).toBe('kept')
    expect(computed).toBe(1)

    // After a change: answered directly again while the next ordering is computed.
    const node = await firstNodeOf(h)
    await h.db
      .update(nodes)
      .set({ name: `${node.name}~` })
      .where(eq(nodes.id, node.id))
    expect(await cache.answer('k', compute, read, 1, direct)).toBe('direct')
    await cache.ordering('k', compute)
    expect(await cache.answer('k', compute, read, 1, direct)).toBe('kept')
    expect(computed).toBe(2)

    // Orderings off: every request is answered directly, nothing is computed.
    const off = new OrderingCache(h.db, 0)
    expect(await off.answer('k', compute, read, 1, direct)).toBe('direct')
    expect(computed).toBe(2)
  })

  it('answers with an ordering past its TTL while the next one is computed', async () => {
    const cache = new OrderingCache(h.db, 60_000)
    let version = 0
    const compute = async (): Promise<Ordering> => {
      version++
      return { ids: [`v${version}`], total: 1 }
    }
    expect((await cache.ordering('k', compute)).ids).toEqual(['v1'])
    const clock = jest.spyOn(Date, 'now').mockReturnValue(Date.now() + 60_001)
    try {
      expect((await cache.ordering('k', compute)).ids).toEqual(['v1'])
      expect((await cache.ordering('k', compute)).ids).toEqual(['v2'])
      expect(version).toBe(2)
    } finally {
      clock.mockRestore()
    }
  })

  it('keeps an ordering longer with an age factor (orders that downloads do not move)', async () => {
    const cache = new OrderingCache(h.db, 60_000)
    let computed = 0
    const compute = async (): Promise<Ordering> => ({ ids: [`v${++computed}`], total: 1 })
    const read = async (ordering: Ordering) => ({
      value: ordering.ids[0],
      generation: await catalogueGenerationOf(h.db),
    })
    await cache.answer('k', compute, read, 10)
    const start = Date.now()
    const clock = jest.spyOn(Date, 'now').mockReturnValue(start + 60_001)
    try {
      await cache.answer('k', compute, read, 10)
      expect(computed).toBe(1)
      clock.mockReturnValue(start + 600_001)
      await cache.answer('k', compute, read, 10)
      expect(computed).toBe(2)
    } finally {
      clock.mockRestore()
    }
  })

  it('refreshes at most two expired orderings at a time; the others answer as they were', async () => {
    const cache = new OrderingCache(h.db, 60_000)
    const keys = ['a', 'b', 'c']
    for (const key of keys) await cache.ordering(key, async () => ({ ids: [key], total: 1 }))
    const clock = jest.spyOn(Date, 'now').mockReturnValue(Date.now() + 60_001)
    const started: string[] = []
    const never = new Promise<Ordering>(() => undefined)
    try {
      for (const key of keys) {
        const answer = await cache.ordering(key, () => {
          started.push(key)
          return never
        })
        expect(answer.ids).toEqual([key])
      }
      expect(started).toEqual(['a', 'b'])
    } finally {
      clock.mockRestore()
    }
  })

  it('keeps no failure, and nothing with a TTL of 0', async () => {
    const cache = new OrderingCache(h.db, 60_000)
    await expect(cache.ordering('k', () => Promise.reject(new Error('down')))).rejects.toThrow()
    const { calls, compute } = counted(['a'])
    await cache.ordering('k', compute)
    expect(calls.count).toBe(1)

    const off = new OrderingCache(h.db, 0)
    await off.ordering('k', compute)
    await off.ordering('k', compute)
    expect(calls.count).toBe(3)
    expect(off.size).toBe(0)
  })

  it('drops the least recently used orderings beyond its size', async () => {
    const cache = new OrderingCache(h.db, 60_000, 4)
    await cache.ordering('one', counted(['a', 'b']).compute)
    await cache.ordering('two', counted(['c', 'd']).compute)
    await cache.ordering('one', counted([]).compute) // used again: now the newest
    await cache.ordering('three', counted(['e', 'f']).compute)
    const again = counted(['x'])
    await cache.ordering('one', again.compute)
    expect(again.calls.count).toBe(0)
    await cache.ordering('two', again.compute)
    expect(again.calls.count).toBe(1)
  })
})

/** A node with a latest version (installs count against it). */
async function firstNodeOf(h: TestApp) {
  return (await h.db.select().from(nodes).where(isNotNull(nodes.latestVersionId)).limit(1))[0]
}
