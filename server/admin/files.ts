// What a reviewer reads: the files of a version's archive, the difference to the node's previous
// version (by semver) that has an archive, and one file's text. Archives are read in memory with
// the pipeline's checks (server/pipeline/archive.ts): nothing is unpacked, and a requested path
// is only ever looked up among the archive's own entries.
import { and, eq, isNotNull } from 'drizzle-orm'
import type { Db } from '../db/client'
import { compareVersions } from '../db/semver'
import { nodeVersions, type NodeRow, type NodeVersion } from '../db/schema'
import { conflict, HttpError, notFound } from '../http/errors'
import type { Schemas } from '../http/operations'
import {
  checkArchive,
  DEFAULT_ARCHIVE_LIMITS,
  type ArchiveEntry,
  type CheckedArchive,
} from '../pipeline/archive'
import type { ArchiveStorage } from '../storage'

type AdminVersionFiles = Schemas['AdminVersionFiles']
type AdminVersionFile = Schemas['AdminVersionFile']

/** Larger files are not shown as text. */
export const MAX_TEXT_BYTES = 1024 * 1024

interface ReadArchive {
  archive: CheckedArchive
  size: number
}

async function readArchive(
  storage: ArchiveStorage,
  version: NodeVersion,
  maxArchiveBytes: number,
): Promise<ReadArchive | null> {
  if (!version.storageKey) return null
  const bytes = await storage.get(version.storageKey)
  if (!bytes) return null
  const checked = checkArchive(bytes, { ...DEFAULT_ARCHIVE_LIMITS, maxArchiveBytes })
  if (!checked.ok) {
    const problems = checked.findings.map((finding) => finding.message).slice(0, 3)
    throw conflict(
      `The archive of ${version.nodeId}@${version.version} fails the archive checks, so its files are not shown: ${problems.join(' ')}`,
    )
  }
  return { archive: checked.archive, size: bytes.length }
}

async function requireArchive(
  storage: ArchiveStorage,
  version: NodeVersion,
  maxArchiveBytes: number,
): Promise<ReadArchive> {
  const read = await readArchive(storage, version, maxArchiveBytes)
  if (!read)
    throw notFound(`Version ${version.version} of node '${version.nodeId}' has no archive.`)
  return read
}

const files = (archive: CheckedArchive): ArchiveEntry[] =>
  archive.entries.filter((entry) => !entry.isDirectory)

/** The path without the archive's top-level folder, so two versions' archives compare. */
const relative = (archive: CheckedArchive, name: string) =>
  archive.packageRoot && name.startsWith(archive.packageRoot)
    ? name.slice(archive.packageRoot.length)
    : name

export function diffArchives(current: CheckedArchive, previous: CheckedArchive) {
  const before = new Map(files(previous).map((entry) => [relative(previous, entry.name), entry]))
  const now = new Map(files(current).map((entry) => [relative(current, entry.name), entry]))
  const added: string[] = []
  const changed: string[] = []
  for (const [path, entry] of now) {
    const old = before.get(path)
    if (!old) added.push(entry.name)
    else if (old.crc !== entry.crc || old.uncompressedSize !== entry.uncompressedSize) {
      changed.push(entry.name)
    }
  }
  const removed = [...before].filter(([path]) => !now.has(path)).map(([, entry]) => entry.name)
  return { added, removed, changed }
}

/** The node's highest version below `version` (by semver) that has an archive. */
async function previousWithArchive(
  db: Db,
  node: NodeRow,
  version: NodeVersion,
): Promise<NodeVersion | null> {
  const candidates = await db
    .select()
    .from(nodeVersions)
    .where(and(eq(nodeVersions.nodeId, node.id), isNotNull(nodeVersions.storageKey)))
  const earlier = candidates
    .filter((candidate) => compareVersions(candidate.version, version.version) < 0)
    .sort((a, b) => compareVersions(b.version, a.version))
  return earlier[0] ?? null
}

export async function versionFiles(
  db: Db,
  storage: ArchiveStorage,
  node: NodeRow,
  version: NodeVersion,
  maxArchiveBytes: number,
): Promise<AdminVersionFiles> {
  const { archive, size } = await requireArchive(storage, version, maxArchiveBytes)
  const answer: AdminVersionFiles = {
    node_id: version.nodeId,
    version: version.version,
    archive_size: size,
    files: files(archive).map((entry) => ({
      path: entry.name,
      size: entry.uncompressedSize,
      compressed_size: entry.compressedSize,
    })),
  }
  const previous = await previousWithArchive(db, node, version)
  if (!previous) return answer
  // An earlier archive that cannot be read (missing, or refused by the checks) is no baseline.
  const before = await readArchive(storage, previous, maxArchiveBytes).catch(() => null)
  if (!before) return answer
  return {
    ...answer,
    previous_version: previous.version,
    diff: diffArchives(archive, before.archive),
  }
}

export async function versionFileText(
  storage: ArchiveStorage,
  version: NodeVersion,
  path: string,
  maxArchiveBytes: number,
): Promise<AdminVersionFile> {
  const { archive } = await requireArchive(storage, version, maxArchiveBytes)
  const entry = files(archive).find((candidate) => candidate.name === path)
  if (!entry) {
    throw notFound(
      `The archive of ${version.nodeId}@${version.version} has no file '${path}'. Paths are the full names listAdminVersionFiles answers.`,
    )
  }
  if (entry.uncompressedSize > MAX_TEXT_BYTES) {
    return { path, size: entry.uncompressedSize, text: '', truncated: true }
  }
  const text = archive.readText(entry.name, MAX_TEXT_BYTES)
  if (text === null) {
    throw new HttpError(
      415,
      'Unsupported Media Type',
      `'${path}' is not a UTF-8 text file (it is binary or in another encoding); download the archive to inspect it.`,
    )
  }
  return { path, size: entry.uncompressedSize, text, truncated: false }
}
