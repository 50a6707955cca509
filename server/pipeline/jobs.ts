// Durable jobs in the registry's own database (the `jobs` table), so the pipeline needs nothing
// else to run and survives restarts. Works the same on PGlite and PostgreSQL:
// - enqueue is idempotent per (kind, subject) while a job is queued or running;
// - claim takes the next due job with `for update skip locked`, so workers in several processes
//   sharing one PostgreSQL never take the same job, and marks it running under a lease;
// - a job whose worker died (kill -9) is claimed again once its lease has run out;
// - a failed attempt is retried with exponential back-off until `max_attempts`.
import { and, asc, eq, lte, or, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { jobs, type Job } from '../db/schema'
import { currentRequestId } from '../system/logging'

/** How long a claimed job is its worker's before another may take it (renewed while it runs). */
export const JOB_LEASE_MS = 30_000
export const JOB_MAX_ATTEMPTS = 5
/** Back-off before retry n (1-based): 1 s, 4 s, 16 s, 64 s, then at most 5 minutes. */
export function retryDelayMs(attempt: number): number {
  return Math.min(1000 * 4 ** (attempt - 1), 5 * 60_000)
}

/**
 * Queues a job unless one for the same kind and subject is queued or running already. A job
 * queued while serving a request carries its id (the worker logs it with the job).
 */
export async function enqueueJob(
  db: Db,
  kind: string,
  subject: string,
  now = new Date(),
): Promise<void> {
  await db
    .insert(jobs)
    .values({
      kind,
      subject,
      runAt: now,
      maxAttempts: JOB_MAX_ATTEMPTS,
      requestId: currentRequestId() ?? null,
    })
    .onConflictDoNothing({
      target: [jobs.kind, jobs.subject],
      where: sql`${jobs.state} in ('queued', 'running')`,
    })
}

/** Takes the next due job (or one whose lease ran out) for `workerId`, or null. */
export async function claimJob(
  db: Db,
  workerId: string,
  now = new Date(),
  leaseMs = JOB_LEASE_MS,
): Promise<Job | null> {
  return db.transaction(async (tx) => {
    const [due] = await tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        or(
          and(eq(jobs.state, 'queued'), lte(jobs.runAt, now)),
          and(eq(jobs.state, 'running'), lte(jobs.leaseUntil, now)),
        ),
      )
      .orderBy(asc(jobs.runAt))
      .limit(1)
      .for('update', { skipLocked: true })
    if (!due) return null
    const [claimed] = await tx
      .update(jobs)
      .set({
        state: 'running',
        attempts: sql`${jobs.attempts} + 1`,
        lockedBy: workerId,
        leaseUntil: new Date(now.getTime() + leaseMs),
        updatedAt: now,
      })
      .where(eq(jobs.id, due.id))
      .returning()
    return claimed
  })
}

/** Extends the lease of a job this worker still holds; false when it lost it. */
export async function renewLease(
  db: Db,
  job: Job,
  workerId: string,
  now = new Date(),
  leaseMs = JOB_LEASE_MS,
): Promise<boolean> {
  const renewed = await db
    .update(jobs)
    .set({ leaseUntil: new Date(now.getTime() + leaseMs), updatedAt: now })
    .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId), eq(jobs.state, 'running')))
    .returning({ id: jobs.id })
  return renewed.length > 0
}

export async function completeJob(db: Db, job: Job, workerId: string, now = new Date()) {
  await db
    .update(jobs)
    .set({ state: 'done', leaseUntil: null, updatedAt: now })
    .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId)))
}

/**
 * Records a failed attempt: queued again after its back-off, or failed for good after its last
 * attempt. Answers whether it failed for good.
 */
export async function failJob(
  db: Db,
  job: Job,
  workerId: string,
  error: string,
  now = new Date(),
): Promise<'retry' | 'failed'> {
  const last = job.attempts >= job.maxAttempts
  await db
    .update(jobs)
    .set({
      state: last ? 'failed' : 'queued',
      runAt: last ? job.runAt : new Date(now.getTime() + retryDelayMs(job.attempts)),
      leaseUntil: null,
      lockedBy: null,
      lastError: error.slice(0, 2000),
      updatedAt: now,
    })
    .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId)))
  return last ? 'failed' : 'retry'
}

/** The newest job of a kind for a subject (tests and the operator's view). */
export async function findJob(db: Db, kind: string, subject: string): Promise<Job | null> {
  const [job] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, kind), eq(jobs.subject, subject)))
    .orderBy(sql`${jobs.createdAt} desc`)
    .limit(1)
  return job ?? null
}
