/**
 * Observability: GET /metrics (who may read it, what it counts) and the logs (one JSON line per
 * request, its id handed on to the job it queued, and never a credential), on PGlite and
 * PostgreSQL. The worker's own listener is tested at the end.
 */
import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { buildApp } from '../http/app'
import { jobs, publishers } from '../db/schema'
import { buildNodeArchive } from '../seed/archive'
import { createToken } from '../tokens/tokens'
import { insertNodeWithVersions, insertUploadLink } from '../test/data'
import { signUpUser, TEST_PROJECT_ID } from '../test/auth'
import { firebaseTokenVerifier } from '../auth/verifier'
import { BACKENDS, createTestApp, request, type TestApp } from '../test/harness'
import { enqueueJob } from '../pipeline/jobs'
import { pipelineHandlers } from '../pipeline/handlers'
import { drainJobs } from '../pipeline/worker'
import Fastify from 'fastify'
import {
  fastifyLoggerOptions,
  jsonLog,
  loggedError,
  redactSecrets,
  REDACTED,
  type LogSettings,
} from './logging'
import { RegistryMetrics } from './metrics'
import { serveWorkerMetrics } from './worker-metrics'

jest.setTimeout(90_000)

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789'
const JSON_INFO: LogSettings = { level: 'info', format: 'json' }

/** Log lines written to memory, parsed. */
function memorySink() {
  const text: string[] = []
  return {
    sink: { write: (line: string) => void text.push(line) },
    text: () => text.join(''),
    lines: () =>
      text
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  }
}

/** The value of one sample of the exposition, e.g. `name{a="b"}`; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((row) => row.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

const ZIP = buildNodeArchive({
  publisherId: 'obs',
  node: {
    id: 'obs-node',
    name: 'Observed',
    description: 'A node for the observability test',
    license: 'MIT',
    repository: 'https://github.com/obs/obs-node',
    icon: '',
  },
  version: '1.0.0',
  dependencies: [],
  comfyNodes: [],
})

describe.each(BACKENDS)('observability on %s', (backend) => {
  let h: TestApp

  beforeAll(async () => {
    h = await createTestApp({
      postgres: backend === 'postgres',
      nodes: 6,
      publishers: 2,
      env: { METRICS_TOKEN },
    })
  })
  afterAll(async () => {
    await h?.close()
  })

  const metrics = (options: { remoteAddress?: string; headers?: Record<string, string> } = {}) =>
    request<{ error?: string; message?: string }>(h.app, {
      method: 'GET',
      url: '/metrics',
      ...options,
    })

  describe('GET /metrics', () => {
    it('answers the machine itself, in Prometheus text, never cached', async () => {
      const reply = await metrics()
      expect(reply.status).toBe(200)
      expect(String(reply.response.headers['content-type'])).toContain('text/plain')
      expect(reply.response.headers['cache-control']).toBe('no-store')
      const text = String(reply.body)
      for (const name of [
        'registry_http_request_duration_seconds',
        'registry_jobs_queued',
        'registry_jobs_oldest_queued_age_seconds',
        'registry_pipeline_step_duration_seconds',
        'registry_cache_requests_total',
        'registry_download_flush_lag_seconds',
        'registry_lookup_flush_lag_seconds',
        'registry_process_cpu_seconds_total',
        'registry_nodejs_heap_size_used_bytes',
      ]) {
        expect({ name, present: text.includes(`# TYPE ${name} `) }).toEqual({ name, present: true })
      }
      if (backend === 'postgres') {
        for (const pool of ['statements', 'one_plan']) {
          expect(
            sample(text, `registry_db_pool_connections{pool="${pool}",state="max"}`),
          ).toBeGreaterThan(0)
          expect(sample(text, `registry_db_pool_waiting_clients{pool="${pool}"}`)).toBe(0)
        }
      }
    })

    it('refuses anyone else without the token, and a request a proxy forwarded', async () => {
      const remote = await metrics({ remoteAddress: '203.0.113.7' })
      expect(remote.status).toBe(403)
      expect(remote.body.message).toContain('METRICS_TOKEN')
      // A proxy on this machine forwards a client's request: its socket is loopback.
      const forwarded = await metrics({ headers: { 'x-forwarded-for': '203.0.113.7' } })
      expect(forwarded.status).toBe(403)
      const wrong = await metrics({
        remoteAddress: '203.0.113.7',
        headers: { authorization: `Bearer ${METRICS_TOKEN}x` },
      })
      expect(wrong.status).toBe(401)
      const scraper = await metrics({
        remoteAddress: '203.0.113.7',
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      })
      expect(scraper.status).toBe(200)
      expect(String(scraper.body)).toContain('registry_jobs_queued')
    })

    it('counts requests by operation and status, never by URL', async () => {
      const before = String((await metrics()).body)
      const series = (operation: string, status: number) =>
        `registry_http_request_duration_seconds_count{operation="${operation}",method="GET",status="${status}"}`
      const count = (text: string, operation: string, status: number) =>
        sample(text, series(operation, status)) ?? 0
      for (let i = 0; i < 3; i++) await request(h.app, { method: 'GET', url: '/health' })
      await request(h.app, { method: 'GET', url: '/nodes/no-such-node-here' })
      await request(h.app, { method: 'GET', url: '/no/such/route?token=abc' })
      const after = String((await metrics()).body)
      expect(count(after, 'getHealth', 200) - count(before, 'getHealth', 200)).toBe(3)
      expect(count(after, 'getNode', 404) - count(before, 'getNode', 404)).toBe(1)
      expect(count(after, 'unmatched', 404) - count(before, 'unmatched', 404)).toBe(1)
      expect(after).not.toContain('no-such-node-here')
      expect(after).not.toContain('/no/such/route')
    })

    it('shows the job queue: how many wait, and for how long the oldest has', async () => {
      const read = async () => String((await metrics()).body)
      const queuedBefore = sample(await read(), 'registry_jobs_queued') ?? 0
      const minuteAgo = new Date(Date.now() - 60_000)
      await enqueueJob(h.db, 'metrics-test', `subject-${randomBytes(4).toString('hex')}`, minuteAgo)
      try {
        const text = await read()
        expect(sample(text, 'registry_jobs_queued')).toBe(queuedBefore + 1)
        expect(sample(text, 'registry_jobs_oldest_queued_age_seconds')).toBeGreaterThanOrEqual(59)
      } finally {
        await h.db.delete(jobs).where(eq(jobs.kind, 'metrics-test'))
      }
    })

    it('counts cache hits and misses', async () => {
      const read = async (result: 'hit' | 'miss') =>
        sample(
          String((await metrics()).body),
          `registry_cache_requests_total{cache="public_answers",result="${result}"}`,
        ) ?? 0
      const [hits, misses] = [await read('hit'), await read('miss')]
      // Identical anonymous reads in flight together share one answer (PUBLIC_CACHE_MS is 0 here).
      await Promise.all(
        [1, 2, 3].map(() => request(h.app, { method: 'GET', url: '/nodes?limit=5&page=1' })),
      )
      expect((await read('hit')) - hits).toBe(2)
      expect((await read('miss')) - misses).toBe(1)
    })
  })

  describe('logs', () => {
    it('writes one JSON line per request with its id, and no credential', async () => {
      const logs = memorySink()
      const app = await buildApp(
        {
          db: h.db,
          storage: h.storage,
          verifier: firebaseTokenVerifier(TEST_PROJECT_ID),
          config: h.config,
        },
        { log: { settings: JSON_INFO, sink: logs.sink } },
      )
      try {
        const user = await signUpUser()
        const publisherId = `obs-logs-${backend}`
        const nodeId = `obs-logs-node-${backend}`
        await h.db.insert(publishers).values({ id: publisherId, name: 'Logs' })
        await insertNodeWithVersions(h.db, { id: nodeId, publisherId }, [])
        const created = await createToken(h.db, publisherId, {
          name: 'logs',
          description: '',
          expiresInDays: null,
        })
        const pat = created.secret
        const secrets = {
          idToken: user.idToken,
          pat,
          uploadToken: randomBytes(24).toString('base64url'),
          apiKey: `cr_key_0123456789ab_${randomBytes(32).toString('base64url')}`,
          revalidate: `revalidate-${randomBytes(16).toString('hex')}`,
          password: `hunter2-${randomBytes(8).toString('hex')}`,
          queryToken: `qt-${randomBytes(12).toString('hex')}`,
          cookie: `session-${randomBytes(12).toString('hex')}`,
        }
        const calls = [
          { method: 'GET', url: '/users', headers: { authorization: `Bearer ${secrets.idToken}` } },
          {
            method: 'POST',
            url: `/publishers/${publisherId}/nodes/${nodeId}/versions`,
            headers: { 'content-type': 'application/json' },
            payload: JSON.stringify({
              personal_access_token: secrets.pat,
              node: { name: 'x' },
              node_version: { version: '9.9.9', changelog: '' },
            }),
          },
          {
            method: 'PUT',
            url: `/uploads/${secrets.uploadToken}`,
            headers: { 'content-type': 'application/zip' },
            payload: Buffer.from(ZIP),
          },
          { method: 'GET', url: '/customers/balance', headers: { 'x-api-key': secrets.apiKey } },
          {
            method: 'GET',
            url: `/nodes?search=x&token=${secrets.queryToken}`,
            headers: { 'x-revalidate-secret': secrets.revalidate, cookie: secrets.cookie },
          },
          {
            method: 'POST',
            url: '/publishers',
            headers: {
              'content-type': 'application/json',
              authorization: `Bearer ${secrets.idToken}`,
            },
            payload: JSON.stringify({ id: 'pw-publisher', name: 'x', password: secrets.password }),
          },
        ] as const
        const ids: string[] = []
        for (const [index, call] of calls.entries()) {
          const id = `test-request-${index}-${randomBytes(4).toString('hex')}`
          ids.push(id)
          const reply = await request(app, {
            ...call,
            headers: { ...call.headers, 'x-request-id': id },
          })
          expect(reply.response.headers['x-request-id']).toBe(id)
        }
        const text = logs.text()
        for (const [name, secret] of Object.entries(secrets)) {
          expect({ name, logged: text.includes(secret) }).toEqual({ name, logged: false })
        }
        const lines = logs.lines()
        for (const [index, id] of ids.entries()) {
          const own = lines.filter((line) => line.request_id === id && line.msg === 'request')
          expect({ index, lines: own.length }).toEqual({ index, lines: 1 })
          expect(own[0]).toEqual(
            expect.objectContaining({
              level: expect.any(String),
              time: expect.any(String),
              method: calls[index].method,
              status: expect.any(Number),
              duration_ms: expect.any(Number),
              operation: expect.any(String),
            }),
          )
        }
        expect(lines.find((line) => line.request_id === ids[2])?.route).toBe(
          '/uploads/:uploadToken',
        )
      } finally {
        await app.close()
      }
    })

    it('makes an id when none (or a strange one) comes in', async () => {
      const strange = await request(h.app, {
        method: 'GET',
        url: '/health',
        headers: { 'x-request-id': 'a b\u00e9'.repeat(3) },
      })
      const id = String(strange.response.headers['x-request-id'])
      expect(id).toMatch(/^[0-9a-f-]{36}$/)
    })

    it("hands the upload's request id on to the worker's lines about its job", async () => {
      const publisherId = `obs-${backend}`
      await h.db.insert(publishers).values({ id: publisherId, name: 'Observed' })
      const nodeId = `obs-node-${backend}`
      await insertNodeWithVersions(h.db, { id: nodeId, publisherId }, [
        { version: '1.0.0', status: 'NodeVersionStatusPending' },
      ])
      const token = await insertUploadLink(h.db, publisherId, nodeId, '1.0.0')
      const requestId = `upload-${randomBytes(6).toString('hex')}`
      const upload = await request(h.app, {
        method: 'PUT',
        url: `/uploads/${token}`,
        headers: { 'content-type': 'application/zip', 'x-request-id': requestId },
        payload: Buffer.from(ZIP),
      })
      expect(upload.status).toBe(200)
      const [job] = await h.db.select().from(jobs).where(eq(jobs.requestId, requestId))
      expect(job?.kind).toBe('process-version')

      const logs = memorySink()
      const workerMetrics = new RegistryMetrics()
      await drainJobs(h.db, pipelineHandlers(h.db, h.storage, h.config), 'obs-worker', undefined, {
        logger: jsonLog(JSON_INFO, logs.sink, { component: 'worker' }),
        metrics: workerMetrics,
      })
      const lines = logs.lines().filter((line) => line.job_id === job.id)
      expect(lines.map((line) => [line.msg, line.request_id])).toEqual([
        ['job started', requestId],
        ['job finished', requestId],
      ])
      expect(logs.text()).not.toContain(token)
      const text = (await workerMetrics.exposition()).text
      for (const step of ['read_archive', 'check_archive', 'extract', 'scan', 'record']) {
        expect({
          step,
          count: sample(
            text,
            `registry_pipeline_step_duration_seconds_count{step="${step}",outcome="ok"}`,
          ),
        }).toEqual({ step, count: 1 })
      }
    })
  })
})

describe('loggedError', () => {
  it("keeps a failed query's parameters and PostgreSQL's detail out", () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint'), {
      code: '23505',
      detail: 'Key (token)=(secret-upload-token) already exists.',
    })
    const error = new Error(
      'Failed query: select 1 where token = $1\nparams: secret-upload-token',
      {
        cause,
      },
    )
    const logged = JSON.stringify(loggedError(error))
    expect(logged).not.toContain('secret-upload-token')
    expect(logged).toContain('Failed query')
    expect(logged).toContain('23505')
  })
})

describe('redacting credentials in what is logged', () => {
  /** An object with credentials at several depths, in an array, and beside harmless fields. */
  const logged = () => ({
    operation: 'getNode',
    authorization: 'Bearer sign-in-token',
    body: { name: 'x', password: 'hunter2', nested: { deeper: { api_key: 'key-at-depth-4' } } },
    headers: [{ 'x-api-key': 'customer-key' }, { accept: 'application/json' }],
    count: 3,
  })
  const secrets = ['sign-in-token', 'hunter2', 'key-at-depth-4', 'customer-key']

  it('replaces every secret field at any depth, and copies only what it changed', () => {
    const original = logged()
    const redacted = redactSecrets(original)
    expect(redacted).toEqual({
      operation: 'getNode',
      authorization: REDACTED,
      body: { name: 'x', password: REDACTED, nested: { deeper: { api_key: REDACTED } } },
      headers: [{ 'x-api-key': REDACTED }, { accept: 'application/json' }],
      count: 3,
    })
    // The caller's object is unchanged; what held no secret is the same object.
    expect(original).toEqual(logged())
    const clean = { operation: 'listAllNodes', status: 200, route: { url: '/nodes' } }
    expect(redactSecrets(clean)).toBe(clean)
  })

  it('leaves errors to their serializer, and stops at a cycle', () => {
    const error = Object.assign(new Error('failed'), { token: 'kept-for-loggedError' })
    expect(redactSecrets({ err: error }).err).toBe(error)
    const cycle: Record<string, unknown> = { secret: 's3cret' }
    cycle.self = cycle
    expect(redactSecrets(cycle).secret).toBe(REDACTED)
  })

  it("keeps them out of the API's lines and the worker's", async () => {
    const api = memorySink()
    const app = Fastify({ logger: fastifyLoggerOptions(JSON_INFO, api.sink) })
    app.log.info(logged(), 'something with credentials')
    app.log.warn({ cookie: 'session=abc' }, 'another line')
    await app.close()
    const worker = memorySink()
    jsonLog(JSON_INFO, worker.sink).info(logged(), 'a job')
    for (const text of [api.text(), worker.text()]) {
      for (const secret of [...secrets, 'session=abc']) {
        expect({ secret, logged: text.includes(secret) }).toEqual({ secret, logged: false })
      }
    }
    const [line] = api.lines()
    expect(line).toMatchObject({
      msg: 'something with credentials',
      operation: 'getNode',
      count: 3,
    })
    expect(worker.lines()[0]).toMatchObject({ msg: 'a job', authorization: REDACTED })
  })
})

describe("the worker's metrics listener", () => {
  it('serves /metrics to loopback, and to others only with the token', async () => {
    const metrics = new RegistryMetrics()
    metrics.observeJob('process-version', 'done', 1.5)
    const listener = await serveWorkerMetrics(
      metrics,
      { host: '127.0.0.1', port: 0 },
      METRICS_TOKEN,
    )
    try {
      const reply = await fetch(`${listener.url}/metrics`)
      expect(reply.status).toBe(200)
      const text = await reply.text()
      expect(
        sample(text, 'registry_job_duration_seconds_count{kind="process-version",outcome="done"}'),
      ).toBe(1)
      const forwarded = await fetch(`${listener.url}/metrics`, {
        headers: { 'x-forwarded-for': '203.0.113.7' },
      })
      expect(forwarded.status).toBe(403)
      const withToken = await fetch(`${listener.url}/metrics`, {
        headers: { 'x-forwarded-for': '203.0.113.7', authorization: `Bearer ${METRICS_TOKEN}` },
      })
      expect(withToken.status).toBe(200)
      expect((await fetch(`${listener.url}/other`)).status).toBe(404)
    } finally {
      await listener.close()
    }
  })
})
