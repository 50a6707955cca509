// /sitemap.xml: a sitemap index. /sitemaps/pages.xml holds home and every active publisher;
// /sitemaps/nodes-{n}.xml hold the active nodes, SITEMAP_NODES_PER_FILE each (one file could not
// hold them all: a sitemap may list 50,000 URLs at most).
import type { GetServerSideProps } from 'next'
import { listAllNodes } from '@/src/api/generated/nodes/nodes'
import { SITEMAP_CACHE_CONTROL, sitemapFiles, sitemapIndexXml } from '@/src/lib/seo'

export const getServerSideProps: GetServerSideProps = async ({ res }) => {
  // Anonymous lists hold active nodes only; one row is enough to read the total.
  const { total } = await listAllNodes({ page: 1, limit: 1 })
  res.setHeader('Content-Type', 'application/xml; charset=utf-8')
  res.setHeader('Cache-Control', SITEMAP_CACHE_CONTROL)
  res.end(sitemapIndexXml(sitemapFiles(total)))
  return { props: {} }
}

export default function SitemapIndex() {
  return null
}
