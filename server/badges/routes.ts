// Shields-style SVG badges of a node for READMEs: its latest Active version and its downloads.
// Anyone may fetch them; they are English only (like shields) and the same for every caller.
// Not in the public answer cache (x-public-cache): that shares JSON answers, while a badge is a
// one-row read that browsers, GitHub's image proxy and CDNs cache by its Cache-Control.
import type { FastifyReply } from 'fastify'
import type { HandlerMap } from '../http/operations'
import type { RequestContext } from '../http/context'
import type { NodeWithRelations } from '../http/serialize'
import { findNode } from '../nodes/queries'
import { compactCount, renderBadge, type Badge } from './svg'

/** Badges change when a version is published or downloads add up: minutes are fine. */
export const BADGE_CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=86400'
/** A node not there yet may be created soon: a not-found badge is kept less long. */
export const NOT_FOUND_CACHE_CONTROL = 'public, max-age=60'
/** An SVG opened alone runs nothing and loads nothing; its inline styles still apply. */
export const BADGE_CSP = "default-src 'none'; style-src 'unsafe-inline'"

type BadgeKind = 'version' | 'downloads'

const LABELS: Record<BadgeKind, string> = { version: 'comfy registry', downloads: 'downloads' }

/** What the badge says of a node the public sees. */
function publicValue(kind: BadgeKind, row: NodeWithRelations): Pick<Badge, 'value' | 'color'> {
  if (kind === 'downloads') return { value: compactCount(row.node.downloads), color: 'green' }
  const version = row.latestVersion?.version
  return version ? { value: `v${version}`, color: 'blue' } : { value: 'no release', color: 'grey' }
}

async function sendBadge(
  kind: BadgeKind,
  nodeId: string,
  reply: FastifyReply,
  context: RequestContext,
): Promise<FastifyReply> {
  const row = await findNode(context.deps.db, nodeId)
  const label = LABELS[kind]
  let status = 200
  let badge: Badge
  if (!row || row.node.status === 'NodeStatusDeleted') {
    status = 404
    badge = { label: 'node', value: 'not found', color: 'red' }
  } else if (
    row.node.status === 'NodeStatusBanned' ||
    row.publisher?.status === 'PublisherStatusBanned'
  ) {
    badge = { label, value: 'banned', color: 'grey' }
  } else {
    badge = { label, ...publicValue(kind, row) }
  }
  return reply
    .status(status)
    .header('content-type', 'image/svg+xml; charset=utf-8')
    .header('content-security-policy', BADGE_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', status === 200 ? BADGE_CACHE_CONTROL : NOT_FOUND_CACHE_CONTROL)
    .send(renderBadge(badge))
}

export const badgeHandlers: HandlerMap = {
  getNodeVersionBadge(request, reply, context) {
    return sendBadge('version', request.params.nodeId, reply, context)
  },
  getNodeDownloadsBadge(request, reply, context) {
    return sendBadge('downloads', request.params.nodeId, reply, context)
  },
}
