// Node rows as listings and searches show them (the node, its latest version, its publisher),
// kept between requests so that a page does not read and parse thirty wide rows every time.
// Nothing is trusted blindly. A listing's page first reads what the change log says changed
// since its last read (row-changes.ts) and reads again only the rows changed since they were
// read: a kept row is trusted while no logged change could be missing from it. A search's page
// reads each row's stamp (the xmin of its three rows, which any committed change gives a new
// value, whichever process made it) and reads whole only rows whose stamp moved.
// See docs/ARCHITECTURE.md, "Node row cache".
import type { NodeWithRelations } from '../http/serialize'
import type { CacheStats } from '../system/metrics'
import type { RowChangesRead } from './row-changes'

interface Kept<Row> {
  stamp: string
  row: Row
  publisherId: string
  /**
   * The horizon of the snapshot the row was read in: every change of a lower transaction id is
   * in it. Unset: not trusted (a logged change may be missing), read again before it is shown.
   */
  horizon?: bigint
}

/** How a row was read, for trusting it until the change log says it changed. */
export interface RowRead {
  publisherId: string
  /** The horizon of the read's snapshot (row-changes.ts snapshotHorizon). */
  horizon: bigint
  /** When the read was sent (Date.now()). */
  sentAt: number
}

/**
 * Changes applied are remembered this long, for the reads in flight when they were applied
 * (reads end within the statement timeout, 10 s); a read that took longer is not trusted.
 */
const RECENT_CHANGES_MS = 60_000
const READ_TRUSTED_WITHIN_MS = 30_000

export class NodeRowCache<Row = NodeWithRelations> {
  private readonly rows = new Map<string, Kept<Row>>()
  /** The highest transaction id of each node ('n' + id) or publisher ('p' + id) lately changed. */
  private readonly recent = new Map<string, { xid: bigint; at: number }>()
  /** Rows read in a snapshot older than this are not trusted: changes before it went unread. */
  private trustedFrom = -1n
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

  /** The stamp of the row kept for `id` if `wanted`, current or not (not counted as a lookup). */
  stampOf(id: string, wanted: (row: Row) => boolean): string | undefined {
    const kept = this.rows.get(id)
    return kept && wanted(kept.row) ? kept.stamp : undefined
  }

  /** The row kept for `id` if it is still the one stamped `stamp`. */
  get(id: string, stamp: string): Row | undefined {
    return this.used(id, (kept) => kept.stamp === stamp)
  }

  /** Whether a row is kept for `id` that no change logged since it was read can be missing from. */
  isTrusted(id: string): boolean {
    return this.rows.get(id)?.horizon !== undefined
  }

  /** The row kept for `id` if no change logged since it was read can be missing from it. */
  trusted(id: string): Row | undefined {
    return this.used(id, (kept) => kept.horizon !== undefined)
  }

  /** The row kept for `id` if `current` says it is, counted as a hit or a miss. */
  private used(id: string, current: (kept: Kept<Row>) => boolean): Row | undefined {
    const kept = this.rows.get(id)
    if (!kept || !current(kept)) {
      if (this.enabled) this.stats.misses++
      return undefined
    }
    this.stats.hits++
    // Most recently used last: eviction takes the first.
    this.rows.delete(id)
    this.rows.set(id, kept)
    return kept.row
  }

  /** Keeps `row`; with `read` (how it was read), trusted until a change is logged for it. */
  set(id: string, stamp: string, row: Row, read?: RowRead, now = Date.now()): void {
    if (!this.enabled) return
    const publisherId = read?.publisherId ?? this.rows.get(id)?.publisherId ?? ''
    const trusted =
      read !== undefined &&
      now - read.sentAt < READ_TRUSTED_WITHIN_MS &&
      read.horizon >= this.trustedFrom &&
      !this.changedSince(`n${id}`, read.horizon) &&
      !this.changedSince(`p${read.publisherId}`, read.horizon)
    this.rows.delete(id)
    this.rows.set(id, { stamp, row, publisherId, horizon: trusted ? read.horizon : undefined })
    if (this.rows.size > this.maxRows) this.rows.delete(this.rows.keys().next().value as string)
  }

  /**
   * A read of the change log: each kept row a logged change may be missing from (its transaction
   * id not below the horizon the row was read at) is no longer trusted. `lapsed`: the log was not
   * read for so long that changes may have gone unread; nothing kept is trusted any more.
   */
  applyChanges(read: RowChangesRead, lapsed: boolean, now = Date.now()): void {
    if (lapsed) {
      for (const kept of this.rows.values()) kept.horizon = undefined
      this.recent.clear()
      this.trustedFrom = read.horizon
      return
    }
    for (const [key, { at }] of this.recent) {
      if (now - at < RECENT_CHANGES_MS) break
      this.recent.delete(key)
    }
    const byPublisher = new Map<string, bigint>()
    for (const { kind, id, xid } of read.changes) {
      const key = `${kind === 'node' ? 'n' : 'p'}${id}`
      const before = this.recent.get(key)
      this.recent.delete(key)
      this.recent.set(key, { xid: before && before.xid > xid ? before.xid : xid, at: now })
      if (kind === 'node') {
        const kept = this.rows.get(id)
        if (kept?.horizon !== undefined && xid >= kept.horizon) kept.horizon = undefined
      } else if (!((byPublisher.get(id) ?? -1n) >= xid)) byPublisher.set(id, xid)
    }
    if (byPublisher.size === 0) return
    for (const kept of this.rows.values()) {
      const xid = byPublisher.get(kept.publisherId)
      if (xid !== undefined && kept.horizon !== undefined && xid >= kept.horizon) {
        kept.horizon = undefined
      }
    }
  }

  private changedSince(key: string, horizon: bigint): boolean {
    const change = this.recent.get(key)
    return change !== undefined && change.xid >= horizon
  }
}
