import Link from 'next/link'
import { useTranslation } from 'next-i18next/pages'
import type { NodeListResponse } from '@/src/api/generated/model'
import { NodeCard } from './NodeCard'

export interface NodeResultsProps {
  data: NodeListResponse | undefined
  /** The search text, for the empty state. */
  query: string
  isError: boolean
  /** A client-side transition is loading (the shown results are the previous ones). */
  isLoading: boolean
  onRetry: () => void
  /** The address that clears the search and the filters. */
  resetHref: string
}

/** The result list with its loading, empty and error states. */
export function NodeResults({
  data,
  query,
  isError,
  isLoading,
  onRetry,
  resetHref,
}: NodeResultsProps) {
  const { t } = useTranslation('common')

  if (isError && !data) {
    return (
      <div
        role="alert"
        className="rounded-lg border border-red-300 bg-red-50 p-4 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100"
      >
        <p className="font-medium">{t('search.error')}</p>
        <button
          type="button"
          onClick={onRetry}
          className="mt-3 inline-flex h-10 items-center rounded-lg bg-red-700 px-4 text-sm font-medium text-white hover:bg-red-800 focus-visible:ring-2 focus-visible:ring-red-500 focus-visible:ring-offset-2 focus-visible:outline-none dark:bg-red-600 dark:hover:bg-red-700"
        >
          {t('search.retry')}
        </button>
      </div>
    )
  }

  if (!data) {
    return (
      <p aria-busy="true" className="py-12 text-center text-gray-600 dark:text-gray-300">
        {t('search.loading')}
      </p>
    )
  }

  if (data.total === 0 || data.nodes.length === 0) {
    return (
      <div className="rounded-lg border border-dashed border-gray-300 p-8 text-center dark:border-gray-600">
        <p className="text-lg font-medium text-gray-900 dark:text-white">
          {query ? t('search.empty', { query }) : t('search.emptyFiltered')}
        </p>
        <p className="mt-2 text-sm text-gray-600 dark:text-gray-300">{t('search.emptyHint')}</p>
        <Link
          href={resetHref}
          className="mt-4 inline-block rounded-md font-medium text-blue-700 hover:underline focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none dark:text-blue-300"
        >
          {t('search.reset')}
        </Link>
      </div>
    )
  }

  return (
    <>
      {/* A client-side transition: the previous results stay, with a bar that shows progress. */}
      <div aria-hidden="true" className="mb-2 h-1 overflow-hidden rounded-full">
        {isLoading && <div className="h-full w-full animate-pulse bg-blue-600 dark:bg-blue-400" />}
      </div>
      <ul aria-busy={isLoading} className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {data.nodes.map((node) => (
          <li key={node.id} className="flex min-w-0">
            <NodeCard node={node} query={query} />
          </li>
        ))}
      </ul>
    </>
  )
}
