// /publishers/{publisherId}/feed.xml: RSS 2.0 of the 50 newest active versions of the
// publisher's nodes, in the locale. A publisher the public cannot see is the 404 page.
import type { GetServerSideProps } from 'next'
import { getPublisher } from '@/src/api/generated/publishers/publishers'
import { listAllNodeVersions } from '@/src/api/generated/versions/versions'
import { DEFAULT_LANGUAGE } from '@/src/lib/constants'
import { isPublisherId } from '@/src/lib/contract-ids'
import { FEED_SIZE, feedStrings, fill, nodesOf, sendFeed, versionItems } from '@/src/lib/feed'
import { publisherFeedPath, publisherPath } from '@/src/lib/paths'
import { isNotFound } from '@/src/lib/public-page'
import { paramOf } from '@/src/lib/route-params'
import { rssXml } from '@/src/lib/seo'

export const getServerSideProps: GetServerSideProps = async ({ res, locale, params }) => {
  const publisherId = paramOf(params?.publisherId)
  if (!isPublisherId(publisherId)) return { notFound: true }
  const lang = locale ?? DEFAULT_LANGUAGE
  let publisher
  try {
    publisher = await getPublisher(publisherId)
  } catch (error) {
    if (isNotFound(error)) return { notFound: true }
    throw error
  }
  if (publisher.status === 'PublisherStatusBanned') return { notFound: true }
  const [strings, { versions }] = await Promise.all([
    feedStrings(lang),
    listAllNodeVersions({
      publisher_id: publisher.id,
      limit: FEED_SIZE,
      statuses: ['NodeVersionStatusActive'],
    }),
  ])
  // Node names for the titles; a node the public cannot see drops its versions.
  const items = versionItems(versions, await nodesOf(versions))
  const values = { name: publisher.name }
  sendFeed(
    res,
    rssXml({
      title: fill(strings.publisherFeedTitle, values),
      description: fill(strings.publisherFeedDescription, values),
      selfPath: publisherFeedPath(publisher.id),
      linkPath: publisherPath(publisher.id),
      locale: lang,
      items,
    }),
  )
  return { props: {} }
}

export default function PublisherFeed() {
  return null
}
