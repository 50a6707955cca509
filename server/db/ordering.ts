/**
 * ORDER BY clauses that match the indexes in schema.ts (an index is only used for a sort when the
 * direction and NULLS placement match). Use them for node listings and version lists.
 */
import { asc, desc, sql, type SQL } from 'drizzle-orm'
import { nodes, nodeVersions } from './schema'

export const NODE_SORTS = ['downloads', 'github_stars', 'created_at', 'updated', 'name'] as const
export type NodeSort = (typeof NODE_SORTS)[number]

/**
 * What each node ordering sorts by before the id (ties), in which direction, and whether the key
 * may be null (such nodes come last). List marks seek by it (server/nodes/list-marks.ts).
 */
export const nodeOrderKeys: Record<NodeSort, { key: SQL; descending: boolean; nullable?: true }> = {
  downloads: { key: sql`${nodes.downloads}`, descending: true },
  github_stars: { key: sql`${nodes.githubStars}`, descending: true },
  created_at: { key: sql`${nodes.createdAt}`, descending: true },
  /** Recently updated = newest latest (Active) version first; nodes without one last. */
  updated: { key: sql`${nodes.latestVersionCreatedAt}`, descending: true, nullable: true },
  name: { key: sql`lower(${nodes.name})`, descending: false },
}

/** Node orderings, each backed by an index; ties are broken by id. */
export const nodeOrderBy = Object.fromEntries(
  Object.entries(nodeOrderKeys).map(([ordering, { key, descending, nullable }]) => [
    ordering,
    [
      sql`${key}${sql.raw(descending ? ' desc' : '')}${sql.raw(nullable ? ' nulls last' : '')}`,
      asc(nodes.id),
    ],
  ]),
) as Record<NodeSort, SQL[]>

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
