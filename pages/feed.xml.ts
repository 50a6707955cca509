// /feed.xml: RSS 2.0 of the 50 newest active versions, titled and described in the locale.
import type { GetServerSideProps } from 'next'
import { listAllNodeVersions } from '@/src/api/generated/versions/versions'
import { DEFAULT_LANGUAGE } from '@/src/lib/constants'
import { FEED_SIZE, feedStrings, nodesOf, sendFeed, versionItems } from '@/src/lib/feed'
import { rssXml } from '@/src/lib/seo'

export const getServerSideProps: GetServerSideProps = async ({ res, locale }) => {
  const lang = locale ?? DEFAULT_LANGUAGE
  const [strings, { versions }] = await Promise.all([
    feedStrings(lang),
    listAllNodeVersions({ limit: FEED_SIZE, statuses: ['NodeVersionStatusActive'] }),
  ])
  // Node names for the titles, in one call; a node the public cannot see drops its versions.
  const items = versionItems(versions, await nodesOf(versions))
  sendFeed(
    res,
    rssXml({
      title: strings.feedTitle,
      description: strings.feedDescription,
      locale: lang,
      items,
    }),
  )
  return { props: {} }
}

export default function Feed() {
  return null
}
