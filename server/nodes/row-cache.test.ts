// Node rows kept between requests: reused while their three rows (node, latest version,
// publisher) are unchanged, read again as soon as any of them changed, whoever changed it.
import { eq, inArray, sql } from 'drizzle-orm'
import { nodeRowChanges, nodes, nodeVersions, publishers } from '../db/schema'
import type { Schemas } from '../http/operations'
import type { NodeWithRelations } from '../http/serialize'
import { forgetPublicAnswers } from '../http/public-cache'
import { signUpUser, type TestUser } from '../test/auth'
import { BACKENDS, createTestApp, get, type TestApp } from '../test/harness'
import { OrderingCache } from './ordering-cache'
import { countDownloads, listNodes, searchNodes, type NodeReadCaches } from './queries'
import { NodeRowCache } from './row-cache'
import {
  pruneRowChanges,
  RowChangeLog,
  snapshotHorizon,
  TRUST_LAPSES_MS,
  type RowChange,
  type RowChangesRead,
} from './row-changes'

type NodeListResponse = Schemas['NodeListResponse']

jest.setTimeout(60_000)

/** Waits until every transaction that had begun when it was called has ended. */
async function untilHorizonPasses(db: TestApp['db']) {
  const [now] = await db
    .select({ xid: sql<string>`txid_current()::text` })
    .from(sql`(select 1) as one`)
  for (let attempt = 0; attempt < 500; attempt++) {
    const [read] = await db.select({ horizon: snapshotHorizon }).from(sql`(select 1) as one`)
    if (BigInt(read.horizon) > BigInt(now.xid)) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`transactions begun before ${now.xid} are still open`)
}

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

describe('NodeRowCache trusting rows between changes', () => {
  const now = 1_000_000
  const readAt = (horizon: bigint, publisherId = 'pub', sentAt = now) => ({
    publisherId,
    horizon,
    sentAt,
  })
  const logged = (changes: RowChange[], horizon = 100n): RowChangesRead => ({
    changes,
    generation: 1,
    horizon,
  })
  const started = () => {
    const cache = new NodeRowCache<string>(10)
    cache.applyChanges(logged([], 5n), true, now)
    return cache
  }

  it('trusts a row until a change it may miss is logged for its node or its publisher', () => {
    const cache = started()
    cache.set('a', 's', 'row a', readAt(20n), now)
    cache.set('b', 's', 'row b', readAt(20n, 'other'), now)
    cache.set('c', 's', 'row c', readAt(20n), now)
    expect(cache.trusted('a')).toBe('row a')
    // Below the horizon the row was read at: the row has it already.
    cache.applyChanges(logged([{ kind: 'node', id: 'a', xid: 19n }]), false, now)
    expect(cache.trusted('a')).toBe('row a')
    cache.applyChanges(logged([{ kind: 'node', id: 'a', xid: 20n }]), false, now)
    expect(cache.trusted('a')).toBeUndefined()
    cache.applyChanges(logged([{ kind: 'publisher', id: 'pub', xid: 25n }]), false, now)
    expect(cache.trusted('c')).toBeUndefined()
    expect(cache.trusted('b')).toBe('row b')
    // Still kept, for searches comparing stamps.
    expect(cache.get('a', 's')).toBe('row a')
  })

  it('does not trust a row read before a change applied while the read was in flight', () => {
    const cache = started()
    cache.applyChanges(logged([{ kind: 'node', id: 'a', xid: 30n }]), false, now)
    cache.applyChanges(logged([{ kind: 'publisher', id: 'pub', xid: 40n }]), false, now)
    cache.set('a', 's', 'row a', readAt(30n, 'other'), now)
    cache.set('b', 's', 'row b', readAt(35n), now)
    cache.set('c', 's', 'row c', readAt(41n), now)
    expect([cache.trusted('a'), cache.trusted('b'), cache.trusted('c')]).toEqual([
      undefined,
      undefined,
      'row c',
    ])
    // Read after the change (a higher horizon): trusted.
    cache.set('a', 's', 'row a', readAt(31n, 'other'), now)
    expect(cache.trusted('a')).toBe('row a')
  })

  it('trusts nothing after the log went unread, nor rows read before, nor slow reads', () => {
    const cache = started()
    cache.set('a', 's', 'row a', readAt(20n), now)
    cache.applyChanges(logged([], 50n), true, now)
    expect(cache.trusted('a')).toBeUndefined()
    cache.set('a', 's', 'row a', readAt(49n), now)
    expect(cache.trusted('a')).toBeUndefined()
    cache.set('a', 's', 'row a', readAt(50n), now)
    expect(cache.trusted('a')).toBe('row a')
    cache.set('b', 's', 'row b', readAt(60n, 'pub', now - 31_000), now)
    expect(cache.trusted('b')).toBeUndefined()
    // A row kept without how it was read (none given) is never trusted.
    cache.set('c', 's', 'row c', undefined, now)
    expect(cache.trusted('c')).toBeUndefined()
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

  // Kept rows are reused once the horizon passed their changes (the demo data's, the tests'
  // before): a transaction of another suite on the same PostgreSQL can hold it back for seconds.
  beforeEach(() => untilHorizonPasses(h.db), 60_000)

  const cachesOf = (db: TestApp['db'], withLog = true): NodeReadCaches => {
    const rows = new NodeRowCache(1_000)
    return {
      orderings: new OrderingCache(db, 60_000),
      rows,
      changes: withLog
        ? new RowChangeLog(db, (read, lapsed) => rows.applyChanges(read, lapsed))
        : undefined,
    }
  }

  it.each([
    ['the change log', true],
    ['their stamps', false],
  ])(
    'reuses unchanged rows and reads again each one whose node, version or publisher changed (by %s)',
    async (_, withLog) => {
      const caches = cachesOf(h.db, withLog)
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
      const [described, versioned, renamedPublisher, installed, untouched] = [
        ...byPublisher.values(),
      ]
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

      // Until then, the rows read again are not trusted yet: a second read (the ordering's
      // generation moved) would read them once more.
      await untilHorizonPasses(h.db)
      const missesBefore = caches.rows.stats.misses
      const after = await page()
      // Read again: exactly the rows whose node, version or publisher changed.
      const changed = first.rows.filter(
        (row) =>
          [described, versioned, installed].includes(row) ||
          row.publisher.id === renamedPublisher.publisher.id,
      )
      expect(caches.rows.stats.misses - missesBefore).toBe(changed.length)
      const rowNamed = (id: string) => after.rows.find((row) => row.node.id === id)
      expect(rowNamed(described.node.id)?.node.description).toBe('Described anew')
      expect(rowNamed(versioned.node.id)?.latestVersion?.changelog).toBe('A new changelog')
      for (const row of after.rows.filter(
        (r) => r.publisher.id === renamedPublisher.publisher.id,
      )) {
        expect(row.publisher.description).toBe('A publisher described anew')
      }
      expect(rowNamed(installed.node.id)?.node.downloads).toBe(installed.node.downloads + 5)
      expect(rowNamed(untouched.node.id)).toBe(untouched)
      expect(after.rows.map((row) => row.node.id)).toEqual(first.rows.map((row) => row.node.id))
    },
  )

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

  it('answers each read with one sent after it was asked, shared by the reads asked meanwhile', async () => {
    const applied: RowChangesRead[] = []
    const log = new RowChangeLog(h.db, (read) => applied.push(read))
    await log.read()
    const [row] = await h.db.select({ id: nodes.id }).from(nodes).limit(1)
    await h.db.update(nodes).set({ description: 'Changed meanwhile' }).where(eq(nodes.id, row.id))
    const inFlight = log.read()
    // Asked while a read is in flight: they share the next one, sent when it ends.
    const reads = await Promise.all([log.read(), log.read(), log.read()])
    expect(new Set(reads).size).toBe(1)
    expect(reads[0]).not.toBe(await inFlight)
    expect(applied).toHaveLength(3)
    // A read asked after the change committed saw it.
    expect((await inFlight).changes).toContainEqual(
      expect.objectContaining({ kind: 'node', id: row.id }),
    )
    // The next read asks from the last one's horizon on: no change below it is read again (the
    // change above is, while a transaction older than it is still open: another test's, say).
    const next = await log.read()
    expect(next.changes.filter((change) => change.xid < reads[0].horizon)).toEqual([])
  })

  it('lets a read answer later ones for staleMs after it started, until this process changes something', async () => {
    let clock = Date.now()
    const applied: RowChangesRead[] = []
    const log = new RowChangeLog(
      h.db,
      (read) => applied.push(read),
      () => clock,
    )
    const first = await log.read(1_000)
    clock += 1_000
    expect(await log.read(1_000)).toBe(first)
    // Without staleMs (a signed-in caller), a read sent after it was asked.
    const strict = await log.read()
    expect(strict).not.toBe(first)
    clock += 1_001
    const later = await log.read(1_000)
    expect(later).not.toBe(strict)
    expect(await log.read(1_000)).toBe(later)
    log.changed()
    // A read started in the millisecond of the change may have started before it.
    const sameMillisecond = await log.read(1_000)
    expect(sameMillisecond).not.toBe(later)
    clock += 1
    const afterChange = await log.read(1_000)
    expect(afterChange).not.toBe(sameMillisecond)
    expect(await log.read(1_000)).toBe(afterChange)
    expect(applied).toEqual([first, strict, later, sameMillisecond, afterChange])
  })

  it('trusts nothing kept once the log went unread longer than the log is surely kept', async () => {
    let clock = Date.now()
    const lapses: boolean[] = []
    const log = new RowChangeLog(
      h.db,
      (_, lapsed) => lapses.push(lapsed),
      () => clock,
    )
    await log.read()
    await log.read()
    clock += TRUST_LAPSES_MS + 1
    await log.read()
    expect(lapses).toEqual([true, false, true])
  })

  it('prunes the changes below a horizon recorded long enough ago, and only those', async () => {
    const [row] = await h.db.select({ id: nodes.id }).from(nodes).limit(1)
    const start = new Date(Date.now() + 60 * 60_000)
    await h.db.update(nodes).set({ description: 'Before the horizon' }).where(eq(nodes.id, row.id))
    await untilHorizonPasses(h.db)
    // Records the horizon (above that change); nothing is old enough to prune by.
    await pruneRowChanges(h.db, start)
    await h.db.update(nodes).set({ description: 'After the horizon' }).where(eq(nodes.id, row.id))
    const logged = async () =>
      (await h.db.select({ xid: nodeRowChanges.xid }).from(nodeRowChanges)).length
    const loggedFor = async (id: string) =>
      (await h.db.select().from(nodeRowChanges).where(eq(nodeRowChanges.nodeId, id))).length
    const before = await logged()
    expect(await loggedFor(row.id)).toBeGreaterThanOrEqual(2)
    // Five minutes later: the recorded horizon is too recent to prune by.
    expect(await pruneRowChanges(h.db, new Date(start.getTime() + TRUST_LAPSES_MS))).toBe(0)
    const removed = await pruneRowChanges(h.db, new Date(start.getTime() + 2 * TRUST_LAPSES_MS + 1))
    expect(removed).toBeGreaterThan(0)
    expect(await logged()).toBe(before - removed)
    // The change made after the recorded horizon is kept for processes still to read it.
    expect(await loggedFor(row.id)).toBe(1)
  })

  it('reads rows ahead of a client asking the pages in order, and only then', async () => {
    const all = await listNodes(h.db, {}, 'downloads', { page: 1, limit: 500 })
    const pageOf = (caches: NodeReadCaches, page: number) =>
      listNodes(h.db, {}, 'downloads', { page, limit: 3 }, caches)
    const readAhead = async (caches: NodeReadCaches) => {
      for (let attempt = 0; attempt < 100 && caches.rows.size < all.total; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      return caches.rows.size
    }
    expect(all.total).toBeGreaterThan(9)

    const walking = cachesOf(h.db)
    await pageOf(walking, 1) // computes the ordering (this page is read by its index)
    // Pages read by the index while the ordering is still computed read nothing ahead (a busy
    // machine may take longer than a page): the walk starts again until they come from it.
    for (let attempt = 0; attempt < 10 && walking.rows.size < all.total; attempt++) {
      await pageOf(walking, 1)
      await pageOf(walking, 2)
      await readAhead(walking)
    }
    expect(walking.rows.size).toBe(all.total)
    const { misses } = walking.rows.stats
    for (let page = 3; (page - 1) * 3 < all.total; page++) {
      const paged = await pageOf(walking, page)
      expect(paged.rows.map((row) => row.node.id)).toEqual(
        all.rows.slice((page - 1) * 3, page * 3).map((row) => row.node.id),
      )
    }
    expect(walking.rows.stats.misses).toBe(misses)

    const jumping = cachesOf(h.db)
    for (const page of [1, 1, 3, 2]) await pageOf(jumping, page)
    expect(await readAhead(jumping)).toBe(9)
  })
})

describe.each(BACKENDS)('anonymous pages within PUBLIC_CACHE_MS on %s', (backend) => {
  let h: TestApp

  beforeAll(async () => {
    h = await createTestApp({
      postgres: backend === 'postgres',
      env: { PUBLIC_CACHE_MS: '60000' },
    })
  })

  afterAll(async () => {
    await h?.close()
  })

  beforeEach(() => untilHorizonPasses(h.db), 60_000)

  // Each page a new address: the public read cache answers none of them.
  let limit = 10
  const page = (as?: TestUser) =>
    get<NodeListResponse>(
      h.app,
      `/nodes?sort=name&limit=${limit++}`,
      as ? { authorization: `Bearer ${as.idToken}` } : {},
    )
  const describeFirst = async (description: string) => {
    const [first] = (await page()).body.nodes
    await h.db
      .update(nodes)
      .set({ description })
      .where(eq(nodes.id, first.id ?? ''))
    return first
  }

  it("may show another process's change that late, and a change made here at once", async () => {
    const first = await describeFirst('Changed elsewhere')
    expect((await page()).body.nodes[0]).toEqual(first)
    // A pipeline job of this process changed what the public sees (server/pipeline/worker.ts).
    forgetPublicAnswers(h.db)
    expect((await page()).body.nodes[0]).toMatchObject({
      id: first.id,
      description: 'Changed elsewhere',
    })
  })

  it("shows a signed-in caller another process's change at once", async () => {
    const user = await signUpUser()
    const first = await describeFirst('Changed elsewhere again')
    expect((await page()).body.nodes[0]).toEqual(first)
    expect((await page(user)).body.nodes[0]).toMatchObject({
      id: first.id,
      description: 'Changed elsewhere again',
    })
  })
})
