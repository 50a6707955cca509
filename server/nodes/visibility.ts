// Small pieces every route module uses: visibility of a node, paging, the version view.
import type { RequestContext } from '../http/context'
import { notFound } from '../http/errors'
import { canSeeHidden } from '../publishers/access'
import { findNode } from './queries'
import type { NodeWithRelations, VersionView } from '../http/serialize'

export function isPubliclyVisible(row: NodeWithRelations): boolean {
  return row.node.status === 'NodeStatusActive' && row.publisher?.status !== 'PublisherStatusBanned'
}

/** The node if the caller may see it; banned and deleted nodes are 404 to everyone else. */
export async function visibleNode(context: RequestContext, nodeId: string) {
  const row = await findNode(context.deps.db, nodeId)
  if (!row) throw notFound(`Node '${nodeId}' does not exist.`)
  const mayManage = await canSeeHidden(context.deps.db, context.caller, row.node.publisherId)
  if (!isPubliclyVisible(row) && !mayManage) throw notFound(`Node '${nodeId}' does not exist.`)
  return { row, mayManage }
}

export function versionView(context: RequestContext, withStatusReason: boolean): VersionView {
  return {
    publicUrl: context.deps.config.publicUrl,
    withStatusReason,
    viewerIsAdmin: context.caller?.isAdmin === true,
  }
}

/** page and limit after validation (the contract sets their defaults and bounds). */
export function paging(query: { page?: number; limit?: number }) {
  return { page: query.page ?? 1, limit: query.limit ?? 10 }
}
