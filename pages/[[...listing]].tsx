// The home page: the node listing with its search, filters, sort and pages. Statically
// regenerated like a node page: `/` is cached as is, and the proxy serves every other listing
// address from the hidden path of its canonical query (src/lib/listing-address.ts), so this
// catch-all page answers `/` and `/_listing/<key>`; any other path it catches is the 404 page.
import type { GetStaticPaths, GetStaticProps } from 'next'
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { Seo } from '@/components/common/Seo'
import { NodeBrowser, nodeQueryOptions } from '@/components/nodes/NodeBrowser'
import { cardFields } from '@/components/nodes/NodeCard'
import { isDefaultState, nodeQueryFor, searchStateHref } from '@/src/lib/search-state'
import { listingStateOf, stateOfSegments } from '@/src/lib/listing-address'
import { STATIC_NOT_FOUND, staticListingProps } from '@/src/lib/public-page'
import { CONTAINER_CLASS } from '@/components/common/Container'

export default function HomePage() {
  const { t } = useTranslation('common')
  const router = useRouter()
  const state = listingStateOf(router.query)
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

export const getStaticPaths: GetStaticPaths = () => ({ paths: [], fallback: 'blocking' })

export const getStaticProps: GetStaticProps = async (context) => {
  const { listing } = context.params ?? {}
  const state = stateOfSegments(typeof listing === 'string' ? [listing] : listing)
  if (!state) return STATIC_NOT_FOUND
  return staticListingProps(context, {
    page: state.page,
    // Exactly the query the browser runs for this address, so it hydrates without a spinner.
    prefetch: async (queryClient) => {
      const options = nodeQueryOptions(nodeQueryFor(state))
      const list = await queryClient.fetchQuery(options)
      // The page data keeps what the cards show (cardFields); the refresh after load brings the rest.
      queryClient.setQueryData(options.queryKey, {
        ...list,
        nodes: list.nodes.map((node) => cardFields(node, state.q)),
      })
      return list.totalPages
    },
    hrefFor: (page) => searchStateHref({ ...state, page }),
  })
}
