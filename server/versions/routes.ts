import type { RequestContext } from '../http/context'
import type { HandlerMap, PathOf, Schemas } from '../http/operations'
import type { NodeVersionStatus } from '../db/schema'
import { forbidden, notFound } from '../http/errors'
import { CREDENTIALED_CACHE_CONTROL } from '../http/security'
import { requireNodeWrite } from '../publishers/access'
import { publishNodeVersion } from './publish'
import { findReadme, versionFile } from './files'
import {
  acceptUpload,
  findVersionForWrite,
  removeDeletedArchives,
  setVersionStatus,
  updateVersion,
} from './writes'
import { mayDownloadHidden, pageInfo, toApiNodeVersion } from '../http/serialize'
import {
  findVersion,
  listAllVersions,
  listVersionsOfNode,
  PUBLIC_VERSION_STATUSES,
} from './queries'
import { paging, versionView, visibleNode } from '../nodes/visibility'
import { redirectMaxAgeS } from '../storage'

type NodeVersionListResponse = Schemas['NodeVersionListResponse']
type PublishNodeVersionResponse = Schemas['PublishNodeVersionResponse']
type UploadResult = Schemas['UploadResult']

const ARCHIVE_NAME = /^(.+)\.zip$/
/** A redirect to a stable public URL (ARCHIVE_PUBLIC_BASE_URL) is reused for a day. */
const PUBLIC_REDIRECT_MAX_AGE_S = 24 * 60 * 60

/**
 * The statuses a version list shows: those asked for (Active when none are) that the
 * caller may see. A status filter never refuses: ComfyUI-Manager asks anonymously for Active and
 * Pending versions and expects the visible ones (openapi.yml, listNodeVersions).
 */
function visibleStatuses(
  asked: NodeVersionStatus[] | undefined,
  seesHidden: boolean,
): NodeVersionStatus[] {
  const wanted = asked?.length ? asked : PUBLIC_VERSION_STATUSES
  return seesHidden ? wanted : wanted.filter((status) => PUBLIC_VERSION_STATUSES.includes(status))
}

/**
 * A version the caller may change: deleted versions are gone for all but admins (404); banned
 * ones are frozen for their owners (403).
 */
async function writableVersion(
  context: RequestContext,
  params: PathOf<'updateNodeVersion'> | PathOf<'deleteNodeVersion'>,
) {
  const { publisherId, nodeId, versionId } = params
  const { db } = context.deps
  const { node } = await requireNodeWrite(db, context.caller, publisherId, nodeId)
  const version = await findVersionForWrite(db, node.id, versionId)
  const isAdmin = context.caller?.isAdmin === true
  if (version.status === 'NodeVersionStatusDeleted' && !isAdmin) {
    throw notFound(`Version ${versionId} of node '${node.id}' does not exist.`)
  }
  if (version.status === 'NodeVersionStatusBanned' && !isAdmin) {
    throw forbidden(
      `Version ${version.version} of node '${node.id}' is banned and cannot be changed.`,
    )
  }
  return version
}

export const versionHandlers: HandlerMap = {
  async listNodeVersions(request, _reply, context) {
    const { nodeId } = request.params
    const query = request.query
    const { row, mayManage } = await visibleNode(context, nodeId)
    const statuses = visibleStatuses(query.statuses, mayManage)
    const versions = await listVersionsOfNode(context.deps.db, row.node.id, statuses, query.limit)
    const view = versionView(context, mayManage && query.include_status_reason === true)
    return versions.map((version) => toApiNodeVersion(version, view))
  },

  async getNodeVersion(request, _reply, context) {
    const { nodeId, versionId } = request.params
    const { row, mayManage } = await visibleNode(context, nodeId)
    const found = await findVersion(context.deps.db, row.node, versionId)
    if (!found || (found.status !== 'NodeVersionStatusActive' && !mayManage)) {
      throw notFound(`Version ${versionId} of node '${row.node.id}' does not exist.`)
    }
    return toApiNodeVersion(found, versionView(context, mayManage))
  },

  async getNodeVersionReadme(request, _reply, context) {
    const { nodeId, versionId } = request.params
    const { row, mayManage } = await visibleNode(context, nodeId)
    const found = await findVersion(context.deps.db, row.node, versionId)
    const missing = notFound(`Version ${versionId} of node '${row.node.id}' has no README.`)
    if (!found || (found.status !== 'NodeVersionStatusActive' && !mayManage)) throw missing
    const readme = await findReadme(context.deps.db, found.id)
    if (!readme) throw missing
    const { path, format, text, truncated, images } = readme
    return { path, format, text, truncated, images }
  },

  async getNodeVersionFile(request, reply, context) {
    const { nodeId, versionId } = request.params
    const { row, mayManage } = await visibleNode(context, nodeId)
    const found = await findVersion(context.deps.db, row.node, versionId)
    const isPublic = found?.status === 'NodeVersionStatusActive'
    const isAdmin = context.caller?.isAdmin === true
    if (!found || (!isPublic && !(mayManage && mayDownloadHidden(found.status, isAdmin)))) {
      throw notFound(`Version ${versionId} of node '${row.node.id}' does not exist.`)
    }
    const file = await versionFile(context.deps.db, context.deps.storage, found, request.query.path)
    return (
      reply
        .header('content-type', file.contentType)
        // A file of an untrusted archive: never a document that runs anything, even opened alone.
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', 'inline')
        .header(
          'cache-control',
          // `latest` moves; a version number names the same bytes for ever.
          !isPublic
            ? CREDENTIALED_CACHE_CONTROL
            : versionId === 'latest'
              ? 'public, max-age=300'
              : 'public, max-age=31536000, immutable',
        )
        .header('vary', 'Authorization')
        .send(Buffer.from(file.bytes))
    )
  },

  async listAllNodeVersions(request, _reply, context): Promise<NodeVersionListResponse> {
    const query = request.query
    const isAdmin = context.caller?.isAdmin === true
    const { page, limit } = paging(query)
    const result = await listAllVersions(
      context.deps.db,
      {
        nodeId: query.nodeId,
        statuses: visibleStatuses(query.statuses, isAdmin),
        publisherId: query.publisher_id,
        createdAfter: query.created_after ? new Date(query.created_after) : undefined,
        createdBefore: query.created_before ? new Date(query.created_before) : undefined,
        sort: query.sort,
      },
      { page, limit },
    )
    const view = versionView(context, isAdmin && query.include_status_reason === true)
    return {
      versions: result.rows.map((version) => ({
        ...toApiNodeVersion(version, view),
        publisher_id: version.publisherId,
      })),
      ...pageInfo(result.total, page, limit),
    }
  },

  async downloadNodeVersionArchive(request, reply, context) {
    const { nodeId, fileName } = request.params
    const version = ARCHIVE_NAME.exec(fileName)?.[1] ?? ''
    const { row, mayManage } = await visibleNode(context, nodeId)
    const found = await findVersion(context.deps.db, row.node, version)
    const missing = notFound(`There is no archive for version ${version} of node '${row.node.id}'.`)
    if (!found?.storageKey) throw missing
    // Reviewed (Active) archives are public and cached for a year; the others only for the
    // publisher's members and admins, never cached on the way.
    const isPublic = found.status === 'NodeVersionStatusActive'
    const isAdmin = context.caller?.isAdmin === true
    if (!isPublic && !(mayManage && mayDownloadHidden(found.status, isAdmin))) throw missing
    const saveAs = `${row.node.id}-${found.version}.zip`
    // An object store: the client fetches the bytes from it (a presigned GET, or the public base
    // URL for Active archives); the API only says where.
    const direct = await context.deps.storage.directUrl(found.storageKey, {
      public: isPublic,
      contentType: 'application/zip',
      fileName: saveAs,
    })
    if (direct) {
      return reply
        .header(
          'cache-control',
          isPublic
            ? `public, max-age=${redirectMaxAgeS(direct, PUBLIC_REDIRECT_MAX_AGE_S)}`
            : CREDENTIALED_CACHE_CONTROL,
        )
        .header('vary', 'Authorization')
        .redirect(direct.url, 302)
    }
    const bytes = await context.deps.storage.get(found.storageKey)
    if (!bytes) throw missing
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="${saveAs}"`)
      .header(
        'cache-control',
        isPublic ? 'public, max-age=31536000, immutable' : CREDENTIALED_CACHE_CONTROL,
      )
      .header('vary', 'Authorization')
      .send(Buffer.from(bytes))
  },

  async publishNodeVersion(request, reply, context) {
    const { publisherId, nodeId } = request.params
    const { version, uploadToken } = await publishNodeVersion(
      context.deps.db,
      publisherId,
      nodeId,
      request.body,
    )
    const answer: PublishNodeVersionResponse = {
      node_version: toApiNodeVersion(version, versionView(context, true)),
      signedUrl: `${context.deps.config.publicUrl}/uploads/${uploadToken}`,
    }
    return reply.status(201).send(answer)
  },

  async uploadNodeVersionArchive(request, _reply, context): Promise<UploadResult> {
    const { uploadToken } = request.params
    const { db, storage, config } = context.deps
    const { version, size } = await acceptUpload(
      db,
      storage,
      uploadToken,
      request.body,
      config.maxArchiveBytes,
    )
    context.deps.wakeWorker?.()
    return {
      node_id: version.nodeId,
      version: version.version,
      size,
      status: version.status,
      pipeline_state: version.pipelineState,
    }
  },

  async updateNodeVersion(request, _reply, context) {
    const version = await writableVersion(context, request.params)
    const updated = await updateVersion(context.deps.db, version, request.body)
    return toApiNodeVersion(updated, versionView(context, true))
  },

  async deleteNodeVersion(request, reply, context) {
    const version = await writableVersion(context, request.params)
    const { db, storage } = context.deps
    await setVersionStatus(db, version, 'NodeVersionStatusDeleted')
    // The version is deleted either way; an archive the store could not remove now is removed
    // by hourly maintenance.
    await removeDeletedArchives(db, storage, [version.id]).catch((error: unknown) =>
      request.log.warn({ err: error }, 'archive of a deleted version not removed yet'),
    )
    return reply.status(204).send()
  },
}
