// The admins' review queue: versions across all nodes (GET /versions with status reasons and
// scan findings), filtered and paged by the URL, decided one by one or in batches through the
// decision dialog, by mouse or keyboard.
import { Button, Spinner } from 'flowbite-react'
import Link from 'next/link'
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { useId, useRef, useState } from 'react'
import {
  DecisionDialog,
  type DecisionResult,
  type DecisionStatus,
  type DecisionTarget,
} from '@/components/admin/decide/DecisionDialog'
import { DecisionBanner } from '@/components/admin/decide/DecisionBanner'
import { FormMessage } from '@/components/manage/fields'
import { MUTED, SECONDARY_LINK } from '@/components/manage/styles'
import { useListAllNodeVersions } from '@/src/api/generated/versions/versions'
import { NodeVersionStatus, type NodeVersion } from '@/src/api/generated/model'
import { apiErrorMessage } from '@/src/lib/api-error'
import { ADMIN_PATHS, adminReviewPath } from '@/src/lib/paths'
import { QueueFilters } from './QueueFilters'
import { QueueTable } from './QueueTable'
import { ShortcutLegend } from './ShortcutLegend'
import { parseQueueQuery, queueParams, queueQuery, type QueueFilters as Filters } from './queue-url'
import { useQueueShortcuts } from './useQueueShortcuts'

interface Decision {
  targets: DecisionTarget[]
  status: DecisionStatus
}

function targetOf(version: NodeVersion): DecisionTarget {
  return { node_id: version.node_id, version: version.version, id: version.id }
}

export function ReviewQueue() {
  const { t } = useTranslation('common')
  const router = useRouter()
  const legendId = useId()
  const filters = parseQueueQuery(router.query)
  // Selection and the keyboard's row belong to one view of the list: other filters or another
  // page start them over.
  const viewKey = JSON.stringify(queueQuery(filters))
  const [selection, setSelection] = useState<{ view: string; ids: ReadonlySet<string> }>({
    view: viewKey,
    ids: new Set(),
  })
  const [focus, setFocus] = useState({ view: viewKey, index: -1 })
  const [decision, setDecision] = useState<Decision | null>(null)
  const [result, setResult] = useState<DecisionResult | null>(null)
  const linkRefs = useRef<(HTMLAnchorElement | null)[]>([])

  const query = useListAllNodeVersions(queueParams(filters), {
    query: { enabled: router.isReady, placeholderData: (previous) => previous },
  })
  const versions = query.data?.versions ?? []
  const selected = selection.view === viewKey ? selection.ids : new Set<string>()
  const selectedVersions = versions.filter((version) => selected.has(version.id))
  const focused = focus.view === viewKey ? Math.min(focus.index, versions.length - 1) : -1
  const focusedVersion = focused >= 0 ? versions[focused] : undefined

  const go = (next: Filters) => {
    void router.replace({ pathname: ADMIN_PATHS.queue, query: queueQuery(next) }, undefined, {
      shallow: true,
    })
  }
  const setSelected = (ids: ReadonlySet<string>) => setSelection({ view: viewKey, ids })
  const toggle = (id: string) => {
    const ids = new Set(selected)
    if (!ids.delete(id)) ids.add(id)
    setSelected(ids)
  }
  const toggleAll = (select: boolean) =>
    setSelected(select ? new Set(versions.map((version) => version.id)) : new Set())
  const decide = (status: DecisionStatus, targets: NodeVersion[]) => {
    if (targets.length) setDecision({ status, targets: targets.map(targetOf) })
  }
  const decideSelectionOrFocused = (status: DecisionStatus) =>
    decide(
      status,
      selectedVersions.length ? selectedVersions : focusedVersion ? [focusedVersion] : [],
    )

  useQueueShortcuts({
    enabled: decision === null && versions.length > 0,
    move: (delta) => {
      const index = Math.max(0, Math.min(versions.length - 1, focused + delta))
      setFocus({ view: viewKey, index })
      linkRefs.current[index]?.focus()
    },
    toggle: () => focusedVersion && toggle(focusedVersion.id),
    decide: decideSelectionOrFocused,
    open: () => {
      if (focusedVersion) {
        void router.push(adminReviewPath(focusedVersion.node_id, focusedVersion.version))
      }
    },
  })

  const page = query.data?.page ?? filters.page
  const totalPages = query.data?.totalPages ?? 0
  const pageHref = (target: number) => ({
    pathname: ADMIN_PATHS.queue,
    query: queueQuery({ ...filters, page: target }),
  })
  const filtered =
    filters.status !== 'pending' ||
    Boolean(filters.node || filters.publisher || filters.after || filters.before)

  return (
    <div>
      <QueueFilters key={viewKey} filters={filters} onChange={go} />

      {result && <DecisionBanner result={result} onDismiss={() => setResult(null)} />}

      <ShortcutLegend id={legendId} />

      <div
        role="toolbar"
        aria-label={t('admin.queue.bulk.label')}
        className="mb-3 flex flex-wrap items-center gap-2"
      >
        <span className="mr-2 text-sm text-gray-700 dark:text-gray-300" aria-live="polite">
          {t('admin.queue.bulk.selected', { count: selectedVersions.length })}
        </span>
        <Button
          size="sm"
          color="green"
          disabled={!selectedVersions.length}
          onClick={() => decide(NodeVersionStatus.NodeVersionStatusActive, selectedVersions)}
        >
          {t('admin.queue.bulk.approve')}
        </Button>
        <Button
          size="sm"
          color="yellow"
          disabled={!selectedVersions.length}
          onClick={() => decide(NodeVersionStatus.NodeVersionStatusFlagged, selectedVersions)}
        >
          {t('admin.queue.bulk.flag')}
        </Button>
        <Button
          size="sm"
          color="red"
          disabled={!selectedVersions.length}
          onClick={() => decide(NodeVersionStatus.NodeVersionStatusBanned, selectedVersions)}
        >
          {t('admin.queue.bulk.ban')}
        </Button>
        {selectedVersions.length > 0 && (
          <Button size="sm" color="light" onClick={() => setSelected(new Set())}>
            {t('admin.queue.bulk.clear')}
          </Button>
        )}
      </div>

      {query.isPending ? (
        <div
          role="status"
          className="flex items-center gap-2 py-8 text-gray-700 dark:text-gray-300"
        >
          <Spinner size="sm" aria-hidden />
          {t('admin.queue.loading')}
        </div>
      ) : query.isError ? (
        <div className="space-y-3">
          <FormMessage kind="error">{apiErrorMessage(query.error, t)}</FormMessage>
          <Button size="sm" color="light" onClick={() => void query.refetch()}>
            {t('admin.queue.retry')}
          </Button>
        </div>
      ) : versions.length === 0 ? (
        <div className="rounded-lg border border-dashed border-gray-300 p-8 text-center dark:border-gray-600">
          <p className="font-medium text-gray-900 dark:text-white">
            {filtered ? t('admin.queue.emptyFiltered') : t('admin.queue.empty')}
          </p>
          {filters.page > 1 && (
            <Link href={pageHref(1)} shallow className={`${SECONDARY_LINK} mt-3`}>
              {t('admin.queue.firstPage')}
            </Link>
          )}
        </div>
      ) : (
        <>
          {/* While other filters load, the previous rows stay (not dimmed: they must stay
              readable) and a status line says new ones are coming. */}
          {query.isPlaceholderData && (
            <p role="status" className={`mb-2 text-sm ${MUTED}`}>
              {t('admin.queue.loading')}
            </p>
          )}
          <div aria-busy={query.isPlaceholderData}>
            <QueueTable
              versions={versions}
              selected={selected}
              onToggle={toggle}
              onToggleAll={toggleAll}
              focused={focused}
              onFocusRow={(index) => setFocus({ view: viewKey, index })}
              linkRefs={linkRefs}
              describedBy={legendId}
            />
          </div>
          <nav
            aria-label={t('admin.queue.pagination')}
            className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm text-gray-700 dark:text-gray-300"
          >
            <p>
              {t('admin.queue.total', { count: query.data?.total ?? 0 })}
              {' · '}
              {t('admin.queue.page', { page, pages: Math.max(totalPages, 1) })}
            </p>
            <div className="flex gap-2">
              {page > 1 && (
                <Link href={pageHref(page - 1)} shallow rel="prev" className={SECONDARY_LINK}>
                  {t('admin.queue.previous')}
                </Link>
              )}
              {page < totalPages && (
                <Link href={pageHref(page + 1)} shallow rel="next" className={SECONDARY_LINK}>
                  {t('admin.queue.next')}
                </Link>
              )}
            </div>
          </nav>
        </>
      )}

      {decision && (
        <DecisionDialog
          open
          onClose={() => setDecision(null)}
          targets={decision.targets}
          initialStatus={decision.status}
          onDecided={(decided) => {
            setResult(decided)
            setSelected(new Set())
          }}
        />
      )}
    </div>
  )
}
