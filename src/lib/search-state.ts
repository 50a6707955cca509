// The home page's search state and its address: `?q=&page=&sort=&tags=&os=&accelerator=` with
// repeated keys for lists. Pure functions, shared by server rendering and the browser so both ask
// the API exactly the same query (the server's prefetched data then hydrates without a spinner).
import type { ListAllNodesParams, SearchNodesParams } from '@/src/api/generated/model'
import {
  NODE_FILTER_ACCELERATORS,
  NODE_FILTER_OS,
  NODE_SORTS,
  NODES_PAGE_SIZE,
  SEARCH_MAX_LENGTH,
} from './constants'
import { pageFromQuery } from './page-number'

export type NodeSort = (typeof NODE_SORTS)[number]
export type NodeOs = (typeof NODE_FILTER_OS)[number]
export type NodeAccelerator = (typeof NODE_FILTER_ACCELERATORS)[number]

export interface SearchState {
  /** The search text as typed (trimmed, at most SEARCH_MAX_LENGTH characters). */
  q: string
  /** 1-based page number. */
  page: number
  sort: NodeSort
  tags: string[]
  os: NodeOs[]
  accelerator: NodeAccelerator[]
}

/** What a URL query looks like to Next (`router.query`, `context.query`). */
export type UrlQuery = Record<string, string | string[] | undefined>

export { MAX_PAGE } from './page-number'
/** Tags in an address: lower-case words with dashes (e.g. `style-transfer`), at most 10. */
const TAG_PATTERN = /^[a-z0-9][a-z0-9-]{0,49}$/
const MAX_TAGS = 10

export const EMPTY_SEARCH_STATE: SearchState = {
  q: '',
  page: 1,
  sort: 'downloads',
  tags: [],
  os: [],
  accelerator: [],
}

/** Sort order used when the address names none: best match for a search text, else downloads. */
export function defaultSort(q: string): NodeSort {
  return q ? 'relevance' : 'downloads'
}

const values = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value]

const first = (value: string | string[] | undefined): string | undefined => values(value)[0]

function oneOf<T extends string>(allowed: readonly T[], value: string): value is T {
  return (allowed as readonly string[]).includes(value)
}

/** Each valid value once, in the order of `allowed` when given (so equal states serialise alike). */
function uniqueValid<T extends string>(
  raw: string[],
  valid: (value: string) => value is T,
  order?: readonly T[],
): T[] {
  const seen = new Set<T>()
  for (const value of raw) {
    const normal = value.trim().toLowerCase()
    if (valid(normal)) seen.add(normal)
  }
  const list = [...seen]
  return order ? order.filter((value) => seen.has(value)) : list
}

export function normalizeQuery(q: string): string {
  return q.trim().replace(/\s+/g, ' ').slice(0, SEARCH_MAX_LENGTH).trim()
}

/** Reads the state from an address query; invalid values are dropped, missing ones defaulted. */
export function parseSearchState(query: UrlQuery): SearchState {
  const q = normalizeQuery(first(query.q) ?? '')
  const page = pageFromQuery(query.page)
  const sortText = (first(query.sort) ?? '').toLowerCase()
  const sort =
    oneOf(NODE_SORTS, sortText) && (sortText !== 'relevance' || q) ? sortText : defaultSort(q)
  const tags = uniqueValid(values(query.tags), (tag): tag is string => TAG_PATTERN.test(tag))
    .slice(0, MAX_TAGS)
    .sort()
  const os = uniqueValid(
    values(query.os),
    (value): value is NodeOs => oneOf(NODE_FILTER_OS, value),
    NODE_FILTER_OS,
  )
  const accelerator = uniqueValid(
    values(query.accelerator),
    (value): value is NodeAccelerator => oneOf(NODE_FILTER_ACCELERATORS, value),
    NODE_FILTER_ACCELERATORS,
  )
  return { q, page, sort, tags, os, accelerator }
}

/** The address query of a state: defaults are left out, lists become repeated keys. */
export function serializeSearchState(state: SearchState): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {}
  const q = normalizeQuery(state.q)
  if (q) query.q = q
  if (state.sort !== defaultSort(q) && (state.sort !== 'relevance' || q)) query.sort = state.sort
  if (state.tags.length > 0) query.tags = [...state.tags]
  if (state.os.length > 0) query.os = [...state.os]
  if (state.accelerator.length > 0) query.accelerator = [...state.accelerator]
  if (state.page > 1) query.page = String(state.page)
  return query
}

/** The address of a state as a string (`/?q=upscale&tags=video&tags=mask`). */
export function searchStateHref(state: SearchState, pathname = '/'): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(serializeSearchState(state))) {
    for (const item of values(value)) params.append(key, item)
  }
  const text = params.toString()
  return text ? `${pathname}?${text}` : pathname
}

export function hasFilters(state: SearchState): boolean {
  return state.tags.length + state.os.length + state.accelerator.length > 0
}

/** Whether the state asks for anything beyond the plain first page of the listing. */
export function isDefaultState(state: SearchState): boolean {
  return searchStateHref(state) === '/'
}

export type NodeQuery =
  { kind: 'search'; params: SearchNodesParams } | { kind: 'list'; params: ListAllNodesParams }

/**
 * The API call for a state: `GET /nodes/search` with a text or filters, else `GET /nodes`.
 * Only set fields are present, so the query key is the same wherever it is built.
 */
export function nodeQueryFor(state: SearchState): NodeQuery {
  const q = normalizeQuery(state.q)
  const sort = state.sort === 'relevance' && !q ? 'downloads' : state.sort
  const common = { page: state.page, limit: NODES_PAGE_SIZE, sort }
  if (!q && !hasFilters(state)) return { kind: 'list', params: common }
  const params: SearchNodesParams = { ...common }
  if (q) params.search = q
  if (state.tags.length > 0) params.tags = [...state.tags]
  if (state.os.length > 0) params.supported_os = [...state.os]
  if (state.accelerator.length > 0) params.supported_accelerators = [...state.accelerator]
  return { kind: 'search', params }
}
