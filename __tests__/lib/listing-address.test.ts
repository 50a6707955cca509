// The cached listing's paths (src/lib/listing-address.ts): one path per search state, read back
// into the same state, and the state a page shows before and after its router is ready.
import {
  LISTING_SEGMENT,
  listingKey,
  listingPath,
  listingStateOf,
  queryOfKey,
  stateOfSegments,
} from '@/src/lib/listing-address'
import { EMPTY_SEARCH_STATE, parseSearchState, type SearchState } from '@/src/lib/search-state'

const segmentsOf = (path: string) =>
  path.split('/').slice(1).filter(Boolean).map(decodeURIComponent)

const states: SearchState[] = [
  EMPTY_SEARCH_STATE,
  { ...EMPTY_SEARCH_STATE, page: 4 },
  { ...EMPTY_SEARCH_STATE, q: 'upscale', sort: 'relevance' },
  { ...EMPTY_SEARCH_STATE, q: 'a&b=c/d%?#', sort: 'downloads', page: 2 },
  { ...EMPTY_SEARCH_STATE, q: '放大 アップスケール', sort: 'relevance' },
  { ...EMPTY_SEARCH_STATE, tags: ['mask', 'video'], os: ['macos', 'linux'], accelerator: ['cuda'] },
]

describe('listing paths', () => {
  it('is `/` for the plain listing and one segment under /_listing otherwise', () => {
    expect(listingPath(EMPTY_SEARCH_STATE)).toBe('/')
    expect(listingKey(EMPTY_SEARCH_STATE)).toBe('')
    const path = listingPath({ ...EMPTY_SEARCH_STATE, q: 'a/b', sort: 'relevance' })
    expect(path).toBe(`/${LISTING_SEGMENT}/q%3Da%252Fb`)
    expect(segmentsOf(path)).toHaveLength(2)
  })

  it.each(states.map((state) => [listingPath(state), state]))(
    'reads %s back into its state',
    (path, state) => {
      expect(stateOfSegments(segmentsOf(path))).toEqual(state)
    },
  )

  it('repeats list keys as the address does', () => {
    expect(queryOfKey('tags=mask&tags=video&q=x')).toEqual({ tags: ['mask', 'video'], q: 'x' })
  })

  it('names no state for paths that are not listings', () => {
    for (const segments of [
      ['nodes'],
      [LISTING_SEGMENT],
      [LISTING_SEGMENT, 'q=a', 'b'],
      ['x', 'q=a'],
    ]) {
      expect(stateOfSegments(segments)).toBeUndefined()
    }
  })
})

describe('the state a page shows', () => {
  const state = { ...EMPTY_SEARCH_STATE, q: 'upscale', sort: 'relevance' as const, tags: ['video'] }
  const listing = segmentsOf(listingPath(state))

  it('is read from the cached path while the page hydrates', () => {
    expect(listingStateOf({ listing })).toEqual(state)
    expect(listingStateOf({})).toEqual(EMPTY_SEARCH_STATE)
  })

  it('follows the address once the router knows it', () => {
    expect(listingStateOf({ listing, q: 'mask' })).toEqual(parseSearchState({ q: 'mask' }))
    expect(listingStateOf({ q: 'mask', page: '2' })).toEqual(
      parseSearchState({ q: 'mask', page: '2' }),
    )
  })
})
