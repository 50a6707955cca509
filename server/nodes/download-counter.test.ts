// Installs counted in batches (download-counter.ts): through the API on both databases, and the
// counter's own rules with a stand-in writer.
import { and, eq, sql } from 'drizzle-orm'
import { nodeDownloadsDaily, nodes, nodeVersions } from '../db/schema'
import type { Schemas } from '../http/operations'
import { BACKENDS, createTestApp, get, type TestApp } from '../test/harness'
import { DownloadCounter } from './download-counter'
import type { DownloadCount } from './queries'

type NodeVersion = Schemas['NodeVersion']

jest.setTimeout(60_000)

describe.each(BACKENDS)('batched download counts on %s', (backend) => {
  let h: TestApp

  beforeEach(async () => {
    // Never on its own during a test: closing the app writes what it holds.
    h = await createTestApp({
      postgres: backend === 'postgres',
      env: { DOWNLOAD_FLUSH_MS: '600000' },
    })
  })

  afterEach(async () => {
    await h?.close()
  })

  async function countsOf(nodeId: string, versionId: string) {
    const [node] = await h.db
      .select({ downloads: nodes.downloads })
      .from(nodes)
      .where(eq(nodes.id, nodeId))
    const [version] = await h.db
      .select({ downloads: nodeVersions.downloads })
      .from(nodeVersions)
      .where(eq(nodeVersions.id, versionId))
    const [today] = await h.db
      .select({ count: nodeDownloadsDaily.count })
      .from(nodeDownloadsDaily)
      .where(
        and(
          eq(nodeDownloadsDaily.nodeId, nodeId),
          eq(nodeDownloadsDaily.day, sql`(now() at time zone 'utc')::date`),
        ),
      )
    return { node: node.downloads, version: version.downloads, today: today?.count ?? 0 }
  }

  it('writes a crowd of installs as one batch, and all of it when the API stops', async () => {
    const node = h.demo.nodes.find((candidate) => candidate.latestVersionId)
    if (!node?.latestVersionId) throw new Error('the demo data has no installable node')
    const before = await countsOf(node.id, node.latestVersionId)
    const installs = await Promise.all(
      Array.from({ length: 40 }, () => get<NodeVersion>(h.app, `/nodes/${node.id}/install`)),
    )
    expect(installs.map((reply) => reply.status)).toEqual(Array(40).fill(200))
    expect(installs[0].body.id).toBe(node.latestVersionId)
    // Held in memory, not written yet.
    expect(await countsOf(node.id, node.latestVersionId)).toEqual(before)
    await h.app.close()
    expect(await countsOf(node.id, node.latestVersionId)).toEqual({
      node: before.node + 40,
      version: before.version + 40,
      today: before.today + 40,
    })
  })
})

describe('DownloadCounter', () => {
  function recorder(failures = 0) {
    const writes: DownloadCount[][] = []
    let left = failures
    const write = async (counts: DownloadCount[]) => {
      if (left-- > 0) throw new Error('database unavailable')
      writes.push(counts.map((item) => ({ ...item })))
    }
    return { writes, write }
  }

  it('adds up installs per version and writes them once per interval', async () => {
    jest.useFakeTimers()
    try {
      const { writes, write } = recorder()
      const counter = new DownloadCounter(write, 1000)
      for (let i = 0; i < 5; i++) await counter.count('a', 'a-1')
      await counter.count('a', 'a-2')
      await counter.count('b', 'b-1')
      expect(counter.unwritten).toBe(7)
      await jest.advanceTimersByTimeAsync(999)
      expect(writes).toEqual([])
      await jest.advanceTimersByTimeAsync(1)
      expect(writes).toEqual([
        [
          { nodeId: 'a', versionId: 'a-1', count: 5 },
          { nodeId: 'a', versionId: 'a-2', count: 1 },
          { nodeId: 'b', versionId: 'b-1', count: 1 },
        ],
      ])
      expect(counter.unwritten).toBe(0)
      // Nothing held: no empty write.
      await jest.advanceTimersByTimeAsync(5000)
      expect(writes).toHaveLength(1)
    } finally {
      jest.useRealTimers()
    }
  })

  it('keeps the counts of a failed write for the next one', async () => {
    jest.useFakeTimers()
    try {
      const { writes, write } = recorder(1)
      const errors: unknown[] = []
      const counter = new DownloadCounter(write, 1000, (error) => errors.push(error))
      await counter.count('a', 'a-1')
      await jest.advanceTimersByTimeAsync(1000)
      expect(errors).toHaveLength(1)
      expect(counter.unwritten).toBe(1)
      await counter.count('a', 'a-1')
      await jest.advanceTimersByTimeAsync(1000)
      expect(writes).toEqual([[{ nodeId: 'a', versionId: 'a-1', count: 2 }]])
      expect(counter.unwritten).toBe(0)
    } finally {
      jest.useRealTimers()
    }
  })

  it('writes each install at once when batching is off', async () => {
    const { writes, write } = recorder()
    const counter = new DownloadCounter(write, 0)
    await counter.count('a', 'a-1')
    expect(writes).toEqual([[{ nodeId: 'a', versionId: 'a-1', count: 1 }]])
  })
})
