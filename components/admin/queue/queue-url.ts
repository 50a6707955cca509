// The review queue's filters as they live in the URL (the shared URL conventions: status, node,
// publisher, after, before, sort, page) and as the GET /versions parameters they become.
import type { NextRouter } from 'next/router'
import {
  ListAllNodeVersionsSort,
  NodeVersionStatus,
  type ListAllNodeVersionsParams,
} from '@/src/api/generated/model'

export const QUEUE_STATUSES = ['pending', 'flagged', 'active', 'banned', 'deleted', 'all'] as const
export type QueueStatus = (typeof QUEUE_STATUSES)[number]
export type QueueSort = ListAllNodeVersionsSort

/** Rows per page (the API allows up to 100). */
export const QUEUE_PAGE_SIZE = 50

export interface QueueFilters {
  status: QueueStatus
  node: string
  publisher: string
  /** yyyy-mm-dd or an ISO date-time, as written in the URL ('' = none). */
  after: string
  before: string
  sort: QueueSort
  page: number
}

export const DEFAULT_FILTERS: QueueFilters = {
  status: 'pending',
  node: '',
  publisher: '',
  after: '',
  before: '',
  sort: ListAllNodeVersionsSort.oldest,
  page: 1,
}

const STATUS_OF: Record<Exclude<QueueStatus, 'all'>, NodeVersionStatus> = {
  pending: NodeVersionStatus.NodeVersionStatusPending,
  flagged: NodeVersionStatus.NodeVersionStatusFlagged,
  active: NodeVersionStatus.NodeVersionStatusActive,
  banned: NodeVersionStatus.NodeVersionStatusBanned,
  deleted: NodeVersionStatus.NodeVersionStatusDeleted,
}

function first(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value)?.trim() ?? ''
}

function isQueueStatus(value: string): value is QueueStatus {
  return (QUEUE_STATUSES as readonly string[]).includes(value)
}

function isSort(value: string): value is QueueSort {
  return value === ListAllNodeVersionsSort.oldest || value === ListAllNodeVersionsSort.newest
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/

/** A URL date the API can take: yyyy-mm-dd or anything Date parses ('' when neither). */
function validDate(value: string): string {
  return value &&
    !Number.isNaN(new Date(DATE_ONLY.test(value) ? `${value}T00:00` : value).getTime())
    ? value
    : ''
}

export function parseQueueQuery(query: NextRouter['query']): QueueFilters {
  const status = first(query.status).toLowerCase()
  const sort = first(query.sort).toLowerCase()
  const page = Number.parseInt(first(query.page), 10)
  return {
    status: isQueueStatus(status) ? status : DEFAULT_FILTERS.status,
    node: first(query.node),
    publisher: first(query.publisher),
    after: validDate(first(query.after)),
    before: validDate(first(query.before)),
    sort: isSort(sort) ? sort : DEFAULT_FILTERS.sort,
    page: Number.isFinite(page) && page >= 1 && page <= 100000 ? page : 1,
  }
}

/** The URL query of `filters`, without the defaults (so the plain address is the default view). */
export function queueQuery(filters: QueueFilters): Record<string, string> {
  const query: Record<string, string> = {}
  if (filters.status !== DEFAULT_FILTERS.status) query.status = filters.status
  if (filters.node) query.node = filters.node
  if (filters.publisher) query.publisher = filters.publisher
  if (filters.after) query.after = filters.after
  if (filters.before) query.before = filters.before
  if (filters.sort !== DEFAULT_FILTERS.sort) query.sort = filters.sort
  if (filters.page > 1) query.page = String(filters.page)
  return query
}

/**
 * The instant a URL date stands for. A bare day is the admin's local day: `after` from its
 * start, `before` up to its end (the API's `created_before` is exclusive, so the next midnight).
 */
export function dateBound(value: string, edge: 'start' | 'end'): string | undefined {
  if (!value) return undefined
  if (!DATE_ONLY.test(value)) return new Date(value).toISOString()
  const day = new Date(`${value}T00:00`)
  if (edge === 'end') day.setDate(day.getDate() + 1)
  return day.toISOString()
}

export function queueParams(filters: QueueFilters): ListAllNodeVersionsParams {
  return {
    statuses: filters.status === 'all' ? Object.values(STATUS_OF) : [STATUS_OF[filters.status]],
    include_status_reason: true,
    ...(filters.node ? { nodeId: filters.node } : {}),
    ...(filters.publisher ? { publisher_id: filters.publisher } : {}),
    ...(filters.after ? { created_after: dateBound(filters.after, 'start') } : {}),
    ...(filters.before ? { created_before: dateBound(filters.before, 'end') } : {}),
    sort: filters.sort,
    page: filters.page,
    limit: QUEUE_PAGE_SIZE,
  }
}
