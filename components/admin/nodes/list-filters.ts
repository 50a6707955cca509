// The filters of the admin lists (nodes, publishers) as they stand in the address:
// `?q=<text>&banned=1&page=<n>`, defaults left out, so a reload or the back button keeps them.
import { useRouter } from 'next/router'
import { listAllNodesQueryPageMax } from '@/src/api/generated/rules.zod'
import { SEARCH_MAX_LENGTH } from '@/src/lib/constants'
import { paramOf } from '@/src/lib/route-params'
import type { UrlQuery } from '@/src/lib/search-state'

export interface AdminListFilters {
  /** The search text (trimmed). */
  q: string
  /** Only banned entries. */
  banned: boolean
  /** 1-based page number. */
  page: number
}

export function readAdminListFilters(query: UrlQuery): AdminListFilters {
  const page = Number(paramOf(query.page))
  return {
    q: paramOf(query.q).trim().slice(0, SEARCH_MAX_LENGTH),
    banned: paramOf(query.banned) === '1',
    page: Number.isSafeInteger(page) && page >= 1 ? Math.min(page, listAllNodesQueryPageMax) : 1,
  }
}

/** The address query of `filters`, without its defaults. */
export function adminListQuery(filters: AdminListFilters): Record<string, string> {
  const query: Record<string, string> = {}
  if (filters.q) query.q = filters.q
  if (filters.banned) query.banned = '1'
  if (filters.page > 1) query.page = String(filters.page)
  return query
}

export function adminListHref(path: string, filters: AdminListFilters): string {
  const search = new URLSearchParams(adminListQuery(filters)).toString()
  return search ? `${path}?${search}` : path
}

/**
 * The filters in the address, and a function that puts new ones there (shallow, without
 * scrolling, so only the list follows); `onChange` runs first (e.g. to drop a notice).
 */
export function useAdminListFilters(onChange?: () => void) {
  const router = useRouter()
  const setFilters = (next: AdminListFilters) => {
    onChange?.()
    void router.replace({ pathname: router.pathname, query: adminListQuery(next) }, undefined, {
      shallow: true,
      scroll: false,
    })
  }
  return { filters: readAdminListFilters(router.query), setFilters }
}
