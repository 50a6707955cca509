// The sitemap files named by /sitemap.xml: pages.xml (home and every active publisher) and
// nodes-{n}.xml (the n-th SITEMAP_NODES_PER_FILE active nodes, by name), with locale alternates.
import type { GetServerSideProps } from 'next'
import { NodeStatus, PublisherStatus } from '@/src/api/generated/model'
import { listAllNodes } from '@/src/api/generated/nodes/nodes'
import { listPublishers } from '@/src/api/generated/publishers/publishers'
import { nodePath, publisherPath } from '@/src/lib/paths'
import {
  SITEMAP_CACHE_CONTROL,
  SITEMAP_NODES_PER_FILE,
  sitemapXml,
  type SitemapEntry,
} from '@/src/lib/seo'

/** The API's largest page. */
const API_PAGE_SIZE = 100
/** API pages fetched at the same time. */
const CONCURRENCY = 6

async function activeNodes(file: number): Promise<SitemapEntry[] | null> {
  const pagesPerFile = SITEMAP_NODES_PER_FILE / API_PAGE_SIZE
  const firstPage = (file - 1) * pagesPerFile + 1
  const first = await listAllNodes({ page: firstPage, limit: API_PAGE_SIZE, sort: 'name' })
  if (first.nodes.length === 0 && file > 1) return null
  const lastPage = Math.min(first.totalPages, firstPage + pagesPerFile - 1)
  const rest = Array.from(
    { length: Math.max(0, lastPage - firstPage) },
    (_, i) => firstPage + i + 1,
  )
  const pages = [first]
  for (let start = 0; start < rest.length; start += CONCURRENCY) {
    const batch = rest.slice(start, start + CONCURRENCY)
    pages.push(
      ...(await Promise.all(
        batch.map((page) => listAllNodes({ page, limit: API_PAGE_SIZE, sort: 'name' })),
      )),
    )
  }
  return pages
    .flatMap((page) => page.nodes)
    .filter((node) => node.status === NodeStatus.NodeStatusActive)
    .map((node) => ({
      path: nodePath(node.id),
      lastmod: node.latest_version?.createdAt ?? node.created_at,
    }))
}

async function pagesAndPublishers(): Promise<SitemapEntry[]> {
  const publishers = await listPublishers()
  return [
    { path: '/' },
    ...publishers
      .filter(
        (publisher) =>
          (publisher.status ?? 'PublisherStatusActive') === PublisherStatus.PublisherStatusActive,
      )
      .map((publisher) => ({
        path: publisherPath(publisher.id),
        lastmod: publisher.createdAt,
      })),
  ]
}

export const getServerSideProps: GetServerSideProps = async ({ params, res }) => {
  const file = typeof params?.file === 'string' ? params.file : ''
  const nodesFile = /^nodes-([1-9][0-9]{0,5})\.xml$/.exec(file)
  const entries =
    file === 'pages.xml'
      ? await pagesAndPublishers()
      : nodesFile
        ? await activeNodes(Number(nodesFile[1]))
        : null
  if (!entries) return { notFound: true }
  res.setHeader('Content-Type', 'application/xml; charset=utf-8')
  res.setHeader('Cache-Control', SITEMAP_CACHE_CONTROL)
  res.end(sitemapXml(entries))
  return { props: {} }
}

export default function SitemapFile() {
  return null
}
