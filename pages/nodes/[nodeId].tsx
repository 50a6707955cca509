// A node's public page, server-rendered: the node, its newest versions, the first comfy nodes
// of its latest version and its downloads per day (90 days, for the chart's 30/90-day switch)
// are prefetched and hydrated; the rest of both lists is loaded when the
// visitor opens them (components/node/node-lists.ts). Unknown (or hidden) nodes are the 404 page.
import type { GetStaticPaths, GetStaticProps } from 'next'
import dynamic from 'next/dynamic'
import { useRouter } from 'next/router'
import { useCallback, useState } from 'react'
import { useTranslation } from 'next-i18next/pages'
import { Seo } from '@/components/common/Seo'
import { deferredChunksReady } from '@/components/common/deferred'
import { markdownHtml } from '@/components/common/markdown-html'
import type { NodeOwnerView } from '@/components/manage/NodeOwnerState'
import { NodeView, type NodeMarkdown } from '@/components/node/NodeView'
import {
  DOWNLOAD_HISTORY_DAYS,
  firstComfyNodesQuery,
  firstVersionsQuery,
  useComfyNodeList,
  useVersionList,
  VERSIONS_SHOWN,
} from '@/components/node/node-lists'
import {
  getGetNodeDailyDownloadsQueryOptions,
  getGetNodeQueryOptions,
  useGetNode,
  useGetNodeDailyDownloads,
} from '@/src/api/generated/nodes/nodes'
import { getNodeVersionReadme } from '@/src/api/generated/versions/versions'
import type { NodeVersionReadme } from '@/src/api/generated/model'
import type { ReadmeFirstPart } from '@/components/node/Readme'
import { README_FIRST_PART_CHARS, README_FIRST_PART_HTML_CHARS } from '@/src/lib/constants'
import { linkedDataLicense } from '@/src/lib/licenses'
import { publicEnv } from '@/src/lib/public-env'
import { firstPart, readmeLinks } from '@/src/lib/readme'
import { summary } from '@/src/lib/markdown'
import { localizedUrl, nodeJsonLd, SITE_NAME } from '@/src/lib/seo'
import { nodePath, publisherPath } from '@/src/lib/paths'
import { useAuth } from '@/src/lib/auth'
import { isNodeId } from '@/src/lib/contract-ids'
import { isNotFound, STATIC_NOT_FOUND, staticPropsOrNotFound } from '@/src/lib/public-page'
import { paramOf } from '@/src/lib/route-params'
import { claimedPublisher } from '@/src/lib/unclaimed'
import { CONTAINER_CLASS } from '@/components/common/Container'

// Signed-in visitors' part of the page (owners' and claim controls, owners' versions) is a chunk
// of its own, loaded once someone is signed in: out of the public page's first-load JavaScript.
const NodeOwnerState = dynamic(() => import('@/components/manage/NodeOwnerState'), { ssr: false })

const HISTORY_PARAMS = { days: DOWNLOAD_HISTORY_DAYS }

export default function NodePage({ markdown }: { markdown?: NodeMarkdown }) {
  const { t } = useTranslation('common')
  const router = useRouter()
  const nodeId = paramOf(router.query.nodeId)
  const { data: node } = useGetNode(nodeId)
  const versions = useVersionList(nodeId)
  const comfyNodes = useComfyNodeList(nodeId, Boolean(node?.latest_version))
  const { data: downloadHistory } = useGetNodeDailyDownloads(nodeId, HISTORY_PARAMS)
  // Owners' controls are decided in the browser, so the server-rendered page is the same for all.
  const { user } = useAuth()
  const [ownerState, setOwnerState] = useState<{ nodeId: string; view?: NodeOwnerView }>()
  const onOwnerView = useCallback(
    (view: NodeOwnerView | undefined) => setOwnerState({ nodeId, view }),
    [nodeId],
  )
  if (!node) return null
  const owner = ownerState?.nodeId === nodeId ? ownerState.view : undefined
  const publisher = claimedPublisher(node)

  const path = nodePath(node.id)
  const description = summary(node.description) || t('node.seoDescription', { name: node.name })
  const publisherPage = publisher && publisherPath(publisher.id)
  const jsonLd = nodeJsonLd({
    id: node.id,
    name: node.name,
    description,
    url: localizedUrl(path),
    repository: node.repository,
    license: linkedDataLicense(node.license, node.license_spdx),
    version: node.latest_version?.version,
    dateModified: node.latest_version?.createdAt,
    author: node.author,
    image: node.icon,
    publisher:
      publisher && publisherPage
        ? { id: publisher.id, name: publisher.name, url: localizedUrl(publisherPage) }
        : undefined,
  })

  return (
    <>
      <Seo
        title={`${node.name} – ${SITE_NAME}`}
        description={description}
        path={path}
        type="article"
        image={node.icon}
        jsonLd={jsonLd}
        noindex={node.status !== 'NodeStatusActive'}
      />
      {user && <NodeOwnerState key={nodeId} nodeId={nodeId} node={node} onChange={onOwnerView} />}
      <main id="main-content" className={`${CONTAINER_CLASS} py-8`}>
        <NodeView
          node={node}
          versions={owner?.versions ?? versions.items}
          moreVersions={!owner?.versions && versions.more}
          versionsRest={versions.rest}
          comfyNodes={
            comfyNodes.items && { comfy_nodes: comfyNodes.items, total: comfyNodes.total }
          }
          comfyNodesRest={comfyNodes.rest}
          markdown={markdown}
          downloadHistory={downloadHistory}
          // `?version=` asks for one version: the install box offers it even when deprecated.
          requestedVersion={paramOf(router.query.version) || undefined}
          management={owner?.management}
          versionActions={owner?.versionActions}
          versionStatus={owner?.versionStatus}
          versionDetails={owner?.versionDetails}
        />
      </main>
    </>
  )
}

// Node pages are generated on their first request and then served from the page cache
// (see staticPropsOrNotFound): none are built ahead, there are too many.
export const getStaticPaths: GetStaticPaths = () => ({ paths: [], fallback: 'blocking' })

/**
 * The README's first part, rendered here. Only that part is in the page (HTML and props), not in
 * the dehydrated cache: the whole README is asked for when the visitor opens it.
 */
async function readmeFirstPart(nodeId: string, version: string): Promise<ReadmeFirstPart | null> {
  let readme: NodeVersionReadme
  try {
    readme = await getNodeVersionReadme(nodeId, version)
  } catch (error) {
    if (isNotFound(error)) return null // no README: the page shows none
    throw error
  }
  const { format, truncated } = readme
  let first = firstPart(readme.text, README_FIRST_PART_CHARS)
  if (format === 'text') return { format, text: first.text, more: first.more, truncated }
  const links = readmeLinks(publicEnv().apiUrl, nodeId, version, readme.images)
  let html = markdownHtml(first.text, 3, links)
  // Markup-heavy markdown (tables, badges, links) is cut shorter, so the page keeps its weight.
  for (let chars = README_FIRST_PART_CHARS; html.length > README_FIRST_PART_HTML_CHARS;) {
    chars = Math.floor(chars / 2)
    first = firstPart(readme.text, chars)
    html = markdownHtml(first.text, 3, links)
    if (chars < 500) break
  }
  return { format, html, more: first.more, truncated }
}

export const getStaticProps: GetStaticProps = async (context) => {
  const nodeId = paramOf(context.params?.nodeId)
  // An id the contract refuses names no node: the 404 page without asking the API.
  if (!isNodeId(nodeId)) return STATIC_NOT_FOUND
  // The page's below-the-fold parts render in full only once their chunks are loaded here.
  await deferredChunksReady()
  const markdown: NodeMarkdown = { description: null, changelogs: {} }
  const result = await staticPropsOrNotFound(context, async (queryClient) => {
    const [node, versions] = await Promise.all([
      // fetchQuery throws, so a 404 becomes the 404 page and a 5xx the error page.
      queryClient.fetchQuery(getGetNodeQueryOptions(nodeId)),
      queryClient.fetchQuery(firstVersionsQuery(nodeId)),
      // A node without a version has no comfy nodes: its 404 here is expected and not cached.
      queryClient.prefetchQuery(firstComfyNodesQuery(nodeId)),
      // The chart is not worth failing the page for: without it the page shows no chart.
      queryClient.prefetchQuery(getGetNodeDailyDownloadsQueryOptions(nodeId, HISTORY_PARAMS)),
    ])
    // Markdown is rendered (and sanitised) here, so its toolchain stays off the browser.
    if (node.description?.trim()) markdown.description = markdownHtml(node.description, 3)
    if (node.latest_version) {
      markdown.readme = await readmeFirstPart(node.id, node.latest_version.version)
    }
    for (const version of versions.slice(0, VERSIONS_SHOWN)) {
      if (version.changelog?.trim()) {
        markdown.changelogs[version.id] = markdownHtml(version.changelog, 4)
      }
    }
  })
  return 'props' in result ? { ...result, props: { ...result.props, markdown } } : result
}
