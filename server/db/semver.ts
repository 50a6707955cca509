/**
 * Semantic versions of node versions and releases (no database access): the one place that
 * parses and compares them. `latest_version` = the newest Active version by semver;
 * Pending/Flagged/Banned/Deleted never count.
 *
 * Numeric identifiers are unsigned 64-bit numbers, as in today's registry (Go): packs publish
 * date-stamped versions such as `1.0.2608210019`. They are parsed as BigInt, because the npm
 * `semver` package refuses numbers above Number.MAX_SAFE_INTEGER and a double would round them.
 */
import type { NodeVersionStatus } from './schema'

/** The largest numeric identifier (2^64 − 1, Go's uint64). */
export const MAX_NUMERIC_IDENTIFIER = 18446744073709551615n

/** A prerelease identifier: a number (compared as one) or text (compared in ASCII order). */
export type PrereleaseIdentifier = bigint | string

export interface ParsedVersion {
  major: bigint
  minor: bigint
  patch: bigint
  /** Empty for a release. */
  prerelease: PrereleaseIdentifier[]
  /** Build metadata; ignored in comparisons (semver §10). */
  build: string[]
}

// semver.org 2.0.0: numbers without leading zeros; the size is checked after matching.
const NUMBER = '0|[1-9]\\d*'
const PRERELEASE_ID = `${NUMBER}|\\d*[A-Za-z-][0-9A-Za-z-]*`
const VERSION_SHAPE = new RegExp(
  `^(${NUMBER})\\.(${NUMBER})\\.(${NUMBER})` +
    `(?:-((?:${PRERELEASE_ID})(?:\\.(?:${PRERELEASE_ID}))*))?` +
    `(?:\\+([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?$`,
)
const DIGITS = /^\d+$/

/** A number of at most 20 digits (2^64 − 1 has 20), else null. */
function numericIdentifier(text: string): bigint | null {
  if (text.length > 20) return null
  const value = BigInt(text)
  return value <= MAX_NUMERIC_IDENTIFIER ? value : null
}

/**
 * The version's parts, or null when it is no semantic version (a leading `v` is not part of
 * one) or one of its numbers exceeds 2^64 − 1.
 */
export function parseVersion(text: string): ParsedVersion | null {
  const match = VERSION_SHAPE.exec(text)
  if (!match) return null
  const [major, minor, patch] = [match[1], match[2], match[3]].map(numericIdentifier)
  if (major === null || minor === null || patch === null) return null
  const prerelease: PrereleaseIdentifier[] = []
  for (const part of match[4]?.split('.') ?? []) {
    if (!DIGITS.test(part)) {
      prerelease.push(part)
      continue
    }
    const value = numericIdentifier(part)
    if (value === null) return null
    prerelease.push(value)
  }
  return { major, minor, patch, prerelease, build: match[5]?.split('.') ?? [] }
}

/** Whether `text` is a semantic version the registry accepts (openapi.yml `format: semver`). */
export function isVersion(text: string): boolean {
  return parseVersion(text) !== null
}

/** The version without build metadata, e.g. `1.2.3-rc.1`. */
export function formatVersion(version: ParsedVersion): string {
  const main = `${version.major}.${version.minor}.${version.patch}`
  return version.prerelease.length > 0 ? `${main}-${version.prerelease.join('.')}` : main
}

const sign = <T extends bigint | number | string>(a: T, b: T): number =>
  a < b ? -1 : a > b ? 1 : 0

/** Semver §11: a number ranks below text; numbers by value, text in ASCII order. */
function compareIdentifiers(a: PrereleaseIdentifier, b: PrereleaseIdentifier): number {
  if (typeof a === 'bigint') return typeof b === 'bigint' ? sign(a, b) : -1
  return typeof b === 'bigint' ? 1 : sign(a, b)
}

/** Precedence of two parsed versions (semver §11): <0, 0 (build metadata aside) or >0. */
export function compareParsed(a: ParsedVersion, b: ParsedVersion): number {
  const main = sign(a.major, b.major) || sign(a.minor, b.minor) || sign(a.patch, b.patch)
  if (main !== 0) return main
  // A release ranks above its prereleases.
  if (a.prerelease.length === 0 || b.prerelease.length === 0) {
    return sign(b.prerelease.length, a.prerelease.length)
  }
  const shared = Math.min(a.prerelease.length, b.prerelease.length)
  for (let i = 0; i < shared; i++) {
    const cmp = compareIdentifiers(a.prerelease[i], b.prerelease[i])
    if (cmp !== 0) return cmp
  }
  // More identifiers rank higher when all before them are equal.
  return sign(a.prerelease.length, b.prerelease.length)
}

/** Semver comparison; invalid versions sort before all valid ones (then by string). */
export function compareVersions(a: string, b: string): number {
  const pa = parseVersion(a)
  const pb = parseVersion(b)
  if (pa && pb) return compareParsed(pa, pb)
  if (pa) return 1
  if (pb) return -1
  return sign(a, b)
}

export interface SemverSortKey {
  /** Decimal text of numeric(20,0) columns: exact up to 2^64 − 1, unlike a JavaScript number. */
  major: string
  minor: string
  patch: string
  /**
   * '' for a release version, otherwise the prerelease part, e.g. 'beta.2'. The database
   * derives `prerelease_key` from it for ordering (registry_prerelease_key(), migration 0018).
   */
  prerelease: string
}

/** Columns node_versions.major/minor/patch/prerelease for a version string (0.0.0 if invalid). */
export function semverSortKey(version: string): SemverSortKey {
  const parsed = parseVersion(version)
  if (!parsed) return { major: '0', minor: '0', patch: '0', prerelease: '' }
  return {
    major: parsed.major.toString(),
    minor: parsed.minor.toString(),
    patch: parsed.patch.toString(),
    prerelease: parsed.prerelease.join('.'),
  }
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
  let bestParsed: ParsedVersion | null = null
  for (const v of versions) {
    if (v.status !== 'NodeVersionStatusActive') continue
    const parsed = parseVersion(v.version)
    if (!best) {
      best = v
      bestParsed = parsed
      continue
    }
    const cmp =
      parsed && bestParsed
        ? compareParsed(parsed, bestParsed)
        : parsed
          ? 1
          : bestParsed
            ? -1
            : sign(v.version, best.version)
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
