// Every node, banned and deleted included (listAllNodes / searchNodes with include_banned, which
// admins get), searched by text, one page at a time; with `banned=1` the same list asks the API
// for the banned ones only (node_statuses=NodeStatusBanned, honoured with include_banned). Each
// row opens the node's public page, its versions in the review queue, and the admin actions:
// edit the admin fields, ban (reason required) or unban. Deleted nodes cannot be changed (409).
import { keepPreviousData } from '@tanstack/react-query'
import { Button } from 'flowbite-react'
import Link from 'next/link'
import { useTranslation } from 'next-i18next/pages'
import { useState } from 'react'
import { breakable } from '@/components/common/BreakableText'
import { FormMessage, LoadError } from '@/components/manage/fields'
import { LINK, MUTED, SECONDARY_LINK } from '@/components/manage/styles'
import { Badge } from '@/components/node/Badge'
import { formatNumber } from '@/components/node/format'
import { Pagination } from '@/components/nodes/Pagination'
import { NodeStatus, type Node } from '@/src/api/generated/model'
import { useListAllNodes, useSearchNodes } from '@/src/api/generated/nodes/nodes'
import { ADMIN_PATHS, nodePath, publisherPath } from '@/src/lib/paths'
import { AdminFieldsDialog } from './AdminFieldsDialog'
import { AdminListFilterBar } from './AdminListFilterBar'
import { AdminTable, CELL } from './AdminTable'
import { adminListHref, useAdminListFilters, type AdminListFilters } from './list-filters'
import { NodeStatusDialog } from './NodeStatusDialog'

export const ADMIN_NODES_PAGE_SIZE = 50
/** The review queue filtered to one node, every status. */
export function nodeVersionsHref(nodeId: string): string {
  return `${ADMIN_PATHS.queue}?${new URLSearchParams({ node: nodeId, status: 'all' })}`
}

const STATUS_TONE = {
  [NodeStatus.NodeStatusActive]: 'green',
  [NodeStatus.NodeStatusBanned]: 'red',
  [NodeStatus.NodeStatusDeleted]: 'gray',
} as const

export function NodeStatusLabel({ status }: { status: Node['status'] }) {
  const { t } = useTranslation('common')
  return <Badge tone={STATUS_TONE[status]}>{t(`manage.nodeStatus.${status}`)}</Badge>
}

type NodeAction = { kind: 'fields' | 'ban' | 'unban'; node: Node }

export function AdminNodes() {
  const { t } = useTranslation('common')
  const [action, setAction] = useState<NodeAction>()
  const [notice, setNotice] = useState<string>()
  const { filters, setFilters } = useAdminListFilters(() => setNotice(undefined))
  const done = (message: string) => {
    setAction(undefined)
    setNotice(message)
  }

  return (
    <>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <p className={MUTED}>{t('admin.nodes.intro')}</p>
        <Link href={ADMIN_PATHS.addNode} className={SECONDARY_LINK}>
          {t('admin.nodes.addNode')}
        </Link>
      </div>
      <AdminListFilterBar section="nodes" filters={filters} onChange={setFilters} />
      <div aria-live="polite" className="mb-4 empty:hidden">
        {notice && <FormMessage kind="success">{notice}</FormMessage>}
      </div>
      <NodePages filters={filters} onAction={setAction} />

      {action?.kind === 'fields' && (
        <AdminFieldsDialog
          node={action.node}
          onClose={() => setAction(undefined)}
          onSaved={(node) => done(t('admin.nodes.fields.saved', { id: node.id }))}
        />
      )}
      {(action?.kind === 'ban' || action?.kind === 'unban') && (
        <NodeStatusDialog
          node={action.node}
          kind={action.kind}
          onClose={() => setAction(undefined)}
          onDone={(node) => done(t(`admin.nodes.${action.kind}.done`, { id: node.id }))}
        />
      )}
    </>
  )
}

interface ListProps {
  onAction: (action: NodeAction) => void
}

/** All nodes (or the search's, or only the banned ones), one page of the API at a time. */
function NodePages({ filters, onAction }: ListProps & { filters: AdminListFilters }) {
  const { t, i18n } = useTranslation('common')
  const { q, page, banned } = filters
  const params = {
    page,
    limit: ADMIN_NODES_PAGE_SIZE,
    include_banned: true,
    // Honoured because include_banned is set and the caller is an admin.
    ...(banned && { node_statuses: [NodeStatus.NodeStatusBanned] }),
  }
  const list = useListAllNodes(
    { ...params, sort: 'newest' },
    { query: { enabled: !q, placeholderData: keepPreviousData } },
  )
  const search = useSearchNodes(
    { ...params, search: q, sort: 'relevance' },
    { query: { enabled: Boolean(q), placeholderData: keepPreviousData } },
  )
  const result = q ? search : list

  if (result.isPending) return <Loading />
  if (result.isError) {
    return (
      <LoadError
        message={t('admin.nodes.loadError')}
        error={result.error}
        onRetry={() => void result.refetch()}
        className="space-y-2"
        size="sm"
      />
    )
  }
  const { nodes, total, totalPages } = result.data
  return (
    <>
      <p className={`mb-2 text-sm ${MUTED}`} aria-live="polite">
        {q
          ? t('admin.nodes.foundFor', {
              count: total,
              formatted: formatNumber(total, i18n.language),
              q,
            })
          : t(banned ? 'admin.nodes.bannedTotal' : 'admin.nodes.total', {
              count: total,
              formatted: formatNumber(total, i18n.language),
            })}
      </p>
      {nodes.length === 0 ? (
        <p className={MUTED}>{t(banned ? 'admin.nodes.emptyBanned' : 'admin.nodes.empty')}</p>
      ) : (
        <NodesTable nodes={nodes} onAction={onAction} />
      )}
      <Pagination
        page={page}
        totalPages={totalPages}
        hrefFor={(target) => adminListHref(ADMIN_PATHS.nodes, { ...filters, page: target })}
        shallow
      />
    </>
  )
}

function Loading() {
  const { t } = useTranslation('common')
  return (
    <p role="status" className={MUTED}>
      {t('manage.loading')}
    </p>
  )
}

function NodesTable({ nodes, onAction }: ListProps & { nodes: Node[] }) {
  const { t } = useTranslation('common')
  return (
    <AdminTable
      caption={t('admin.nodes.tableCaption')}
      minWidth="min-w-[56rem]"
      columns={[
        t('admin.nodes.columns.node'),
        t('admin.nodes.columns.publisher'),
        t('admin.nodes.columns.status'),
        t('admin.nodes.columns.adminFields'),
        t('admin.nodes.columns.actions'),
      ]}
    >
      {nodes.map((node) => (
        <NodeRow key={node.id} node={node} onAction={onAction} />
      ))}
    </AdminTable>
  )
}

function NodeRow({ node, onAction }: ListProps & { node: Node }) {
  const { t } = useTranslation('common')
  const deleted = node.status === NodeStatus.NodeStatusDeleted
  const banned = node.status === NodeStatus.NodeStatusBanned
  return (
    <tr>
      <th scope="row" className={`${CELL} font-normal`}>
        <Link href={nodePath(node.id)} className={`${LINK} font-mono break-words`}>
          {breakable(node.id)}
        </Link>
        <p className="mt-1 font-medium break-words">{node.name}</p>
      </th>
      <td className={CELL}>
        <Link href={publisherPath(node.publisher.id)} className={`${LINK} break-words`}>
          {node.publisher.name}
        </Link>
        <p className={`font-mono text-xs break-words ${MUTED}`}>
          {breakable(`@${node.publisher.id}`)}
        </p>
      </td>
      <td className={CELL}>
        <NodeStatusLabel status={node.status} />
        {node.status_detail && !deleted && (
          <p className={`mt-1 max-w-xs text-xs break-words ${MUTED}`}>
            {t('admin.nodes.reason', { reason: node.status_detail })}
          </p>
        )}
      </td>
      <td className={CELL}>
        <AdminFieldsSummary node={node} />
      </td>
      <td className={CELL}>
        <div className="flex flex-wrap gap-2">
          {!deleted && (
            <>
              <Button
                size="xs"
                color="light"
                onClick={() => onAction({ kind: 'fields', node })}
                aria-label={t('admin.nodes.actions.editFieldsOf', { id: node.id })}
              >
                {t('admin.nodes.actions.editFields')}
              </Button>
              <Button
                size="xs"
                color={banned ? 'blue' : 'red'}
                onClick={() => onAction({ kind: banned ? 'unban' : 'ban', node })}
                aria-label={t(
                  banned ? 'admin.nodes.actions.unbanOf' : 'admin.nodes.actions.banOf',
                  {
                    id: node.id,
                  },
                )}
              >
                {t(banned ? 'admin.nodes.actions.unban' : 'admin.nodes.actions.ban')}
              </Button>
            </>
          )}
          <Link
            href={nodeVersionsHref(node.id)}
            className={`${LINK} inline-flex items-center text-xs`}
            aria-label={t('admin.nodes.actions.versionsOf', { id: node.id })}
          >
            {t('admin.nodes.actions.versions')}
          </Link>
        </div>
        {deleted && <p className={`mt-1 text-xs ${MUTED}`}>{t('admin.nodes.deletedNoActions')}</p>}
      </td>
    </tr>
  )
}

function AdminFieldsSummary({ node }: { node: Node }) {
  const { t } = useTranslation('common')
  const tags = node.tags_admin ?? []
  const preempted = node.preempted_comfy_node_names ?? []
  const empty =
    tags.length === 0 &&
    preempted.length === 0 &&
    node.search_ranking === undefined &&
    !node.category
  if (empty) return <span className={MUTED}>{t('admin.nodes.noAdminFields')}</span>
  return (
    <dl className="space-y-1 text-xs">
      {tags.length > 0 && (
        <div className="flex flex-wrap items-center gap-1">
          <dt className="sr-only">{t('admin.nodes.fields.tagsAdmin')}</dt>
          {tags.map((tag) => (
            <dd key={tag}>
              <Badge tone="yellow">{tag}</Badge>
            </dd>
          ))}
        </div>
      )}
      {node.search_ranking !== undefined && (
        <div className="flex gap-1">
          <dt className={MUTED}>{t('admin.nodes.summary.ranking')}</dt>
          <dd>{node.search_ranking}</dd>
        </div>
      )}
      {preempted.length > 0 && (
        <div className="flex gap-1">
          <dt className={MUTED}>{t('admin.nodes.summary.preempted')}</dt>
          <dd title={preempted.join('\n')}>
            {t('admin.nodes.summary.preemptedCount', { count: preempted.length })}
          </dd>
        </div>
      )}
      {node.category && (
        <div className="flex gap-1">
          <dt className={MUTED}>{t('admin.nodes.summary.category')}</dt>
          <dd className="break-words">{node.category}</dd>
        </div>
      )}
    </dl>
  )
}
