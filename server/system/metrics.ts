// Prometheus metrics of one process (the API, or `npm run registry -- worker`), on a registry of
// its own (tests build several apps in one process). Counted as things happen: request durations
// by operation (the contract's operationId, never the URL: bounded label values), pipeline steps,
// jobs. Read when scraped: the database pool, the job queue (one cheap query), cache hits and
// misses, and how far behind the batched writes (download counts, provider lookups) are.
// Served by GET /metrics (server/system/routes.ts) and the worker's listener (worker-metrics.ts)
// to loopback or with METRICS_TOKEN (`metricsAccess`). See docs/ARCHITECTURE.md, "Observability".
import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { inArray, sql } from 'drizzle-orm'
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { Db } from '../db/client'
import { jobs } from '../db/schema'

/** Hits and misses of a cache since the process started. */
export interface CacheStats {
  hits: number
  misses: number
}

/** What a batched writer holds: how many items, and since when the oldest waits (epoch ms). */
export interface FlushBacklog {
  pending: number
  oldestAt: number | undefined
}

export interface PoolStats {
  total: number
  idle: number
  waiting: number
  max: number
}

/** Times one step of a job: `work`'s value (or promise) is passed through. */
export type StepTimer = <T>(step: string, work: () => T) => T

export const untimedSteps: StepTimer = (_step, work) => work()

/** Seconds; from a cached read (1 ms) to an archive scan or a slow upload. */
const REQUEST_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]
const STEP_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120]

interface JobQueue {
  queued: number
  running: number
  oldestDueAgeS: number
}

export class RegistryMetrics {
  readonly registry = new Registry()
  private readonly requests: Histogram<'operation' | 'method' | 'status'>
  private readonly steps: Histogram<'step' | 'outcome'>
  private readonly jobs: Histogram<'kind' | 'outcome'>
  private readonly caches = new Map<string, () => CacheStats>()
  private readonly backlogs = new Map<'download' | 'lookup', () => FlushBacklog>()
  private pools: (() => Map<string, PoolStats>) | undefined
  private queueDb: Db | undefined
  private queueRead: Promise<JobQueue | null> | undefined

  constructor() {
    const registers = [this.registry]
    collectDefaultMetrics({ register: this.registry, prefix: 'registry_' })
    this.requests = new Histogram({
      name: 'registry_http_request_duration_seconds',
      help: 'API requests by operation (openapi.yml operationId), method and status.',
      labelNames: ['operation', 'method', 'status'],
      buckets: REQUEST_BUCKETS,
      registers,
    })
    this.steps = new Histogram({
      name: 'registry_pipeline_step_duration_seconds',
      help: "Steps of the publishing pipeline's jobs (read, check, extract, scan, record).",
      labelNames: ['step', 'outcome'],
      buckets: STEP_BUCKETS,
      registers,
    })
    this.jobs = new Histogram({
      name: 'registry_job_duration_seconds',
      help: 'Jobs run by this process, by kind and outcome (done, retry, failed).',
      labelNames: ['kind', 'outcome'],
      buckets: STEP_BUCKETS,
      registers,
    })
    // Read by the collect functions below, whose `this` is their metric.
    const caches = this.caches
    const backlogs = this.backlogs
    const poolStats = () => this.pools?.() ?? new Map<string, PoolStats>()
    const readQueue = () => this.readQueue()
    new Counter({
      name: 'registry_cache_requests_total',
      help: 'Lookups of the in-memory caches: hit or miss (ratio: hits over all).',
      labelNames: ['cache', 'result'],
      registers,
      collect() {
        this.reset()
        for (const [cache, stats] of caches) {
          const { hits, misses } = stats()
          this.inc({ cache, result: 'hit' }, hits)
          this.inc({ cache, result: 'miss' }, misses)
        }
      },
    })
    new Gauge({
      name: 'registry_db_pool_connections',
      help: "Connections of each PostgreSQL pool: total open, idle, and the pool's maximum.",
      labelNames: ['pool', 'state'],
      registers,
      collect() {
        for (const [pool, stats] of poolStats()) {
          this.set({ pool, state: 'total' }, stats.total)
          this.set({ pool, state: 'idle' }, stats.idle)
          this.set({ pool, state: 'max' }, stats.max)
        }
      },
    })
    new Gauge({
      name: 'registry_db_pool_waiting_clients',
      help: 'Queries waiting for a free connection of each PostgreSQL pool.',
      labelNames: ['pool'],
      registers,
      collect() {
        for (const [pool, stats] of poolStats()) this.set({ pool }, stats.waiting)
      },
    })
    const queueGauge = (name: string, help: string, pick: (queue: JobQueue) => number) =>
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          const queue = await readQueue()
          if (queue) this.set(pick(queue))
        },
      })
    queueGauge('registry_jobs_queued', 'Jobs waiting to run (due or backing off).', (q) => q.queued)
    queueGauge('registry_jobs_running', 'Jobs claimed by a worker.', (q) => q.running)
    queueGauge(
      'registry_jobs_oldest_queued_age_seconds',
      'How long the oldest due job has waited for a worker (0: none waits).',
      (q) => q.oldestDueAgeS,
    )
    for (const [name, writes] of [
      ['download', 'install counts'],
      ['lookup', 'provider lookups'],
    ] as const) {
      new Gauge({
        name: `registry_${name}_flush_lag_seconds`,
        help: `Age of the oldest of the ${writes} held in memory, not yet written (0: none).`,
        registers,
        collect() {
          const backlog = backlogs.get(name)?.()
          if (!backlog) return
          const age = backlog.oldestAt === undefined ? 0 : (Date.now() - backlog.oldestAt) / 1000
          this.set(Math.max(0, age))
        },
      })
      new Gauge({
        name: `registry_${name}_flush_pending`,
        help: `The ${writes} held in memory, not yet written.`,
        registers,
        collect() {
          const backlog = backlogs.get(name)?.()
          if (backlog) this.set(backlog.pending)
        },
      })
    }
  }

  /** The text a scraper reads, and its content type. */
  async exposition(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() }
  }

  observeRequest(operation: string, method: string, status: number, seconds: number): void {
    this.requests.observe({ operation, method, status: String(status) }, seconds)
  }

  observeJob(kind: string, outcome: string, seconds: number): void {
    this.jobs.observe({ kind, outcome }, seconds)
  }

  /** A StepTimer recording into registry_pipeline_step_duration_seconds. */
  readonly timeStep: StepTimer = (step, work) => {
    const started = performance.now()
    const record = (outcome: 'ok' | 'error') =>
      this.steps.observe({ step, outcome }, (performance.now() - started) / 1000)
    let result: ReturnType<typeof work>
    try {
      result = work()
    } catch (error) {
      record('error')
      throw error
    }
    if (result instanceof Promise) {
      result.then(
        () => record('ok'),
        () => record('error'),
      )
    } else {
      record('ok')
    }
    return result
  }

  watchCache(name: string, stats: () => CacheStats): void {
    this.caches.set(name, stats)
  }

  watchBacklog(name: 'download' | 'lookup', backlog: () => FlushBacklog): void {
    this.backlogs.set(name, backlog)
  }

  /** The pools' connections, by pool name, read when scraped (none on PGlite). */
  watchPools(stats: () => Map<string, PoolStats>): void {
    this.pools = stats
  }

  /** The job queue's gauges are read from `db` when scraped. */
  watchJobs(db: Db): void {
    this.queueDb = db
  }

  /** One query for the three queue gauges of a scrape (they are collected together). */
  private readQueue(): Promise<JobQueue | null> {
    const db = this.queueDb
    if (!db) return Promise.resolve(null)
    if (!this.queueRead) {
      // Only queued and running rows are read (jobs_claim_idx); done ones are never visited.
      const read = db
        .select({
          queued: sql<number>`count(*) filter (where ${jobs.state} = 'queued')::int`,
          running: sql<number>`count(*) filter (where ${jobs.state} = 'running')::int`,
          age: sql<number | null>`extract(epoch from now() - min(${jobs.runAt}) filter (
            where ${jobs.state} = 'queued' and ${jobs.runAt} <= now()))::float8`,
        })
        .from(jobs)
        .where(inArray(jobs.state, ['queued', 'running']))
        .then(([row]) => ({
          queued: Number(row?.queued ?? 0),
          running: Number(row?.running ?? 0),
          oldestDueAgeS: Math.max(0, Number(row?.age ?? 0)),
        }))
        // The database away: the gauges keep their last values; the scrape still answers.
        .catch(() => null)
        .finally(() => {
          if (this.queueRead === read) this.queueRead = undefined
        })
      this.queueRead = read
    }
    return this.queueRead
  }
}

export type MetricsAccess = 'allowed' | 'no-credentials' | 'wrong-token'

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/
/** A request that came through a proxy: its socket's address is the proxy's, not the client's. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest()

/**
 * Who may read metrics: the machine itself, as the socket's address says (X-Forwarded-For is
 * never believed here, and a request a proxy forwarded is not the machine's own even when the
 * proxy runs on it), or a scraper with `Authorization: Bearer <METRICS_TOKEN>`.
 */
export function metricsAccess(
  request: { remoteAddress: string | undefined; headers: IncomingHttpHeaders },
  token: string | undefined,
): MetricsAccess {
  const sent = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1]
  if (sent !== undefined) {
    // Compared as digests: equal lengths, constant time.
    return token !== undefined && timingSafeEqual(digest(sent), digest(token))
      ? 'allowed'
      : 'wrong-token'
  }
  const forwarded = FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined)
  return !forwarded && LOOPBACK.test(request.remoteAddress ?? '') ? 'allowed' : 'no-credentials'
}

/** The words of a refusal, for the API's and the worker's listener. */
export function metricsRefusal(access: Exclude<MetricsAccess, 'allowed'>): {
  status: 401 | 403
  error: string
  message: string
} {
  return access === 'wrong-token'
    ? {
        status: 401,
        error: 'Unauthorized',
        message: 'The metrics token is wrong: send Authorization: Bearer <METRICS_TOKEN>.',
      }
    : {
        status: 403,
        error: 'Forbidden',
        message:
          'Metrics are served to this machine itself, or with Authorization: Bearer <METRICS_TOKEN>.',
      }
}
