// Pages of the public listing shared by every API process through PostgreSQL (schema.ts
// `listingPages`). A process that had to read rows for a page (a freshly started one: ComfyUI-
// Manager reads every page of the catalogue) first asks for the page as another process wrote it;
// one it writes itself is stored for the others. A stored page is sent while none of its nodes
// and their publishers changed since the rows it was written from were known current (the log of
// node_row_changes, read in the same statement): as fresh as reading the rows. See
// docs/ARCHITECTURE.md, "The whole catalogue from a freshly started API".
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import { sql } from 'drizzle-orm'
import { BackgroundBatches } from '../db/background-batches'
import type { Db } from '../db/client'
import { listingPages, nodeRowChanges, nodes } from '../db/schema'
import { currentGeneration } from './ordering-cache'
import { TRUST_LAPSES_MS } from './row-changes'
import { nodeJsonVariant } from './shared-json'

/**
 * The code that writes a page around its nodes' JSON (serialized.ts `pageWriter`), beside what
 * writes each node's (shared-json.ts NODE_JSON_SOURCES).
 */
export const LISTING_PAGE_SOURCES = ['server/http/serialized.ts']

const REPOSITORY_ROOT = path.join(__dirname, '..', '..')

/** The variant of the pages this process writes: its nodes' JSON variant and the page's code. */
export function listingPageVariant(publicUrl: string): string {
  const hash = createHash('sha256').update(nodeJsonVariant(publicUrl))
  for (const file of LISTING_PAGE_SOURCES) {
    hash
      .update('\0')
      .update(file)
      .update('\0')
      .update(fs.readFileSync(path.join(REPOSITORY_ROOT, file)))
  }
  return hash.digest('base64url').slice(0, 22)
}

/**
 * How long a stored page may answer. Maintenance prunes the change log up to a horizon recorded
 * twice TRUST_LAPSES_MS ago (row-changes.ts). A page is stored at most PUBLIC_CACHE_MS and
 * SHARED_LISTING_PAGES_MS after the log read its rows rest on (app.ts shares pages only while
 * both make less than half of this): a page stored within TRUST_LAPSES_MS rests on a horizon
 * recent enough that every change since it is still logged.
 */
export const SHARED_PAGE_MS = TRUST_LAPSES_MS

/** The separator of a page's node ids, sent as one text (ids hold no control characters). */
const UNIT = '\x1f'

/** Pages (about 60 kB each) one statement stores. */
const BATCH = 50

/** Pages remembered as stored; the oldest is forgotten first. */
const MAX_REMEMBERED = 100_000

/** Where a page written by this process is stored: its key and the horizon its rows rest on. */
export interface PageToShare {
  key: string
  horizon: bigint
}

/** A page asked of the store: its key and its nodes' ids, in order. */
interface PageAsked {
  key: string
  ids: string[]
}

/** A stored page found standing, and the catalogue generation its read saw. */
export interface StoredPage {
  /** Its JSON, gzip-compressed: sent as it is where the client accepts gzip. */
  gzip: Buffer
  generation: number
}

const gzip = promisify(zlib.gzip)

/** Pages read ahead of a client reading a listing's pages in order, in one statement. */
const READ_AHEAD_PAGES = 100

/**
 * The stored pages among those asked that stand: written within SHARED_PAGE_MS, and none of
 * their nodes, nor those nodes' publishers, logged as changed from the horizon they were written
 * at on. Each page's ids are sent as one text, split by PostgreSQL.
 */
function prepareStoredPages(db: Db) {
  const ids = sql`string_to_array(asked.ids, ${UNIT})`
  return db
    .select({ key: listingPages.key, gzip: listingPages.gzip, generation: currentGeneration })
    .from(
      sql`unnest(${sql.placeholder('keys')}::text[], ${sql.placeholder('ids')}::text[]) as asked(key, ids)`,
    )
    .innerJoin(listingPages, sql`${listingPages.key} = asked.key`)
    .where(
      sql`${listingPages.writtenAt} > now() - make_interval(secs => ${SHARED_PAGE_MS / 1000})
        and not exists (select 1 from ${nodeRowChanges}
          where ${nodeRowChanges.xid} >= ${listingPages.horizon}
            and (${nodeRowChanges.nodeId} = any(${ids})
              or ${nodeRowChanges.publisherId} in
                (select ${nodes.publisherId} from ${nodes} where ${nodes.id} = any(${ids}))))`,
    )
    .prepare('listing_pages_stored')
}

/** A client's walk through a listing's pages: the last page asked, how far pages were read. */
interface Walk {
  page: number
  limit: number
  aheadTo: number
}

/**
 * The pages of the public listing shared with other processes: `read` asks for one, `keep`
 * stores one this process wrote, in the background (batched, at most `flushMs` later). A failed
 * batch is dropped (logged): the pages are written again by the next process that needs them.
 * A client reading a listing's pages in order from the store has the next ones read ahead in one
 * statement (`readAhead`); such a page answers as a read of the change log an anonymous answer
 * may rest on does (row-changes.ts): started at most `staleMs` before the request, and after this
 * process's last change.
 */
export class SharedListingPages {
  private readonly statement: ReturnType<typeof prepareStoredPages>
  private readonly batches: BackgroundBatches<{ horizon: bigint; json: string }>
  /** The pages this process stored, the oldest first. */
  private readonly stored = new Set<string>()
  /** Pages read ahead, with when their read started; `page` undefined: none stood. */
  private readonly ahead = new Map<string, { page?: StoredPage; startedAt: number }>()
  private readonly walks = new Map<string, Walk>()
  private readingAhead = false
  /** A change made by this process: no page read before it answers any more. */
  private changedAt = Number.NEGATIVE_INFINITY

  constructor(
    private readonly db: Db,
    readonly variant: string,
    flushMs: number,
    onError: (error: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.statement = prepareStoredPages(db)
    this.batches = new BackgroundBatches({
      batchSize: BATCH,
      flushMs,
      write: (batch) => this.store(batch),
      onError,
    })
  }

  /** The key of the page showing `ids` in order, of `total` nodes, page `page` of `limit`. */
  key(ids: string[], total: number, page: number, limit: number): string {
    return createHash('sha256')
      .update(`${this.variant}\0${page}\0${limit}\0${total}\0${ids.join('\0')}`)
      .digest('base64url')
  }

  /**
   * Whether the page under `key` is to be stored once written (and asked of the store where its
   * rows are not kept): not once this process stored it. Refreshing its pages every few minutes
   * made a process keeping every row write 60 kB a page to the database under Manager's load,
   * three times slower; processes that lack rows (a freshly started one) store them again.
   */
  due(key: string): boolean {
    return !this.stored.has(key)
  }

  private remember(key: string) {
    this.stored.delete(key)
    this.stored.add(key)
    if (this.stored.size > MAX_REMEMBERED) {
      this.stored.delete(this.stored.keys().next().value as string)
    }
  }

  /** After a change made by this process: pages read before it no longer answer. */
  changed(): void {
    this.changedAt = this.now()
    this.ahead.clear()
  }

  /**
   * The stored page under `key` if it shows `ids` as they are: one read ahead at most `staleMs`
   * before this call, else read now.
   */
  async read(key: string, ids: string[], staleMs = 0): Promise<StoredPage | undefined> {
    const kept = this.ahead.get(key)
    if (kept) {
      this.ahead.delete(key)
      // None stood when it was read ahead: this process writes the page (and stores it).
      if (!kept.page) return undefined
      // A read started in the millisecond of the change may have started before it.
      if (kept.startedAt >= Math.max(this.now() - staleMs, this.changedAt + 1)) return kept.page
    }
    return (await this.readNow([{ key, ids }])).get(key)
  }

  private async readNow(pages: PageAsked[]): Promise<Map<string, StoredPage>> {
    const rows = await this.statement.execute({
      keys: pages.map((page) => page.key),
      ids: pages.map((page) => page.ids.join(UNIT)),
    })
    const found = new Map<string, StoredPage>()
    for (const row of rows) {
      found.set(row.key, { gzip: row.gzip, generation: Number(row.generation) })
    }
    return found
  }

  /**
   * After page `page` of the listing `listing` (`ids` in order, `total` nodes) was answered: when
   * the client asks the pages in order, the next READ_AHEAD_PAGES pages due are read from the
   * store in one statement in the background, again when it is halfway through them. Those found
   * standing answer their requests, the others are written here without asking again.
   */
  readAhead(listing: string, ids: string[], total: number, page: number, limit: number): void {
    const last = this.walks.get(listing)
    const inOrder = last?.limit === limit && last.page === page - 1
    const walk = { page, limit, aheadTo: inOrder ? last.aheadTo : page }
    this.walks.delete(listing)
    this.walks.set(listing, walk)
    if (this.walks.size > 100) this.walks.delete(this.walks.keys().next().value as string)
    if (!inOrder || this.readingAhead || walk.aheadTo - page > READ_AHEAD_PAGES / 2) return
    const from = Math.max(walk.aheadTo, page) + 1
    const to = Math.min(from + READ_AHEAD_PAGES - 1, Math.ceil(ids.length / limit))
    walk.aheadTo = Math.max(walk.aheadTo, to)
    const asked: PageAsked[] = []
    for (let next = from; next <= to; next++) {
      const pageIds = ids.slice((next - 1) * limit, next * limit)
      const key = this.key(pageIds, total, next, limit)
      if (this.due(key) && !this.ahead.has(key)) asked.push({ key, ids: pageIds })
    }
    if (asked.length === 0) return
    this.readingAhead = true
    const startedAt = this.now()
    const changedAt = this.changedAt
    this.readNow(asked)
      .then((found) => {
        // Read before a change this process made since: not kept.
        if (this.changedAt !== changedAt) return
        for (const { key } of asked) this.ahead.set(key, { page: found.get(key), startedAt })
        // Only what a walk may still ask: the oldest go first.
        while (this.ahead.size > READ_AHEAD_PAGES * 4) {
          this.ahead.delete(this.ahead.keys().next().value as string)
        }
      })
      .catch(() => undefined) // Asked again by the pages themselves.
      .finally(() => {
        this.readingAhead = false
      })
  }

  /** Stores the page this process wrote (`json`) from rows current at `horizon`. */
  keep({ key, horizon }: PageToShare, json: string): void {
    this.remember(key)
    this.batches.add(key, { horizon, json })
  }

  /** Stores what is pending; resolves when every batch asked so far is written. */
  flush(): Promise<void> {
    return this.batches.flush()
  }

  private async store(batch: [string, { horizon: bigint; json: string }][]): Promise<void> {
    // Each page its own parameter: sent as it is (an array would be escaped in JavaScript, and
    // splitting one text of them cost PostgreSQL more than writing them).
    // Compressed in libuv's threads, beside this one.
    const compressed = await Promise.all(batch.map(([, { json }]) => gzip(json)))
    const rows = batch.map(
      ([key, { horizon }], i) =>
        sql`(${key}, ${horizon.toString()}::bigint, now(), ${compressed[i]}::bytea)`,
    )
    await this.db.execute(sql`
      insert into listing_pages (key, horizon, written_at, gzip)
      values ${sql.join(rows, sql`, `)}
      on conflict (key) do update
        set horizon = excluded.horizon, written_at = excluded.written_at, gzip = excluded.gzip`)
  }
}

/** Removes pages too old to answer; how many. Maintenance calls it. */
export async function pruneListingPages(db: Db): Promise<number> {
  const removed = await db
    .delete(listingPages)
    .where(
      sql`${listingPages.writtenAt} <= now() - make_interval(secs => ${SHARED_PAGE_MS / 1000})`,
    )
    .returning({ key: listingPages.key })
  return removed.length
}
