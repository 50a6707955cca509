import { NODES_PAGE_SIZE, SEARCH_MAX_LENGTH } from '@/src/lib/constants'
import {
  EMPTY_SEARCH_STATE,
  MAX_PAGE,
  defaultSort,
  isDefaultState,
  nodeQueryFor,
  parseSearchState,
  searchStateHref,
  serializeSearchState,
  type SearchState,
} from '@/src/lib/search-state'

describe('parseSearchState', () => {
  it('defaults to the first page of the listing by downloads', () => {
    expect(parseSearchState({})).toEqual({
      q: '',
      page: 1,
      sort: 'downloads',
      tags: [],
      os: [],
      accelerator: [],
    })
    expect(parseSearchState({})).toEqual(EMPTY_SEARCH_STATE)
  })

  it('defaults to relevance when there is a search text', () => {
    expect(parseSearchState({ q: 'upscale' }).sort).toBe('relevance')
    expect(defaultSort('upscale')).toBe('relevance')
    expect(defaultSort('')).toBe('downloads')
  })

  it('reads every field, repeated keys as lists', () => {
    expect(
      parseSearchState({
        q: '  face   restore ',
        page: '3',
        sort: 'stars',
        tags: ['video', 'mask'],
        os: ['linux', 'windows'],
        accelerator: ['cuda', 'mps'],
      }),
    ).toEqual({
      q: 'face restore',
      page: 3,
      sort: 'stars',
      tags: ['mask', 'video'],
      os: ['windows', 'linux'],
      accelerator: ['cuda', 'mps'],
    })
  })

  it('accepts a single value where a list is expected, and takes the first of repeated scalars', () => {
    expect(parseSearchState({ tags: 'video', os: 'macos', accelerator: 'cpu' })).toMatchObject({
      tags: ['video'],
      os: ['macos'],
      accelerator: ['cpu'],
    })
    expect(parseSearchState({ q: ['one', 'two'], page: ['2', '5'] })).toMatchObject({
      q: 'one',
      page: 2,
    })
  })

  it('drops invalid values', () => {
    const state = parseSearchState({
      page: '-2',
      sort: 'popularity',
      tags: ['Video', 'no spaces', '<script>', ''],
      os: ['windows', 'beos', 'WINDOWS'],
      accelerator: ['tpu', 'xpu'],
    })
    expect(state).toEqual({
      q: '',
      page: 1,
      sort: 'downloads',
      tags: ['video'],
      os: ['windows'],
      accelerator: ['xpu'],
    })
    expect(parseSearchState({ page: '0' }).page).toBe(1)
    expect(parseSearchState({ page: '2.5' }).page).toBe(1)
    expect(parseSearchState({ page: 'abc' }).page).toBe(1)
    expect(parseSearchState({ page: String(MAX_PAGE + 1) }).page).toBe(MAX_PAGE)
    expect(parseSearchState({ page: String(MAX_PAGE) }).page).toBe(MAX_PAGE)
    // Relevance needs a search text.
    expect(parseSearchState({ sort: 'relevance' }).sort).toBe('downloads')
  })

  it('limits the search text to SEARCH_MAX_LENGTH characters', () => {
    expect(parseSearchState({ q: 'x'.repeat(500) }).q).toHaveLength(SEARCH_MAX_LENGTH)
    expect(SEARCH_MAX_LENGTH).toBe(200)
  })

  it('keeps each list value once', () => {
    expect(parseSearchState({ tags: ['lora', 'lora'], os: ['linux', 'linux'] })).toMatchObject({
      tags: ['lora'],
      os: ['linux'],
    })
  })
})

describe('serializeSearchState', () => {
  it('leaves defaults out', () => {
    expect(serializeSearchState(EMPTY_SEARCH_STATE)).toEqual({})
    expect(serializeSearchState({ ...EMPTY_SEARCH_STATE, q: 'lora', sort: 'relevance' })).toEqual({
      q: 'lora',
    })
    expect(searchStateHref(EMPTY_SEARCH_STATE)).toBe('/')
    expect(isDefaultState(EMPTY_SEARCH_STATE)).toBe(true)
  })

  it('writes lists as repeated keys', () => {
    const state: SearchState = {
      q: 'upscale',
      page: 2,
      sort: 'newest',
      tags: ['mask', 'video'],
      os: ['windows', 'linux'],
      accelerator: ['cuda'],
    }
    expect(searchStateHref(state)).toBe(
      '/?q=upscale&sort=newest&tags=mask&tags=video&os=windows&os=linux&accelerator=cuda&page=2',
    )
    expect(isDefaultState(state)).toBe(false)
  })

  it('round-trips through the address', () => {
    const states: SearchState[] = [
      EMPTY_SEARCH_STATE,
      { ...EMPTY_SEARCH_STATE, q: 'face restore', page: 4 },
      { ...EMPTY_SEARCH_STATE, sort: 'name', tags: ['3d', 'lora'] },
      {
        q: 'ünïcödé & more',
        page: 7,
        sort: 'stars',
        tags: ['style-transfer'],
        os: ['macos'],
        accelerator: ['rocm', 'cpu'],
      },
    ]
    for (const state of states) {
      const href = searchStateHref(state)
      const params = new URL(href, 'http://x').searchParams
      const query: Record<string, string[]> = {}
      for (const key of new Set(params.keys())) query[key] = params.getAll(key)
      expect(parseSearchState(query)).toEqual(state)
      expect(parseSearchState(serializeSearchState(state))).toEqual(state)
    }
  })

  it('drops relevance once the text is gone', () => {
    expect(serializeSearchState({ ...EMPTY_SEARCH_STATE, sort: 'relevance' })).toEqual({})
    expect(serializeSearchState({ ...EMPTY_SEARCH_STATE, q: 'x', sort: 'downloads' })).toEqual({
      q: 'x',
      sort: 'downloads',
    })
  })
})

describe('nodeQueryFor', () => {
  it('lists all nodes when there is no text and no filter', () => {
    expect(nodeQueryFor({ ...EMPTY_SEARCH_STATE, page: 2, sort: 'stars' })).toEqual({
      kind: 'list',
      params: { page: 2, limit: NODES_PAGE_SIZE, sort: 'stars' },
    })
  })

  it('searches with a text or a filter, mapping filters to the API names', () => {
    expect(nodeQueryFor(parseSearchState({ q: 'upscalr' }))).toEqual({
      kind: 'search',
      params: { page: 1, limit: NODES_PAGE_SIZE, sort: 'relevance', search: 'upscalr' },
    })
    expect(
      nodeQueryFor(parseSearchState({ tags: 'video', os: 'linux', accelerator: ['cuda', 'cpu'] })),
    ).toEqual({
      kind: 'search',
      params: {
        page: 1,
        limit: NODES_PAGE_SIZE,
        sort: 'downloads',
        tags: ['video'],
        supported_os: ['linux'],
        supported_accelerators: ['cuda', 'cpu'],
      },
    })
  })

  it('gives the same query for the same address however the keys are ordered', () => {
    const a = nodeQueryFor(parseSearchState({ tags: ['video', 'mask'], os: ['linux', 'macos'] }))
    const b = nodeQueryFor(parseSearchState({ os: ['macos', 'linux'], tags: ['mask', 'video'] }))
    expect(a).toEqual(b)
  })
})
