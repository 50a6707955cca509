// A publisher's public page, server-rendered with its first (or `?page=`) page of nodes.
import type { GetServerSideProps } from 'next'
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { Seo } from '@/components/common/Seo'
import { PublisherSettingsLink } from '@/components/manage/PublisherSettingsLink'
import { PUBLISHER_NODES_PAGE_SIZE, PublisherView } from '@/components/publisher/PublisherView'
import {
  getListNodesForPublisherV2QueryOptions,
  useListNodesForPublisherV2,
} from '@/src/api/generated/nodes/nodes'
import {
  getGetPublisherQueryOptions,
  useGetPublisher,
} from '@/src/api/generated/publishers/publishers'
import { publicPropsOrNotFound } from '@/src/lib/public-page'
import { SITE_NAME } from '@/src/lib/seo'
import { publisherPath } from '@/src/lib/paths'
import { paramOf } from '@/src/lib/route-params'

/** Highest page number accepted from the address. */
const MAX_PAGE = 10_000

function pageOf(value: string | string[] | undefined): number {
  const page = Number(paramOf(value))
  return Number.isInteger(page) && page >= 1 && page <= MAX_PAGE ? page : 1
}

export default function PublisherPage() {
  const { t } = useTranslation('common')
  const router = useRouter()
  const publisherId = paramOf(router.query.publisherId)
  const page = pageOf(router.query.page)
  const { data: publisher } = useGetPublisher(publisherId)
  const { data: nodes } = useListNodesForPublisherV2(publisherId, {
    page,
    limit: PUBLISHER_NODES_PAGE_SIZE,
  })
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
      <main id="main-content" className="mx-auto w-full max-w-7xl px-4 py-8 sm:px-6">
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

export const getServerSideProps: GetServerSideProps = (context) => {
  const publisherId = paramOf(context.params?.publisherId)
  const page = pageOf(context.query.page)
  return publicPropsOrNotFound(context, (queryClient) =>
    Promise.all([
      queryClient.fetchQuery(getGetPublisherQueryOptions(publisherId)),
      queryClient.fetchQuery(
        getListNodesForPublisherV2QueryOptions(publisherId, {
          page,
          limit: PUBLISHER_NODES_PAGE_SIZE,
        }),
      ),
    ]),
  )
}
