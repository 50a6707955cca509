// /feed.xml: RSS 2.0 of the 50 newest active versions, titled and described in the locale.
import fs from 'node:fs/promises'
import path from 'node:path'
import type { GetServerSideProps } from 'next'
import type { Node } from '@/src/api/generated/model'
import { searchNodes } from '@/src/api/generated/nodes/nodes'
import { listAllNodeVersions } from '@/src/api/generated/versions/versions'
import { DEFAULT_LANGUAGE, LANGUAGES } from '@/src/lib/constants'
import { summary } from '@/src/lib/markdown'
import { rssXml } from '@/src/lib/seo'
import { nodePath } from '@/src/lib/paths'

export const FEED_SIZE = 50
const FEED_CACHE_CONTROL = 'public, s-maxage=600, stale-while-revalidate=3600'

interface FeedStrings {
  feedTitle: string
  feedDescription: string
}

async function feedStrings(locale: string): Promise<FeedStrings> {
  const known = LANGUAGES.some(({ code }) => code === locale) ? locale : DEFAULT_LANGUAGE
  const file = path.join(process.cwd(), 'public', 'locales', known, 'common.json')
  const json = JSON.parse(await fs.readFile(file, 'utf8')) as { seo: FeedStrings }
  return json.seo
}

export const getServerSideProps: GetServerSideProps = async ({ res, locale }) => {
  const lang = locale ?? DEFAULT_LANGUAGE
  const [strings, { versions }] = await Promise.all([
    feedStrings(lang),
    listAllNodeVersions({ limit: FEED_SIZE, statuses: ['NodeVersionStatusActive'] }),
  ])
  // Node names for the titles, in one call; a node the public cannot see drops its versions.
  const ids = [...new Set(versions.map((version) => version.node_id))]
  const found = ids.length > 0 ? (await searchNodes({ node_id: ids, limit: FEED_SIZE })).nodes : []
  const nodes = new Map<string, Node>(found.map((node) => [node.id, node]))
  const items = versions.flatMap((version) => {
    const node = nodes.get(version.node_id)
    if (!node) return []
    return [
      {
        title: `${node.name} ${version.version}`,
        path: nodePath(node.id),
        guid: `${node.id}@${version.version}`,
        date: version.createdAt,
        description: summary(version.changelog, 300),
      },
    ]
  })
  res.setHeader('Content-Type', 'application/rss+xml; charset=utf-8')
  res.setHeader('Cache-Control', FEED_CACHE_CONTROL)
  res.end(
    rssXml({
      ...strings,
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
