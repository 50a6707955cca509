// Changing node versions: publish (a Pending version plus a single-use upload link), accept the
// uploaded zip, edit changelog/deprecation, delete, and the admins' status changes.
import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { Readable } from 'node:stream'
import { and, eq, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm'
import type { Schemas } from '../http/operations'
import type { Db } from '../db/client'
import { refreshLatestVersion } from '../db/latest-version'
import { semverSortKey } from '../db/semver'
import {
  nodes,
  nodeVersions,
  pendingUploads,
  publishers,
  type NodeRow,
  type NodeVersion,
  type NodeVersionStatus,
  type PendingUpload,
  type VersionProvenance,
} from '../db/schema'
import { badRequest, conflict, forbidden, notFound, payloadTooLarge } from '../http/errors'
import { archiveKey, type ArchiveStorage } from '../storage'
import { stageUpload, TooLargeError, type StagedFile } from '../storage/staging'
import { BANNED_PUBLISHER_MESSAGE } from '../publishers/access'
import { labelList, shortText, text } from '../http/validate'
import { queueVersionChecks } from '../pipeline/process-version'
import { deprecationChange, type DeprecationRequest } from '../nodes/deprecation'
import { DEFAULT_ARCHIVE_LIMITS, uploadRefusals } from '../pipeline/archive'
import type { Finding } from '../pipeline/findings'

type PublishNodeVersionFields = Schemas['PublishNodeVersionFields']

/** How long the signedUrl of a publish stays valid. */
export const UPLOAD_TTL_MS = 60 * 60 * 1000
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A version of the node by its uuid or its semver string. */
export async function findVersionForWrite(
  db: Db,
  nodeId: string,
  versionId: string,
): Promise<NodeVersion> {
  const byId = UUID.test(versionId)
  const [row] = await db
    .select()
    .from(nodeVersions)
    .where(
      and(
        eq(nodeVersions.nodeId, nodeId),
        byId ? eq(nodeVersions.id, versionId) : eq(nodeVersions.version, versionId),
      ),
    )
  if (!row) throw notFound(`Version ${versionId} of node '${nodeId}' does not exist.`)
  return row
}

/**
 * Creates a Pending version (no archive yet) and the token of its upload link, in one go. The
 * link belongs to the personal access token `tokenId` that published it (null for a trusted
 * publish: its one-use token is spent already). `provenance` says how it was published.
 */
export async function createPendingVersion(
  db: Db,
  node: NodeRow,
  fields: PublishNodeVersionFields,
  tokenId: string | null,
  provenance: VersionProvenance = { method: 'unknown' },
  now = new Date(),
): Promise<{ version: NodeVersion; uploadToken: string }> {
  const key = semverSortKey(fields.version)
  const versionFields = {
    changelog: text(fields.changelog) ?? '',
    dependencies: (fields.dependencies ?? [])
      .map((dependency) => dependency.trim())
      .filter(Boolean),
    supportedOs: labelList('node_version.supported_os', fields.supported_os) ?? node.supportedOs,
    supportedAccelerators:
      labelList('node_version.supported_accelerators', fields.supported_accelerators) ??
      node.supportedAccelerators,
    supportedComfyuiVersion:
      shortText('node_version.supported_comfyui_version', fields.supported_comfyui_version) ??
      node.supportedComfyuiVersion,
    supportedComfyuiFrontendVersion:
      shortText(
        'node_version.supported_comfyui_frontend_version',
        fields.supported_comfyui_frontend_version,
      ) ?? node.supportedComfyuiFrontendVersion,
  }
  const duplicate = () =>
    badRequest(
      `Version ${fields.version} of node '${node.id}' was already published (versions are never reused, even after deletion). Increase the version in pyproject.toml and publish again.`,
    )
  return db.transaction(async (tx) => {
    // Same precedence counts as the same version: 1.0.0 and 1.0.0+build cannot both exist.
    const [existing] = await tx
      .select({ id: nodeVersions.id })
      .from(nodeVersions)
      .where(
        and(
          eq(nodeVersions.nodeId, node.id),
          eq(nodeVersions.major, key.major),
          eq(nodeVersions.minor, key.minor),
          eq(nodeVersions.patch, key.patch),
          eq(nodeVersions.prerelease, key.prerelease),
        ),
      )
      .limit(1)
    if (existing) throw duplicate()
    const [version] = await tx
      .insert(nodeVersions)
      .values({
        nodeId: node.id,
        version: fields.version,
        ...key,
        ...versionFields,
        status: 'NodeVersionStatusPending',
        pipelineState: 'awaiting_upload',
        comfyNodeExtractStatus: 'pending',
        provenance,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning()
    if (!version) throw duplicate()
    const uploadToken = randomBytes(32).toString('base64url')
    await tx.insert(pendingUploads).values({
      token: uploadToken,
      nodeVersionId: version.id,
      storageKey: archiveKey(node.publisherId, node.id, version.version),
      tokenId,
      expiresAt: new Date(now.getTime() + UPLOAD_TTL_MS),
    })
    return { version, uploadToken }
  })
}

export interface StoredUpload {
  version: NodeVersion
  size: number
}

const UNKNOWN_LINK = () =>
  notFound(
    'This upload link is unknown or expired, or its token was deleted. Publish the version again to get a new link.',
  )

/** The link's upload and version, if the link may be used now; refusals before any byte is read. */
async function usableUpload(db: Db, uploadToken: string, now: Date) {
  const [found] = await db
    .select({ upload: pendingUploads, version: nodeVersions, publisher: publishers })
    .from(pendingUploads)
    .innerJoin(nodeVersions, eq(nodeVersions.id, pendingUploads.nodeVersionId))
    .innerJoin(nodes, eq(nodes.id, nodeVersions.nodeId))
    .innerJoin(publishers, eq(publishers.id, nodes.publisherId))
    .where(eq(pendingUploads.token, uploadToken))
  if (!found || new Date(found.upload.expiresAt).getTime() <= now.getTime()) throw UNKNOWN_LINK()
  const { version } = found
  if (found.publisher.status === 'PublisherStatusBanned') {
    throw forbidden(BANNED_PUBLISHER_MESSAGE(found.publisher.id))
  }
  if (
    version.status === 'NodeVersionStatusDeleted' ||
    version.status === 'NodeVersionStatusBanned'
  ) {
    throw conflict(
      `Version ${version.version} of node '${version.nodeId}' is ${version.status === 'NodeVersionStatusDeleted' ? 'deleted' : 'banned'}; its archive can no longer be uploaded.`,
    )
  }
  return found
}

/** The answer to a retry of an upload that was stored: the same for the same bytes. */
function alreadyStored(upload: PendingUpload, version: NodeVersion, sha256: string): StoredUpload {
  if (upload.uploadedSha256 !== sha256) {
    throw conflict(
      `Version ${version.version} of node '${version.nodeId}' already has its archive, and this one is different. Publish a new version to change it.`,
    )
  }
  return { version, size: upload.uploadedSize ?? 0 }
}

/** What each archive refusal is, in the words of the upload's answer. */
const REFUSAL_KINDS: Record<string, string> = {
  'zip-invalid': 'not a valid zip',
  'zip-corrupt': 'damaged data',
  'zip-too-large': 'too large',
  'zip-too-many-entries': 'too many entries',
  'zip-bomb': 'zip bomb',
  'zip-too-large-uncompressed': 'zip bomb: unpacks too large',
  'zip-size-mismatch': 'declared sizes that lie',
  'zip-overlapping-entries': 'overlapping entries',
  'zip-path-traversal': 'path traversal',
  'zip-absolute-path': 'absolute path',
  'zip-symlink': 'symbolic link',
  'zip-special-file': 'device or special file',
  'zip-header-mismatch': 'headers that disagree',
  'zip-duplicate-entry': 'duplicate entries',
  'zip-encrypted': 'encrypted',
  'zip-unsupported-compression': 'unsupported compression',
  'zip-bad-filename': 'bad file name',
}

/** The 400 answering an archive whose structure is refused; names the first problem. */
function archiveRefused(refusals: Finding[]) {
  const [first] = refusals
  const kind = REFUSAL_KINDS[first.issue_type] ?? first.issue_type
  const others = refusals.length - 1
  const more = others > 0 ? ` It has ${others} more problem${others > 1 ? 's' : ''}.` : ''
  return badRequest(
    `The archive was refused (${kind}): ${first.message}${more} Nothing was stored; fix the archive and upload it again to the same link.`,
  )
}

/**
 * Checks the structure of a staged archive (archive.ts: not a zip, bombs, traversal, absolute
 * paths, links and devices, lying sizes…) before anything is stored. The compressed archive (at
 * most MAX_ARCHIVE_MB) is read whole; its entries are only inflated to count and checksum them,
 * never kept, so a bomb costs no memory.
 */
async function refuseHostileArchive(file: string, maxBytes: number): Promise<void> {
  const bytes = await fs.readFile(file)
  const refusals = uploadRefusals(bytes, { ...DEFAULT_ARCHIVE_LIMITS, maxArchiveBytes: maxBytes })
  if (refusals.length > 0) throw archiveRefused(refusals)
}

/**
 * Stores the zip sent to a signedUrl. The link is checked before a byte of the body is read
 * (an unknown link costs nothing); the body is streamed to a staged file with the size cap and
 * its structure checked (a hostile archive is a 400 naming the problem; nothing is stored and the
 * link stays usable for a fixed archive). Then, in one transaction with the link's row locked (so
 * two uploads at once store one archive), the file is moved into storage, the link and version
 * rows record it and the pipeline's job is queued. The link stays valid until it expires: a retry
 * with the same bytes (a client that missed the answer) gets the same answer, other bytes a 409.
 * Deleting the personal access token that published the version deletes the link (foreign key).
 *
 * A crash leaves no row without its archive: the rows are committed after the move. It can leave
 * an archive without a row (moved, not committed), which a failed transaction removes at once and
 * maintenance removes after a kill (`removeUnclaimedArchives`); a retry overwrites it anyway.
 */
export async function acceptUpload(
  db: Db,
  storage: ArchiveStorage,
  uploadToken: string,
  body: unknown,
  maxBytes: number,
  now = new Date(),
): Promise<StoredUpload> {
  await usableUpload(db, uploadToken, now)
  if (!(body instanceof Readable)) {
    throw badRequest(
      "Send the node's zip archive as the request body with 'Content-Type: application/zip'.",
    )
  }
  let staged: StagedFile
  try {
    staged = await stageUpload(body, storage.stagingDir, maxBytes)
  } catch (error) {
    if (error instanceof TooLargeError) {
      throw payloadTooLarge(
        `The archive is too large: at most ${+(maxBytes / (1024 * 1024)).toFixed(1)} MB are accepted.`,
      )
    }
    throw error
  }
  try {
    const { upload, version } = await usableUpload(db, uploadToken, now)
    // A link that stored an archive answers a retry (or other bytes) without checking again.
    if (upload.uploadedSha256 !== null) return alreadyStored(upload, version, staged.sha256)
    await refuseHostileArchive(staged.file, maxBytes)
    return await storeStaged(db, storage, uploadToken, staged, now)
  } finally {
    await fs.rm(staged.file, { force: true })
  }
}

async function storeStaged(
  db: Db,
  storage: ArchiveStorage,
  uploadToken: string,
  staged: StagedFile,
  now: Date,
): Promise<StoredUpload> {
  let moved = false
  try {
    return await db.transaction(async (tx) => {
      // Serialises uploads to one link; the state is read again under the lock.
      await tx.execute(
        sql`select 1 from ${pendingUploads} where ${pendingUploads.token} = ${uploadToken} for update`,
      )
      const { upload, version } = await usableUpload(tx, uploadToken, now)
      if (upload.uploadedSha256 !== null) return alreadyStored(upload, version, staged.sha256)
      // Set before the move: a move that fails half-way is cleaned up too.
      moved = true
      await storage.putFile(upload.storageKey, staged.file)
      await tx
        .update(pendingUploads)
        .set({ uploadedSha256: staged.sha256, uploadedSize: staged.size })
        .where(eq(pendingUploads.token, uploadToken))
      await tx
        .update(nodeVersions)
        .set({ storageKey: upload.storageKey, archiveSize: staged.size })
        .where(eq(nodeVersions.id, version.id))
      // Checked, scanned and decided by the pipeline's worker (server/pipeline/).
      return { version: await queueVersionChecks(tx, version.id, now), size: staged.size }
    })
  } catch (error) {
    // The rows were not committed: the moved archive must not stay behind. If this fails too,
    // maintenance removes it.
    if (moved) await removeUnclaimedArchives(db, storage, uploadToken).catch(() => 0)
    throw error
  }
}

/**
 * Removes archives that sit at the key of an upload link that stored nothing: left by a process
 * killed (or a transaction that failed) between moving the archive into storage and committing.
 * Links being used right now are locked by their upload and skipped (`skip locked`), so an
 * upload in progress is never touched. Only `onlyToken`'s link when given (it waits for the lock).
 */
export async function removeUnclaimedArchives(
  db: Db,
  storage: ArchiveStorage,
  onlyToken?: string,
): Promise<number> {
  return db.transaction(async (tx) => {
    const links = await tx
      .select({ storageKey: pendingUploads.storageKey })
      .from(pendingUploads)
      .innerJoin(nodeVersions, eq(nodeVersions.id, pendingUploads.nodeVersionId))
      .where(
        and(
          isNull(pendingUploads.uploadedSha256),
          isNull(nodeVersions.storageKey),
          onlyToken === undefined ? undefined : eq(pendingUploads.token, onlyToken),
        ),
      )
      .for(
        'update',
        onlyToken === undefined ? { of: pendingUploads, skipLocked: true } : { of: pendingUploads },
      )
    let removed = 0
    for (const { storageKey } of links) {
      if (!(await storage.exists(storageKey))) continue
      await storage.delete(storageKey)
      removed++
    }
    return removed
  })
}

/**
 * Deleting a version deletes its archive: the object is removed from storage and the version
 * forgets its key (the row stays, so the version number is never reused). Called right after a
 * version is deleted (`onlyVersionIds`) and by hourly maintenance for all Deleted versions that
 * still have one (the store was down at the time). Rows locked by another process are skipped.
 * A Deleted version without its archive cannot be restored (server/admin/decisions.ts).
 */
export async function removeDeletedArchives(
  db: Db,
  storage: Pick<ArchiveStorage, 'delete'>,
  onlyVersionIds?: readonly string[],
): Promise<number> {
  if (onlyVersionIds?.length === 0) return 0
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: nodeVersions.id, storageKey: nodeVersions.storageKey })
      .from(nodeVersions)
      .where(
        and(
          eq(nodeVersions.status, 'NodeVersionStatusDeleted'),
          isNotNull(nodeVersions.storageKey),
          onlyVersionIds === undefined ? undefined : inArray(nodeVersions.id, [...onlyVersionIds]),
        ),
      )
      .limit(1000)
      .for('update', { skipLocked: true })
    for (const { id, storageKey } of rows) {
      // The object goes first: a failure leaves the key, and the next run tries again.
      if (storageKey) await storage.delete(storageKey)
      await tx.update(nodeVersions).set({ storageKey: null }).where(eq(nodeVersions.id, id))
    }
    return rows.length
  })
}

/** Removes upload links that expired more than a day ago (they only answer 404 by then). */
export async function removeExpiredUploadLinks(db: Db, now = new Date()): Promise<number> {
  const removed = await db
    .delete(pendingUploads)
    .where(lt(pendingUploads.expiresAt, new Date(now.getTime() - 24 * 60 * 60 * 1000)))
    .returning({ token: pendingUploads.token })
  return removed.length
}

export async function updateVersion(
  db: Db,
  version: NodeVersion,
  changes: { changelog?: string } & DeprecationRequest,
): Promise<NodeVersion> {
  const set = {
    ...(changes.changelog !== undefined ? { changelog: changes.changelog.trim() } : {}),
    ...deprecationChange(version, changes),
  }
  if (Object.keys(set).length === 0) return version
  const [updated] = await db
    .update(nodeVersions)
    .set(set)
    .where(eq(nodeVersions.id, version.id))
    .returning()
  return updated
}

/**
 * Sets one version's status, and its reason when given (deleting ends its upload link; its
 * archive is removed right after, see removeDeletedArchives), without
 * recomputing the node's latest version: the caller does, once per node (admin batches).
 */
export async function writeVersionStatus(
  tx: Db,
  version: NodeVersion,
  status: NodeVersionStatus,
  statusReason?: string,
): Promise<NodeVersion> {
  // Deleting a version deleted its archive (removeDeletedArchives): there is nothing to restore.
  if (
    version.status === 'NodeVersionStatusDeleted' &&
    version.storageKey === null &&
    status !== 'NodeVersionStatusDeleted' &&
    status !== 'NodeVersionStatusBanned'
  ) {
    throw conflict(
      `Version ${version.version} of node '${version.nodeId}' was deleted with its archive and cannot be restored; the publisher can publish a new version.`,
    )
  }
  const [updated] = await tx
    .update(nodeVersions)
    .set({ status, ...(statusReason !== undefined ? { statusReason } : {}) })
    .where(eq(nodeVersions.id, version.id))
    .returning()
  if (status === 'NodeVersionStatusDeleted') {
    await tx.delete(pendingUploads).where(eq(pendingUploads.nodeVersionId, version.id))
  }
  return updated
}

/** Sets a version's status and recomputes the node's latest version. */
export async function setVersionStatus(
  db: Db,
  version: NodeVersion,
  status: NodeVersionStatus,
): Promise<NodeVersion> {
  return db.transaction(async (tx) => {
    const updated = await writeVersionStatus(tx, version, status)
    await refreshLatestVersion(tx, version.nodeId)
    return updated
  })
}
