/**
 * Database time limits: with `nodes` locked by another session (a long migration, a stuck
 * transaction), requests answer 503 "database busy" after the lock timeout instead of stalling,
 * nothing is changed, and /health answers within about a second whatever the database does.
 */
import { sql } from 'drizzle-orm'
import { Client } from 'pg'
import type { Schemas } from '../http/operations'
import { HEALTH_DATABASE_WAIT_MS, withinTime } from '../system/routes'
import { signUpUser } from '../test/auth'
import { snapshotState } from '../test/data'
import { createTestApp, expectErrorBody, get, send, type TestApp } from '../test/harness'
import { poolStatsOf } from './client'
import { hasTestPostgres } from './test-db'

type HealthResponse = Schemas['HealthResponse']
type NodeListResponse = Schemas['NodeListResponse']

jest.setTimeout(90_000)

describe('withinTime (the /health race)', () => {
  it('gives the answer when it comes in time, "timeout" otherwise', async () => {
    await expect(withinTime(Promise.resolve('ok'), 50)).resolves.toBe('ok')
    const never = new Promise<string>(() => {})
    await expect(withinTime(never, 20)).resolves.toBe('timeout')
    await expect(withinTime(Promise.reject(new Error('down')), 50)).rejects.toThrow('down')
  })
})

const onPostgres = hasTestPostgres() ? describe : describe.skip
const LOCK_WAIT_MS = 8_000

onPostgres('with nodes locked by another session (PostgreSQL)', () => {
  let h: TestApp
  let locker: Client

  beforeAll(async () => {
    h = await createTestApp({
      postgres: true,
      withDatabaseTimeouts: true,
      // Long enough that the four stalled reads below, started one after another on a busy
      // machine, all still wait on the lock when /health asks: they must use up the pool together.
      env: { DB_LOCK_TIMEOUT_MS: String(LOCK_WAIT_MS) },
      nodes: 5,
      publishers: 1,
    })
    locker = new Client({ connectionString: h.databaseUrl })
    await locker.connect()
  })

  afterAll(async () => {
    await locker?.end()
    await h?.close()
  })

  /**
   * Waits until the pool's connections are all taken and at least `count` sessions of this
   * database wait on a lock, whatever state pg_stat_activity gives them (one waiting on the lock
   * was seen listed `idle`, with the text of its previous statement).
   */
  async function waitUntilPoolWaitsOnLocks(count: number) {
    const lockWaits = async () =>
      (
        await locker.query<{ state: string; wait: string; query: string }>(
          `select state, coalesce(wait_event_type || ':' || wait_event, '') as wait, left(query, 120) as query
           from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
        )
      ).rows
    // Half the lock timeout at most: /health then asks (about a second) before the first gives up.
    for (let attempt = 0; attempt < LOCK_WAIT_MS / 2 / 100; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      const pool = poolStatsOf(h.db)
      const waiting = (await lockWaits()).filter((session) => session.wait.startsWith('Lock'))
      if (pool && pool.idle === 0 && pool.total === pool.max && waiting.length >= count) return
    }
    // What the pool and the sessions were doing instead, for the failure's reader.
    const sessions = (await lockWaits()).map((row) => `${row.state} ${row.wait} ${row.query}`)
    throw new Error(
      `${count} sessions never waited on the lock together; pool ${JSON.stringify(poolStatsOf(h.db))}:\n${sessions.join('\n')}`,
    )
  }

  /**
   * Opens every connection of the pool, and leaves them idle: what the test waits for below is
   * requests waiting on the lock, not the pool setting up new connections, which on a loaded
   * machine was seen to take longer than the wait (three of the pool's four still connecting after
   * four seconds, while the full suite ran).
   */
  async function openEveryConnection() {
    const max = poolStatsOf(h.db)?.max ?? 0
    await Promise.all(Array.from({ length: max }, () => h.db.execute(sql`select pg_sleep(0.05)`)))
    expect(poolStatsOf(h.db)).toMatchObject({ total: max, idle: max })
  }

  it('reads and writes answer 503 with Retry-After, change nothing; /health answers in time', async () => {
    expect((await get<NodeListResponse>(h.app, '/nodes')).status).toBe(200)
    const owner = await signUpUser()
    const before = await snapshotState(h.db)
    await openEveryConnection()
    await locker.query('begin')
    await locker.query('lock table nodes in access exclusive mode')
    try {
      // A listing not read before (the first one's rows are kept, unchanged: not read again).
      const read = await get(h.app, '/nodes?sort=newest')
      expect(expectErrorBody(read, 503).message).toMatch(/busy/)
      expect(read.response.headers['retry-after']).toBe('2')
      const write = await send(h.app, 'POST', '/publishers/comfy-demo/nodes', {
        as: owner,
        body: { id: 'locked-out', name: 'Locked out' },
      })
      expect([403, 503]).toContain(write.status)

      // Every pooled connection waits on the lock: /health still answers, after about a second.
      // Four different listings, none read before, so each reads the nodes table (identical
      // anonymous reads would share one query: public-cache.ts).
      const stalled = Array.from({ length: 4 }, (_, i) => get(h.app, `/nodes?tags=locked-${i}`))
      await waitUntilPoolWaitsOnLocks(4)
      const health = await get<HealthResponse>(h.app, '/health')
      expect(health.status).toBe(503)
      expect(health.body).toMatchObject({ status: 'error', database: 'timeout' })
      expect(health.body.latency_ms).toBe(HEALTH_DATABASE_WAIT_MS)
      for (const reply of await Promise.all(stalled)) expect(reply.status).toBe(503)
    } finally {
      // Released only now: everything above answered while the lock was held.
      await locker.query('rollback')
    }
    expect(await snapshotState(h.db)).toBe(before)
    const healthy = await get<HealthResponse>(h.app, '/health')
    expect(healthy.body).toMatchObject({ status: 'ok', database: 'ok' })
  })
})
