/**
 * @jest-environment node
 */
// The RSS feeds of the site (/feed.xml), of a node (/nodes/{id}/feed.xml) and of a publisher
// (/publishers/{id}/feed.xml) against a fake registry API: well-formed RSS 2.0 in the request's
// language, names and changelogs escaped, only active versions of nodes the public can see, the
// feed's cache header; a node or publisher the public cannot see is the 404 page.
import http from 'node:http'
import { Socket } from 'node:net'
import { JSDOM } from 'jsdom'
import type { GetServerSideProps, GetServerSidePropsContext } from 'next'
import { getServerSideProps as siteFeed } from '@/pages/feed.xml'
import { getServerSideProps as nodeFeed } from '@/pages/nodes/[nodeId]/feed.xml'
import { getServerSideProps as publisherFeed } from '@/pages/publishers/[publisherId]/feed.xml'
import { FEED_CACHE_CONTROL, FEED_SIZE } from '@/src/lib/feed'
import { localizedUrl } from '@/src/lib/seo'
import { fakeRegistryApi } from '../fake-api'
import { loadLocale } from '../test-utils'

const requests: URL[] = []
const ACTIVE = { status: 'NodeStatusActive', publisher: { id: 'acme', name: 'Acme & Co' } }
const NODES: Record<string, object> = {
  demo: { id: 'demo', name: 'Demo <&> Node', ...ACTIVE },
  other: { id: 'other', name: 'Other', ...ACTIVE },
  // What an owner's request would get; the feed serves the public.
  hidden: { id: 'hidden', name: 'Hidden', ...ACTIVE, status: 'NodeStatusBanned' },
}
const PUBLISHERS: Record<string, object> = {
  acme: { id: 'acme', name: 'Acme & Co', status: 'PublisherStatusActive' },
  banned: { id: 'banned', name: 'Banned', status: 'PublisherStatusBanned' },
}
const version = (nodeId: string, number: string, createdAt: string, changelog?: string) => ({
  id: `${nodeId}-${number}`,
  node_id: nodeId,
  version: number,
  createdAt,
  changelog,
  status: 'NodeVersionStatusActive',
})
const DEMO_VERSIONS = [
  version('demo', '1.1.0', '2026-02-01T10:00:00Z', '## 1.1.0\n\n- Handles `<img>` & <b>tags</b>.'),
  version('demo', '1.0.0', '2026-01-01T10:00:00Z'),
]
const ACME_VERSIONS = [
  version('other', '2.0.0', '2026-03-01T10:00:00Z', 'Rewritten.'),
  version('secret', '0.1.0', '2026-02-15T10:00:00Z', 'Not public.'),
  ...DEMO_VERSIONS,
]

fakeRegistryApi((request, response) => {
  const url = new URL(request.url ?? '/', 'http://api')
  requests.push(url)
  const send = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' })
    response.end(JSON.stringify(body))
  }
  const notFound = () => send(404, { error: 'NotFound', message: 'no' })
  const [, first, id] = url.pathname.split('/')
  if (url.pathname === '/versions') {
    // The site feed and acme's see every version; a node's feed asks for its own.
    const versions = url.searchParams.get('nodeId') === 'demo' ? DEMO_VERSIONS : ACME_VERSIONS
    return send(200, { versions, total: versions.length, page: 1, limit: 50, totalPages: 1 })
  }
  if (url.pathname === '/nodes/search') {
    const ids = url.searchParams.getAll('node_id')
    const nodes = ids.flatMap((nodeId) => (nodeId === 'secret' ? [] : (NODES[nodeId] ?? [])))
    return send(200, { nodes, total: nodes.length, page: 1, limit: 50, totalPages: 1 })
  }
  if (first === 'nodes' && NODES[id]) return send(200, NODES[id])
  if (first === 'publishers' && PUBLISHERS[id]) return send(200, PUBLISHERS[id])
  return notFound()
})

beforeEach(() => {
  requests.length = 0
})

interface Served {
  result: Awaited<ReturnType<GetServerSideProps>>
  body: string
  headers: http.OutgoingHttpHeaders
}

async function serve(
  handler: GetServerSideProps,
  params: Record<string, string>,
  locale = 'en',
): Promise<Served> {
  const req = Object.assign(new http.IncomingMessage(new Socket()), { cookies: {} })
  const res = new http.ServerResponse(req)
  let body = ''
  jest.spyOn(res, 'end').mockImplementation((chunk?: unknown) => {
    body = String(chunk ?? '')
    return res
  })
  const context: GetServerSidePropsContext = {
    req,
    res,
    params,
    query: params,
    resolvedUrl: '/',
    locale,
    locales: ['en', 'fr'],
    defaultLocale: 'en',
  }
  const result = await handler(context)
  return { result, body, headers: res.getHeaders() }
}

/** The feed parsed as XML (jsdom's XML parser throws on a document that is not well-formed). */
function parse(xml: string): Document {
  return new JSDOM(xml, { contentType: 'application/xml' }).window.document
}

const text = (parent: Element | Document, tag: string) =>
  parent.getElementsByTagName(tag)[0]?.textContent
const titles = (doc: Document) =>
  Array.from(doc.getElementsByTagName('item')).map((item) => text(item, 'title'))
const seo = (locale: string) => loadLocale(locale).seo as Record<string, string>

describe('a node feed', () => {
  it("is RSS 2.0 of the node's active versions, newest first, escaped, with the cache header", async () => {
    const { result, body, headers } = await serve(nodeFeed, { nodeId: 'demo' })
    expect(result).toEqual({ props: {} })
    expect(headers['content-type']).toBe('application/rss+xml; charset=utf-8')
    expect(headers['cache-control']).toBe(FEED_CACHE_CONTROL)
    // The API is asked for the node's active versions only, at most a feed's worth.
    const asked = requests.find((url) => url.pathname === '/versions')
    expect(asked?.searchParams.get('nodeId')).toBe('demo')
    expect(asked?.searchParams.getAll('statuses')).toEqual(['NodeVersionStatusActive'])
    expect(asked?.searchParams.get('limit')).toBe(String(FEED_SIZE))

    expect(body).not.toContain('<&>')
    expect(body).not.toContain('<img>')
    const doc = parse(body)
    expect(doc.documentElement.getAttribute('version')).toBe('2.0')
    expect(text(doc, 'title')).toBe('Demo <&> Node: versions – Comfy Registry')
    expect(text(doc, 'link')).toBe(localizedUrl('/nodes/demo'))
    const self = doc.getElementsByTagNameNS('http://www.w3.org/2005/Atom', 'link')[0]
    expect(self.getAttribute('href')).toBe(localizedUrl('/nodes/demo/feed.xml'))
    expect(titles(doc)).toEqual(['Demo <&> Node 1.1.0', 'Demo <&> Node 1.0.0'])
    const [newest, oldest] = Array.from(doc.getElementsByTagName('item'))
    expect(text(newest, 'link')).toBe(localizedUrl('/nodes/demo'))
    expect(text(newest, 'guid')).toBe('demo@1.1.0')
    expect(newest.getElementsByTagName('guid')[0].getAttribute('isPermaLink')).toBe('false')
    expect(text(newest, 'pubDate')).toBe('Sun, 01 Feb 2026 10:00:00 GMT')
    expect(text(newest, 'description')).toBe('Handles <img> & <b>tags</b>.')
    expect(text(oldest, 'description')).toBe('')
  })

  it('is titled and linked in the language asked for', async () => {
    const { body } = await serve(nodeFeed, { nodeId: 'demo' }, 'fr')
    const doc = parse(body)
    const fr = seo('fr')
    expect(fr.nodeFeedTitle).not.toBe(seo('en').nodeFeedTitle)
    expect(text(doc, 'title')).toBe(fr.nodeFeedTitle.replace('{{name}}', 'Demo <&> Node'))
    expect(text(doc, 'description')).toBe(
      fr.nodeFeedDescription.replace('{{name}}', 'Demo <&> Node'),
    )
    expect(text(doc, 'language')).toBe('fr')
    const self = doc.getElementsByTagNameNS('http://www.w3.org/2005/Atom', 'link')[0]
    expect(self.getAttribute('href')).toBe(localizedUrl('/nodes/demo/feed.xml', 'fr'))
    expect(text(doc.getElementsByTagName('item')[0], 'link')).toBe(
      localizedUrl('/nodes/demo', 'fr'),
    )
  })

  it('is the 404 page for an unknown or banned node, and for an impossible id unasked', async () => {
    for (const nodeId of ['missing', 'hidden']) {
      const { result, body } = await serve(nodeFeed, { nodeId })
      expect(result).toEqual({ notFound: true })
      expect(body).toBe('')
    }
    requests.length = 0
    const { result } = await serve(nodeFeed, { nodeId: '-bad id' })
    expect(result).toEqual({ notFound: true })
    expect(requests).toEqual([])
  })
})

describe('a publisher feed', () => {
  it("is RSS 2.0 of the active versions of the publisher's public nodes, newest first", async () => {
    const { result, body, headers } = await serve(publisherFeed, { publisherId: 'acme' })
    expect(result).toEqual({ props: {} })
    expect(headers['content-type']).toBe('application/rss+xml; charset=utf-8')
    expect(headers['cache-control']).toBe(FEED_CACHE_CONTROL)
    const asked = requests.find((url) => url.pathname === '/versions')
    expect(asked?.searchParams.get('publisher_id')).toBe('acme')
    expect(asked?.searchParams.getAll('statuses')).toEqual(['NodeVersionStatusActive'])
    expect(asked?.searchParams.get('limit')).toBe(String(FEED_SIZE))

    expect(body).not.toContain('Acme & Co')
    const doc = parse(body)
    expect(text(doc, 'title')).toBe('Acme & Co: new versions – Comfy Registry')
    expect(text(doc, 'link')).toBe(localizedUrl('/publishers/acme'))
    const self = doc.getElementsByTagNameNS('http://www.w3.org/2005/Atom', 'link')[0]
    expect(self.getAttribute('href')).toBe(localizedUrl('/publishers/acme/feed.xml'))
    // The version of a node the public cannot see ('secret') is left out.
    expect(titles(doc)).toEqual(['Other 2.0.0', 'Demo <&> Node 1.1.0', 'Demo <&> Node 1.0.0'])
    const first = doc.getElementsByTagName('item')[0]
    expect(text(first, 'link')).toBe(localizedUrl('/nodes/other'))
    expect(text(first, 'guid')).toBe('other@2.0.0')
    expect(text(first, 'description')).toBe('Rewritten.')
  })

  it('is titled in the language asked for', async () => {
    const { body } = await serve(publisherFeed, { publisherId: 'acme' }, 'ja')
    const doc = parse(body)
    expect(text(doc, 'title')).toBe(seo('ja').publisherFeedTitle.replace('{{name}}', 'Acme & Co'))
    expect(text(doc, 'title')).not.toBe('Acme & Co: new versions – Comfy Registry')
    expect(text(doc, 'language')).toBe('ja')
  })

  it('is the 404 page for an unknown or banned publisher, and for an impossible id unasked', async () => {
    for (const publisherId of ['missing', 'banned']) {
      const { result, body } = await serve(publisherFeed, { publisherId })
      expect(result).toEqual({ notFound: true })
      expect(body).toBe('')
    }
    requests.length = 0
    const { result } = await serve(publisherFeed, { publisherId: 'Not Valid' })
    expect(result).toEqual({ notFound: true })
    expect(requests).toEqual([])
  })
})

describe('the site feed', () => {
  it('is RSS 2.0 of the newest active versions of public nodes, in the language asked for', async () => {
    const { result, body, headers } = await serve(siteFeed, {}, 'es')
    expect(result).toEqual({ props: {} })
    expect(headers['cache-control']).toBe(FEED_CACHE_CONTROL)
    const asked = requests.find((url) => url.pathname === '/versions')
    expect(asked?.searchParams.get('nodeId')).toBeNull()
    expect(asked?.searchParams.get('publisher_id')).toBeNull()
    const doc = parse(body)
    expect(text(doc, 'title')).toBe(seo('es').feedTitle)
    const self = doc.getElementsByTagNameNS('http://www.w3.org/2005/Atom', 'link')[0]
    expect(self.getAttribute('href')).toBe(localizedUrl('/feed.xml', 'es'))
    expect(titles(doc)).toEqual(['Other 2.0.0', 'Demo <&> Node 1.1.0', 'Demo <&> Node 1.0.0'])
  })
})
