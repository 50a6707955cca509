// Runs durable jobs (jobs.ts): inside the API process under `npm start`, or alone with
// `npm run registry -- worker`. Polls for due jobs, and is woken at once when this process
// queues one (an upload), so a publish does not wait for the next poll.
import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import type { Db } from '../db/client'
import type { Job } from '../db/schema'
import { forgetPublicAnswers } from '../http/public-cache'
import { claimJob, completeJob, failJob, JOB_LEASE_MS, renewLease } from './jobs'

export interface JobHandler {
  /** Does the job's work; every step must be safe to run again (a retry, a second claim). */
  run(job: Job): Promise<void>
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
  workerId?: string
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

/** Runs one claimed job to its end: done, queued again, or given up. */
export async function runClaimedJob(
  db: Db,
  job: Job,
  handler: JobHandler | undefined,
  workerId: string,
  leaseMs = JOB_LEASE_MS,
): Promise<'done' | 'retry' | 'failed'> {
  const stopped = job.attempts > job.maxAttempts
  if (!handler || stopped) {
    const error = handler
      ? `The worker stopped while running it, ${job.maxAttempts} times.`
      : `No handler for jobs of kind '${job.kind}'.`
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
    await handler.run(job)
    await completeJob(db, job, workerId)
    return 'done'
  } catch (error) {
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
): Promise<number> {
  let ran = 0
  for (;;) {
    const job = await claimJob(db, workerId, now?.())
    if (!job) return ran
    await runClaimedJob(db, job, handlers[job.kind], workerId)
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
        const outcome = await runClaimedJob(db, job, handlers[job.kind], id, options.leaseMs)
        if (outcome !== 'done') log(`Worker: job ${job.kind} ${job.subject} ${outcome}.`)
      } catch (error) {
        // The database went away mid-job: the lease runs out and the job is taken again.
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
