import { eq } from 'drizzle-orm'
import type { Db } from './client'
import { nodes, nodeVersions } from './schema'
import { computeLatestVersion } from './semver'

export interface LatestVersionRef {
  id: string
  createdAt: Date
}

/**
 * Recompute nodes.latest_version_id / latest_version_created_at for one node from its versions
 * (newest Active by semver). Call it after creating a version or changing a version's status.
 * Works inside a transaction (pass the `tx`).
 */
export async function refreshLatestVersion(
  db: Db,
  nodeId: string,
): Promise<LatestVersionRef | null> {
  const versions = await db
    .select({
      id: nodeVersions.id,
      version: nodeVersions.version,
      status: nodeVersions.status,
      createdAt: nodeVersions.createdAt,
    })
    .from(nodeVersions)
    .where(eq(nodeVersions.nodeId, nodeId))
  const latest = computeLatestVersion(versions)
  await db
    .update(nodes)
    .set({
      latestVersionId: latest?.id ?? null,
      latestVersionCreatedAt: latest?.createdAt ?? null,
    })
    .where(eq(nodes.id, nodeId))
  return latest ? { id: latest.id, createdAt: latest.createdAt } : null
}
