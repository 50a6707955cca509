// /sitemap.xml: home, every active node and every active publisher, with locale alternates.
import type { GetServerSideProps } from 'next'
import { NodeStatus, PublisherStatus } from '@/src/api/generated/model'
import { listAllNodes } from '@/src/api/generated/nodes/nodes'
import { listPublishers } from '@/src/api/generated/publishers/publishers'
import { sitemapXml, type SitemapEntry } from '@/src/lib/seo'

/** The API's largest page. */
const PAGE_SIZE = 100
/** Pages of nodes fetched at the same time. */
const CONCURRENCY = 6
export const SITEMAP_CACHE_CONTROL = 'public, s-maxage=3600, stale-while-revalidate=86400'

async function activeNodes(): Promise<SitemapEntry[]> {
  const first = await listAllNodes({ page: 1, limit: PAGE_SIZE })
  const pages = [first]
  const rest = Array.from({ length: Math.max(0, first.totalPages - 1) }, (_, i) => i + 2)
  for (let start = 0; start < rest.length; start += CONCURRENCY) {
    const batch = rest.slice(start, start + CONCURRENCY)
    pages.push(
      ...(await Promise.all(batch.map((page) => listAllNodes({ page, limit: PAGE_SIZE })))),
    )
  }
  const seen = new Set<string>()
  return pages
    .flatMap((page) => page.nodes)
    .filter((node) => node.status === NodeStatus.NodeStatusActive && !seen.has(node.id))
    .map((node) => {
      seen.add(node.id)
      return {
        path: `/nodes/${encodeURIComponent(node.id)}`,
        lastmod: node.latest_version?.createdAt ?? node.created_at,
      }
    })
}

async function activePublishers(): Promise<SitemapEntry[]> {
  const publishers = await listPublishers()
  return publishers
    .filter(
      (publisher) =>
        (publisher.status ?? 'PublisherStatusActive') === PublisherStatus.PublisherStatusActive,
    )
    .map((publisher) => ({
      path: `/publishers/${encodeURIComponent(publisher.id)}`,
      lastmod: publisher.createdAt,
    }))
}

export const getServerSideProps: GetServerSideProps = async ({ res }) => {
  const [nodes, publishers] = await Promise.all([activeNodes(), activePublishers()])
  res.setHeader('Content-Type', 'application/xml; charset=utf-8')
  res.setHeader('Cache-Control', SITEMAP_CACHE_CONTROL)
  res.end(sitemapXml([{ path: '/' }, ...nodes, ...publishers]))
  return { props: {} }
}

export default function Sitemap() {
  return null
}
