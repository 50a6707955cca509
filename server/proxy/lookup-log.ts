// Provider lookups are recorded in batches, like download counts (server/nodes/download-counter.ts):
// a client polling a job every second should not wait for a committed insert each time. Rows are
// written together every PROXY_LOG_FLUSH_MS; a failed write keeps them (at most MAX_HELD) for the
// next; stopping the API writes what it holds. With PROXY_LOG_FLUSH_MS=0 each is written at once.
import type { Db } from '../db/client'
import { proxyLookups } from '../db/schema'
import type { FlushBacklog } from '../system/metrics'

export type NewProxyLookup = typeof proxyLookups.$inferInsert

/** Kept while the database is away; beyond this the oldest rows are dropped. */
const MAX_HELD = 10_000

export class ProxyLookupLog {
  private pending: NewProxyLookup[] = []
  /** When the oldest lookup held was recorded (epoch ms). */
  private oldestAt: number | undefined
  private timer: NodeJS.Timeout | undefined
  private flushing: Promise<void> = Promise.resolve()

  constructor(
    private readonly db: Db,
    private readonly flushMs: number,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  async record(lookup: NewProxyLookup): Promise<void> {
    if (this.flushMs === 0) return this.write([lookup])
    this.oldestAt ??= Date.now()
    this.pending.push(lookup)
    if (this.pending.length > MAX_HELD) this.pending.shift()
    this.timer ??= setTimeout(() => void this.flush(), this.flushMs).unref()
  }

  /** What is held and since when (the flush lag of /metrics). */
  backlog(): FlushBacklog {
    return { pending: this.pending.length, oldestAt: this.oldestAt }
  }

  /** Writes what is held; a failed write keeps it for the next flush. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      clearTimeout(this.timer)
      this.timer = undefined
      const batch = this.pending
      if (batch.length === 0) return
      const batchOldestAt = this.oldestAt
      this.pending = []
      this.oldestAt = undefined
      try {
        await this.write(batch)
      } catch (error) {
        this.oldestAt = Math.min(batchOldestAt ?? Date.now(), this.oldestAt ?? Date.now())
        this.pending = [...batch, ...this.pending].slice(-MAX_HELD)
        this.timer ??= setTimeout(() => void this.flush(), this.flushMs).unref()
        this.onError(error)
      }
    })
    return this.flushing
  }

  private async write(rows: NewProxyLookup[]): Promise<void> {
    await this.db.insert(proxyLookups).values(rows)
  }
}
