// "Your Nodes": the signed-in user's publishers, each with its nodes one page at a time (with the
// state of each node's latest upload while it is on its way); when there is none, a call to
// create a publisher and how to publish from the CLI.
import { Button } from 'flowbite-react'
import { keepPreviousData, useQueryClient } from '@tanstack/react-query'
import Link from 'next/link'
import { useTranslation } from 'next-i18next/pages'
import { useId, useState } from 'react'
import { breakable } from '@/components/common/BreakableText'
import { Badge } from '@/components/node/Badge'
import { formatNumber } from '@/components/node/format'
import {
  getListNodesForPublisherV2QueryKey,
  useListNodesForPublisherV2,
} from '@/src/api/generated/nodes/nodes'
import { NodeStatus, type Node, type Publisher } from '@/src/api/generated/model'
import { useGetPermissionOnPublisher } from '@/src/api/generated/publishers/publishers'
import { useListPublishersForUser } from '@/src/api/generated/users/users'
import { YOUR_NODES_PAGE_SIZE } from '@/src/lib/constants'
import {
  CREATE_PUBLISHER_PATH,
  nodePath,
  publisherPath,
  publisherSettingsPath,
} from '@/src/lib/paths'
import { latestUpload, ownerVersionState } from '@/src/lib/version-state'
import { LoadError } from './fields'
import { Invitations } from './Invitations'
import { useOwnerVersions } from './node-permissions'
import { PublishFromCli } from './PublishFromCli'
import { BUTTON_LINK, CARD, LINK, MUTED, SECONDARY_LINK } from './styles'
import { useVersionActivation } from './useVersionActivation'
import { VersionStateBadge, VersionStatusDetails } from './VersionPipeline'

export function NodeStatusBadge({ status }: { status: Node['status'] }) {
  const { t } = useTranslation('common')
  if (status === NodeStatus.NodeStatusActive) return null
  return (
    <Badge tone={status === NodeStatus.NodeStatusBanned ? 'red' : 'gray'}>
      {t(`manage.nodeStatus.${status}`)}
    </Badge>
  )
}

/**
 * The node's latest upload when it is not simply its Active latest version: being checked,
 * flagged or waiting for review. Polled while on its way; once Active, the list follows.
 */
function LatestUpload({ node, publisherId }: { node: Node; publisherId: string }) {
  const { t } = useTranslation('common')
  const queryClient = useQueryClient()
  const versions = useOwnerVersions(node.id, true)
  useVersionActivation(versions, () => {
    void queryClient.invalidateQueries({
      queryKey: [getListNodesForPublisherV2QueryKey(publisherId)[0]],
    })
  })
  const latest = latestUpload(versions)
  if (
    !latest ||
    (ownerVersionState(latest) === 'active' && latest.version === node.latest_version?.version)
  ) {
    return null
  }
  // Why it is not public (an admin's decision and reason, or the findings) stays on this page.
  return (
    <div className="basis-full text-sm sm:order-last">
      <p className={`flex flex-wrap items-center gap-2 ${MUTED}`}>
        <span>{t('manage.pipeline.latestUpload', { version: latest.version })}</span>
        <VersionStateBadge version={latest} />
      </p>
      <VersionStatusDetails version={latest} findingsHeading="h3" />
    </div>
  )
}

function NodeRow({ node, publisherId }: { node: Node; publisherId: string }) {
  const { t, i18n } = useTranslation('common')
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-1 py-3">
      {/* At least 12rem, so on a phone the name has its own line and the facts wrap below it. */}
      <div className="min-w-48 flex-1">
        <Link href={nodePath(node.id)} className={`${LINK} font-medium break-words`}>
          {node.name}
        </Link>
        <p className={`font-mono text-xs break-words ${MUTED}`}>{breakable(node.id)}</p>
      </div>
      <NodeStatusBadge status={node.status} />
      <LatestUpload node={node} publisherId={publisherId} />
      <p className={`text-sm ${MUTED}`}>
        {node.latest_version
          ? t('manage.yourNodes.version', { version: node.latest_version.version })
          : t('manage.yourNodes.noVersion')}
      </p>
      <p className={`text-sm ${MUTED}`}>
        {t('manage.yourNodes.downloads', {
          count: node.downloads ?? 0,
          formatted: formatNumber(node.downloads, i18n.language),
        })}
      </p>
    </li>
  )
}

function PublisherNodes({ publisher }: { publisher: Publisher }) {
  const { t } = useTranslation('common')
  const headingId = useId()
  const [page, setPage] = useState(1)
  const { data: permission } = useGetPermissionOnPublisher(publisher.id)
  const nodes = useListNodesForPublisherV2(
    publisher.id,
    { page, limit: YOUR_NODES_PAGE_SIZE, include_banned: true },
    { query: { placeholderData: keepPreviousData } },
  )
  const totalPages = nodes.data?.totalPages ?? 0

  return (
    <section aria-labelledby={headingId} className={CARD}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={headingId} className="text-xl font-semibold break-words">
            {publisher.name}
          </h2>
          <p className={`font-mono text-sm break-words ${MUTED}`}>
            {breakable(`@${publisher.id}`)}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link href={publisherPath(publisher.id)} className={SECONDARY_LINK}>
            {t('manage.yourNodes.publicPage')}
          </Link>
          {permission?.canEdit && (
            <Link
              href={publisherSettingsPath(publisher.id)}
              className={SECONDARY_LINK}
              aria-label={t('manage.yourNodes.settingsOf', { name: publisher.name })}
            >
              {t('manage.yourNodes.settings')}
            </Link>
          )}
        </div>
      </div>

      {nodes.isPending ? (
        <p role="status" className={`mt-4 ${MUTED}`}>
          {t('manage.loading')}
        </p>
      ) : nodes.isError ? (
        <LoadError
          message={t('manage.yourNodes.nodesError')}
          error={nodes.error}
          onRetry={() => void nodes.refetch()}
          className="mt-4 space-y-2"
          size="sm"
        />
      ) : nodes.data.nodes.length === 0 ? (
        <p className={`mt-4 ${MUTED}`}>{t('manage.yourNodes.noNodes')}</p>
      ) : (
        <>
          <p className={`mt-4 text-sm ${MUTED}`}>
            {t('publisher.nodesCount', { count: nodes.data.total })}
          </p>
          <ul className="divide-y divide-gray-200 dark:divide-gray-700">
            {nodes.data.nodes.map((node) => (
              <NodeRow key={node.id} node={node} publisherId={publisher.id} />
            ))}
          </ul>
        </>
      )}

      {totalPages > 1 && (
        <nav
          aria-label={t('manage.yourNodes.pagination', { name: publisher.name })}
          className="mt-4 flex items-center justify-between gap-2"
        >
          <Button
            color="light"
            size="sm"
            disabled={page <= 1}
            onClick={() => setPage((current) => Math.max(1, current - 1))}
          >
            {t('publisher.previous')}
          </Button>
          <p className="text-sm" aria-live="polite">
            {t('publisher.pageOf', { page, totalPages })}
          </p>
          <Button
            color="light"
            size="sm"
            disabled={page >= totalPages}
            onClick={() => setPage((current) => Math.min(totalPages, current + 1))}
          >
            {t('publisher.next')}
          </Button>
        </nav>
      )}
    </section>
  )
}

export function YourNodes() {
  const { t } = useTranslation('common')
  const publishers = useListPublishersForUser()

  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-bold sm:text-3xl">{t('manage.yourNodes.title')}</h1>
        {publishers.data && publishers.data.length > 0 && (
          <Link href={CREATE_PUBLISHER_PATH} className={BUTTON_LINK}>
            {t('manage.yourNodes.createPublisher')}
          </Link>
        )}
      </div>
      <Invitations />

      {publishers.isPending ? (
        <p role="status" className={`mt-6 ${MUTED}`}>
          {t('manage.loading')}
        </p>
      ) : publishers.isError ? (
        <LoadError
          message={t('manage.yourNodes.loadError')}
          error={publishers.error}
          onRetry={() => void publishers.refetch()}
          className="mt-6 space-y-3"
        />
      ) : publishers.data.length === 0 ? (
        <div className={`mt-6 ${CARD}`}>
          <h2 className="text-xl font-semibold">{t('manage.yourNodes.emptyTitle')}</h2>
          <p className={`mt-2 ${MUTED}`}>{t('manage.yourNodes.emptyBody')}</p>
          <Link href={CREATE_PUBLISHER_PATH} className={`mt-4 ${BUTTON_LINK}`}>
            {t('manage.yourNodes.createPublisher')}
          </Link>
          <PublishFromCli />
        </div>
      ) : (
        <>
          <p className={`mt-2 ${MUTED}`}>{t('manage.yourNodes.intro')}</p>
          <div className="mt-6 space-y-6">
            {publishers.data.map((publisher) => (
              <PublisherNodes key={publisher.id} publisher={publisher} />
            ))}
          </div>
          <PublishFromCli />
        </>
      )}
    </>
  )
}
