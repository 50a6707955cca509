/**
 * Pure semver helpers for node versions (no database access).
 * `latest_version` = the newest Active version by semver; Pending/Flagged/Banned/Deleted never count.
 */
import semver, { type SemVer } from 'semver'
import type { NodeVersionStatus } from './schema'

export interface SemverSortKey {
  major: number
  minor: number
  patch: number
  /** '' for a release version, otherwise the prerelease part, e.g. 'beta.2'. */
  prerelease: string
}

/** Columns node_versions.major/minor/patch/prerelease for a version string (0.0.0 if invalid). */
export function semverSortKey(version: string): SemverSortKey {
  const parsed = semver.parse(version)
  if (!parsed) return { major: 0, minor: 0, patch: 0, prerelease: '' }
  return {
    major: parsed.major,
    minor: parsed.minor,
    patch: parsed.patch,
    prerelease: parsed.prerelease.join('.'),
  }
}

/** Semver comparison; invalid versions sort before all valid ones (then by string). */
export function compareVersions(a: string, b: string): number {
  const va = semver.valid(a)
  const vb = semver.valid(b)
  if (va && vb) return semver.compare(va, vb)
  if (va) return 1
  if (vb) return -1
  return a < b ? -1 : a > b ? 1 : 0
}

export interface VersionCandidate {
  id: string
  version: string
  status: NodeVersionStatus
  createdAt?: Date | string
}

/** The id of the newest Active version by semver, or null if there is none. */
export function computeLatestVersionId(versions: readonly VersionCandidate[]): string | null {
  return computeLatestVersion(versions)?.id ?? null
}

/** The newest Active version by semver (ties, e.g. invalid strings, go to the newer createdAt). */
export function computeLatestVersion<T extends VersionCandidate>(versions: readonly T[]): T | null {
  let best: T | null = null
  let bestParsed: SemVer | null = null
  for (const v of versions) {
    if (v.status !== 'NodeVersionStatusActive') continue
    const parsed = semver.parse(v.version)
    if (!best) {
      best = v
      bestParsed = parsed
      continue
    }
    const cmp =
      parsed && bestParsed
        ? parsed.compare(bestParsed)
        : parsed
          ? 1
          : bestParsed
            ? -1
            : compareVersions(v.version, best.version)
    if (cmp > 0 || (cmp === 0 && time(v.createdAt) > time(best.createdAt))) {
      best = v
      bestParsed = parsed
    }
  }
  return best
}

function time(value: Date | string | undefined): number {
  if (value === undefined) return 0
  return value instanceof Date ? value.getTime() : Date.parse(value)
}
