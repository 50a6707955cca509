// GET /security-scan (admins): queue the checks again for Pending versions that wait too long.
import { and, asc, eq, isNotNull, isNull, lte, or } from 'drizzle-orm'
import type { Db } from '../db/client'
import { nodeVersions, type NodeVersion } from '../db/schema'
import { queueVersionChecks } from './process-version'

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const

/** `30m`, `2h`, `1d` (the contract's pattern) in milliseconds; 0 when absent. */
export function durationMs(value: string | undefined): number {
  const match = /^(\d{1,6})([smhd])$/.exec(value ?? '')
  if (!match) return 0
  const unit = match[2] as keyof typeof UNIT_MS
  return Number(match[1]) * UNIT_MS[unit]
}

export interface RescanCriteria {
  minAgeMs: number
  minScanAgeMs: number
  max: number
}

/**
 * Queues the checks of Pending versions that have their archive, are not being checked now,
 * were published at least `minAgeMs` ago and last scanned at least `minScanAgeMs` ago (or
 * never), oldest first. Answers the versions queued.
 */
export async function queueRescans(
  db: Db,
  criteria: RescanCriteria,
  now = new Date(),
): Promise<NodeVersion[]> {
  const publishedBefore = new Date(now.getTime() - criteria.minAgeMs)
  const scannedBefore = new Date(now.getTime() - criteria.minScanAgeMs)
  return db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(nodeVersions)
      .where(
        and(
          eq(nodeVersions.status, 'NodeVersionStatusPending'),
          eq(nodeVersions.pipelineState, 'done'),
          isNotNull(nodeVersions.storageKey),
          lte(nodeVersions.createdAt, publishedBefore),
          or(isNull(nodeVersions.scannedAt), lte(nodeVersions.scannedAt, scannedBefore)),
        ),
      )
      .orderBy(asc(nodeVersions.createdAt))
      .limit(criteria.max)
    for (const version of due) await queueVersionChecks(tx, version.id, now)
    return due
  })
}
