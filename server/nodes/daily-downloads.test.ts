// A node's downloads per day (getNodeDailyDownloads): zero-filled UTC days ending today, the
// range's bounds, refused `days`, visibility like getNode, and counts after real installs.
import { count, eq, sql } from 'drizzle-orm'
import { nodeDownloadsDaily, nodes, publishers } from '../db/schema'
import type { Schemas } from '../http/operations'
import { signUpVerifiedUser } from '../test/auth'
import { insertNodeWithVersions } from '../test/data'
import { BACKENDS, createTestApp, expectErrorBody, get, type TestApp } from '../test/harness'

type NodeDailyDownloads = Schemas['NodeDailyDownloads']

jest.setTimeout(60_000)

const DAY_MS = 86_400_000

describe.each(BACKENDS)('downloads per day on %s', (backend) => {
  let h: TestApp
  let today: string
  const nodeId = `daily-${backend}`

  /** `offset` days from today (UTC), as YYYY-MM-DD. */
  const dayFrom = (offset: number) =>
    new Date(Date.parse(`${today}T00:00:00Z`) + offset * DAY_MS).toISOString().slice(0, 10)

  const daily = (id: string, days?: number | string) =>
    get<NodeDailyDownloads>(
      h.app,
      `/nodes/${id}/downloads/daily${days === undefined ? '' : `?days=${days}`}`,
    )

  const bucketCount = async () =>
    (await h.db.select({ rows: count() }).from(nodeDownloadsDaily))[0].rows

  beforeAll(async () => {
    h = await createTestApp({ postgres: backend === 'postgres' })
    const [{ id: publisherId }] = await h.db
      .select({ id: publishers.id })
      .from(publishers)
      .where(eq(publishers.status, 'PublisherStatusActive'))
      .limit(1)
    await insertNodeWithVersions(h.db, { id: nodeId, publisherId }, [])
    // The database's UTC day, the one install counts are stamped with.
    const [row] = await h.db
      .select({ today: sql<string>`to_char((now() at time zone 'utc')::date, 'YYYY-MM-DD')` })
      .from(nodes)
      .limit(1)
    today = row.today
  })

  afterAll(async () => {
    await h?.close()
  })

  it('answers 30 zero-filled days ending today by default, oldest first', async () => {
    const reply = await daily(nodeId)
    expect(reply.status).toBe(200)
    expect(reply.body.node_id).toBe(nodeId)
    expect(reply.body.daily).toHaveLength(30)
    expect(reply.body.daily.map((item) => item.day)).toEqual(
      Array.from({ length: 30 }, (_, index) => dayFrom(index - 29)),
    )
    expect(reply.body.daily.every((item) => item.downloads === 0)).toBe(true)
    expect(reply.body).toMatchObject({ from: dayFrom(-29), to: today, total: 0 })
  })

  it('puts each bucket on its day and leaves out those outside the range', async () => {
    await h.db.insert(nodeDownloadsDaily).values([
      { nodeId, day: dayFrom(0), count: 5 },
      { nodeId, day: dayFrom(-6), count: 7 },
      { nodeId, day: dayFrom(-29), count: 11 },
      { nodeId, day: dayFrom(-30), count: 13 },
      { nodeId, day: dayFrom(-365), count: 17 },
      // Never counted (a clock set back): not in any range.
      { nodeId, day: dayFrom(1), count: 19 },
    ])
    const month = await daily(nodeId, 30)
    expect(month.status).toBe(200)
    const byDay = new Map(month.body.daily.map((item) => [item.day, item.downloads]))
    expect(byDay.get(today)).toBe(5)
    expect(byDay.get(dayFrom(-6))).toBe(7)
    expect(byDay.get(dayFrom(-29))).toBe(11)
    expect(byDay.has(dayFrom(-30))).toBe(false)
    expect(month.body.daily.filter((item) => item.downloads > 0)).toHaveLength(3)
    expect(month.body.total).toBe(23)

    const week = await daily(nodeId, 7)
    expect(week.body.daily).toHaveLength(7)
    expect(week.body).toMatchObject({ from: dayFrom(-6), to: today, total: 12 })

    const single = await daily(nodeId, 1)
    expect(single.body.daily).toEqual([{ day: today, downloads: 5 }])
    expect(single.body.total).toBe(5)

    expect((await daily(nodeId, 31)).body.total).toBe(36)
  })

  it('answers a whole year for days=365, the bucket 365 days ago just outside it', async () => {
    const year = await daily(nodeId, 365)
    expect(year.status).toBe(200)
    expect(year.body.daily).toHaveLength(365)
    expect(year.body).toMatchObject({ from: dayFrom(-364), to: today, total: 36 })
    // Consecutive days, none missing or repeated.
    const times = year.body.daily.map((item) => Date.parse(`${item.day}T00:00:00Z`))
    expect(times.slice(1).every((time, index) => time - times[index] === DAY_MS)).toBe(true)
  })

  it.each(['0', '366', '-1', '2.5', 'many', ''])(
    'refuses days=%p with a JSON 400 and changes nothing',
    async (days) => {
      const before = await bucketCount()
      const reply = await daily(nodeId, days)
      const body = expectErrorBody(reply, 400)
      expect(body.message).toMatch(/days/)
      expect(await bucketCount()).toBe(before)
    },
  )

  it('answers 404 for an unknown node, and for a banned node as getNode does', async () => {
    expectErrorBody(await daily('no-such-node'), 404)
    const banned = `daily-banned-${backend}`
    const [{ publisherId }] = await h.db
      .select({ publisherId: nodes.publisherId })
      .from(nodes)
      .where(eq(nodes.id, nodeId))
    await insertNodeWithVersions(h.db, { id: banned, publisherId }, [])
    await h.db.update(nodes).set({ status: 'NodeStatusBanned' }).where(eq(nodes.id, banned))
    expect((await get(h.app, `/nodes/${banned}`)).status).toBe(404)
    expectErrorBody(await daily(banned), 404)
    // Admins still see it, as they see the node.
    const admin = await signUpVerifiedUser(h.adminEmail)
    const asAdmin = await get<NodeDailyDownloads>(h.app, `/nodes/${banned}/downloads/daily`, {
      authorization: `Bearer ${admin.idToken}`,
    })
    expect(asAdmin.status).toBe(200)
    expect(asAdmin.body.daily).toHaveLength(30)
  })

  it('counts real installs on today’s entry', async () => {
    const node = h.demo.nodes.find((candidate) => candidate.latestVersionId)
    if (!node) throw new Error('the demo data has no installable node')
    const before = await daily(node.id, 90)
    expect(before.status).toBe(200)
    for (let i = 0; i < 3; i++) {
      expect((await get(h.app, `/nodes/${node.id}/install`)).status).toBe(200)
    }
    const after = await daily(node.id, 90)
    expect(after.body.total).toBe(before.body.total + 3)
    expect(after.body.daily.at(-1)).toEqual({
      day: today,
      downloads: (before.body.daily.at(-1)?.downloads ?? 0) + 3,
    })
    expect(after.body.daily.slice(0, -1)).toEqual(before.body.daily.slice(0, -1))
    // The id is matched like getNode's (any case); the answer names the node as stored.
    const upper = await daily(node.id.toUpperCase(), 90)
    expect(upper.body).toEqual(after.body)
  })
})
