// Node rows as listings and searches show them (the node, its latest version, its publisher),
// kept between requests so that a page does not read and parse thirty wide rows every time.
// Nothing is trusted blindly: each page's query still returns, for every row, its stamp (the
// xmin of its three rows, which any committed change gives a new value, whichever process made
// it) and its download count; only rows whose stamp differs from the kept one are read whole.
// See docs/ARCHITECTURE.md, "Node row cache".
import type { NodeWithRelations } from '../http/serialize'
import type { CacheStats } from '../system/metrics'

interface Kept<Row> {
  stamp: string
  row: Row
}

export class NodeRowCache<Row = NodeWithRelations> {
  private readonly rows = new Map<string, Kept<Row>>()
  /** Rows served from memory, and rows read whole because none or an outdated one was kept. */
  readonly stats: CacheStats = { hits: 0, misses: 0 }

  /** `maxRows` 0: nothing is kept. */
  constructor(readonly maxRows: number) {}

  get enabled(): boolean {
    return this.maxRows > 0
  }

  get size(): number {
    return this.rows.size
  }

  /** Whether some row is kept for `id`, current or not. */
  holds(id: string): boolean {
    return this.rows.has(id)
  }

  /** The row kept for `id` if it is still the one stamped `stamp`. */
  get(id: string, stamp: string): Row | undefined {
    const kept = this.rows.get(id)
    if (kept?.stamp !== stamp) {
      if (this.enabled) this.stats.misses++
      return undefined
    }
    this.stats.hits++
    // Most recently used last: eviction takes the first.
    this.rows.delete(id)
    this.rows.set(id, kept)
    return kept.row
  }

  set(id: string, stamp: string, row: Row): void {
    if (!this.enabled) return
    this.rows.delete(id)
    this.rows.set(id, { stamp, row })
    if (this.rows.size > this.maxRows) this.rows.delete(this.rows.keys().next().value as string)
  }
}
