import { UNCLAIMED_PUBLISHER } from '@/src/lib/constants'
import type { HandlerMap } from '../http/operations'
import { notFound } from '../http/errors'
import { requireAdmin } from '../publishers/access'
import { createNode, findNodeRow, nodeFields } from '../nodes/writes'
import { findPublisher } from '../publishers/queries'
import { toApiNodeVersion } from '../http/serialize'
import { findVersionForWrite, setVersionStatus } from '../versions/writes'
import { adminDecisionReason } from '../versions/status-reason'
import { versionView } from '../nodes/visibility'
import { managedNode } from '../nodes/routes'
import { durationMs, queueRescans } from '../pipeline/rescan'

export const adminHandlers: HandlerMap = {
  /** A node for a repository nobody has claimed yet (no publisher) or for a given publisher. */
  async adminCreateNode(request, reply, context) {
    requireAdmin(context.caller)
    const body = request.body
    const { db } = context.deps
    let publisherId: string = UNCLAIMED_PUBLISHER.id
    if (body.publisher_id !== undefined) {
      const publisher = await findPublisher(db, body.publisher_id)
      if (!publisher) throw notFound(`Publisher '${body.publisher_id}' does not exist.`)
      publisherId = publisher.id
    }
    const created = await createNode(db, publisherId, body.id, nodeFields(body))
    return reply.status(201).send(await managedNode(context, created.id))
  },

  async adminUpdateNodeVersion(request, _reply, context) {
    requireAdmin(context.caller)
    const { nodeId, versionNumber } = request.params
    const body = request.body
    const { db } = context.deps
    const node = await findNodeRow(db, nodeId)
    if (!node) throw notFound(`Node '${nodeId}' does not exist.`)
    const version = await findVersionForWrite(db, node.id, versionNumber)
    // Kept as today's registry's admin tools read it: the message, who, and the history.
    const reason = adminDecisionReason(version.statusReason, {
      status: body.status,
      message: body.status_reason?.trim() ?? '',
      by: context.caller?.email ?? '',
    })
    const updated = await setVersionStatus(db, version, body.status, reason)
    return toApiNodeVersion(updated, versionView(context, true))
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
