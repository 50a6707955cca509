/**
 * PostgreSQL going away while the API serves: requests answer 503 with a JSON message (never
 * 500, never a crash), /health says the database is unreachable, and everything answers again
 * once PostgreSQL is back, without restarting the API. The database is cut away by a TCP proxy
 * on loopback (scripts/bench/tcp-proxy.ts) or by terminating the API's sessions.
 * The PostgreSQL part is skipped without TEST_DATABASE_URL (PGlite runs in the process).
 */
import type { FastifyInstance } from 'fastify'
import { sql } from 'drizzle-orm'
import { Client } from 'pg'
import { startTcpProxy, type TcpProxy } from '../../scripts/bench/tcp-proxy'
import { firebaseTokenVerifier } from '../auth/verifier'
import { buildApp } from '../http/app'
import type { Schemas } from '../http/operations'
import { enqueueJob, findJob } from '../pipeline/jobs'
import { startWorker } from '../pipeline/worker'
import { startMaintenance } from '../system/maintenance'
import { TEST_PROJECT_ID } from '../test/auth'
import { createTestApp, expectErrorBody, get, type TestApp } from '../test/harness'
import { openDatabase, type Database } from './client'
import { isDatabaseBusy, isDatabaseUnavailable } from './errors'
import { hasTestPostgres } from './test-db'

type HealthResponse = Schemas['HealthResponse']

jest.setTimeout(60_000)

/** As drizzle reports a failed query: its own error with the driver's as `cause`. */
const wrapped = (cause: unknown) => Object.assign(new Error('Failed query: select 1'), { cause })

describe('isDatabaseUnavailable', () => {
  it('recognises lost and refused connections, however they are wrapped', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
    })
    const aggregate = Object.assign(new AggregateError([refused], ''), { code: 'ECONNREFUSED' })
    const cases: unknown[] = [
      refused,
      wrapped(refused),
      aggregate,
      wrapped(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })),
      wrapped(new Error('Connection terminated unexpectedly')),
      new Error('Connection terminated due to connection timeout'),
      new Error('Client has encountered a connection error and is not queryable'),
      new Error('timeout exceeded when trying to connect'),
      wrapped({ code: '57P01', message: 'terminating connection due to administrator command' }),
      { code: '57P03', message: 'the database system is starting up' },
      { code: '08006', message: 'connection failure' },
      { code: '08001', message: 'could not connect' },
      { code: '53300', message: 'too many clients already' },
    ]
    for (const error of cases) expect(isDatabaseUnavailable(error)).toBe(true)
  })

  it('leaves other errors alone', () => {
    const cases: unknown[] = [
      null,
      'ECONNREFUSED',
      new Error('boom'),
      wrapped({ code: '23505', constraint: 'nodes_pkey' }),
      wrapped({ code: '57014', message: 'canceling statement due to statement timeout' }),
      { code: '42P01', message: 'relation "x" does not exist' },
    ]
    for (const error of cases) expect(isDatabaseUnavailable(error)).toBe(false)
    // A statement time-out stays "busy" (app.ts asks that first).
    expect(isDatabaseBusy(wrapped({ code: '57014' }))).toBe(true)
  })
})

const onPostgres = hasTestPostgres() ? describe : describe.skip
if (!hasTestPostgres()) {
  console.log(
    'outage.test.ts: TEST_DATABASE_URL is unset, the PostgreSQL outage tests are skipped.',
  )
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Retries `check` every 100 ms until it holds (or fails after `ms`). */
async function eventually(check: () => Promise<boolean>, ms = 15_000) {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (await check()) return
    await sleep(100)
  }
  throw new Error('the condition never held')
}

onPostgres('PostgreSQL goes away while the API serves', () => {
  let h: TestApp
  let proxy: TcpProxy
  let database: Database
  let app: FastifyInstance
  let nodeId: string

  beforeAll(async () => {
    h = await createTestApp({ postgres: true, nodes: 5, publishers: 1 })
    const target = new URL(h.databaseUrl ?? '')
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) })
    // The API under test reaches PostgreSQL only through the proxy.
    database = await openDatabase({
      url: proxy.proxiedUrl(h.databaseUrl ?? ''),
      timeouts: h.config.databaseTimeouts,
    })
    app = await buildApp({
      db: database.db,
      storage: h.storage,
      verifier: firebaseTokenVerifier(TEST_PROJECT_ID),
      config: h.config,
    })
    await app.ready()
    nodeId = h.demo.nodes.find((node) => node.status === 'NodeStatusActive')?.id ?? ''
  })

  afterEach(async () => {
    await proxy?.restore()
  })

  afterAll(async () => {
    console.log('a')
    await app?.close()
    console.log('b')
    await database?.close()
    console.log('c')
    await proxy?.close()
    console.log('d')
    await h?.close()
    console.log('e')
  })

  it('answers 503 JSON while PostgreSQL is unreachable and recovers without a restart', async () => {
    // Several pooled connections are open and idle when the database goes away.
    const warm = await Promise.all(Array.from({ length: 4 }, () => get(app, '/nodes')))
    expect(warm.map((reply) => reply.status)).toEqual([200, 200, 200, 200])
    expect(proxy.connections()).toBeGreaterThan(0)

    await proxy.cut()
    for (const url of ['/nodes', `/nodes/${nodeId}`, '/nodes/search?search=node']) {
      const reply = await get(app, url)
      expect(expectErrorBody(reply, 503).message).toMatch(/database/i)
      expect(reply.response.headers['retry-after']).toBe('5')
    }
    const health = await get<HealthResponse>(app, '/health')
    expect(health.status).toBe(503)
    expect(health.body).toMatchObject({ status: 'error', database: 'error' })

    await proxy.restore()
    expect((await get(app, '/nodes')).status).toBe(200)
    expect((await get(app, `/nodes/${nodeId}`)).status).toBe(200)
    const healthy = await get<HealthResponse>(app, '/health')
    expect(healthy.status).toBe(200)
    expect(healthy.body).toMatchObject({ status: 'ok', database: 'ok' })
  })

  it('survives its sessions being terminated (pg_terminate_backend): 503 at most, then 200', async () => {
    const admin = new Client({ connectionString: h.databaseUrl })
    await admin.connect()
    try {
      await Promise.all(Array.from({ length: 4 }, () => get(app, '/nodes')))
      // Requests keep coming while every other session of the database is terminated.
      let flowing = true
      const statuses: number[] = []
      const clients = Array.from({ length: 4 }, async () => {
        while (flowing) statuses.push((await get(app, `/nodes/${nodeId}`)).status)
      })
      await sleep(100)
      const { rows } = await admin.query<{ terminated: number }>(
        `select count(*)::int as terminated from pg_stat_activity, pg_terminate_backend(pid)
         where datname = current_database() and pid <> pg_backend_pid()`,
      )
      expect(rows[0].terminated).toBeGreaterThan(0)
      await sleep(300)
      flowing = false
      await Promise.all(clients)
      expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([])
      expect((await get(app, '/nodes')).status).toBe(200)
      expect((await get<HealthResponse>(app, '/health')).body.status).toBe('ok')
    } finally {
      await admin.end()
    }
  })

  it('a transaction whose connection drops fails; the process and the pool carry on', async () => {
    const transaction = database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`)
      await proxy.cut()
      await tx.execute(sql`select 1`)
    })
    const error: unknown = await transaction.then(
      () => null,
      (reason: unknown) => reason,
    )
    expect(isDatabaseUnavailable(error)).toBe(true)
    await proxy.restore()
    await expect(database.db.execute(sql`select 1`)).resolves.toBeDefined()
  })

  it('the pipeline worker and maintenance log the outage and carry on', async () => {
    const logs: string[] = []
    const log = (message: string) => logs.push(message)
    const ran: string[] = []
    const worker = startWorker({
      db: database.db,
      handlers: {
        'outage-test': { run: async (job) => void ran.push(job.subject), giveUp: async () => {} },
      },
      pollMs: 50,
      log,
    })
    try {
      await proxy.cut()
      const stopMaintenance = startMaintenance({ db: database.db, storage: h.storage }, log)
      // Stopping waits for the run at start, which fails while the database is out of reach.
      await stopMaintenance()
      await eventually(async () => logs.some((line) => line.startsWith('Worker: could not claim')))
      await eventually(async () => logs.some((line) => line.startsWith('Maintenance failed')))
      // Queued directly (not through the proxy) while the worker cannot reach the database.
      await enqueueJob(h.db, 'outage-test', 'after-the-outage')
      await proxy.restore()
      await eventually(async () => ran.includes('after-the-outage'))
      await eventually(
        async () => (await findJob(h.db, 'outage-test', 'after-the-outage'))?.state === 'done',
      )
    } finally {
      await worker.stop()
    }
  })
})
