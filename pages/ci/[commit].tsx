// One commit's CI results (`/ci/<hash or id>`), server-rendered with the query cache prefetched:
// its header, then its workflows by operating system. The list's filters ride along in the
// address (`?repo=&branch=&page=`): the repository to look in, and the way back to the same list.
// A commit without results (or an impossible one, not asked for) is the 404 page.
import type { GetServerSideProps } from 'next'
import Link from 'next/link'
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { useMemo } from 'react'
import { CommitHeader, CommitResults } from '@/components/ci/CommitResults'
import {
  ciCommitHref,
  ciFiltersOf,
  ciListHref,
  commitParams,
  isCommitRef,
  shortHash,
} from '@/components/ci/ci-address'
import { CONTAINER_CLASS } from '@/components/common/Container'
import { NotFoundContent } from '@/components/common/NotFoundContent'
import { Seo } from '@/components/common/Seo'
import { getGetGitcommitQueryOptions, useGetGitcommit } from '@/src/api/generated/other/other'
import { publicPropsOrNotFound } from '@/src/lib/public-page'
import { publicTranslations } from '@/src/lib/public-translations'
import { paramOf } from '@/src/lib/route-params'
import { SITE_NAME } from '@/src/lib/seo'

export default function CiCommitPage() {
  const { t } = useTranslation('common')
  const router = useRouter()
  const commitRef = paramOf(router.query.commit)
  const filters = useMemo(() => ciFiltersOf(router.query), [router.query])
  const { data, isError, refetch } = useGetGitcommit(commitParams(commitRef, filters.repo))

  const back = (
    <Link
      href={ciListHref(filters)}
      className="inline-flex items-center gap-1 rounded text-sm font-medium text-blue-700 underline-offset-4 hover:underline focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none dark:text-blue-300"
    >
      <span aria-hidden="true">←</span>
      {t('ci.detail.back')}
    </Link>
  )

  if (!data) {
    return (
      <main id="main-content" className={`${CONTAINER_CLASS} py-8`}>
        {back}
        {isError ? (
          <div role="alert" className="mt-6 text-red-900 dark:text-red-100">
            <p className="font-medium">{t('ci.error')}</p>
            <button
              type="button"
              onClick={() => void refetch()}
              className="mt-3 inline-flex h-10 items-center rounded-lg bg-red-700 px-4 text-sm font-medium text-white hover:bg-red-800 focus-visible:ring-2 focus-visible:ring-red-500 focus-visible:ring-offset-2 focus-visible:outline-none dark:bg-red-600 dark:hover:bg-red-700"
            >
              {t('search.retry')}
            </button>
          </div>
        ) : (
          <p aria-busy="true" className="mt-6 text-gray-600 dark:text-gray-300">
            {t('ci.loading')}
          </p>
        )}
      </main>
    )
  }

  // A short hash shared by several commits: the newest one's results (the API lists it first).
  const commit = data.jobResults[0]?.commit
  if (!commit) {
    return (
      <main id="main-content" className={`${CONTAINER_CLASS} py-16 text-center`}>
        <NotFoundContent />
      </main>
    )
  }
  const results = data.jobResults.filter(
    (result) => result.commit?.commit_hash === commit.commit_hash,
  )
  const message = commit.commit_name?.split('\n')[0]
  return (
    <>
      <Seo
        title={`${t('ci.detail.title', { hash: shortHash(commit.commit_hash) })} – ${t('ci.title')} – ${SITE_NAME}`}
        description={message || t('ci.description')}
        path={ciCommitHref(commit.commit_hash, { ...filters, branch: '', page: 1 })}
        noindex
      />
      <main id="main-content" className={`${CONTAINER_CLASS} py-8`}>
        <div className="mb-6">{back}</div>
        <CommitHeader commit={commit} repo={filters.repo} />
        <CommitResults results={results} />
        {data.totalNumberOfPages > 1 && (
          <p className="mt-8 text-sm text-gray-700 dark:text-gray-300">
            {t('ci.detail.more', { count: data.jobResults.length })}
          </p>
        )}
      </main>
    </>
  )
}

export const getServerSideProps: GetServerSideProps = async (context) => {
  const commitRef = paramOf(context.params?.commit)
  // A value that cannot be a hash or an id names no commit: the 404 page without asking the API.
  if (!isCommitRef(commitRef)) return { notFound: true }
  const { repo } = ciFiltersOf(context.query)
  let found = false
  const result = await publicPropsOrNotFound(context, async (queryClient) => {
    const answer = await queryClient.fetchQuery(
      getGetGitcommitQueryOptions(commitParams(commitRef, repo)),
    )
    found = answer.jobResults.length > 0
  })
  if (!('props' in result)) return result
  if (!found) return { notFound: true }
  // The page's own texts (left out of other public pages' HTML).
  return {
    props: { ...(await result.props), ...(await publicTranslations(context.locale, ['ci'])) },
  }
}
