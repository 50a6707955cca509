// Node management on the public node page, for the node's owners only: the permission is asked
// in the browser once someone is signed in, so the server-rendered page stays the same for all.
// Owners edit, deprecate (with a message) and delete the node, and edit, deprecate or delete each
// version, and download the archives still under review. When a version they watch becomes Active, the page follows.
import { useQueryClient } from '@tanstack/react-query'
import { Button } from 'flowbite-react'
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { useCallback, useId, useState, type FormEvent } from 'react'
import {
  NodeVersionStatus,
  type Node,
  type NodeVersion,
  type Publisher,
} from '@/src/api/generated/model'
import { getListComfyNodesQueryKey } from '@/src/api/generated/comfy-nodes/comfy-nodes'
import { useDeleteNode, useUpdateNode } from '@/src/api/generated/nodes/nodes'
import { useDeleteNodeVersion, useUpdateNodeVersion } from '@/src/api/generated/versions/versions'
import { apiErrorMessage } from '@/src/lib/api-error'
import { notifyError, notifySuccess } from '@/src/lib/notify'
import { CHANGELOG_MAX_LENGTH } from './limits'
import { ConfirmDialog } from './ConfirmDialog'
import { DeprecationDialog } from './DeprecationDialog'
import { FormDialog } from './Dialog'
import { EditNodeDialog } from './EditNodeDialog'
import { FormMessage, TextAreaField } from './fields'
import { revalidateNodePage } from './revalidate'
import { MUTED } from './styles'
import { useVersionActivation } from './useVersionActivation'
import { useArchiveDownload } from './useArchiveDownload'
import { textProblem } from './validation'
import { TrustedPublishersSection } from './TrustedPublishers'

type ClaimedNode = Node & { publisher: Publisher }

/**
 * After a write, or when a version became Active: the node page's own queries (`/nodes/{id}…`,
 * not under the write's path: the node, its versions, the comfy nodes of its latest version) are
 * refetched, the statically cached page is regenerated, and the page's props reloaded, so the
 * server-rendered markdown follows the edit.
 */
function useRefreshNodePage(nodeId: string): () => void {
  const queryClient = useQueryClient()
  const router = useRouter()
  return useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: [`/nodes/${nodeId}`] })
    void queryClient.invalidateQueries({ queryKey: [`/nodes/${nodeId}/versions`] })
    void queryClient.invalidateQueries({
      queryKey: [getListComfyNodesQueryKey(nodeId, 'latest')[0]],
    })
    void revalidateNodePage(nodeId).then(() =>
      // The props of a page reached client-side are cached by the router: fetch them anew.
      router.replace(router.asPath, undefined, { scroll: false, unstable_skipClientCache: true }),
    )
  }, [queryClient, router, nodeId])
}

export interface NodeOwnerActionsProps {
  node: ClaimedNode
  /** The versions the owners see (polled while one is in the pipeline). */
  versions?: NodeVersion[]
}

export function NodeOwnerActions({ node, versions }: NodeOwnerActionsProps) {
  const { t } = useTranslation('common')
  const router = useRouter()
  const headingId = useId()
  const [dialog, setDialog] = useState<'edit' | 'delete' | 'deprecate'>()
  const remove = useDeleteNode()
  const deprecate = useUpdateNode()
  const refresh = useRefreshNodePage(node.id)
  // A version that passed its checks while the owner watches: the install box, the latest
  // version and its comfy nodes follow without a reload.
  useVersionActivation(versions, refresh)
  const [saved, setSaved] = useState(false)
  const nodeIds = { publisherId: node.publisher.id, nodeId: node.id }
  const setDeprecation = (deprecated: boolean, message?: string) =>
    deprecate.mutate(
      {
        ...nodeIds,
        data: deprecated ? { deprecated, deprecation_message: message } : { deprecated },
      },
      {
        onSuccess: () => {
          setDialog(undefined)
          void notifySuccess(
            t(
              deprecated ? 'deprecation.manage.nodeDeprecated' : 'deprecation.manage.nodeRestored',
              {
                name: node.name,
              },
            ),
          )
          refresh()
        },
        // The dialog shows its own error; the one-click undo has only the toast.
        onError: (error) => {
          if (!deprecated) {
            void notifyError(t('deprecation.manage.failed', { message: apiErrorMessage(error, t) }))
          }
        },
      },
    )

  return (
    <section
      aria-labelledby={headingId}
      className="mt-6 rounded-lg border border-blue-200 bg-blue-50 p-4 dark:border-blue-800 dark:bg-gray-800"
    >
      <h2 id={headingId} className="text-base font-semibold">
        {t('manage.node.manage')}
      </h2>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button
          color="blue"
          size="sm"
          onClick={() => {
            setSaved(false)
            setDialog('edit')
          }}
        >
          {t('manage.node.edit')}
        </Button>
        {node.deprecated ? (
          <Button
            color="light"
            size="sm"
            disabled={deprecate.isPending}
            onClick={() => setDeprecation(false)}
          >
            {t('deprecation.manage.undoNode')}
          </Button>
        ) : (
          <Button
            color="light"
            size="sm"
            onClick={() => {
              deprecate.reset()
              setDialog('deprecate')
            }}
          >
            {t('deprecation.manage.deprecateNode')}
          </Button>
        )}
        <Button
          color="red"
          size="sm"
          onClick={() => {
            remove.reset()
            setDialog('delete')
          }}
        >
          {t('manage.node.delete')}
        </Button>
      </div>
      <div aria-live="polite" className="mt-2 empty:hidden">
        {saved && <FormMessage kind="success">{t('manage.node.saved')}</FormMessage>}
      </div>
      <TrustedPublishersSection node={node} />
      {dialog === 'edit' && (
        <EditNodeDialog
          node={node}
          onClose={() => setDialog(undefined)}
          onSaved={() => {
            setDialog(undefined)
            setSaved(true)
            refresh()
          }}
        />
      )}
      {dialog === 'deprecate' && (
        <DeprecationDialog
          title={t('deprecation.manage.deprecateNodeTitle', { name: node.name })}
          pending={deprecate.isPending}
          error={deprecate.isError ? apiErrorMessage(deprecate.error, t) : undefined}
          onClose={() => setDialog(undefined)}
          onSubmit={(message) => setDeprecation(true, message)}
        />
      )}
      <ConfirmDialog
        open={dialog === 'delete'}
        onClose={() => setDialog(undefined)}
        title={t('manage.node.deleteTitle', { name: node.name })}
        confirmLabel={t('manage.node.delete')}
        confirmText={node.id}
        pending={remove.isPending}
        error={remove.isError ? apiErrorMessage(remove.error, t) : undefined}
        onConfirm={() =>
          remove.mutate(
            { publisherId: node.publisher.id, nodeId: node.id },
            {
              onSuccess: () => {
                void revalidateNodePage(node.id)
                void router.push('/nodes')
              },
            },
          )
        }
      >
        {t('manage.node.deleteBody')}
      </ConfirmDialog>
    </section>
  )
}

function ChangelogDialog({
  node,
  version,
  onClose,
  onSaved,
}: {
  node: ClaimedNode
  version: NodeVersion
  onClose: () => void
  onSaved: () => void
}) {
  const { t } = useTranslation('common')
  const [changelog, setChangelog] = useState(version.changelog ?? '')
  const update = useUpdateNodeVersion()
  const problem = textProblem(changelog, { max: CHANGELOG_MAX_LENGTH }, t)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (problem || update.isPending) return
    update.mutate(
      {
        publisherId: node.publisher.id,
        nodeId: node.id,
        versionId: version.id,
        data: { changelog },
      },
      { onSuccess: onSaved },
    )
  }
  return (
    <FormDialog
      onClose={onClose}
      size="2xl"
      title={t('manage.versions.changelogTitle', { version: version.version })}
      pending={update.isPending}
      disabled={Boolean(problem)}
      onSubmit={submit}
    >
      <TextAreaField
        label={t('manage.versions.changelog')}
        value={changelog}
        onChange={(event) => setChangelog(event.target.value)}
        rows={10}
        hint={t('manage.versions.changelogHint')}
        error={problem}
      />
      {update.isError && <FormMessage kind="error">{apiErrorMessage(update.error, t)}</FormMessage>}
    </FormDialog>
  )
}

/** The owner's controls of one version in the version history. */
export function VersionActions({ node, version }: { node: ClaimedNode; version: NodeVersion }) {
  const { t } = useTranslation('common')
  const [dialog, setDialog] = useState<'changelog' | 'delete' | 'deprecate'>()
  const update = useUpdateNodeVersion()
  const archive = useArchiveDownload(node.id, version.version)
  const privateArchive =
    version.status !== NodeVersionStatus.NodeVersionStatusActive && Boolean(version.downloadUrl)
  const remove = useDeleteNodeVersion()
  const refresh = useRefreshNodePage(node.id)
  const ids = { publisherId: node.publisher.id, nodeId: node.id, versionId: version.id }
  const label = { version: version.version }
  const setDeprecation = (deprecated: boolean, message?: string) =>
    update.mutate(
      { ...ids, data: deprecated ? { deprecated, deprecation_message: message } : { deprecated } },
      {
        onSuccess: () => {
          setDialog(undefined)
          void notifySuccess(
            t(
              deprecated
                ? 'deprecation.manage.versionDeprecated'
                : 'deprecation.manage.versionRestored',
              label,
            ),
          )
          refresh()
        },
      },
    )

  return (
    <div className="mt-3">
      <div className="flex flex-wrap gap-2">
        <Button
          color="light"
          size="xs"
          aria-label={t('manage.versions.editChangelogOf', label)}
          onClick={() => setDialog('changelog')}
        >
          {t('manage.versions.editChangelog')}
        </Button>
        <Button
          color="light"
          size="xs"
          disabled={update.isPending}
          aria-label={t(
            version.deprecated ? 'manage.versions.undeprecateOf' : 'manage.versions.deprecateOf',
            label,
          )}
          onClick={() => {
            if (version.deprecated) {
              setDeprecation(false)
            } else {
              update.reset()
              setDialog('deprecate')
            }
          }}
        >
          {version.deprecated ? t('manage.versions.undeprecate') : t('manage.versions.deprecate')}
        </Button>
        <Button
          color="light"
          size="xs"
          aria-label={t('manage.versions.deleteOf', label)}
          onClick={() => {
            remove.reset()
            setDialog('delete')
          }}
        >
          {t('manage.versions.delete')}
        </Button>
        {privateArchive && (
          <Button
            color="light"
            size="xs"
            disabled={archive.pending}
            aria-label={t('manage.versions.downloadOf', label)}
            onClick={() => void archive.download()}
          >
            {t('manage.versions.download')}
          </Button>
        )}
      </div>
      {update.isError && dialog !== 'deprecate' && (
        <div className="mt-2">
          <FormMessage kind="error">{apiErrorMessage(update.error, t)}</FormMessage>
        </div>
      )}
      {archive.error !== undefined && (
        <div className="mt-2">
          <FormMessage kind="error">{apiErrorMessage(archive.error, t)}</FormMessage>
        </div>
      )}
      {dialog === 'changelog' && (
        <ChangelogDialog
          node={node}
          version={version}
          onClose={() => setDialog(undefined)}
          onSaved={() => {
            setDialog(undefined)
            refresh()
          }}
        />
      )}
      {dialog === 'deprecate' && (
        <DeprecationDialog
          title={t('deprecation.manage.deprecateVersionTitle', label)}
          pending={update.isPending}
          error={update.isError ? apiErrorMessage(update.error, t) : undefined}
          onClose={() => setDialog(undefined)}
          onSubmit={(message) => setDeprecation(true, message)}
        />
      )}
      <ConfirmDialog
        open={dialog === 'delete'}
        onClose={() => setDialog(undefined)}
        title={t('manage.versions.deleteTitle', label)}
        confirmLabel={t('manage.versions.delete')}
        pending={remove.isPending}
        error={remove.isError ? apiErrorMessage(remove.error, t) : undefined}
        onConfirm={() =>
          remove.mutate(ids, {
            onSuccess: () => {
              setDialog(undefined)
              refresh()
            },
          })
        }
      >
        <p className={MUTED}>{t('manage.versions.deleteBody')}</p>
      </ConfirmDialog>
    </div>
  )
}
