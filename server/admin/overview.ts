// The counts on the admin dashboard. Pending and Flagged count what the review queue shows
// (listAllNodeVersions: versions of Active nodes), answered from node_versions_review_queue_idx
// and nodes_not_active_idx.
import { and, eq, gte, inArray, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { nodes, nodeVersions, publishers } from '../db/schema'
import type { Schemas } from '../http/operations'
import { versionOfActiveNode } from '../versions/queries'

type AdminOverview = Schemas['AdminOverview']

const DAY_MS = 24 * 60 * 60 * 1000

export async function adminOverview(db: Db, now = new Date()): Promise<AdminOverview> {
  const [queue, [recent], [bannedNodes], [bannedPublishers]] = await Promise.all([
    db
      .select({ status: nodeVersions.status, count: sql<number>`count(*)::int` })
      .from(nodeVersions)
      .where(
        and(
          inArray(nodeVersions.status, ['NodeVersionStatusPending', 'NodeVersionStatusFlagged']),
          versionOfActiveNode,
        ),
      )
      .groupBy(nodeVersions.status),
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(nodeVersions)
      .where(gte(nodeVersions.createdAt, new Date(now.getTime() - DAY_MS))),
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(nodes)
      .where(eq(nodes.status, 'NodeStatusBanned')),
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(publishers)
      .where(eq(publishers.status, 'PublisherStatusBanned')),
  ])
  const count = (status: string) => queue.find((row) => row.status === status)?.count ?? 0
  return {
    pending: count('NodeVersionStatusPending'),
    flagged: count('NodeVersionStatusFlagged'),
    published_last_24h: recent.count,
    banned_nodes: bannedNodes.count,
    banned_publishers: bannedPublishers.count,
  }
}
