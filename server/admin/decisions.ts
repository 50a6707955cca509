// Admins' decisions on versions: one (adminUpdateNodeVersion) or a batch (adminDecideVersions).
// The new status, the `status_reason` history (server/versions/status-reason.ts), the audit rows
// and the nodes' latest versions change in one transaction: all of it or nothing.
import { randomUUID } from 'node:crypto'
import { and, eq, inArray, or, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { refreshLatestVersion } from '../db/latest-version'
import { nodeVersions, type NodeVersion, type NodeVersionStatus } from '../db/schema'
import { badRequest, notFound } from '../http/errors'
import type { Caller } from '../http/context'
import { adminDecisionReason } from '../versions/status-reason'
import { writeVersionStatus } from '../versions/writes'
import { recordActions, type ActionRecord } from './audit'
import type { AdminActionRow } from '../db/schema'

/** Flagging and banning (a version, a node, a publisher) must say why. */
const VERSION_STATUSES_NEEDING_REASON: NodeVersionStatus[] = [
  'NodeVersionStatusFlagged',
  'NodeVersionStatusBanned',
]

/** The trimmed reason; a 400 naming `field` when a reason is required and missing. */
export function requiredReason(
  needed: boolean,
  reason: string | undefined,
  field: string,
  what: string,
): string {
  const trimmed = reason?.trim() ?? ''
  if (needed && trimmed === '') {
    throw badRequest(`A reason is required to ${what}: send a non-empty '${field}'.`)
  }
  return trimmed
}

export function versionReason(
  status: NodeVersionStatus,
  reason: string | undefined,
  field: string,
): string {
  const verb = status === 'NodeVersionStatusFlagged' ? 'flag' : 'ban'
  return requiredReason(
    VERSION_STATUSES_NEEDING_REASON.includes(status),
    reason,
    field,
    `${verb} a version`,
  )
}

export const versionLabel = (version: Pick<NodeVersion, 'nodeId' | 'version'>) =>
  `${version.nodeId}@${version.version}`

export interface VersionRef {
  node_id: string
  version: string
}

/** The versions named (node ids ignore case), in the order asked; 404 naming the unknown ones. */
export async function findVersions(db: Db, refs: readonly VersionRef[]): Promise<NodeVersion[]> {
  const key = (nodeId: string, version: string) => `${nodeId.toLowerCase()}@${version}`
  const unique = [...new Map(refs.map((ref) => [key(ref.node_id, ref.version), ref])).values()]
  const rows = await db
    .select()
    .from(nodeVersions)
    .where(
      or(
        ...unique.map((ref) =>
          and(
            eq(sql`lower(${nodeVersions.nodeId})`, ref.node_id.toLowerCase()),
            eq(nodeVersions.version, ref.version),
          ),
        ),
      ),
    )
  const found = new Map(rows.map((row) => [key(row.nodeId, row.version), row]))
  const missing = unique.filter((ref) => !found.has(key(ref.node_id, ref.version)))
  if (missing.length > 0) {
    const names = missing.slice(0, 10).map((ref) => `${ref.node_id}@${ref.version}`)
    throw notFound(
      `${missing.length === 1 ? 'This version does' : `${missing.length} versions do`} not exist: ${names.join(', ')}${missing.length > 10 ? ', …' : ''}. Nothing was changed.`,
    )
  }
  return unique.flatMap((ref) => found.get(key(ref.node_id, ref.version)) ?? [])
}

/** The versions locked for this transaction, as they are now (in id order, against deadlocks). */
export async function lockVersions(tx: Db, ids: readonly string[]): Promise<NodeVersion[]> {
  if (ids.length === 0) return []
  return tx
    .select()
    .from(nodeVersions)
    .where(inArray(nodeVersions.id, [...ids]))
    .orderBy(nodeVersions.id)
    .for('update')
}

export async function refreshNodes(tx: Db, nodeIds: Iterable<string>): Promise<void> {
  for (const nodeId of new Set(nodeIds)) await refreshLatestVersion(tx, nodeId)
}

export interface Decision {
  status: NodeVersionStatus
  /** Already checked with versionReason. */
  message: string
  /** For batches: kept in each status_reason (`batchId`) and audit row. */
  batchId?: string
}

/** Decides the versions in one transaction; answers them as they are after it, in order. */
export async function decideVersions(
  db: Db,
  actor: Caller,
  versions: readonly NodeVersion[],
  decision: Decision,
): Promise<{ versions: NodeVersion[]; actions: AdminActionRow[] }> {
  return db.transaction(async (tx) => {
    const locked = await lockVersions(
      tx,
      versions.map((version) => version.id),
    )
    const updated = new Map<string, NodeVersion>()
    const records: ActionRecord[] = []
    for (const current of locked) {
      const reason = adminDecisionReason(
        current.statusReason,
        { status: decision.status, message: decision.message, by: actor.email },
        decision.batchId,
      )
      updated.set(current.id, await writeVersionStatus(tx, current, decision.status, reason))
      records.push({
        action: 'version.status',
        subjectType: 'node_version',
        subjectId: current.id,
        subjectLabel: versionLabel(current),
        fromValue: current.status,
        toValue: decision.status,
        reason: decision.message,
        batchId: decision.batchId ?? null,
      })
    }
    await refreshNodes(
      tx,
      locked.map((version) => version.nodeId),
    )
    const actions = await recordActions(tx, actor, records)
    return {
      versions: versions.flatMap((version) => updated.get(version.id) ?? []),
      actions,
    }
  })
}

export const newBatchId = (): string => randomUUID()
