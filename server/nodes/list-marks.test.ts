// Deep pages of the public listing by downloads without a cached ordering start at a mark kept in
// the database: the same pages as an OFFSET while the marks are current, never a hidden node, and
// an OFFSET again once the catalogue changed (until the marks are made anew).
import { sql } from 'drizzle-orm'
import { nodeListMarks } from '../db/schema'
import { setNodeStatus } from '../test/data'
import { BACKENDS, createTestApp, type TestApp } from '../test/harness'
import { LIST_MARKS, makeMarks, markedPage, marksMade } from './list-marks'
import { listNodes, publiclyVisible } from './queries'

jest.setTimeout(60_000)

describe.each(BACKENDS)('list marks on %s', (backend) => {
  let h: TestApp
  const every = LIST_MARKS.every

  beforeAll(async () => {
    h = await createTestApp({ postgres: backend === 'postgres' })
    LIST_MARKS.every = 4
  })

  afterAll(async () => {
    LIST_MARKS.every = every
    await h?.close()
  })

  const wholeList = async () =>
    (await listNodes(h.db, {}, 'downloads', { page: 1, limit: 1_000 })).rows.map(
      (row) => row.node.id,
    )

  it('answers every deep page as the OFFSET does, and stops once the catalogue changes', async () => {
    await h.db.delete(nodeListMarks)
    const limit = 3
    // No marks yet: the page is asked with an OFFSET (and the marks are made meanwhile).
    expect(await markedPage(h.db, publiclyVisible(), 6, limit)).toBeUndefined()
    await marksMade(h.db)
    const all = await wholeList()
    expect(all.length).toBeGreaterThan(12)
    for (let offset = LIST_MARKS.every; offset < all.length + limit; offset += limit) {
      expect(await markedPage(h.db, publiclyVisible(), offset, limit)).toEqual(
        all.slice(offset, offset + limit),
      )
    }
    // Through the listing (no caches): the same pages.
    const page = await listNodes(h.db, {}, 'downloads', { page: 3, limit })
    expect(page.rows.map((row) => row.node.id)).toEqual(all.slice(6, 9))

    // A node of a deep page hidden: the marks are of an older catalogue, never used.
    const hidden = all[7]
    await setNodeStatus(h.db, hidden, 'NodeStatusBanned')
    try {
      expect(await markedPage(h.db, publiclyVisible(), 6, limit)).toBeUndefined()
      await marksMade(h.db)
      const after = await listNodes(h.db, {}, 'downloads', { page: 3, limit })
      expect(after.rows.map((row) => row.node.id)).not.toContain(hidden)
      const now = await wholeList()
      expect(await markedPage(h.db, publiclyVisible(), 6, limit)).toEqual(now.slice(6, 9))
      expect(now).not.toContain(hidden)
    } finally {
      await setNodeStatus(h.db, hidden, 'NodeStatusActive')
    }
  })

  it('makes the marks again once they are older than their age', async () => {
    await makeMarks(h.db, publiclyVisible())
    await h.db.update(nodeListMarks).set({ madeAt: sql`now() - interval '1 hour'` })
    expect(await markedPage(h.db, publiclyVisible(), 6, 3)).toBeUndefined()
    await marksMade(h.db)
    expect(await markedPage(h.db, publiclyVisible(), 6, 3)).toEqual((await wholeList()).slice(6, 9))
  })
})
