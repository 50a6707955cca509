// What changed among the rows nodes are shown from, read from the log that triggers write
// (`node_row_changes`, migration 0027). A page answered from kept rows first reads what was logged
// since the last read, in a statement started after the request arrived, so it is as fresh as a
// page reading its rows would be; the rows that changed are read again, the others are not. One
// such read serves every request that arrived before it started (concurrent pages share it).
// Anonymous callers may be answered from a read started up to PUBLIC_CACHE_MS before they asked,
// the staleness the public read cache already allows them, unless this process changed something
// since (`changed()`). See docs/ARCHITECTURE.md, "Node row cache".
import { sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { catalogueGeneration, nodeRowChangeHorizons, nodeRowChanges } from '../db/schema'

/** A logged change: the node (or every node of the publisher) whose rows changed, and when. */
export interface RowChange {
  kind: 'node' | 'publisher'
  id: string
  /** The writing transaction's id. */
  xid: bigint
}

/** What a read of the log saw: the changes, the catalogue generation and the snapshot's horizon. */
export interface RowChangesRead {
  changes: RowChange[]
  generation: number
  /** Every transaction below it had ended when the read's snapshot was taken (pg_snapshot_xmin). */
  horizon: bigint
}

/** The oldest horizon of the snapshot of a statement, as text (bigint), read with its rows. */
export const snapshotHorizon = sql<string>`(pg_snapshot_xmin(pg_current_snapshot())::text)`

/** No logged change is this recent: the first read of a process asks for none. */
const NO_CHANGES = '9223372036854775807'

/**
 * A process that has not read the log for this long no longer trusts what it keeps: the log may
 * have been pruned past its last read (pruneRowChanges keeps PRUNE_AFTER_MS, twice this).
 */
export const TRUST_LAPSES_MS = 5 * 60 * 1000
const PRUNE_AFTER_MS = 2 * TRUST_LAPSES_MS

function prepareChangesSince(db: Db) {
  const since = sql`${sql.placeholder('since')}::bigint`
  return db
    .select({
      generation: catalogueGeneration.generation,
      horizon: snapshotHorizon,
      changes: sql<string[]>`array(select
          (case when ${nodeRowChanges.nodeId} is null then 'p' else 'n' end)
          || ${nodeRowChanges.xid}::text || ' ' || coalesce(${nodeRowChanges.nodeId}, ${nodeRowChanges.publisherId})
        from ${nodeRowChanges} where ${nodeRowChanges.xid} >= ${since})`,
    })
    .from(catalogueGeneration)
    .prepare('node_row_changes_since')
}
const preparedReads = new WeakMap<Db, ReturnType<typeof prepareChangesSince>>()

function parseChange(text: string): RowChange {
  const space = text.indexOf(' ')
  return {
    kind: text.startsWith('p') ? 'publisher' : 'node',
    xid: BigInt(text.slice(1, space)),
    id: text.slice(space + 1),
  }
}

/**
 * Reads of the change log for one process. `read()` answers with a read that started after it
 * was called: the one in flight, if any, started earlier, so callers arriving meanwhile share the
 * next one, started as soon as it ends.
 */
export class RowChangeLog {
  /** The horizon of the last read: the next one asks for the changes from it on. */
  private since: bigint | undefined
  private lastReadAt = 0
  private inFlight: Promise<RowChangesRead> | undefined
  private inFlightStartedAt = 0
  private queued: Promise<RowChangesRead> | undefined
  /** The last read that ended, and when it started. */
  private last: { read: RowChangesRead; startedAt: number } | undefined
  /** A change made by this process: no read started before it answers a request any more. */
  private changedAt = Number.NEGATIVE_INFINITY

  constructor(
    private readonly db: Db,
    /** Called with each read's changes before its callers go on. */
    private readonly apply: (read: RowChangesRead, trustLapsed: boolean) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Whether the log has been read in this process: rows read from then on are trusted (their
   * later changes are in the log's next reads); before, the first read trusts nothing kept.
   */
  get following(): boolean {
    return this.since !== undefined
  }

  /**
   * With `staleMs`, a read started at most that long before this call (and after this process's
   * last change) answers too: the last one that ended, or the one in flight.
   */
  read(staleMs = 0): Promise<RowChangesRead> {
    if (staleMs > 0) {
      // A read started in the millisecond of the change may have started before it.
      const since = Math.max(this.now() - staleMs, this.changedAt + 1)
      if (this.inFlight && this.inFlightStartedAt >= since) return this.inFlight
      if (this.last && this.last.startedAt >= since) return Promise.resolve(this.last.read)
    }
    if (!this.inFlight) return this.launch()
    const ended = () => undefined
    this.queued ??= this.inFlight.then(ended, ended).then(() => {
      this.queued = undefined
      return this.launch()
    })
    return this.queued
  }

  /** After a change made by this process: later requests wait for a read started after it. */
  changed(): void {
    this.changedAt = this.now()
  }

  private launch(): Promise<RowChangesRead> {
    this.inFlightStartedAt = this.now()
    const read = this.readNow()
    this.inFlight = read
    const ended = () => {
      if (this.inFlight === read) this.inFlight = undefined
    }
    read.then(ended, ended)
    return read
  }

  private async readNow(): Promise<RowChangesRead> {
    let statement = preparedReads.get(this.db)
    if (!statement) preparedReads.set(this.db, (statement = prepareChangesSince(this.db)))
    const startedAt = this.now()
    const lapsed = this.since === undefined || startedAt - this.lastReadAt > TRUST_LAPSES_MS
    const [row] = await statement.execute({ since: lapsed ? NO_CHANGES : String(this.since) })
    const read: RowChangesRead = {
      changes: (row?.changes ?? []).map(parseChange),
      generation: Number(row?.generation ?? 0),
      horizon: BigInt(row?.horizon ?? '0'),
    }
    if (this.since === undefined || lapsed || read.horizon > this.since) this.since = read.horizon
    this.lastReadAt = Math.max(this.lastReadAt, startedAt)
    this.apply(read, lapsed)
    this.last = { read, startedAt }
    return read
  }
}

/**
 * Drops logged changes no process still reads: those below a horizon recorded at least
 * PRUNE_AFTER_MS ago (horizons only grow, and a process that has not read the log for half that
 * trusts nothing it keeps). Records the current horizon for a later run. Maintenance calls it.
 */
export async function pruneRowChanges(db: Db, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - PRUNE_AFTER_MS)
  return db.transaction(async (tx) => {
    await tx
      .insert(nodeRowChangeHorizons)
      .values({ at: now, horizon: sql`${snapshotHorizon}::bigint` })
      .onConflictDoNothing()
    const [old] = await tx
      .select({ horizon: sql<string | null>`max(${nodeRowChangeHorizons.horizon})::text` })
      .from(nodeRowChangeHorizons)
      .where(sql`${nodeRowChangeHorizons.at} <= ${before}`)
    if (!old?.horizon) return 0
    const older = sql`${nodeRowChanges.xid} < ${old.horizon}::bigint`
    const [counted] = await tx
      .select({ removed: sql<number>`count(*)::int` })
      .from(nodeRowChanges)
      .where(older)
    await tx.delete(nodeRowChanges).where(older)
    await tx.delete(nodeRowChangeHorizons).where(sql`${nodeRowChangeHorizons.at} < ${before}`)
    return Number(counted?.removed ?? 0)
  })
}
