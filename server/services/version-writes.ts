// Changing node versions: publish (a Pending version plus a single-use upload link), accept the
// uploaded zip, edit changelog/deprecation, delete, and the admins' status changes.
import { randomBytes } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import { unzipSync } from 'fflate'
import type { PublishNodeVersionFields } from '@/src/api/generated/model'
import type { Db } from '../db/client'
import { refreshLatestVersion } from '../db/latest-version'
import { semverSortKey } from '../db/semver'
import {
  nodeVersions,
  pendingUploads,
  publishers,
  type NodeRow,
  type NodeVersion,
  type NodeVersionStatus,
} from '../db/schema'
import { badRequest, conflict, forbidden, notFound, payloadTooLarge } from '../errors'
import { archiveKey, type ArchiveStorage } from '../storage'
import { BANNED_PUBLISHER_MESSAGE } from './access'
import { labelList, shortText, text } from './validate'

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

/** Creates a Pending version (no archive yet) and the token of its upload link, in one go. */
export async function createPendingVersion(
  db: Db,
  node: NodeRow,
  fields: PublishNodeVersionFields,
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
      expiresAt: new Date(now.getTime() + UPLOAD_TTL_MS),
    })
    return { version, uploadToken }
  })
}

/** The names inside a zip, read from its central directory without inflating anything. */
export function zipEntryNames(bytes: Uint8Array): string[] | null {
  const names: string[] = []
  try {
    unzipSync(bytes, {
      filter: (file) => {
        names.push(file.name)
        return false
      },
    })
  } catch {
    return null
  }
  return names
}

export interface StoredUpload {
  version: NodeVersion
  size: number
}

/**
 * Stores the zip sent to a signedUrl. The upload token is used up in the same transaction that
 * records the archive, so a link works exactly once; a failed store leaves it usable.
 */
export async function acceptUpload(
  db: Db,
  storage: ArchiveStorage,
  uploadToken: string,
  body: unknown,
  maxBytes: number,
  now = new Date(),
): Promise<StoredUpload> {
  const unknownLink = () =>
    notFound(
      'This upload link is unknown, expired or already used. Publish the version again to get a new link.',
    )
  return db.transaction(async (tx) => {
    const [upload] = await tx
      .delete(pendingUploads)
      .where(eq(pendingUploads.token, uploadToken))
      .returning()
    if (!upload || new Date(upload.expiresAt).getTime() <= now.getTime()) throw unknownLink()
    const [version] = await tx
      .select()
      .from(nodeVersions)
      .where(eq(nodeVersions.id, upload.nodeVersionId))
    if (!version) throw unknownLink()
    const [owner] = await tx
      .select({ id: publishers.id, status: publishers.status })
      .from(publishers)
      .where(
        sql`${publishers.id} = (select publisher_id from nodes where nodes.id = ${version.nodeId})`,
      )
    if (owner?.status === 'PublisherStatusBanned')
      throw forbidden(BANNED_PUBLISHER_MESSAGE(owner.id))
    if (
      version.status === 'NodeVersionStatusDeleted' ||
      version.status === 'NodeVersionStatusBanned'
    ) {
      throw conflict(
        `Version ${version.version} of node '${version.nodeId}' is ${version.status === 'NodeVersionStatusDeleted' ? 'deleted' : 'banned'}; its archive can no longer be uploaded.`,
      )
    }
    if (!(body instanceof Uint8Array)) {
      throw badRequest(
        "Send the node's zip archive as the request body with 'Content-Type: application/zip'.",
      )
    }
    if (body.byteLength > maxBytes) throw payloadTooLarge('The archive is too large.')
    const names = zipEntryNames(body)
    if (!names || names.filter((name) => !name.endsWith('/')).length === 0) {
      throw badRequest('The request body is not a valid zip archive with at least one file.')
    }
    await storage.put(upload.storageKey, body)
    const [stored] = await tx
      .update(nodeVersions)
      .set({ storageKey: upload.storageKey })
      .where(eq(nodeVersions.id, version.id))
      .returning()
    return { version: stored, size: body.byteLength }
  })
}

export async function updateVersion(
  db: Db,
  version: NodeVersion,
  changes: { changelog?: string; deprecated?: boolean },
): Promise<NodeVersion> {
  const set = {
    ...(changes.changelog !== undefined ? { changelog: changes.changelog.trim() } : {}),
    ...(changes.deprecated !== undefined ? { deprecated: changes.deprecated } : {}),
  }
  if (Object.keys(set).length === 0) return version
  const [updated] = await db
    .update(nodeVersions)
    .set(set)
    .where(eq(nodeVersions.id, version.id))
    .returning()
  return updated
}

/** Sets a version's status (and reason) and recomputes the node's latest version. */
export async function setVersionStatus(
  db: Db,
  version: NodeVersion,
  status: NodeVersionStatus,
  statusReason?: string,
): Promise<NodeVersion> {
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(nodeVersions)
      .set({ status, ...(statusReason !== undefined ? { statusReason: statusReason.trim() } : {}) })
      .where(eq(nodeVersions.id, version.id))
      .returning()
    // Deleting a version ends its pending upload, if any.
    if (status === 'NodeVersionStatusDeleted') {
      await tx.delete(pendingUploads).where(eq(pendingUploads.nodeVersionId, version.id))
    }
    await refreshLatestVersion(tx, version.nodeId)
    return updated
  })
}
