// Which nodes a listing or a search shows, in which order, and how many: computed once and reused
// while the catalogue stays the same, so every page of it (ComfyUI-Manager walks all 3,000+ pages
// of the catalogue) costs a slice and the read of its own rows, and the pages of one walk agree
// with each other. The rows themselves are always read fresh.
//
// "The same catalogue" is the catalogue generation (schema.ts `catalogueGeneration`), bumped by
// triggers when any transaction that changes a node, a publisher or a class commits, whichever
// process made it. A page reads it with its rows, in the same statement: a kept ordering answers
// in one round trip when nothing changed. Download counts change with every install and do not
// bump it, so an ordering by downloads is recomputed in the background once it is
// ORDERING_CACHE_MS old. See docs/ARCHITECTURE.md, "Cached orderings".
import { sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { catalogueGeneration } from '../db/schema'
import type { CacheStats } from '../system/metrics'

export interface Ordering {
  /** The node ids in order: all of a listing's, or the first ones of a search's ranking. */
  ids: string[]
  /** How many nodes match (more than `ids` when a ranking was cut). */
  total: number
}

/** Node ids kept over all orderings (about 60 bytes each); the oldest ordering goes first. */
const MAX_IDS = 1_000_000
/**
 * Orderings past their TTL recomputed at once in the background; the others keep answering
 * until a turn comes. Hot searches computed together (after a change) expire together: their
 * refresh must not take the database from the requests.
 */
const MAX_REFRESHES = 2

interface Entry {
  generation: number
  /** When it is to be recomputed: set once computed. */
  expiresAt: number
  ordering: Promise<Ordering>
  size: number
  /** Its size is in the cache's count of ids. */
  counted?: boolean
  /** A successor is being computed (the TTL has passed). */
  refreshing?: boolean
}

/** An answer, and the catalogue generation the reads that made it saw. */
export interface Seen<T> {
  value: T
  generation: number
}

/** The catalogue generation, read in a statement with other reads (same snapshot). */
export const currentGeneration = sql<number>`(select ${catalogueGeneration.generation} from ${catalogueGeneration})`

export async function catalogueGenerationOf(db: Db): Promise<number> {
  const [row] = await db
    .select({ generation: catalogueGeneration.generation })
    .from(catalogueGeneration)
  return row?.generation ?? 0
}

export class OrderingCache {
  private readonly entries = new Map<string, Entry>()
  private ids = 0
  /** The generation read in flight: requests arriving meanwhile share it (one round trip old). */
  private generationRead: Promise<number> | undefined
  private refreshes = 0
  /** Orderings reused (kept or in flight for the same catalogue), and orderings computed. */
  readonly stats: CacheStats = { hits: 0, misses: 0 }

  /** `ttlMs` 0: nothing is kept, every call computes. */
  constructor(
    private readonly db: Db,
    private readonly ttlMs: number,
    private readonly maxIds = MAX_IDS,
  ) {}

  get size(): number {
    return this.entries.size
  }

  /**
   * The ordering under `key`: the kept one of the current catalogue generation (or the one in
   * flight: identical requests share it), else `compute()`'s. A kept ordering older than the TTL
   * still answers while its successor is computed in the background: its generation says the
   * catalogue is the same, only download counts may have moved.
   */
  async ordering(key: string, compute: () => Promise<Ordering>): Promise<Ordering> {
    if (this.ttlMs <= 0) return compute()
    return this.orderingOf(key, compute, await this.generation())
  }

  /**
   * `read(ordering)`'s answer, for the ordering under `key`. `read` reads the catalogue generation
   * with its rows, in the same statement (one snapshot): when it equals the kept ordering's, the
   * answer stands, one round trip in all; otherwise the catalogue changed since, and the answer
   * is made again from an ordering of the generation `read` saw.
   *
   * With `direct` (the answer asked of the database alone, e.g. one page by an index), a request
   * finding no computed ordering of the current catalogue (a fresh process, or just after a
   * change) is answered by it while the ordering is computed in the background: the first pages
   * do not wait for the whole ordering.
   */
  async answer<T>(
    key: string,
    compute: () => Promise<Ordering>,
    read: (ordering: Ordering) => Promise<Seen<T>>,
    /** The TTL times this: orderings that depend little on download counts are kept longer. */
    ageFactor = 1,
    direct?: () => Promise<T>,
  ): Promise<T> {
    if (this.ttlMs <= 0) return direct ? direct() : (await read(await compute())).value
    const hit = this.entries.get(key)
    let generation: number | undefined
    if (hit && hit.expiresAt !== Number.POSITIVE_INFINITY) {
      const seen = await read(await hit.ordering)
      // An older generation: rows read before the kept ordering's, from a read of the change log
      // an anonymous answer may reuse (RowReuse.staleMs); the newer ordering stands.
      if (seen.generation <= hit.generation) {
        this.stats.hits++
        await this.orderingOf(key, compute, hit.generation, ageFactor, false) // refreshes by age
        return seen.value
      }
      generation = seen.generation
    }
    if (direct) {
      const known = generation
      const started = (async () =>
        this.orderingOf(key, compute, known ?? (await this.generation()), ageFactor))()
      // Its failure is the next request's to see (a failed ordering is not kept).
      started.catch(() => undefined)
      return direct()
    }
    const ordering = await this.orderingOf(
      key,
      compute,
      generation ?? (await this.generation()),
      ageFactor,
    )
    return (await read(ordering)).value
  }

  private orderingOf(
    key: string,
    compute: () => Promise<Ordering>,
    generation: number,
    ageFactor = 1,
    counted = true,
  ): Promise<Ordering> {
    const hit = this.entries.get(key)
    if (counted) this.stats[hit?.generation === generation ? 'hits' : 'misses']++
    if (hit && hit.generation === generation) {
      // Most recently used last: eviction takes the first.
      this.entries.delete(key)
      this.entries.set(key, hit)
      if (hit.expiresAt <= Date.now() && !hit.refreshing && this.refreshes < MAX_REFRESHES) {
        hit.refreshing = true
        this.refreshes++
        const next = this.start(generation, compute, ageFactor)
        const done = () => {
          this.refreshes--
          hit.refreshing = false
        }
        next.ordering.then(() => {
          done()
          this.keep(key, next)
        }, done)
      }
      return hit.ordering
    }
    if (hit) this.remove(key, hit)
    const entry = this.start(generation, compute, ageFactor)
    this.keep(key, entry)
    entry.ordering.then(
      () => this.keep(key, entry),
      // A failure is shared with the requests that waited for it, never kept.
      () => {
        if (this.entries.get(key) === entry) this.remove(key, entry)
      },
    )
    return entry.ordering
  }

  /** After a change made by this process: the next request reads the generation afresh. */
  changed(): void {
    this.generationRead = undefined
  }

  private generation(): Promise<number> {
    if (!this.generationRead) {
      const read = catalogueGenerationOf(this.db)
      this.generationRead = read
      const done = () => {
        if (this.generationRead === read) this.generationRead = undefined
      }
      read.then(done, done)
    }
    return this.generationRead
  }

  private start(generation: number, compute: () => Promise<Ordering>, ageFactor: number): Entry {
    const ordering = compute()
    const entry: Entry = { generation, expiresAt: Number.POSITIVE_INFINITY, ordering, size: 0 }
    ordering.then(
      (done) => {
        entry.size = done.ids.length
        entry.expiresAt = Date.now() + this.ttlMs * ageFactor
      },
      () => undefined,
    )
    return entry
  }

  /** Puts `entry` under `key` (counting its ids once it is computed), dropping the oldest. */
  private keep(key: string, entry: Entry) {
    const kept = this.entries.get(key)
    if (kept && kept !== entry) {
      // Only a newer generation's, or a refresh of the same generation, replaces an entry.
      if (kept.generation > entry.generation) return
      this.remove(key, kept)
    }
    if (kept === entry && entry.counted) return
    this.entries.delete(key)
    this.entries.set(key, entry)
    if (entry.expiresAt === Number.POSITIVE_INFINITY) return
    entry.counted = true
    this.ids += entry.size
    for (const [oldKey, old] of this.entries) {
      if (this.ids <= this.maxIds || old === entry) break
      this.remove(oldKey, old)
    }
  }

  private remove(key: string, entry: Entry) {
    if (this.entries.get(key) === entry) this.entries.delete(key)
    if (entry.counted) this.ids -= entry.size
    entry.counted = false
  }
}

/** A stable key of the parts that decide an ordering (arrays compared as sets). */
export function orderingKey(parts: Record<string, unknown>): string {
  return JSON.stringify(
    Object.entries(parts)
      .filter(([, value]) => value !== undefined && value !== '')
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, value]) => [name, Array.isArray(value) ? [...value].sort() : value]),
  )
}
