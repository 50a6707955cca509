// Installs are counted in memory and added to the database in one transaction every
// DOWNLOAD_FLUSH_MS (crates.io and PyPI count downloads in batches too): a crowd installing the
// same node costs one write a second instead of three per install, and installs never queue
// behind each other's row locks. A stopped API flushes what it holds; a killed one loses at
// most that interval's counts. With DOWNLOAD_FLUSH_MS=0 every install is written at once.
// See docs/ARCHITECTURE.md, "Download counts".
import type { DownloadCount } from './queries'
import type { FlushBacklog } from '../system/metrics'

/** Adds counts to the database (`countDownloads` of queries.ts). */
export type WriteDownloads = (counts: DownloadCount[]) => Promise<void>

export class DownloadCounter {
  private pending = new Map<string, DownloadCount>()
  /** When the oldest install held was counted (epoch ms). */
  private oldestAt: number | undefined
  private timer: NodeJS.Timeout | undefined
  private flushing: Promise<void> = Promise.resolve()

  constructor(
    private readonly write: WriteDownloads,
    private readonly flushMs: number,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /** Counts one install of `versionId` (written now when batching is off). */
  async count(nodeId: string, versionId: string): Promise<void> {
    if (this.flushMs === 0) return this.write([{ nodeId, versionId, count: 1 }])
    this.oldestAt ??= Date.now()
    const held = this.pending.get(versionId)
    if (held) held.count++
    else this.pending.set(versionId, { nodeId, versionId, count: 1 })
    this.timer ??= setTimeout(() => void this.flush(), this.flushMs).unref()
  }

  /** Installs counted but not written yet. */
  get unwritten(): number {
    let total = 0
    for (const item of this.pending.values()) total += item.count
    return total
  }

  /** What is held and since when (the flush lag of /metrics). */
  backlog(): FlushBacklog {
    return { pending: this.unwritten, oldestAt: this.oldestAt }
  }

  /**
   * Writes what is held. A failed write (the database away) keeps the counts for the next flush,
   * so an outage delays them without losing them.
   */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      clearTimeout(this.timer)
      this.timer = undefined
      const batch = [...this.pending.values()]
      if (batch.length === 0) return
      const batchOldestAt = this.oldestAt
      this.pending = new Map()
      this.oldestAt = undefined
      try {
        await this.write(batch)
      } catch (error) {
        this.oldestAt = Math.min(batchOldestAt ?? Date.now(), this.oldestAt ?? Date.now())
        for (const item of batch) {
          const held = this.pending.get(item.versionId)
          if (held) held.count += item.count
          else this.pending.set(item.versionId, item)
        }
        if (this.pending.size > 0) {
          this.timer ??= setTimeout(() => void this.flush(), this.flushMs).unref()
        }
        this.onError(error)
      }
    })
    return this.flushing
  }
}
