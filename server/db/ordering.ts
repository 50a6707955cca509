/**
 * ORDER BY clauses that match the indexes in schema.ts (an index is only used for a sort when the
 * direction and NULLS placement match). Use them for node listings and version lists.
 */
import { asc, desc, sql, type SQL } from 'drizzle-orm'
import { nodes, nodeVersions } from './schema'

export const NODE_SORTS = ['downloads', 'github_stars', 'created_at', 'updated', 'name'] as const
export type NodeSort = (typeof NODE_SORTS)[number]

/** Node orderings, each backed by an index; ties are broken by id. */
export const nodeOrderBy: Record<NodeSort, SQL[]> = {
  downloads: [desc(nodes.downloads), asc(nodes.id)],
  github_stars: [desc(nodes.githubStars), asc(nodes.id)],
  created_at: [desc(nodes.createdAt), asc(nodes.id)],
  /** Recently updated = newest latest (Active) version first; nodes without one last. */
  updated: [sql`${nodes.latestVersionCreatedAt} desc nulls last`, asc(nodes.id)],
  name: [sql`lower(${nodes.name})`, asc(nodes.id)],
}

/**
 * Versions newest first by semver, the order of server/db/semver.ts compareParsed(): numbers as
 * numbers (numeric columns), a release above its prereleases, then the prerelease key, whose
 * order holds byte by byte (collation "C", whatever the database's collation).
 */
export const versionSemverDesc: SQL[] = [
  desc(nodeVersions.major),
  desc(nodeVersions.minor),
  desc(nodeVersions.patch),
  sql`(${nodeVersions.prerelease} = '') desc`,
  sql`${nodeVersions.prereleaseKey} collate "C" desc`,
]
