// A publisher's public page, server-rendered with its first (or `?page=`) page of nodes.
import type { GetServerSideProps } from 'next'
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { Seo } from '@/components/common/Seo'
import { cardFields } from '@/components/nodes/NodeCard'
import { PublisherSettingsLink } from '@/components/manage/PublisherSettingsLink'
import { usePageInRange } from '@/components/nodes/Pagination'
import { PUBLISHER_NODES_PAGE_SIZE, PublisherView } from '@/components/publisher/PublisherView'
import {
  getListNodesForPublisherV2QueryOptions,
  useListNodesForPublisherV2,
} from '@/src/api/generated/nodes/nodes'
import {
  getGetPublisherQueryOptions,
  useGetPublisher,
} from '@/src/api/generated/publishers/publishers'
import { isPublisherId } from '@/src/lib/contract-ids'
import { pageFromQuery } from '@/src/lib/page-number'
import { listingPropsOrNotFound } from '@/src/lib/public-page'
import { SITE_NAME } from '@/src/lib/seo'
import { publisherPath } from '@/src/lib/paths'
import { paramOf } from '@/src/lib/route-params'
import { CONTAINER_CLASS } from '@/components/common/Container'

/** The address of a page of a publisher's nodes. */
function publisherPageHref(publisherId: string, page: number): string {
  return page > 1 ? `${publisherPath(publisherId)}?page=${page}` : publisherPath(publisherId)
}

export default function PublisherPage() {
  const { t } = useTranslation('common')
  const router = useRouter()
  const publisherId = paramOf(router.query.publisherId)
  const page = pageFromQuery(router.query.page)
  const { data: publisher } = useGetPublisher(publisherId)
  const { data: nodes } = useListNodesForPublisherV2(publisherId, {
    page,
    limit: PUBLISHER_NODES_PAGE_SIZE,
  })
  usePageInRange(page, nodes?.totalPages, (target) => publisherPageHref(publisherId, target))
  if (!publisher) return null

  const basePath = publisherPath(publisher.id)
  return (
    <>
      <Seo
        title={`${publisher.name} (@${publisher.id}) – ${SITE_NAME}`}
        description={
          publisher.description?.trim() || t('publisher.seoDescription', { name: publisher.name })
        }
        path={page > 1 ? `${basePath}?page=${page}` : basePath}
        image={publisher.logo}
      />
      <main id="main-content" className={`${CONTAINER_CLASS} py-8`}>
        <PublisherView
          publisher={publisher}
          nodes={nodes}
          page={page}
          actions={<PublisherSettingsLink publisherId={publisher.id} />}
        />
      </main>
    </>
  )
}

export const getServerSideProps: GetServerSideProps = async (context) => {
  const publisherId = paramOf(context.params?.publisherId)
  // An id the contract refuses names no publisher: the 404 page without asking the API.
  if (!isPublisherId(publisherId)) return { notFound: true }
  const page = pageFromQuery(context.query.page)
  return listingPropsOrNotFound(context, {
    page,
    prefetch: async (queryClient) => {
      const nodesQuery = getListNodesForPublisherV2QueryOptions(publisherId, {
        page,
        limit: PUBLISHER_NODES_PAGE_SIZE,
      })
      const [, nodes] = await Promise.all([
        queryClient.fetchQuery(getGetPublisherQueryOptions(publisherId)),
        queryClient.fetchQuery(nodesQuery),
      ])
      // The page data keeps what the cards show (cardFields); the refresh after load brings the rest.
      queryClient.setQueryData(nodesQuery.queryKey, {
        ...nodes,
        nodes: nodes.nodes.map((node) => cardFields(node)),
      })
      return nodes.totalPages
    },
    hrefFor: (target) => publisherPageHref(publisherId, target),
  })
}
