// The website's proxy, before any page:
// - Stored language preference: an address without a language prefix is sent to the language the
//   visitor chose before (the picker stores it in the NEXT_LOCALE cookie). Only the cookie counts:
//   no Accept-Language guessing (the language comes from the page's tag).
// - Cached listings: a home page address with a search, filter, sort or page (`/?q=upscale`) is
//   served from the statically regenerated path of its canonical query (src/lib/listing-address.ts),
//   so 200 visitors of one search cost one rendering, like a node page. A malformed `page` is
//   sent to the address of the page shown.
import { NextResponse, type NextRequest } from 'next/server'
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE, LANGUAGES } from '@/src/lib/constants'
import { LISTING_QUERY_KEYS, listingPath } from '@/src/lib/listing-address'
import { pageFromQuery, pageNeedsNewAddress } from '@/src/lib/page-number'
import { parseSearchState, type UrlQuery } from '@/src/lib/search-state'

const SUPPORTED = new Set<string>(LANGUAGES.map((language) => language.code))

function preferredLanguageRedirect(request: NextRequest): NextResponse | undefined {
  const preferred = request.cookies.get(LANGUAGE_COOKIE)?.value
  const { nextUrl } = request
  if (!preferred || !SUPPORTED.has(preferred) || preferred === DEFAULT_LANGUAGE) return undefined
  // Addresses in another language are left alone; the picker updates the cookie when used.
  if (nextUrl.locale !== DEFAULT_LANGUAGE) return undefined
  const url = nextUrl.clone()
  url.locale = preferred
  return NextResponse.redirect(url)
}

function queryOf(params: URLSearchParams): UrlQuery {
  const query: Record<string, string[]> = {}
  for (const [name, value] of params) (query[name] ??= []).push(value)
  return query
}

function cachedListing(request: NextRequest): NextResponse | undefined {
  const { nextUrl } = request
  if (nextUrl.pathname !== '/') return undefined
  // Moving within the site, the router asks for the page's data (`x-nextjs-data`): it gets the
  // plain listing's, and the page asks the API for the listing of its address (as it refreshes
  // any page after load). Not rewritten, because Next answers a rewritten data request of a
  // translated site with the page's HTML (vercel/next.js#59619), which the router cannot read.
  if (request.headers.has('x-nextjs-data')) return undefined
  const query = queryOf(nextUrl.searchParams)
  if (!LISTING_QUERY_KEYS.some((key) => query[key] !== undefined)) return undefined
  const state = parseSearchState(query)
  if (pageNeedsNewAddress(query.page, pageFromQuery(query.page))) {
    const url = nextUrl.clone()
    if (state.page > 1) url.searchParams.set('page', String(state.page))
    else url.searchParams.delete('page')
    return NextResponse.redirect(url)
  }
  const path = listingPath(state)
  if (path === '/' && nextUrl.search === '') return undefined
  const url = nextUrl.clone()
  url.pathname = path
  url.search = ''
  return NextResponse.rewrite(url)
}

export function proxy(request: NextRequest) {
  return preferredLanguageRedirect(request) ?? cachedListing(request)
}

export const config = {
  // Pages only (not the API routes, Next's assets or files such as /robots.txt and /icons/x.svg):
  // the home page with a listing key, and any page for visitors who chose a language. Everyone
  // else skips the proxy, so cached pages are served without running it. Next reads this config
  // without running the module, so the keys are literals: LISTING_QUERY_KEYS and LANGUAGE_COOKIE
  // (proxy.test.ts checks they agree).
  matcher: [
    { source: '/', has: [{ type: 'query', key: 'q' }] },
    { source: '/', has: [{ type: 'query', key: 'page' }] },
    { source: '/', has: [{ type: 'query', key: 'sort' }] },
    { source: '/', has: [{ type: 'query', key: 'tags' }] },
    { source: '/', has: [{ type: 'query', key: 'os' }] },
    { source: '/', has: [{ type: 'query', key: 'accelerator' }] },
    { source: '/', has: [{ type: 'cookie', key: 'NEXT_LOCALE' }] },
    {
      source: '/((?!api/|_next/|.*\\.[a-z0-9]+$).+)',
      has: [{ type: 'cookie', key: 'NEXT_LOCALE' }],
    },
  ],
}
