// The admins' calls (`/admin/*`, tag `admin` in openapi.yml). Every one is admin-only
// (requireAdmin), and every change writes its audit rows (audit.ts) in the transaction that makes it.
import { UNCLAIMED_PUBLISHER } from '@/src/lib/constants'
import type { HandlerMap } from '../http/operations'
import { notFound } from '../http/errors'
import { requireAdmin } from '../publishers/access'
import { createNode, findNodeRow, nodeFields } from '../nodes/writes'
import { findPublisher } from '../publishers/queries'
import { pageInfo, toApiNodeVersion, toApiPublisher } from '../http/serialize'
import { findVersionForWrite, removeDeletedArchives } from '../versions/writes'
import { paging, versionView } from '../nodes/visibility'
import { managedNode } from '../nodes/routes'
import { durationMs, queueRescans } from '../pipeline/rescan'
import { labelList } from '../http/validate'
import { nodes } from '../db/schema'
import { eq } from 'drizzle-orm'
import { listActions, recordActions, toApiAction } from './audit'
import { decideVersions, findVersions, newBatchId, versionReason } from './decisions'
import { nodeCreatedRecord, updateNodeAsAdmin, updatePublisherAsAdmin } from './moderation'
import { undoAction, undoBatch } from './undo'
import { adminOverview } from './overview'
import { versionFiles, versionFileText } from './files'
import type { RequestContext } from '../http/context'
import type { AdminActionRow, NodeVersion } from '../db/schema'
import { refreshChangedPages } from './pages'

/** The nodes of the versions whose status a decision changed (their public pages change). */
function nodesWithNewStatus(decided: { versions: NodeVersion[]; actions: AdminActionRow[] }) {
  const changed = new Set(
    decided.actions
      .filter((action) => action.fromValue !== action.toValue)
      .map((action) => action.subjectId),
  )
  return decided.versions.filter((version) => changed.has(version.id)).map((v) => v.nodeId)
}

/** The node (any status) and one of its versions, by semver; 404 otherwise. */
async function nodeAndVersion(context: RequestContext, nodeId: string, versionNumber: string) {
  const { db } = context.deps
  const node = await findNodeRow(db, nodeId)
  if (!node) throw notFound(`Node '${nodeId}' does not exist.`)
  const version = await findVersionForWrite(db, node.id, versionNumber)
  return { node, version }
}

/** Deleting a version deletes its archive; one the store cannot remove now, maintenance does. */
async function removeArchivesOfDeleted(
  context: RequestContext,
  versions: readonly NodeVersion[],
  log: (message: string) => void,
): Promise<void> {
  const deleted = versions.filter((version) => version.status === 'NodeVersionStatusDeleted')
  const ids = deleted.map((version) => version.id)
  await removeDeletedArchives(context.deps.db, context.deps.storage, ids).catch((error: unknown) =>
    log(`Archives of deleted versions not removed yet (maintenance will): ${String(error)}`),
  )
}

export const adminHandlers: HandlerMap = {
  /** A node for a repository nobody has claimed yet (no publisher) or for a given publisher. */
  async adminCreateNode(request, reply, context) {
    const actor = requireAdmin(context.caller)
    const body = request.body
    const { db } = context.deps
    let publisherId: string = UNCLAIMED_PUBLISHER.id
    if (body.publisher_id !== undefined) {
      const publisher = await findPublisher(db, body.publisher_id)
      if (!publisher) throw notFound(`Publisher '${body.publisher_id}' does not exist.`)
      publisherId = publisher.id
    }
    const fields = nodeFields(body)
    const tagsAdmin = labelList('tags_admin', body.tags_admin) ?? []
    const created = await db.transaction(async (tx) => {
      const node = await createNode(tx, publisherId, body.id, fields)
      await tx.update(nodes).set({ tagsAdmin }).where(eq(nodes.id, node.id))
      await recordActions(tx, actor, [nodeCreatedRecord({ ...node, tagsAdmin })])
      return node
    })
    // A page asked for before the node existed is cached as "not found".
    void refreshChangedPages(context, { nodeIds: [created.id] }, (m) => request.log.warn(m))
    return reply.status(201).send(await managedNode(context, created.id))
  },

  async adminUpdateNodeVersion(request, _reply, context) {
    const actor = requireAdmin(context.caller)
    const { nodeId, versionNumber } = request.params
    const body = request.body
    const message = versionReason(body.status, body.status_reason, 'status_reason')
    const { version } = await nodeAndVersion(context, nodeId, versionNumber)
    // Kept as today's registry's admin tools read it: the message, who, and the history.
    const decided = await decideVersions(context.deps.db, actor, [version], {
      status: body.status,
      message,
    })
    const log = (m: string) => request.log.warn(m)
    await removeArchivesOfDeleted(context, decided.versions, log)
    void refreshChangedPages(context, { nodeIds: nodesWithNewStatus(decided) }, log)
    return toApiNodeVersion(decided.versions[0], versionView(context, true))
  },

  async adminDecideVersions(request, _reply, context) {
    const actor = requireAdmin(context.caller)
    const body = request.body
    const message = versionReason(body.status, body.reason, 'reason')
    const versions = await findVersions(context.deps.db, body.versions)
    const batchId = newBatchId()
    const decided = await decideVersions(context.deps.db, actor, versions, {
      status: body.status,
      message,
      batchId,
    })
    const log = (m: string) => request.log.warn(m)
    await removeArchivesOfDeleted(context, decided.versions, log)
    void refreshChangedPages(context, { nodeIds: nodesWithNewStatus(decided) }, log)
    const view = versionView(context, true)
    return {
      batch_id: batchId,
      versions: decided.versions.map((version) => toApiNodeVersion(version, view)),
    }
  },

  async adminUpdateNode(request, _reply, context) {
    const actor = requireAdmin(context.caller)
    const { nodeId, changed } = await updateNodeAsAdmin(
      context.deps.db,
      actor,
      request.params.nodeId,
      request.body,
    )
    if (changed) {
      void refreshChangedPages(context, { nodeIds: [nodeId] }, (m) => request.log.warn(m))
    }
    return managedNode(context, nodeId)
  },

  async adminUpdatePublisher(request, _reply, context) {
    const actor = requireAdmin(context.caller)
    const { publisher, changed } = await updatePublisherAsAdmin(
      context.deps.db,
      actor,
      request.params.publisherId,
      request.body,
    )
    // Its nodes' pages disappear (ban) or come back (unban).
    if (changed) {
      const log = (m: string) => request.log.warn(m)
      void refreshChangedPages(context, { publisherIds: [publisher.id] }, log)
    }
    return toApiPublisher(publisher)
  },

  async listAdminActions(request, _reply, context) {
    requireAdmin(context.caller)
    const query = request.query
    const { page, limit } = paging(query)
    const result = await listActions(
      context.deps.db,
      {
        actor: query.actor,
        action: query.action,
        subjectId: query.subject_id,
        batchId: query.batch_id,
      },
      { page, limit },
    )
    return { actions: result.rows.map(toApiAction), ...pageInfo(result.total, page, limit) }
  },

  async undoAdminAction(request, _reply, context) {
    const actor = requireAdmin(context.caller)
    const undone = await undoAction(context.deps.db, actor, request.params.actionId)
    void refreshChangedPages(context, undone.subjects, (m) => request.log.warn(m))
    return { actions: undone.actions.map(toApiAction) }
  },

  async undoAdminBatch(request, _reply, context) {
    const actor = requireAdmin(context.caller)
    const undone = await undoBatch(context.deps.db, actor, request.params.batchId)
    void refreshChangedPages(context, undone.subjects, (m) => request.log.warn(m))
    return { batch_id: undone.batchId, actions: undone.actions.map(toApiAction) }
  },

  async getAdminOverview(_request, _reply, context) {
    requireAdmin(context.caller)
    return adminOverview(context.deps.db)
  },

  async listAdminVersionFiles(request, _reply, context) {
    requireAdmin(context.caller)
    const { nodeId, versionNumber } = request.params
    const { node, version } = await nodeAndVersion(context, nodeId, versionNumber)
    const { db, storage, config } = context.deps
    return versionFiles(db, storage, node, version, config.maxArchiveBytes)
  },

  async getAdminVersionFile(request, _reply, context) {
    requireAdmin(context.caller)
    const { nodeId, versionNumber } = request.params
    const { version } = await nodeAndVersion(context, nodeId, versionNumber)
    const { storage, config } = context.deps
    return versionFileText(storage, version, request.query.path, config.maxArchiveBytes)
  },

  async securityScan(request, _reply, context) {
    requireAdmin(context.caller)
    const { minAge, minSecurityScanAge, maxNodes } = request.query
    const queued = await queueRescans(context.deps.db, {
      minAgeMs: durationMs(minAge),
      minScanAgeMs: durationMs(minSecurityScanAge),
      max: maxNodes ?? 50,
    })
    if (queued.length > 0) context.deps.wakeWorker?.()
    return {
      queued: queued.length,
      results: queued.map((version) => ({
        node_id: version.nodeId,
        version: version.version,
        status: version.status,
        last_scanned_at: version.scannedAt ? new Date(version.scannedAt).toISOString() : undefined,
      })),
    }
  },
}
