// Runs durable jobs (jobs.ts): inside the API process under `npm start`, or alone with
// `npm run registry -- worker`. Polls for due jobs, and is woken at once when this process
// queues one (an upload), so a publish does not wait for the next poll. Each job is logged as JSON
// with the id of the request that queued it, and timed into the process's metrics.
import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import type { Db } from '../db/client'
import type { Job } from '../db/schema'
import { forgetPublicAnswers } from '../http/public-cache'
import { loggedError, REQUEST_ID_FIELD, SILENT_LOG, type StructuredLog } from '../system/logging'
import { untimedSteps, type RegistryMetrics, type StepTimer } from '../system/metrics'
import { claimJob, completeJob, failJob, JOB_LEASE_MS, renewLease } from './jobs'

export interface JobHandler {
  /**
   * Does the job's work; every step must be safe to run again (a retry, a second claim).
   * `timeStep` times its steps into the process's metrics.
   */
  run(job: Job, timeStep?: StepTimer): Promise<void>
  /** Called once when the job failed for good, with the last error. */
  giveUp(job: Job, error: string): Promise<void>
}

export type JobHandlers = Record<string, JobHandler>

export interface WorkerOptions {
  db: Db
  handlers: JobHandlers
  /** How often to look for due jobs when nobody wakes the worker. */
  pollMs?: number
  leaseMs?: number
  /** Jobs run at once by this worker. */
  concurrency?: number
  log?: (message: string) => void
  /** JSON lines about each job (server/system/logging.ts). */
  logger?: StructuredLog
  metrics?: RegistryMetrics
  workerId?: string
}

/** Where a job's lines and timings go. */
export interface JobWatch {
  logger?: StructuredLog
  metrics?: RegistryMetrics
}

export interface Worker {
  readonly id: string
  /** Look for jobs now (called after queueing one in this process). */
  wake(): void
  /** Resolves when no job is due or running (tests, the benchmark). */
  idle(): Promise<void>
  stop(): Promise<void>
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** The fields of every line about `job`: the request that queued it first. */
function jobFields(job: Job, workerId: string) {
  return {
    [REQUEST_ID_FIELD]: job.requestId ?? undefined,
    job_id: job.id,
    job_kind: job.kind,
    subject: job.subject,
    attempt: job.attempts,
    worker: workerId,
  }
}

/** Runs one claimed job to its end: done, queued again, or given up; logged and timed. */
export async function runClaimedJob(
  db: Db,
  job: Job,
  handler: JobHandler | undefined,
  workerId: string,
  leaseMs = JOB_LEASE_MS,
  watch: JobWatch = {},
): Promise<'done' | 'retry' | 'failed'> {
  const logger = watch.logger ?? SILENT_LOG
  const fields = jobFields(job, workerId)
  const started = performance.now()
  logger.info(fields, 'job started')
  let failure: unknown
  try {
    const outcome = await runJob(db, job, handler, workerId, leaseMs, watch, (error) => {
      failure = error
    })
    const durationMs = Math.round(performance.now() - started)
    watch.metrics?.observeJob(job.kind, outcome, durationMs / 1000)
    const finished = { ...fields, outcome, duration_ms: durationMs }
    if (outcome === 'done') logger.info(finished, 'job finished')
    else logger.warn({ ...finished, err: loggedError(failure) }, 'job failed')
    return outcome
  } catch (error) {
    watch.metrics?.observeJob(job.kind, 'interrupted', (performance.now() - started) / 1000)
    logger.error({ ...fields, outcome: 'interrupted', err: loggedError(error) }, 'job interrupted')
    throw error
  }
}

async function runJob(
  db: Db,
  job: Job,
  handler: JobHandler | undefined,
  workerId: string,
  leaseMs: number,
  watch: JobWatch,
  failed: (error: unknown) => void,
): Promise<'done' | 'retry' | 'failed'> {
  const stopped = job.attempts > job.maxAttempts
  if (!handler || stopped) {
    const error = handler
      ? `The worker stopped while running it, ${job.maxAttempts} times.`
      : `No handler for jobs of kind '${job.kind}'.`
    failed(error)
    await failJob(db, { ...job, attempts: job.maxAttempts }, workerId, error)
    await handler?.giveUp(job, error)
    forgetPublicAnswers(db)
    return 'failed'
  }
  const heartbeat = setInterval(
    () => void renewLease(db, job, workerId).catch(() => undefined),
    leaseMs / 3,
  )
  heartbeat.unref()
  try {
    await handler.run(job, watch.metrics?.timeStep ?? untimedSteps)
    await completeJob(db, job, workerId)
    return 'done'
  } catch (error) {
    failed(error)
    const outcome = await failJob(db, job, workerId, message(error))
    if (outcome === 'failed') await handler.giveUp(job, message(error))
    return outcome
  } finally {
    clearInterval(heartbeat)
    // A job changes what the public sees (a version's status, its comfy nodes).
    forgetPublicAnswers(db)
  }
}

/** Claims and runs due jobs until none is due; answers how many ran. */
export async function drainJobs(
  db: Db,
  handlers: JobHandlers,
  workerId = `drain-${randomUUID()}`,
  now?: () => Date,
  watch: JobWatch = {},
): Promise<number> {
  let ran = 0
  for (;;) {
    const job = await claimJob(db, workerId, now?.())
    if (!job) return ran
    await runClaimedJob(db, job, handlers[job.kind], workerId, JOB_LEASE_MS, watch)
    ran++
  }
}

export function startWorker(options: WorkerOptions): Worker {
  const { db, handlers } = options
  const pollMs = options.pollMs ?? 1000
  const concurrency = options.concurrency ?? 1
  const log = options.log ?? (() => undefined)
  const id = options.workerId ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`
  let stopping = false
  let running = 0
  const sleepers = new Set<() => void>()
  let idleWaiters: (() => void)[] = []
  let lookedSinceWake = false

  const sleep = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer)
        sleepers.delete(done)
        resolve()
      }
      const timer = setTimeout(done, pollMs)
      timer.unref()
      sleepers.add(done)
    })
  const wakeAll = () => [...sleepers].forEach((done) => done())

  const settleIdle = () => {
    if (running === 0 && lookedSinceWake) {
      const waiters = idleWaiters
      idleWaiters = []
      waiters.forEach((resolve) => resolve())
    }
  }

  async function lane() {
    while (!stopping) {
      let job: Job | null = null
      try {
        job = await claimJob(db, id)
      } catch (error) {
        log(`Worker: could not claim a job (will retry): ${message(error)}`)
      }
      if (!job) {
        lookedSinceWake = true
        settleIdle()
        await sleep()
        continue
      }
      running++
      try {
        const outcome = await runClaimedJob(db, job, handlers[job.kind], id, options.leaseMs, {
          logger: options.logger,
          metrics: options.metrics,
        })
        if (outcome !== 'done' && !options.logger) {
          log(`Worker: job ${job.kind} ${job.subject} ${outcome}.`)
        }
      } catch (error) {
        // The database went away mid-job: the lease runs out and the job is taken again.
        if (!options.logger)
          log(`Worker: job ${job.kind} ${job.subject} interrupted: ${message(error)}`)
      } finally {
        running--
      }
    }
  }

  const lanes = Array.from({ length: concurrency }, () => lane())
  return {
    id,
    wake() {
      lookedSinceWake = false
      wakeAll()
    },
    idle() {
      return new Promise((resolve) => {
        idleWaiters.push(resolve)
        settleIdle()
      })
    },
    async stop() {
      stopping = true
      wakeAll()
      await Promise.all(lanes)
    },
  }
}
