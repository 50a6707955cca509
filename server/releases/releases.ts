// Release notes of ComfyUI, its desktop app and its frontend: one row per project and version,
// written by admins or by GitHub's `release` webhook (webhook.ts), read by the app to show what
// is new since the version a user runs. Versions are compared as semver (a leading `v` is
// optional); `v1.2.0` and `1.2.0` of one project are the same release.
import { and, eq, inArray, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { isUniqueViolation } from '../db/errors'
import { compareParsed, formatVersion, parseVersion, type ParsedVersion } from '../db/semver'
import { releases, type Release } from '../db/schema'
import { badRequest, conflict, notFound } from '../http/errors'
import type { Schemas } from '../http/operations'

export type ReleaseProject = Schemas['ReleaseProject']
export type Attention = NonNullable<Schemas['Release']['attention']>

const UNIQUE_INDEX = 'releases_project_version_unique'

export function toApiRelease(row: Release): Schemas['Release'] {
  return {
    id: row.id,
    project: row.project,
    version: row.version,
    attention: row.attention,
    title: row.title,
    content: row.content,
    published_at: new Date(row.publishedAt).toISOString(),
  }
}

/** A stored or asked-for version, `v` optional, if it is a semantic version (else null). */
function parseRelease(version: string): ParsedVersion | null {
  return parseVersion(version.trim().replace(/^v/, ''))
}

/** The version without its `v` (nor build metadata), if it is a semantic version (else null). */
export function bareVersion(version: string): string | null {
  const parsed = parseRelease(version)
  return parsed && formatVersion(parsed)
}

/** Semver order of two release versions (`v` optional); those that are none rank first. */
function compareReleases(a: string, b: string): number {
  const pa = parseRelease(a)
  const pb = parseRelease(b)
  if (pa && pb) return compareParsed(pa, pb)
  return pa ? 1 : pb ? -1 : a < b ? -1 : a > b ? 1 : 0
}

/** Both spellings a stored version may have: `1.2.0` and `v1.2.0`. */
const spellings = (bare: string) => [bare, `v${bare}`]

/**
 * Releases newest first (semver, then published_at). With `currentVersion`, only those newer
 * than it; a `currentVersion` that is no semantic version is a 400. The table is small (a few
 * releases a week per project), so it is ordered and filtered here rather than in SQL, where
 * semver's prerelease rules would be hard to follow.
 */
export async function listReleases(
  db: Db,
  filters: { project?: string; currentVersion?: string },
): Promise<Release[]> {
  let current: string | null = null
  if (filters.currentVersion !== undefined) {
    current = bareVersion(filters.currentVersion)
    if (!current) {
      throw badRequest(
        `Invalid query parameter 'current_version': '${filters.currentVersion}' is not a semantic version (e.g. 0.3.10 or v0.3.10).`,
      )
    }
  }
  const rows = await db
    .select()
    .from(releases)
    .where(filters.project !== undefined ? eq(releases.project, filters.project) : undefined)
  return rows
    .filter((row) => current === null || compareReleases(row.version, current) > 0)
    .sort(
      (a, b) =>
        compareReleases(b.version, a.version) ||
        new Date(b.publishedAt).getTime() - new Date(a.publishedAt).getTime() ||
        b.id - a.id,
    )
}

export interface ReleaseFields {
  attention?: Attention
  title?: string
  content?: string
  publishedAt?: Date
}

export interface NewReleaseRow extends ReleaseFields {
  project: ReleaseProject
  version: string
  githubReleaseId?: number
}

function requireSemver(version: string): string {
  const bare = bareVersion(version)
  if (!bare) {
    throw badRequest(
      `Invalid request body field 'version': '${version}' is not a semantic version.`,
    )
  }
  return bare
}

async function findByVersion(db: Db, project: string, bare: string): Promise<Release | null> {
  const [row] = await db
    .select()
    .from(releases)
    .where(and(eq(releases.project, project), inArray(releases.version, spellings(bare))))
  return row ?? null
}

const duplicate = (project: string, version: string, id: number) =>
  conflict(`${project} already has a release ${version} (id ${id}): edit that one instead.`)

/** Adds a release (an admin's); 409 when its project has that version already. */
export async function createRelease(db: Db, release: NewReleaseRow): Promise<Release> {
  const bare = requireSemver(release.version)
  const known = await findByVersion(db, release.project, bare)
  if (known) throw duplicate(release.project, known.version, known.id)
  try {
    const [row] = await db.insert(releases).values(release).returning()
    return row
  } catch (error) {
    // Added by someone else meanwhile.
    if (!isUniqueViolation(error, UNIQUE_INDEX)) throw error
    const raced = await findByVersion(db, release.project, bare)
    throw duplicate(release.project, raced?.version ?? release.version, raced?.id ?? 0)
  }
}

/** Changes the fields given (only those); 404 for an unknown id. */
export async function updateRelease(db: Db, id: number, fields: ReleaseFields): Promise<Release> {
  const [row] = await db
    .update(releases)
    .set({ ...fields, updatedAt: sql`now()` })
    .where(eq(releases.id, id))
    .returning()
  if (!row) throw notFound(`There is no release ${id}.`)
  return row
}

/**
 * Stores a release that came from GitHub: a new one is added, a known one (same project and
 * version, either spelling; a second delivery or an edit) is updated in place, never duplicated.
 * Without `publishedAt` a known release keeps its date.
 */
export async function upsertRelease(db: Db, release: NewReleaseRow): Promise<Release> {
  const { project, version, ...fields } = release
  const bare = requireSemver(version)
  return db.transaction(async (tx) => {
    const known = await findByVersion(tx, project, bare)
    if (known) {
      const [row] = await tx
        .update(releases)
        .set({ ...fields, updatedAt: sql`now()` })
        .where(eq(releases.id, known.id))
        .returning()
      return row
    }
    // Two deliveries at once: the second finds the first's row through the unique index.
    const [row] = await tx
      .insert(releases)
      .values(release)
      .onConflictDoUpdate({
        target: [releases.project, releases.version],
        set: { ...fields, updatedAt: sql`now()` },
      })
      .returning()
    return row
  })
}

/**
 * How loudly a release is announced. `high`: its name or notes say "breaking" (any case), or it
 * starts a major version (X.0.0, X ≥ 1); `medium`: it starts a minor version (x.Y.0); `low`:
 * everything else (patches). Read from the version itself, so it does not depend on which
 * releases arrived before.
 */
export function attentionOf(version: string, text: { title: string; content: string }): Attention {
  if (/breaking/i.test(`${text.title}\n${text.content}`)) return 'high'
  const parsed = parseRelease(version)
  if (!parsed || parsed.patch !== 0n) return 'low'
  if (parsed.minor === 0n && parsed.major > 0n) return 'high'
  return 'medium'
}
