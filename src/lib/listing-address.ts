// The node listing's cached addresses. The home page (`/?q=&page=&sort=&tags=&os=&accelerator=`)
// is statically regenerated like a node page, but Next caches pages by path, not by query: the
// website's proxy (proxy.ts) serves `/?q=upscale` from the hidden path `/_listing/q=upscale`,
// named by the search state's canonical query, so equal searches share one cached page. Visitors
// never see that path: the address bar keeps `/?q=upscale`. See docs/ARCHITECTURE.md.
import {
  EMPTY_SEARCH_STATE,
  parseSearchState,
  searchStateHref,
  type SearchState,
  type UrlQuery,
} from './search-state'

/** The first path segment of a cached listing (a path no page or node id can take). */
export const LISTING_SEGMENT = '_listing'

/** The address keys of a listing: an address with any of them is a listing other than `/`. */
export const LISTING_QUERY_KEYS = ['q', 'page', 'sort', 'tags', 'os', 'accelerator'] as const

/** The canonical query text of a state (`q=upscale&tags=video`), empty for the plain listing. */
export function listingKey(state: SearchState): string {
  const href = searchStateHref(state)
  return href === '/' ? '' : href.slice('/?'.length)
}

/** The path a state is cached under: `/` for the plain listing, else `/_listing/<key>`. */
export function listingPath(state: SearchState): string {
  const key = listingKey(state)
  return key ? `/${LISTING_SEGMENT}/${encodeURIComponent(key)}` : '/'
}

/** The query of a canonical key (`q=upscale&tags=a&tags=b`), as Next would parse it. */
export function queryOfKey(key: string): UrlQuery {
  const query: Record<string, string | string[]> = {}
  for (const [name, value] of new URLSearchParams(key)) {
    const seen = query[name]
    query[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value]
  }
  return query
}

/**
 * The state of the catch-all page's path segments: none for `/`, `['_listing', key]` for a cached
 * listing; undefined for any other path (which no listing has: the 404 page).
 */
export function stateOfSegments(segments: string[] | undefined): SearchState | undefined {
  if (!segments || segments.length === 0) return EMPTY_SEARCH_STATE
  if (segments.length !== 2 || segments[0] !== LISTING_SEGMENT) return undefined
  return parseSearchState(queryOfKey(segments[1]))
}

/**
 * The state a page shows, from Next's query: while a cached listing hydrates, the query holds
 * only its path segments (`listing`); once the router is ready, the visitor's own address keys.
 */
export function listingStateOf(query: UrlQuery): SearchState {
  const hasAddressKeys = LISTING_QUERY_KEYS.some((key) => query[key] !== undefined)
  const segments = query.listing
  if (!hasAddressKeys && segments !== undefined) {
    return stateOfSegments(Array.isArray(segments) ? segments : [segments]) ?? EMPTY_SEARCH_STATE
  }
  return parseSearchState(query)
}
