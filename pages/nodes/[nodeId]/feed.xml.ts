// /nodes/{nodeId}/feed.xml: RSS 2.0 of the node's 50 newest active versions, in the locale.
// A node the public cannot see (unknown, banned, deleted) is the 404 page, like its page.
import type { GetServerSideProps } from 'next'
import { getNode } from '@/src/api/generated/nodes/nodes'
import { listAllNodeVersions } from '@/src/api/generated/versions/versions'
import { DEFAULT_LANGUAGE } from '@/src/lib/constants'
import { isNodeId } from '@/src/lib/contract-ids'
import { FEED_SIZE, feedStrings, fill, sendFeed, versionItems } from '@/src/lib/feed'
import { nodeFeedPath, nodePath } from '@/src/lib/paths'
import { isNotFound } from '@/src/lib/public-page'
import { paramOf } from '@/src/lib/route-params'
import { rssXml } from '@/src/lib/seo'

export const getServerSideProps: GetServerSideProps = async ({ res, locale, params }) => {
  const nodeId = paramOf(params?.nodeId)
  if (!isNodeId(nodeId)) return { notFound: true }
  const lang = locale ?? DEFAULT_LANGUAGE
  let node
  try {
    node = await getNode(nodeId)
  } catch (error) {
    if (isNotFound(error)) return { notFound: true }
    throw error
  }
  if (node.status !== 'NodeStatusActive') return { notFound: true }
  const [strings, { versions }] = await Promise.all([
    feedStrings(lang),
    listAllNodeVersions({
      nodeId: node.id,
      limit: FEED_SIZE,
      statuses: ['NodeVersionStatusActive'],
    }),
  ])
  const values = { name: node.name }
  sendFeed(
    res,
    rssXml({
      title: fill(strings.nodeFeedTitle, values),
      description: fill(strings.nodeFeedDescription, values),
      selfPath: nodeFeedPath(node.id),
      linkPath: nodePath(node.id),
      locale: lang,
      items: versionItems(versions, new Map([[node.id, node]])),
    }),
  )
  return { props: {} }
}

export default function NodeFeed() {
  return null
}
