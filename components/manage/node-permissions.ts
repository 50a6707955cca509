// Whether the signed-in user may edit a node, and the versions its owners see. Kept apart from
// the management UI so the public node page loads that UI only for owners.
import { NodeVersionStatus, type Node, type NodeVersion } from '@/src/api/generated/model'
import { useGetPermissionOnPublisherNodes } from '@/src/api/generated/publishers/publishers'
import { useListNodeVersions } from '@/src/api/generated/versions/versions'
import { useAuth } from '@/src/lib/auth'
import { pollWhileInProgress } from '@/src/lib/version-state'

/** The versions owners see: everything but deleted ones, with review reasons. */
export const OWNER_VERSION_STATUSES = [
  NodeVersionStatus.NodeVersionStatusActive,
  NodeVersionStatus.NodeVersionStatusPending,
  NodeVersionStatus.NodeVersionStatusFlagged,
  NodeVersionStatus.NodeVersionStatusBanned,
]

/** Whether the signed-in user may edit `node` (false while unknown or signed out). */
export function useCanEditNode(node: Node | undefined): boolean {
  const { user } = useAuth()
  const publisherId = node?.publisher?.id ?? ''
  const { data } = useGetPermissionOnPublisherNodes(publisherId, node?.id ?? '', {
    query: { enabled: Boolean(user && publisherId && node) },
  })
  return Boolean(user && data?.canEdit)
}

/**
 * The versions to show: for owners, also pending, flagged and banned ones, with their findings.
 * Asked again every 1.5 s while one is on its way through the publishing pipeline (awaiting its
 * archive, queued or being checked), so its state changes on screen without a reload.
 */
export function useOwnerVersions(nodeId: string, canEdit: boolean): NodeVersion[] | undefined {
  const { data } = useListNodeVersions(
    nodeId,
    { statuses: OWNER_VERSION_STATUSES, include_status_reason: true },
    {
      query: {
        enabled: canEdit,
        refetchInterval: (query) => pollWhileInProgress(query.state.data),
      },
    },
  )
  return canEdit ? data : undefined
}
