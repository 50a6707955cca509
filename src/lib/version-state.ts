// Where a version is, as its owners see it: the publishing pipeline's state while the archive is
// awaited or checked (openapi.yml `PipelineState`), then the decision (its status). Shared by the
// node page's version history and Your Nodes, which poll while a version is on its way.
import { NodeVersionStatus, PipelineState, type NodeVersion } from '@/src/api/generated/model'

export type OwnerVersionState =
  'awaitingUpload' | 'checking' | 'active' | 'flagged' | 'review' | 'banned' | 'deleted'

/** How often owners' version lists are asked again while a version is in the pipeline. */
export const PIPELINE_POLL_MS = 1500

/**
 * How long a version waits for its archive before polling gives up: an upload link lives one
 * hour (server/versions/writes.ts `UPLOAD_TTL_MS`), after which it can never arrive.
 */
export const AWAITING_UPLOAD_POLL_LIMIT_MS = 60 * 60 * 1000

type StateFields = Pick<NodeVersion, 'status' | 'pipeline_state'>

export function ownerVersionState(version: StateFields): OwnerVersionState {
  switch (version.status) {
    case NodeVersionStatus.NodeVersionStatusActive:
      return 'active'
    case NodeVersionStatus.NodeVersionStatusFlagged:
      return 'flagged'
    case NodeVersionStatus.NodeVersionStatusBanned:
      return 'banned'
    case NodeVersionStatus.NodeVersionStatusDeleted:
      return 'deleted'
    default:
      // Pending: on its way through the pipeline, or decided and waiting for an admin.
      if (version.pipeline_state === PipelineState.awaiting_upload) return 'awaitingUpload'
      if (
        version.pipeline_state === PipelineState.queued ||
        version.pipeline_state === PipelineState.checking
      ) {
        return 'checking'
      }
      return 'review'
  }
}

/** Whether the version's state may still change by itself (worth asking again soon). */
export function versionInProgress(
  version: StateFields & Pick<NodeVersion, 'createdAt'>,
  now: number = Date.now(),
): boolean {
  const state = ownerVersionState(version)
  if (state === 'checking') return true
  if (state !== 'awaitingUpload') return false
  const created = new Date(version.createdAt).getTime()
  return Number.isNaN(created) || now - created < AWAITING_UPLOAD_POLL_LIMIT_MS
}

/** React Query's `refetchInterval` for a list of versions: poll while one is in progress. */
export function pollWhileInProgress(versions: readonly NodeVersion[] | undefined): number | false {
  return versions?.some((version) => versionInProgress(version)) ? PIPELINE_POLL_MS : false
}

/** The version uploaded last (by creation time; the API lists by semver). */
export function latestUpload(
  versions: readonly NodeVersion[] | undefined,
): NodeVersion | undefined {
  let latest: NodeVersion | undefined
  for (const version of versions ?? []) {
    if (!latest || Date.parse(version.createdAt) > Date.parse(latest.createdAt)) latest = version
  }
  return latest
}
