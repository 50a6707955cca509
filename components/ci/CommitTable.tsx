// The list of commits with their CI status per operating system: one column for each system
// that a commit of the page ran on. On narrow screens the table scrolls inside its own region
// (positioned, so the screen-reader texts of far columns scroll with it instead of widening the
// page). While the next page loads, the previous rows stay, dimmed.
import Link from 'next/link'
import { useTranslation } from 'next-i18next/pages'
import type { GitCommitSummary } from '@/src/api/generated/model'
import { formatDateTime } from '@/components/node/format'
import { abbreviationLength, ciCommitHref, type CiFilters } from './ci-address'
import { CiStatus, osName } from './CiStatus'

/** The usual systems first, in this order; any other after them by name. */
const OS_ORDER = ['linux', 'windows', 'macos']

export function systemsOf(summaries: readonly GitCommitSummary[]): string[] {
  const seen = new Set(summaries.flatMap((summary) => Object.keys(summary.status_summary ?? {})))
  const rank = (os: string) => {
    const index = OS_ORDER.indexOf(os)
    return index === -1 ? OS_ORDER.length : index
  }
  return [...seen].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
}

export interface CommitTableProps {
  summaries: GitCommitSummary[]
  /** The list's filters, carried to each commit's page. */
  filters: CiFilters
  /** A client-side transition is loading (the rows shown are the previous ones). */
  busy?: boolean
}

const HEAD = 'px-3 py-3 text-left font-semibold whitespace-nowrap'
const CELL = 'px-3 py-3 align-top'
const MUTED = 'text-gray-600 dark:text-gray-300'

export function CommitTable({ summaries, filters, busy = false }: CommitTableProps) {
  const { t, i18n } = useTranslation('common')
  const locale = i18n.language
  const systems = systemsOf(summaries)
  const hashLength = abbreviationLength(summaries.map((summary) => summary.commit_hash))
  const caption = t('ci.table.caption')
  return (
    <div
      role="region"
      aria-label={caption}
      aria-busy={busy}
      tabIndex={0}
      className={`relative overflow-x-auto rounded-lg border border-gray-200 transition-opacity focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none dark:border-gray-700 ${busy ? 'opacity-60' : ''}`}
    >
      <table className="w-full min-w-[44rem] text-sm text-gray-800 dark:text-gray-200">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-gray-50 text-xs text-gray-700 uppercase dark:bg-gray-800 dark:text-gray-200">
          <tr>
            <th scope="col" className={HEAD}>
              {t('ci.table.commit')}
            </th>
            <th scope="col" className={HEAD}>
              {t('ci.table.message')}
            </th>
            <th scope="col" className={HEAD}>
              {t('ci.table.author')}
            </th>
            <th scope="col" className={HEAD}>
              {t('ci.table.time')}
            </th>
            {systems.map((os) => (
              <th key={os} scope="col" className={`${HEAD} text-center`}>
                {osName(os, t)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-200 bg-white dark:divide-gray-700 dark:bg-gray-900">
          {summaries.map((summary) => {
            const message = summary.commit_name?.split('\n')[0]
            return (
              <tr key={summary.commit_hash}>
                <th scope="row" className={`${CELL} text-left font-normal whitespace-nowrap`}>
                  <Link
                    href={ciCommitHref(summary.commit_hash, filters)}
                    className="rounded font-mono font-medium text-blue-700 underline-offset-4 hover:underline focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none dark:text-blue-300"
                  >
                    {summary.commit_hash.slice(0, hashLength)}
                  </Link>
                  {summary.branch_name && (
                    <span className={`block text-xs ${MUTED}`}>{summary.branch_name}</span>
                  )}
                </th>
                <td className={`${CELL} max-w-md break-words`}>
                  {message || <span className={MUTED}>{t('ci.noMessage')}</span>}
                </td>
                <td className={`${CELL} break-words`}>{summary.author}</td>
                <td className={`${CELL} whitespace-nowrap`}>
                  {summary.timestamp && (
                    <time dateTime={summary.timestamp}>
                      {formatDateTime(summary.timestamp, locale, 'utc')}
                    </time>
                  )}
                </td>
                {systems.map((os) => {
                  const status = summary.status_summary?.[os]
                  return (
                    <td key={os} className={`${CELL} text-center`}>
                      {status ? (
                        <CiStatus status={status} />
                      ) : (
                        <span className={MUTED}>
                          <span aria-hidden="true">–</span>
                          <span className="sr-only">{t('ci.status.notRun')}</span>
                        </span>
                      )}
                    </td>
                  )
                })}
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}
