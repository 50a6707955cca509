// Ban or unban one node: PUT /admin/nodes/{id} with `status` and `status_reason` (the reason
// becomes the node's status_detail, which its publisher sees). The public page follows at once.
import { useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'next-i18next/pages'
import { revalidateNodePage } from '@/components/manage/revalidate'
import { useAdminUpdateNode } from '@/src/api/generated/admin/admin'
import { AdminUpdateNodeRequestStatus, type Node } from '@/src/api/generated/model'
import { adminUpdateNodeBodyStatusReasonMax } from '@/src/api/generated/rules.zod'
import { apiErrorMessage } from '@/src/lib/api-error'
import { invalidateAfterNodeChange } from '@/src/api/invalidation'
import { StatusChangeDialog } from './StatusChangeDialog'

export interface NodeStatusDialogProps {
  node: Node
  kind: 'ban' | 'unban'
  onClose: () => void
  onDone: (node: Node) => void
}

export function NodeStatusDialog({ node, kind, onClose, onDone }: NodeStatusDialogProps) {
  const { t } = useTranslation('common')
  const queryClient = useQueryClient()
  const update = useAdminUpdateNode()

  const confirm = (reason: string) =>
    update.mutate(
      {
        nodeId: node.id,
        data: {
          status:
            kind === 'ban'
              ? AdminUpdateNodeRequestStatus.NodeStatusBanned
              : AdminUpdateNodeRequestStatus.NodeStatusActive,
          // An empty reason to unban is simply not sent.
          ...(reason ? { status_reason: reason } : {}),
        },
      },
      {
        onSuccess: (saved) => {
          void invalidateAfterNodeChange(queryClient, node.id, node.publisher.id)
          void revalidateNodePage(node.id)
          onDone(saved)
        },
      },
    )

  return (
    <StatusChangeDialog
      onClose={onClose}
      kind={kind}
      title={t(`admin.nodes.${kind}.title`, { id: node.id })}
      confirmLabel={t(`admin.nodes.${kind}.confirm`)}
      reasonLabel={t(`admin.nodes.${kind}.reason`)}
      reasonHint={t(`admin.nodes.${kind}.reasonHint`)}
      reasonMissing={t('admin.nodes.ban.reasonMissing')}
      reasonMax={adminUpdateNodeBodyStatusReasonMax}
      pending={update.isPending}
      error={update.isError ? apiErrorMessage(update.error, t) : undefined}
      onConfirm={confirm}
    >
      <p>{t(`admin.nodes.${kind}.body`, { name: node.name, id: node.id })}</p>
      {kind === 'unban' && node.status_detail && (
        <p className="mt-2">
          {t('admin.nodes.unban.previousReason', { reason: node.status_detail })}
        </p>
      )}
    </StatusChangeDialog>
  )
}
