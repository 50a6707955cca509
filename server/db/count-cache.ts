// Exact totals of big result sets are costly (every matching row is visited) and the same for
// every visitor of a listing page, so large counts are reused for a few seconds. Small counts
// are cheap and always exact.
import type { Db } from './client'
import type { CacheStats } from '../system/metrics'

export const COUNT_CACHE_TTL_MS = 10_000
/** Counts below this are not cached: they are cheap, and tests and small registries see them exact. */
export const COUNT_CACHE_MIN_TOTAL = 5_000
const MAX_ENTRIES = 2_000

const caches = new WeakMap<Db, Map<string, { total: number; expiresAt: number }>>()
const stats = new WeakMap<Db, CacheStats>()

/** Counts of `db` answered from the cache, and counted by the database. */
export function countCacheStats(db: Db): CacheStats {
  let found = stats.get(db)
  if (!found) stats.set(db, (found = { hits: 0, misses: 0 }))
  return found
}

export async function cachedCount(
  db: Db,
  query: { toSQL(): { sql: string; params: unknown[] } } & PromiseLike<{ total: number }[]>,
  now = Date.now(),
): Promise<number> {
  let cache = caches.get(db)
  if (!cache) caches.set(db, (cache = new Map()))
  const { sql, params } = query.toSQL()
  const key = `${sql}\u0000${JSON.stringify(params)}`
  const hit = cache.get(key)
  if (hit && hit.expiresAt > now) {
    countCacheStats(db).hits++
    return hit.total
  }
  countCacheStats(db).misses++
  const [{ total }] = await query
  if (total >= COUNT_CACHE_MIN_TOTAL) {
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string)
    cache.set(key, { total, expiresAt: now + COUNT_CACHE_TTL_MS })
  } else {
    cache.delete(key)
  }
  return total
}
