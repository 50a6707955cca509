// Deep pages of a public listing without a cached ordering start at a mark kept in the database,
// in every order: the same pages as an OFFSET while the marks are current, never a hidden node,
// and an OFFSET again once the catalogue changed (until the marks are made anew).
import { eq, sql } from 'drizzle-orm'
import type { NodeSort as NodeOrdering } from '../db/ordering'
import { nodeListMarks, nodes, publishers } from '../db/schema'
import { insertNodeWithVersions, setNodeStatus } from '../test/data'
import { BACKENDS, createTestApp, type TestApp } from '../test/harness'
import { LIST_MARKS, makeMarks, markedPage, marksMade } from './list-marks'
import { listNodes, publiclyVisible, type NodeSort } from './queries'

jest.setTimeout(60_000)

/** Each ordering of the marks, and the API's sort that lists in it. */
const ORDERINGS: [NodeOrdering, NodeSort][] = [
  ['downloads', 'downloads'],
  ['github_stars', 'stars'],
  ['created_at', 'newest'],
  ['updated', 'recent'],
  ['name', 'name'],
]

/** Public nodes without any version: last in the order by latest version, by id. */
const WITHOUT_VERSIONS = ['zz-no-version-b', 'zz-no-version-a', 'zz-no-version-c']

describe.each(BACKENDS)('list marks on %s', (backend) => {
  let h: TestApp
  const every = LIST_MARKS.every

  beforeAll(async () => {
    h = await createTestApp({ postgres: backend === 'postgres' })
    LIST_MARKS.every = 4
    const [publisher] = await h.db
      .select({ id: publishers.id })
      .from(publishers)
      .where(eq(publishers.status, 'PublisherStatusActive'))
      .limit(1)
    for (const id of WITHOUT_VERSIONS) {
      await insertNodeWithVersions(h.db, { id, publisherId: publisher.id }, [])
    }
  })

  afterAll(async () => {
    LIST_MARKS.every = every
    await h?.close()
  })

  const wholeList = async (sort: NodeSort = 'downloads') =>
    (await listNodes(h.db, {}, sort, { page: 1, limit: 1_000 })).rows.map((row) => row.node.id)

  it.each(ORDERINGS)(
    'answers every deep page in the order %s as the OFFSET does',
    async (ordering, sort) => {
      await h.db.delete(nodeListMarks)
      const limit = 3
      // No marks yet: the page is asked with an OFFSET (and the marks are made meanwhile).
      expect(await markedPage(h.db, publiclyVisible(), ordering, 6, limit)).toBeUndefined()
      await marksMade(h.db)
      const all = await wholeList(sort)
      expect(all.length).toBeGreaterThan(12)
      // In the order by latest version, the nodes without one come last (among them, ours).
      const keyless = new Set(
        (
          await h.db
            .select({ id: nodes.id })
            .from(nodes)
            .where(sql`${nodes.latestVersionCreatedAt} is null`)
        ).map((row) => row.id),
      )
      const firstKeyless = ordering === 'updated' ? all.findIndex((id) => keyless.has(id)) : -1
      if (ordering === 'updated') {
        expect(all.slice(firstKeyless).every((id) => keyless.has(id))).toBe(true)
        expect(all.slice(firstKeyless)).toEqual(expect.arrayContaining(WITHOUT_VERSIONS))
      }
      for (let offset = LIST_MARKS.every; offset < all.length + limit; offset += 1) {
        const page = await markedPage(h.db, publiclyVisible(), ordering, offset, limit)
        // Only a page running from nodes with a latest version into those without is left to
        // the OFFSET.
        const straddles = offset < firstKeyless && offset + limit > firstKeyless
        expect(page).toEqual(straddles ? undefined : all.slice(offset, offset + limit))
      }
      // Through the listing (no caches): the same pages.
      for (const pageNumber of [3, 4, 5]) {
        const page = await listNodes(h.db, {}, sort, { page: pageNumber, limit })
        expect(page.rows.map((row) => row.node.id)).toEqual(
          all.slice((pageNumber - 1) * limit, pageNumber * limit),
        )
      }
    },
  )

  it('uses no mark of an older catalogue: a hidden node is never shown', async () => {
    const limit = 3
    for (const [ordering] of ORDERINGS) await makeMarks(h.db, publiclyVisible(), ordering)
    const all = await wholeList()
    const hidden = all[7]
    await setNodeStatus(h.db, hidden, 'NodeStatusBanned')
    try {
      for (const [ordering, sort] of ORDERINGS) {
        expect(await markedPage(h.db, publiclyVisible(), ordering, 6, limit)).toBeUndefined()
        await marksMade(h.db)
        const now = await wholeList(sort)
        expect(now).not.toContain(hidden)
        expect(await markedPage(h.db, publiclyVisible(), ordering, 6, limit)).toEqual(
          now.slice(6, 9),
        )
        const after = await listNodes(h.db, {}, sort, { page: 3, limit })
        expect(after.rows.map((row) => row.node.id)).toEqual(now.slice(6, 9))
      }
    } finally {
      await setNodeStatus(h.db, hidden, 'NodeStatusActive')
    }
  })

  it('makes the marks by downloads again once they are older than their age, no others', async () => {
    for (const [ordering] of ORDERINGS) await makeMarks(h.db, publiclyVisible(), ordering)
    await h.db.update(nodeListMarks).set({ madeAt: sql`now() - interval '1 hour'` })
    expect(await markedPage(h.db, publiclyVisible(), 'downloads', 6, 3)).toBeUndefined()
    await marksMade(h.db)
    expect(await markedPage(h.db, publiclyVisible(), 'downloads', 6, 3)).toEqual(
      (await wholeList()).slice(6, 9),
    )
    // Other orders move only with the catalogue (its generation), not with download counts.
    expect(await markedPage(h.db, publiclyVisible(), 'name', 6, 3)).toEqual(
      (await wholeList('name')).slice(6, 9),
    )
  })

  it('keeps a node of a deep page in its place when only its download count moves', async () => {
    await makeMarks(h.db, publiclyVisible(), 'name')
    const before = await wholeList('name')
    await h.db
      .update(nodes)
      .set({ downloads: sql`${nodes.downloads} + 1000` })
      .where(eq(nodes.id, before[8]))
    expect(await markedPage(h.db, publiclyVisible(), 'name', 6, 3)).toEqual(before.slice(6, 9))
  })
})
