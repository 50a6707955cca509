// Anonymous answers of the contract's hot public reads (`x-public-cache` in openapi.yml) are
// shared: identical requests in flight wait for one computation (a crowd asking for the same
// listing costs one query), and its answer is reused for PUBLIC_CACHE_MS (microcaching).
// Any change made by this process (a successful write, a pipeline job) empties the cache at
// once; a change made by another process (a second API behind the load balancer, the CLI) shows
// within PUBLIC_CACHE_MS. Signed-in callers never use it: their answers may show more.
// See docs/ARCHITECTURE.md, "Public read cache".
import type { Db } from '../db/client'
import type { CacheStats } from '../system/metrics'

/** Far more than the distinct hot addresses; the oldest entry goes first when it is full. */
const MAX_ENTRIES = 5_000

interface Entry {
  generation: number
  /** When the answer is settled; until then the entry only joins requests in flight. */
  expiresAt: number
  answer: Promise<unknown>
}

export class PublicAnswerCache {
  private generation = 0
  private readonly entries = new Map<string, Entry>()
  /** Requests answered from the cache (or joined to one in flight), and those computed. */
  readonly stats: CacheStats = { hits: 0, misses: 0 }

  constructor(private readonly ttlMs: number) {}

  private readonly forgetListeners: (() => void)[] = []

  /** Everything cached or in flight is stale: the next request computes afresh. */
  forget(): void {
    this.generation++
    this.entries.clear()
    for (const listener of this.forgetListeners) listener()
  }

  /** `listener` is called on every forget(): what else anonymous answers are made from. */
  onForget(listener: () => void): void {
    this.forgetListeners.push(listener)
  }

  get size(): number {
    return this.entries.size
  }

  /**
   * `compute()`'s answer, shared with identical requests in flight and reused for the TTL.
   * A failure is shared with the requests that waited for it but never kept.
   */
  answer<T>(key: string, compute: () => Promise<T>, now = Date.now()): Promise<T> {
    const hit = this.entries.get(key)
    if (hit && hit.generation === this.generation && hit.expiresAt > now) {
      this.stats.hits++
      return hit.answer as Promise<T>
    }
    this.stats.misses++
    const generation = this.generation
    const entry: Entry = { generation, expiresAt: Number.POSITIVE_INFINITY, answer: compute() }
    if (this.entries.size >= MAX_ENTRIES) {
      this.entries.delete(this.entries.keys().next().value as string)
    }
    this.entries.set(key, entry)
    entry.answer.then(
      () => {
        // Kept for the TTL from when it was ready, unless something changed meanwhile.
        if (this.entries.get(key) !== entry) return
        if (this.ttlMs > 0 && this.generation === generation) {
          entry.expiresAt = Date.now() + this.ttlMs
        } else {
          this.entries.delete(key)
        }
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key)
      },
    )
    return entry.answer as Promise<T>
  }
}

const caches = new WeakMap<Db, PublicAnswerCache>()

/** The cache of answers read from `db` (one per database handle, like count-cache.ts). */
export function publicAnswers(db: Db, ttlMs: number): PublicAnswerCache {
  let cache = caches.get(db)
  if (!cache) caches.set(db, (cache = new PublicAnswerCache(ttlMs)))
  return cache
}

/** After a change to `db` outside a request (a pipeline job): public answers are recomputed. */
export function forgetPublicAnswers(db: Db): void {
  caches.get(db)?.forget()
}
