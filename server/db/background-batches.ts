// Writes a process makes in the background, batched: what it gives is written at most `flushMs`
// later, or at once when `batchSize` are pending, one batch after the other. A later value for a
// key still pending replaces the earlier. A failed batch is dropped and reported: what was in it
// is a cache (nodes' JSON, listing pages) that the next reader writes again. See
// docs/ARCHITECTURE.md, "Whole pages shared through the database".

export interface BackgroundBatchesOptions<V> {
  /** How many pending values make a batch written at once. */
  batchSize: number
  /** How long a value waits at most for others to join its batch. */
  flushMs: number
  write: (batch: [string, V][]) => Promise<void>
  onError: (error: unknown) => void
}

export class BackgroundBatches<V> {
  private pending = new Map<string, V>()
  private timer: NodeJS.Timeout | undefined
  private writing: Promise<void> = Promise.resolve()

  constructor(private readonly options: BackgroundBatchesOptions<V>) {}

  add(key: string, value: V): void {
    this.pending.set(key, value)
    if (this.pending.size >= this.options.batchSize) void this.flush()
    else this.timer ??= setTimeout(() => void this.flush(), this.options.flushMs)
  }

  /** Writes what is pending; resolves when every batch given so far is written (or failed). */
  flush(): Promise<void> {
    clearTimeout(this.timer)
    this.timer = undefined
    const batch = [...this.pending]
    this.pending = new Map()
    if (batch.length > 0) {
      this.writing = this.writing
        .then(() => this.options.write(batch))
        .catch((error: unknown) => this.options.onError(error))
    }
    return this.writing
  }
}
