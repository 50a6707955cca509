import type { GetServerSideProps } from 'next'
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { Seo } from '@/components/common/Seo'
import { NodeBrowser, nodeQueryOptions } from '@/components/nodes/NodeBrowser'
import {
  isDefaultState,
  nodeQueryFor,
  parseSearchState,
  searchStateHref,
} from '@/src/lib/search-state'
import { listingPropsOrNotFound } from '@/src/lib/public-page'
import { CONTAINER_CLASS } from '@/components/common/Container'

export default function HomePage() {
  const { t } = useTranslation('common')
  const router = useRouter()
  const state = parseSearchState(router.query)
  // Only the listing (and its pages) is worth indexing; searches and filters point to it.
  const listingOnly = isDefaultState({ ...state, page: 1 })

  return (
    <>
      <Seo
        title={t('site.title')}
        description={t('site.description')}
        path={listingOnly ? searchStateHref({ ...state }) : '/'}
        noindex={!listingOnly}
      />
      <main id="main-content" className={`${CONTAINER_CLASS} py-8`}>
        <h1 className="text-3xl font-bold tracking-tight text-gray-900 sm:text-4xl dark:text-white">
          {t('site.title')}
        </h1>
        <p className="mt-2 max-w-3xl text-lg text-gray-700 dark:text-gray-300">
          {t('site.description')}
        </p>
        <NodeBrowser />
      </main>
    </>
  )
}

export const getServerSideProps: GetServerSideProps = (context) => {
  const state = parseSearchState(context.query)
  return listingPropsOrNotFound(context, {
    page: state.page,
    // Exactly the query the browser runs for this address, so it hydrates without a spinner.
    prefetch: async (queryClient) =>
      (await queryClient.fetchQuery(nodeQueryOptions(nodeQueryFor(state)))).totalPages,
    hrefFor: (page) => searchStateHref({ ...state, page }),
  })
}
