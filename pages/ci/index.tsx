// CI results of ComfyUI: the commits of a repository (and branch) with their status per
// operating system, a page at a time, and the latest release notes. Server-rendered with the
// query cache prefetched; the filters live in the address and change it client-side (shallow),
// React Query then asks the API.
import { keepPreviousData } from '@tanstack/react-query'
import type { GetServerSideProps } from 'next'
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { useCallback, useMemo } from 'react'
import { CiFilters } from '@/components/ci/CiFilters'
import { CommitTable } from '@/components/ci/CommitTable'
import { CiStatus } from '@/components/ci/CiStatus'
import {
  latestReleases,
  ReleaseNotes,
  RELEASE_NOTES_HEADING_LEVEL,
} from '@/components/ci/ReleaseNotes'
import {
  CI_RELEASES_SHOWN,
  ciFiltersOf,
  ciListHref,
  isFiltered,
  releasesLocale,
  summaryParams,
  type CiFilters as Filters,
} from '@/components/ci/ci-address'
import { CONTAINER_CLASS } from '@/components/common/Container'
import { markdownHtml } from '@/components/common/markdown-html'
import { Seo } from '@/components/common/Seo'
import { Pagination, usePageInRange } from '@/components/nodes/Pagination'
import type { GitCommitSummaryListResponse } from '@/src/api/generated/model'
import {
  getGetBranchQueryOptions,
  getGetGitcommitsummaryQueryOptions,
  getListReleasesQueryOptions,
  useGetBranch,
  useGetGitcommitsummary,
  useListReleases,
} from '@/src/api/generated/other/other'
import { listingPropsOrNotFound } from '@/src/lib/public-page'
import { publicTranslations } from '@/src/lib/public-translations'
import { SITE_NAME } from '@/src/lib/seo'

export interface CiPageProps {
  /** Release notes rendered and sanitised on the server, by release id. */
  releaseNotes?: Record<string, string>
}

const LEGEND = ['completed', 'failed', 'started'] as const

export default function CiPage({ releaseNotes }: CiPageProps) {
  const { t } = useTranslation('common')
  const router = useRouter()
  const filters = useMemo(() => ciFiltersOf(router.query), [router.query])
  const summaries = useGetGitcommitsummary(summaryParams(filters), {
    query: { placeholderData: keepPreviousData<GitCommitSummaryListResponse> },
  })
  const { data: branches } = useGetBranch({ repo_name: filters.repo })
  const releases = useListReleases({ locale: releasesLocale(router.locale) })
  const data = summaries.data
  usePageInRange(
    filters.page,
    data && !summaries.isPlaceholderData ? data.totalNumberOfPages : undefined,
    (page) => ciListHref({ ...filters, page }),
    true,
  )

  const navigate = useCallback(
    (next: Filters) => {
      void router.replace(ciListHref(next), undefined, { shallow: true, scroll: false })
    },
    [router],
  )
  const loading = summaries.isFetching && summaries.isPlaceholderData

  return (
    <>
      <Seo
        title={`${t('ci.title')} – ${SITE_NAME}`}
        description={t('ci.description')}
        // Only the default list (and its pages) is worth indexing; filtered views point to it.
        path={isFiltered(filters) ? '/ci' : ciListHref(filters)}
        noindex={isFiltered(filters)}
      />
      <main id="main-content" className={`${CONTAINER_CLASS} py-8`}>
        <h1 className="text-3xl font-bold tracking-tight text-gray-900 sm:text-4xl dark:text-white">
          {t('ci.title')}
        </h1>
        <p className="mt-2 max-w-3xl text-lg text-gray-700 dark:text-gray-300">
          {t('ci.description')}
        </p>
        <CiFilters filters={filters} branches={branches?.branches} onChange={navigate} />

        <section aria-labelledby="ci-commits-heading" className="mt-8">
          <div className="mb-3 flex flex-wrap items-baseline justify-between gap-3">
            <h2
              id="ci-commits-heading"
              className="text-xl font-semibold break-words text-gray-900 dark:text-white"
            >
              {filters.branch
                ? t('ci.commitsOnBranchHeading', { repo: filters.repo, branch: filters.branch })
                : t('ci.commitsHeading', { repo: filters.repo })}
            </h2>
            <ul
              aria-label={t('ci.legend')}
              className="flex flex-wrap gap-3 text-sm text-gray-700 dark:text-gray-300"
            >
              {LEGEND.map((status) => (
                <li key={status}>
                  <CiStatus status={status} withText />
                </li>
              ))}
            </ul>
          </div>
          <p role="status" className="sr-only">
            {loading ? t('ci.loading') : ''}
          </p>
          {summaries.isError && !data ? (
            <div
              role="alert"
              className="rounded-lg border border-red-300 bg-red-50 p-4 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100"
            >
              <p className="font-medium">{t('ci.error')}</p>
              <button
                type="button"
                onClick={() => void summaries.refetch()}
                className="mt-3 inline-flex h-10 items-center rounded-lg bg-red-700 px-4 text-sm font-medium text-white hover:bg-red-800 focus-visible:ring-2 focus-visible:ring-red-500 focus-visible:ring-offset-2 focus-visible:outline-none dark:bg-red-600 dark:hover:bg-red-700"
              >
                {t('search.retry')}
              </button>
            </div>
          ) : !data ? (
            <p aria-busy="true" className="py-8 text-center text-gray-600 dark:text-gray-300">
              {t('ci.loading')}
            </p>
          ) : data.commit_summaries.length === 0 ? (
            <p className="rounded-lg border border-dashed border-gray-300 p-8 text-center text-gray-700 dark:border-gray-600 dark:text-gray-300">
              {t('ci.empty')}
            </p>
          ) : (
            <>
              <CommitTable summaries={data.commit_summaries} filters={filters} busy={loading} />
              <Pagination
                page={filters.page}
                totalPages={data.totalNumberOfPages}
                hrefFor={(page) => ciListHref({ ...filters, page })}
                shallow
              />
            </>
          )}
        </section>

        <ReleaseNotes
          releases={releases.data && latestReleases(releases.data, CI_RELEASES_SHOWN)}
          notesHtml={releaseNotes}
          isError={releases.isError}
        />
      </main>
    </>
  )
}

export const getServerSideProps: GetServerSideProps<CiPageProps> = async (context) => {
  const filters = ciFiltersOf(context.query)
  const releaseNotes: Record<string, string> = {}
  const result = await listingPropsOrNotFound(context, {
    page: filters.page,
    prefetch: async (queryClient) => {
      const releasesOptions = getListReleasesQueryOptions({
        locale: releasesLocale(context.locale),
      })
      // The commits are the page: their failure is the error page. Branches and releases are
      // extras: without them the page still renders, and the browser asks again.
      const [summaries] = await Promise.all([
        queryClient.fetchQuery(getGetGitcommitsummaryQueryOptions(summaryParams(filters))),
        queryClient.prefetchQuery(getGetBranchQueryOptions({ repo_name: filters.repo })),
        queryClient.prefetchQuery(releasesOptions),
      ])
      const releases = queryClient.getQueryData(releasesOptions.queryKey) ?? []
      // Markdown is rendered (and sanitised) here, so its toolchain stays off the browser.
      for (const release of latestReleases(releases, CI_RELEASES_SHOWN)) {
        if (release.content?.trim()) {
          releaseNotes[String(release.id)] = markdownHtml(
            release.content,
            RELEASE_NOTES_HEADING_LEVEL,
          )
        }
      }
      return summaries.totalNumberOfPages
    },
    hrefFor: (page) => ciListHref({ ...filters, page }),
  })
  if (!('props' in result)) return result
  // The page's own texts (left out of other public pages' HTML).
  const props = await result.props
  return {
    props: { ...props, ...(await publicTranslations(context.locale, ['ci'])), releaseNotes },
  }
}
