import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { useCallback, useId, useMemo } from 'react'
import type { NodeListResponse } from '@/src/api/generated/model'
import {
  getListAllNodesQueryOptions,
  getSearchNodesQueryOptions,
} from '@/src/api/generated/nodes/nodes'
import { NODE_SORTS } from '@/src/lib/constants'
import {
  defaultSort,
  EMPTY_SEARCH_STATE,
  nodeQueryFor,
  searchStateHref,
  type NodeQuery,
  type NodeSort,
  type SearchState,
} from '@/src/lib/search-state'
import { listingStateOf } from '@/src/lib/listing-address'
import { NodeResults } from './NodeResults'
import { Pagination, usePageInRange } from './Pagination'
import { SearchBox } from './SearchBox'
import { SearchFilters, type FilterChange } from './SearchFilters'

/**
 * The React Query options of a state's API call. Server rendering prefetches exactly these, so
 * the first render in the browser finds the data in the cache.
 */
export function nodeQueryOptions(query: NodeQuery) {
  const options = { query: { placeholderData: keepPreviousData<NodeListResponse> } }
  return query.kind === 'search'
    ? getSearchNodesQueryOptions(query.params, options)
    : getListAllNodesQueryOptions(query.params, options)
}

/** The home page's search: box, sort, filters, results and pages, all kept in the address. */
export function NodeBrowser() {
  const { t } = useTranslation('common')
  const router = useRouter()
  const state = useMemo(() => listingStateOf(router.query), [router.query])
  const { data, isError, isFetching, isPlaceholderData, refetch } = useQuery(
    nodeQueryOptions(nodeQueryFor(state)),
  )
  const sortId = useId()
  usePageInRange(
    state.page,
    data && !isPlaceholderData ? data.totalPages : undefined,
    (page) => searchStateHref({ ...state, page }),
    true,
  )

  const navigate = useCallback(
    (next: SearchState) => {
      void router.push(searchStateHref(next), undefined, { shallow: true, scroll: false })
    },
    [router],
  )

  const onSearch = useCallback(
    (q: string) => {
      // A sort that was only the default follows the text (best match while searching).
      const sort = state.sort === defaultSort(state.q) ? defaultSort(q) : state.sort
      navigate({ ...state, q, sort, page: 1 })
    },
    [navigate, state],
  )

  // A tag picked among the suggestions replaces the text and the other tags.
  const onPickTag = (tag: string) => navigate({ ...state, q: '', tags: [tag], page: 1 })
  const onFilters = (filters: FilterChange) => navigate({ ...state, ...filters, page: 1 })
  const onSort = (sort: NodeSort) => navigate({ ...state, sort, page: 1 })
  const sorts = NODE_SORTS.filter((sort) => sort !== 'relevance' || state.q)
  const loading = isFetching && isPlaceholderData

  return (
    <div className="mt-6 grid gap-6 lg:grid-cols-[15rem_minmax(0,1fr)] lg:gap-8">
      <div className="lg:col-span-2">
        <SearchBox value={state.q} onSearch={onSearch} onPickTag={onPickTag} />
      </div>
      <aside className="min-w-0">
        <SearchFilters state={state} onChange={onFilters} />
      </aside>
      <section aria-labelledby="results-heading" className="min-w-0">
        <h2 id="results-heading" className="sr-only">
          {t('home.results')}
        </h2>
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          <p role="status" className="text-sm text-gray-700 dark:text-gray-300">
            {data && t('search.count', { count: data.total })}
            {loading && <span className="ml-2">{t('search.loading')}</span>}
          </p>
          <div className="flex items-center gap-2">
            <label htmlFor={sortId} className="text-sm text-gray-700 dark:text-gray-300">
              {t('sort.label')}
            </label>
            <select
              id={sortId}
              value={state.sort}
              onChange={(event) => {
                const sort = sorts.find((value) => value === event.target.value)
                if (sort) onSort(sort)
              }}
              className="h-10 rounded-lg border border-gray-300 bg-white px-3 text-sm text-gray-900 focus:border-blue-600 focus:ring-2 focus:ring-blue-600 focus:outline-none dark:border-gray-600 dark:bg-gray-800 dark:text-white"
            >
              {sorts.map((sort) => (
                <option key={sort} value={sort}>
                  {t(`sort.${sort}`)}
                </option>
              ))}
            </select>
          </div>
        </div>
        <NodeResults
          data={data}
          query={state.q}
          isError={isError}
          isLoading={loading}
          onRetry={() => void refetch()}
          resetHref={searchStateHref(EMPTY_SEARCH_STATE)}
        />
        {data && (
          <Pagination
            page={state.page}
            totalPages={data.totalPages}
            hrefFor={(page) => searchStateHref({ ...state, page })}
            shallow
          />
        )}
      </section>
    </div>
  )
}
