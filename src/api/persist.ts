// The persisted query cache (seed section 9): local storage under `comfy-registry-cache`,
// restored only when younger than 24 hours and written by the same build, written at most once
// a second, and never holding pending queries.
import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister'
import { defaultShouldDehydrateQuery, type Query } from '@tanstack/react-query'
import type { PersistQueryClientOptions } from '@tanstack/react-query-persist-client'
import {
  PERSISTED_CACHE_KEY,
  PERSISTED_CACHE_MAX_AGE_MS,
  PERSISTED_CACHE_THROTTLE_MS,
} from '@/src/lib/constants'

/**
 * Admin-only and money answers: the `/admin/*` calls, the review queue's feed of all versions,
 * anything asked with `include_banned`, and every `/customers` call (emails, balances, ledgers,
 * keys). They are never written to local storage, so a shared browser keeps nothing of them
 * after the admin or customer leaves (docs/ARCHITECTURE.md).
 */
export function isAdminOnlyQuery(queryKey: readonly unknown[]): boolean {
  const [url, params] = queryKey
  if (
    typeof url === 'string' &&
    (url.startsWith('/admin') || url === '/versions' || url.startsWith('/customers'))
  ) {
    return true
  }
  return typeof params === 'object' && params !== null && 'include_banned' in params
}

/**
 * A banned or deleted node, which only admins and its owners are shown (`GET /nodes/{id}`
 * answers it to them with no parameter that says so): kept out of local storage too.
 */
export function isHiddenNode(data: unknown): boolean {
  if (typeof data !== 'object' || data === null || !('status' in data)) return false
  return data.status === 'NodeStatusBanned' || data.status === 'NodeStatusDeleted'
}

/** Suggestions while typing: one answer per typed prefix, useless after the visit. */
export function isSuggestionQuery(queryKey: readonly unknown[]): boolean {
  return queryKey[0] === '/nodes/suggest'
}

/**
 * Pending, admin-only, suggestion and hidden-node queries are not persisted; the rest as React
 * Query does.
 */
export function shouldPersistQuery(query: Query): boolean {
  return (
    query.state.status !== 'pending' &&
    !isAdminOnlyQuery(query.queryKey) &&
    !isSuggestionQuery(query.queryKey) &&
    !isHiddenNode(query.state.data) &&
    defaultShouldDehydrateQuery(query)
  )
}

/** The build id Next gives the page; a new deployment discards the persisted cache. */
export function currentBuildId(): string {
  if (typeof window === 'undefined') return ''
  const data = (window as Window & { __NEXT_DATA__?: { buildId?: string } }).__NEXT_DATA__
  return data?.buildId ?? ''
}

export function makePersistOptions(
  storage: Storage | undefined,
  buildId: string,
): Omit<PersistQueryClientOptions, 'queryClient'> {
  return {
    persister: createSyncStoragePersister({
      storage,
      key: PERSISTED_CACHE_KEY,
      throttleTime: PERSISTED_CACHE_THROTTLE_MS,
    }),
    maxAge: PERSISTED_CACHE_MAX_AGE_MS,
    buster: buildId,
    dehydrateOptions: { shouldDehydrateQuery: shouldPersistQuery },
  }
}

/** The options for the browser (local storage) or the server (nothing stored). */
export function browserPersistOptions(): Omit<PersistQueryClientOptions, 'queryClient'> {
  const storage = typeof window === 'undefined' ? undefined : window.localStorage
  return makePersistOptions(storage, currentBuildId())
}
