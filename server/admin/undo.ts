// Undoing admin actions: one (undoAdminAction) or a whole batch (undoAdminBatch), all or nothing.
// An undo restores the `from` state of each action, provided its subject is still in the action's
// `to` state (otherwise something changed since: 409, undo the later action first). It writes an
// `undo` row per action and marks the undone one (`undone_by`), in the same transaction.
import { randomUUID } from 'node:crypto'
import { and, asc, eq, isNull } from 'drizzle-orm'
import type { Db } from '../db/client'
import {
  adminActions,
  NODE_VERSION_STATUSES,
  PUBLISHER_STATUSES,
  type AdminActionRow,
  type NodeVersionStatus,
  type PublisherStatus,
} from '../db/schema'
import { badRequest, conflict, notFound } from '../http/errors'
import type { Caller } from '../http/context'
import { adminDecisionReason } from '../versions/status-reason'
import { recordActions, type ActionRecord } from './audit'
import { writeVersionStatus } from '../versions/writes'
import { lockVersions, refreshNodes } from './decisions'
import {
  adminFieldsOf,
  adminFieldsState,
  lockNode,
  lockPublisher,
  parseAdminFields,
  parseNodeStatusState,
  writeAdminFields,
  writeNodeStatus,
  writePublisherStatus,
} from './moderation'

const isVersionStatus = (value: string): value is NodeVersionStatus =>
  NODE_VERSION_STATUSES.some((status) => status === value)
const isPublisherStatus = (value: string): value is PublisherStatus =>
  PUBLISHER_STATUSES.some((status) => status === value)

const changedSince = (action: AdminActionRow) =>
  conflict(
    `${action.subjectLabel || action.subjectId} has changed since action ${action.id} (${action.action}); undo the later actions first, or decide again.`,
  )
const unreadable = (action: AdminActionRow) =>
  conflict(`Action ${action.id} does not record a state that can be restored.`)

/** What an undo changed: the nodes (latest version, public page) and publishers it touched. */
export interface UndoneSubjects {
  nodeIds: string[]
  publisherIds: string[]
}

type Restored = { nodeId: string } | { publisherId: string }

/** Restores the state before one action (its subject locked here); answers what it touched. */
async function restore(tx: Db, actor: Caller, action: AdminActionRow): Promise<Restored> {
  switch (action.action) {
    case 'version.status': {
      const [version] = await lockVersions(tx, [action.subjectId])
      if (!version) throw notFound(`The version of action ${action.id} no longer exists.`)
      if (version.status !== action.toValue) throw changedSince(action)
      if (!isVersionStatus(action.fromValue)) throw unreadable(action)
      const reason = adminDecisionReason(version.statusReason, {
        status: action.fromValue,
        message: `Undo of the decision ${action.toValue}${action.reason ? ` (${action.reason})` : ''}.`,
        by: actor.email,
      })
      await writeVersionStatus(tx, version, action.fromValue, reason)
      return { nodeId: version.nodeId }
    }
    case 'node.ban':
    case 'node.unban': {
      const node = await lockNode(tx, action.subjectId)
      if (!node) throw notFound(`Node '${action.subjectId}' no longer exists.`)
      const to = parseNodeStatusState(action.toValue)
      const from = parseNodeStatusState(action.fromValue)
      if (!to || !from) throw unreadable(action)
      if (node.status !== to.status) throw changedSince(action)
      await writeNodeStatus(tx, node.id, from)
      return { nodeId: node.id }
    }
    case 'node.update': {
      const node = await lockNode(tx, action.subjectId)
      if (!node) throw notFound(`Node '${action.subjectId}' no longer exists.`)
      const to = parseAdminFields(action.toValue)
      const from = parseAdminFields(action.fromValue)
      if (!to || !from) throw unreadable(action)
      if (adminFieldsState(adminFieldsOf(node)) !== adminFieldsState(to)) {
        throw changedSince(action)
      }
      await writeAdminFields(tx, node.id, from)
      return { nodeId: node.id }
    }
    case 'publisher.ban':
    case 'publisher.unban': {
      const publisher = await lockPublisher(tx, action.subjectId)
      if (!publisher) throw notFound(`Publisher '${action.subjectId}' no longer exists.`)
      if (publisher.status !== action.toValue) throw changedSince(action)
      if (!isPublisherStatus(action.fromValue)) throw unreadable(action)
      await writePublisherStatus(tx, publisher.id, action.fromValue)
      return { publisherId: publisher.id }
    }
    case 'node.create':
    case 'undo':
      throw badRequest(
        `Action ${action.id} (${action.action}) cannot be undone${action.action === 'undo' ? ': make the decision again instead' : ': delete or ban the node instead'}.`,
      )
  }
}

/** Undoes the actions (already locked, oldest first), newest first; all or nothing. */
async function undoLocked(
  tx: Db,
  actor: Caller,
  actions: readonly AdminActionRow[],
  batchId: string | null,
): Promise<{ actions: AdminActionRow[]; subjects: UndoneSubjects }> {
  const done = actions.find((action) => action.undoneBy !== null)
  if (done) {
    throw conflict(`Action ${done.id} (${done.action}) was already undone by ${done.undoneBy}.`)
  }
  const records: ActionRecord[] = []
  const subjects: UndoneSubjects = { nodeIds: [], publisherIds: [] }
  // Only a version's status changes its node's latest version.
  const versionNodes: string[] = []
  for (const action of [...actions].reverse()) {
    const undoId = randomUUID()
    const restored = await restore(tx, actor, action)
    if ('nodeId' in restored) {
      subjects.nodeIds.push(restored.nodeId)
      if (action.action === 'version.status') versionNodes.push(restored.nodeId)
    } else {
      subjects.publisherIds.push(restored.publisherId)
    }
    records.push({
      id: undoId,
      action: 'undo',
      subjectType: action.subjectType,
      subjectId: action.subjectId,
      subjectLabel: action.subjectLabel,
      fromValue: action.toValue,
      toValue: action.fromValue,
      reason: `Undo of ${action.action}${action.reason ? `: ${action.reason}` : ''}`,
      batchId,
      undoes: action.id,
    })
  }
  await refreshNodes(tx, versionNodes)
  const written = await recordActions(tx, actor, records)
  for (const undo of written) {
    if (!undo.undoes) continue
    const marked = await tx
      .update(adminActions)
      .set({ undoneBy: undo.id })
      .where(and(eq(adminActions.id, undo.undoes), isNull(adminActions.undoneBy)))
      .returning({ id: adminActions.id })
    if (marked.length !== 1) throw conflict(`Action ${undo.undoes} was already undone.`)
  }
  return { actions: written, subjects }
}

export async function undoAction(
  db: Db,
  actor: Caller,
  actionId: string,
): Promise<{ actions: AdminActionRow[]; subjects: UndoneSubjects }> {
  return db.transaction(async (tx) => {
    const [action] = await tx
      .select()
      .from(adminActions)
      .where(eq(adminActions.id, actionId))
      .for('update')
    if (!action) throw notFound(`Admin action ${actionId} does not exist.`)
    return undoLocked(tx, actor, [action], null)
  })
}

export async function undoBatch(
  db: Db,
  actor: Caller,
  batchId: string,
): Promise<{ batchId: string; actions: AdminActionRow[]; subjects: UndoneSubjects }> {
  return db.transaction(async (tx) => {
    const actions = await tx
      .select()
      .from(adminActions)
      .where(eq(adminActions.batchId, batchId))
      .orderBy(asc(adminActions.createdAt), asc(adminActions.id))
      .for('update')
    if (actions.length === 0) throw notFound(`Batch ${batchId} does not exist.`)
    const undoBatchId = randomUUID()
    return { batchId: undoBatchId, ...(await undoLocked(tx, actor, actions, undoBatchId)) }
  })
}
