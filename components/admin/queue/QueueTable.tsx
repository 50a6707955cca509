// The rows of the review queue: a checkbox per version (and one for the whole page), where the
// version comes from, when, how big, what the scan found and its status. The row that keyboard
// shortcuts act on is highlighted; its version link holds the focus.
import { Checkbox } from 'flowbite-react'
import Link from 'next/link'
import { useTranslation } from 'next-i18next/pages'
import { useEffect, useRef, type RefObject } from 'react'
import { breakable } from '@/components/common/BreakableText'
import { NodeVersionStatus, PipelineState, type NodeVersion } from '@/src/api/generated/model'
import { LINK } from '@/components/manage/styles'
import { formatBytes, formatDateTime } from '@/components/node/format'
import { ADMIN_PATHS, adminReviewPath, nodePath } from '@/src/lib/paths'
import { scanOutcome } from './format'

export interface QueueTableProps {
  versions: NodeVersion[]
  selected: ReadonlySet<string>
  onToggle: (id: string) => void
  onToggleAll: (select: boolean) => void
  /** The index of the row the shortcuts act on (-1: none). */
  focused: number
  onFocusRow: (index: number) => void
  /** Filled with each row's version link, so the shortcuts can move the focus. */
  linkRefs: RefObject<(HTMLAnchorElement | null)[]>
  describedBy?: string
}

const STATUS_BADGE: Record<NodeVersionStatus, string> = {
  NodeVersionStatusPending: 'bg-yellow-100 text-yellow-900 dark:bg-yellow-900 dark:text-yellow-100',
  NodeVersionStatusActive: 'bg-green-100 text-green-900 dark:bg-green-900 dark:text-green-100',
  NodeVersionStatusFlagged: 'bg-orange-100 text-orange-900 dark:bg-orange-900 dark:text-orange-100',
  NodeVersionStatusBanned: 'bg-red-100 text-red-900 dark:bg-red-900 dark:text-red-100',
  NodeVersionStatusDeleted: 'bg-gray-200 text-gray-900 dark:bg-gray-700 dark:text-gray-100',
}

const SEVERITY_TEXT = {
  critical: 'font-semibold text-red-700 dark:text-red-400',
  high: 'font-semibold text-red-700 dark:text-red-400',
  medium: 'text-amber-800 dark:text-amber-300',
  low: 'text-gray-800 dark:text-gray-200',
} as const

const CELL = 'px-3 py-2 align-top'

function ScanCell({ version }: { version: NodeVersion }) {
  const { t } = useTranslation('common')
  const outcome = scanOutcome(version)
  const running =
    version.pipeline_state === PipelineState.awaiting_upload
      ? t('manage.pipeline.state.awaitingUpload')
      : version.pipeline_state === PipelineState.queued ||
          version.pipeline_state === PipelineState.checking
        ? t('manage.pipeline.state.checking')
        : undefined
  return (
    <>
      {outcome.kind === 'findings' ? (
        <span className={SEVERITY_TEXT[outcome.worst]}>
          {t('admin.queue.scan.findings', {
            count: outcome.count,
            worst: t(`manage.pipeline.severity.${outcome.worst}`),
          })}
        </span>
      ) : outcome.kind === 'clean' ? (
        <span>{t('admin.queue.scan.clean')}</span>
      ) : (
        !running && (
          <span className="text-gray-600 dark:text-gray-400">{t('admin.queue.scan.unknown')}</span>
        )
      )}
      {running && <span className="block text-gray-600 dark:text-gray-400">{running}</span>}
    </>
  )
}

export function QueueTable({
  versions,
  selected,
  onToggle,
  onToggleAll,
  focused,
  onFocusRow,
  linkRefs,
  describedBy,
}: QueueTableProps) {
  const { t, i18n } = useTranslation('common')
  const locale = i18n.language
  const allRef = useRef<HTMLInputElement>(null)
  const selectedHere = versions.filter((version) => selected.has(version.id)).length
  const all = versions.length > 0 && selectedHere === versions.length
  const some = selectedHere > 0 && !all

  // "Some selected" is a DOM property only, not an attribute.
  useEffect(() => {
    if (allRef.current) allRef.current.indeterminate = some
  }, [some])

  return (
    <div className="overflow-x-auto rounded-lg border border-gray-200 dark:border-gray-700">
      <table
        className="w-full min-w-[56rem] text-left text-sm text-gray-800 dark:text-gray-200"
        aria-describedby={describedBy}
      >
        <caption className="sr-only">{t('admin.queue.caption')}</caption>
        <thead className="bg-gray-50 text-xs text-gray-700 uppercase dark:bg-gray-800 dark:text-gray-300">
          <tr>
            <th scope="col" className={CELL}>
              <Checkbox
                ref={allRef}
                checked={all}
                onChange={(event) => onToggleAll(event.target.checked)}
                aria-label={t('admin.queue.selectAll')}
              />
            </th>
            <th scope="col" className={CELL}>
              {t('admin.queue.column.node')}
            </th>
            <th scope="col" className={CELL}>
              {t('admin.queue.column.publisher')}
            </th>
            <th scope="col" className={CELL}>
              {t('admin.queue.column.version')}
            </th>
            <th scope="col" className={CELL}>
              {t('admin.queue.column.when')}
            </th>
            <th scope="col" className={`${CELL} text-right`}>
              {t('admin.queue.column.size')}
            </th>
            <th scope="col" className={CELL}>
              {t('admin.queue.column.scan')}
            </th>
            <th scope="col" className={CELL}>
              {t('admin.queue.column.status')}
            </th>
          </tr>
        </thead>
        <tbody>
          {versions.map((version, index) => {
            const isSelected = selected.has(version.id)
            const isFocused = index === focused
            return (
              <tr
                key={version.id}
                onFocus={() => onFocusRow(index)}
                className={`border-t border-gray-200 dark:border-gray-700 ${
                  isFocused
                    ? 'bg-blue-50 outline-2 -outline-offset-2 outline-blue-600 dark:bg-blue-950 dark:outline-blue-400'
                    : isSelected
                      ? 'bg-gray-50 dark:bg-gray-800'
                      : 'bg-white dark:bg-gray-900'
                }`}
              >
                <td className={CELL}>
                  <Checkbox
                    checked={isSelected}
                    onChange={() => onToggle(version.id)}
                    aria-label={t('admin.queue.selectRow', {
                      node: version.node_id,
                      version: version.version,
                    })}
                  />
                </td>
                <td className={`${CELL} font-mono break-words`}>
                  <Link href={nodePath(version.node_id)} className={LINK}>
                    {breakable(version.node_id)}
                  </Link>
                </td>
                <td className={`${CELL} break-words`}>
                  {version.publisher_id ? (
                    <Link
                      href={{
                        pathname: ADMIN_PATHS.queue,
                        query: { publisher: version.publisher_id },
                      }}
                      className={LINK}
                      title={t('admin.queue.publisherVersions', {
                        publisher: version.publisher_id,
                      })}
                    >
                      {breakable(version.publisher_id)}
                    </Link>
                  ) : (
                    '—'
                  )}
                </td>
                <td className={`${CELL} font-mono`}>
                  <Link
                    ref={(element) => {
                      linkRefs.current[index] = element
                    }}
                    href={adminReviewPath(version.node_id, version.version)}
                    className={LINK}
                    aria-label={t('admin.queue.review', {
                      node: version.node_id,
                      version: version.version,
                    })}
                  >
                    {version.version}
                  </Link>
                </td>
                <td className={`${CELL} whitespace-nowrap`}>
                  <time dateTime={version.createdAt}>
                    {formatDateTime(version.createdAt, locale, 'local')}
                  </time>
                </td>
                <td className={`${CELL} text-right whitespace-nowrap tabular-nums`}>
                  {version.archive_size === undefined
                    ? '—'
                    : formatBytes(version.archive_size, locale)}
                </td>
                <td className={CELL}>
                  <ScanCell version={version} />
                </td>
                <td className={CELL}>
                  <span
                    className={`inline-block rounded px-2 py-0.5 text-xs font-medium whitespace-nowrap ${STATUS_BADGE[version.status]}`}
                  >
                    {t(`node.versions.status.${version.status}`)}
                  </span>
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}
