/**
 * @jest-environment node
 */
// Server rendering of the public pages against a fake registry API on loopback that counts the
// requests it gets: an impossible id is the 404 page without asking the API; the API's 400 and
// 404 are the 404 page after one request, its 500 the error page after one request (server
// rendering never retries, so no visitor waits out a back-off); a `page` beyond the last, or a
// malformed one, is redirected to the page shown. The home page is statically regenerated under
// the path the proxy serves each listing address from (src/lib/listing-address.ts).
import http from 'node:http'
import { Socket } from 'node:net'
import type {
  GetServerSidePropsContext,
  GetServerSidePropsResult,
  GetStaticPropsResult,
} from 'next'
import { getStaticProps as homeProps } from '@/pages/[[...listing]]'
import { getStaticProps as nodeProps } from '@/pages/nodes/[nodeId]'
import { getServerSideProps as publisherProps } from '@/pages/publishers/[publisherId]'
import { PUBLIC_PAGE_MAX_AGE_S } from '@/public-cache.config'
import { listingPath } from '@/src/lib/listing-address'
import { parseSearchState } from '@/src/lib/search-state'
import { fakeRegistryApi } from '../fake-api'

/** What the fake API answers: data, or this status for every request. */
let answer: 'data' | 400 | 404 | 429 | 500 = 'data'
/** Pages the fake lists have (each list answers any page, with no items beyond the last). */
let totalPages = 3
const requests: string[] = []

const api = fakeRegistryApi((request, response) => {
  const url = new URL(request.url ?? '/', 'http://api')
  requests.push(url.pathname)
  const send = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' })
    response.end(JSON.stringify(body))
  }
  if (answer !== 'data') return send(answer, { error: 'Refused', message: String(answer) })
  const page = Number(url.searchParams.get('page') ?? 1)
  const list = { total: totalPages * 10, page, limit: 10, totalPages, nodes: [] }
  if (url.pathname === '/nodes' || url.pathname === '/nodes/search') return send(200, list)
  if (url.pathname === '/publishers/acme/nodes/v2') return send(200, list)
  if (url.pathname === '/publishers/acme') return send(200, { id: 'acme', name: 'Acme' })
  if (url.pathname === '/nodes/demo') {
    return send(200, { id: 'demo', name: 'Demo', publisher: { id: 'acme', name: 'Acme' } })
  }
  if (url.pathname === '/nodes/demo/versions') return send(200, [])
  return send(404, { error: 'NotFound', message: 'no' })
})

/** Waits until the fake API has received `count` requests (some may still be in flight). */
async function received(count: number): Promise<void> {
  while (requests.length < count) await new Promise((resolve) => setTimeout(resolve, 5))
}

beforeEach(() => {
  answer = 'data'
  totalPages = 3
  requests.length = 0
})

function context(
  params: Record<string, string>,
  query: Record<string, string | string[]> = {},
  locale = 'en',
): GetServerSidePropsContext {
  const req = Object.assign(new http.IncomingMessage(new Socket()), { cookies: {} })
  return {
    req,
    res: new http.ServerResponse(req),
    params,
    query: { ...params, ...query },
    resolvedUrl: '/',
    locale,
    locales: ['en', 'fr'],
    defaultLocale: 'en',
  }
}

const publisher = (id: string, query?: Record<string, string>, locale?: string) =>
  publisherProps(context({ publisherId: id }, query, locale))
/** The home page at the cached path the proxy serves this address from. */
function home(query: Record<string, string | string[]>, locale = 'en') {
  const segments = listingPath(parseSearchState(query)).split('/').slice(1).filter(Boolean)
  const params = segments.length ? { listing: segments.map(decodeURIComponent) } : {}
  return homeProps({ params, locale, locales: ['en', 'fr'], defaultLocale: 'en' })
}
const node = (id: string) => nodeProps({ params: { nodeId: id }, locale: 'en' })

function redirectOf(
  result: GetServerSidePropsResult<unknown> | GetStaticPropsResult<unknown>,
): string | undefined {
  return 'redirect' in result ? result.redirect.destination : undefined
}

describe('impossible ids: the 404 page without asking the API', () => {
  it.each(['UPPER', 'Felix-Tanaka', '-acme', 'a b', '\u0000', 'x'.repeat(101)])(
    'publisher %j',
    async (id) => {
      await expect(publisher(id)).resolves.toEqual({ notFound: true })
      expect(requests).toEqual([])
    },
  )

  it.each(['\u0000', '-demo', 'demo-', 'a/b', 'x'.repeat(101)])('node %j', async (id) => {
    await expect(node(id)).resolves.toMatchObject({ notFound: true })
    expect(requests).toEqual([])
  })
})

describe('API refusals and failures: one request each, never retried', () => {
  it.each([400, 404] as const)('a %i from the API is the 404 page', async (status) => {
    answer = status
    await expect(publisher('acme')).resolves.toEqual({ notFound: true })
    await received(2)
    expect(requests.sort()).toEqual(['/publishers/acme', '/publishers/acme/nodes/v2'])
    requests.length = 0
    await expect(node('demo')).resolves.toMatchObject({ notFound: true })
    await received(4)
    expect(requests.sort()).toEqual([
      '/nodes/demo',
      '/nodes/demo/downloads/daily',
      '/nodes/demo/versions',
      '/nodes/demo/versions/latest/comfy-nodes',
    ])
  })

  it('a 500 from the API is thrown (the 500 page) after a single request', async () => {
    answer = 500
    await expect(publisher('acme')).rejects.toMatchObject({ response: { status: 500 } })
    await received(2)
    expect(requests.sort()).toEqual(['/publishers/acme', '/publishers/acme/nodes/v2'])
    requests.length = 0
    await expect(node('demo')).rejects.toMatchObject({ response: { status: 500 } })
    await received(4)
    expect(requests.sort()).toEqual([
      '/nodes/demo',
      '/nodes/demo/downloads/daily',
      '/nodes/demo/versions',
      '/nodes/demo/versions/latest/comfy-nodes',
    ])
    requests.length = 0
    await expect(home({})).rejects.toMatchObject({ response: { status: 500 } })
    expect(requests).toEqual(['/nodes'])
  })

  it('a known publisher and node render with their data', async () => {
    await expect(publisher('acme')).resolves.toHaveProperty('props.dehydratedState')
    await expect(node('demo')).resolves.toHaveProperty('props.dehydratedState')
  })
})

describe('page numbers in the address', () => {
  it('shows a page within the list as asked', async () => {
    await expect(home({ page: '2' })).resolves.toHaveProperty('props')
    await expect(publisher('acme', { page: '3' })).resolves.toHaveProperty('props')
  })

  it('sends a page beyond the last to the last page, keeping the rest of the address', async () => {
    expect(redirectOf(await home({ page: '99999' }))).toBe('/?page=3')
    expect(redirectOf(await home({ page: '4', q: 'upscale', tags: 'video' }))).toBe(
      '/?q=upscale&tags=video&page=3',
    )
    expect(redirectOf(await publisher('acme', { page: '99999' }))).toBe('/publishers/acme?page=3')
    // Far beyond the API's own maximum: still one redirect, to the last page.
    expect(redirectOf(await home({ page: '123456789012' }))).toBe('/?page=3')
  })

  it('keeps the visitor’s language in the redirect', async () => {
    expect(redirectOf(await home({ page: '9' }, 'fr'))).toBe('/fr?page=3')
    expect(redirectOf(await publisher('acme', { page: '9' }, 'fr'))).toBe(
      '/fr/publishers/acme?page=3',
    )
  })

  it('sends an empty list’s later pages to the first page', async () => {
    totalPages = 0
    expect(redirectOf(await home({ page: '2', q: 'nothing' }))).toBe('/?q=nothing')
    expect(redirectOf(await publisher('acme', { page: '2' }))).toBe('/publishers/acme')
  })

  it.each(['-1', 'abc', '1.5', '0', ''])('treats page=%j as page 1', async (page) => {
    // The home page's address is corrected by the website's proxy (proxy.test.ts) before the
    // page is rendered: page 1 of the cached listing.
    await expect(home({ page })).resolves.toHaveProperty('props')
    expect(requests).toEqual(['/nodes'])
    expect(redirectOf(await publisher('acme', { page }))).toBe('/publishers/acme')
  })

  it('asks the API for page 1 when the page is malformed', async () => {
    const pages: (string | null)[] = []
    const listen = (request: http.IncomingMessage) =>
      pages.push(new URL(request.url ?? '/', 'http://api').searchParams.get('page'))
    api.on('request', listen)
    try {
      await home({ page: 'abc' })
    } finally {
      api.off('request', listen)
    }
    expect(pages).toEqual(['1'])
  })
})

describe('the cached home page', () => {
  it('answers only its own paths: any other path it catches is the 404 page', async () => {
    for (const listing of [
      ['nodes', 'a', 'b'],
      ['unknown'],
      ['_listing'],
      ['_listing', 'q=a', 'x'],
    ]) {
      await expect(homeProps({ params: { listing }, locale: 'en' })).resolves.toMatchObject({
        notFound: true,
      })
    }
    expect(requests).toEqual([])
  })

  it('is regenerated like a node page', async () => {
    const result = await home({ q: 'upscale' })
    expect(result).toMatchObject({ revalidate: PUBLIC_PAGE_MAX_AGE_S })
    expect(requests).toEqual(['/nodes/search'])
  })

  it('over the search limit, is sent without results for the browser to ask, and soon redone', async () => {
    answer = 429
    const result = await home({ q: 'upscale' })
    expect(result).toMatchObject({ revalidate: 1, props: { dehydratedState: { queries: [] } } })
  })
})
