// Reading nodes: listing with filters and sorts, typo-tolerant search, and one node with its
// latest version and publisher. Visibility rules for anonymous callers live here.
import {
  and,
  arrayContains,
  arrayOverlaps,
  eq,
  getTableColumns,
  inArray,
  ne,
  sql,
  type SQL,
} from 'drizzle-orm'
import { PgDialect, type SelectedFields } from 'drizzle-orm/pg-core'
import { oneShapeDb, rowsOfNamed, type Db } from '../db/client'
import { jsonRow } from '../db/json-rows'
import { escapeLike } from '../db/like'
import type { QueryOf } from '../http/operations'
import { nodeOrderBy, type NodeSort as NodeOrdering } from '../db/ordering'
import {
  comfyNodes,
  nodeColumns,
  nodeDownloadsDaily,
  nodeJson,
  nodes,
  nodeVersions,
  publishers,
  CJK_LETTERS,
  SEARCH_TS_CONFIG,
  type NodeStatus,
} from '../db/schema'
import { cachedCount } from '../db/count-cache'
import type { NodeWithRelations } from '../http/serialize'
import {
  catalogueGenerationOf,
  currentGeneration,
  orderingKey,
  type Ordering,
  type OrderingCache,
  type Seen,
} from './ordering-cache'
import { markedPage } from './list-marks'
import type { NodeRowCache, RowRead } from './row-cache'
import { StoredNodeJson, type SharedNodeJson } from './shared-json'
import type { PageToShare, SharedListingPages } from './shared-pages'
import { snapshotHorizon, type RowChangeLog } from './row-changes'
import { cheaperByIndex, readStartByIndex } from './name-starts'
import { correctedNameWords, type CorrectedWords } from './name-vocabulary'
import {
  classTypoRanges,
  classTypos,
  classTyposAmong,
  pastPrefix,
  TYPO_MIN_LENGTH,
  type ClassTypo,
} from './suggest'
import {
  searchTermsOf,
  TermIndex,
  type FoundClasses,
  type FoundInOrder,
  type SearchTermIndex,
} from './term-index'

/** The sort names of the contract (`sort` of searchNodes, a superset of listAllNodes'). */
export type NodeSort = NonNullable<QueryOf<'searchNodes'>['sort']>

export interface NodeFilters {
  tags?: string[]
  supportedOs?: string[]
  supportedAccelerators?: string[]
  publisherId?: string
  nodeIds?: string[]
  /**
   * `public`: Active nodes of publishers that are not banned (the default).
   * `withBanned`: also banned nodes (a publisher's owners looking at their own list).
   * `all`: every status (admins asking with include_banned).
   */
  visibility?: 'public' | 'withBanned' | 'all'
  /** With `all`: only nodes with one of these statuses. */
  statuses?: NodeStatus[]
}

export interface Paging {
  page: number
  limit: number
}

/**
 * Rendered once, constants and no parameters: each statement copies its text (a search's has it
 * in each branch), and a generic plan (rowsOfNamed) can use the indexes of active nodes, whose
 * predicate names the status.
 */
const PUBLICLY_VISIBLE = new PgDialect().sqlToQuery(
  sql`(${nodes.status} = 'NodeStatusActive' and not exists (select 1 from ${publishers}
    where ${publishers.id} = ${nodes.publisherId} and ${publishers.status} = 'PublisherStatusBanned'))`,
).sql

/** Public nodes: Active, and not from a banned publisher. */
export function publiclyVisible(): SQL {
  return sql.raw(PUBLICLY_VISIBLE)
}

function filterConditions(filters: NodeFilters): SQL[] {
  const conditions: SQL[] = []
  const visibility = filters.visibility ?? 'public'
  if (visibility === 'public') conditions.push(publiclyVisible())
  if (visibility === 'withBanned') conditions.push(ne(nodes.status, 'NodeStatusDeleted'))
  if (visibility === 'all' && filters.statuses?.length)
    conditions.push(inArray(nodes.status, filters.statuses))
  // A node must carry every requested tag; for OS and accelerators any requested one will do.
  if (filters.tags?.length) conditions.push(arrayContains(nodes.tags, filters.tags))
  if (filters.supportedOs?.length)
    conditions.push(arrayOverlaps(nodes.supportedOs, filters.supportedOs))
  if (filters.supportedAccelerators?.length) {
    conditions.push(arrayOverlaps(nodes.supportedAccelerators, filters.supportedAccelerators))
  }
  if (filters.publisherId) conditions.push(eq(nodes.publisherId, filters.publisherId))
  if (filters.nodeIds?.length) {
    conditions.push(
      inArray(
        sql`lower(${nodes.id})`,
        filters.nodeIds.map((id) => id.toLowerCase()),
      ),
    )
  }
  return conditions
}

/** The API's sort names, each mapped to an index-backed ordering of nodeOrderBy. */
const SORT_ORDERING: Record<NodeSort, NodeOrdering> = {
  downloads: 'downloads',
  stars: 'github_stars',
  recent: 'updated',
  newest: 'created_at',
  name: 'name',
  relevance: 'downloads',
}
const SORT_ORDER = Object.fromEntries(
  Object.entries(SORT_ORDERING).map(([sort, ordering]) => [sort, nodeOrderBy[ordering]]),
) as Record<NodeSort, SQL[]>

/** A comfy node class name matches the (lower-cased) term, or its LIKE pattern (typo-tolerant). */
const classNameMatches = (lowered: SQL, pattern: SQL) =>
  sql`(${lowered} <% lower(${comfyNodes.comfyNodeName}) or lower(${comfyNodes.comfyNodeName}) like ${pattern})`

/** The values classNameMatches compares a typed class name with. */
function comfyMatchValues(term: string) {
  const lowered = term.toLowerCase()
  return { lowered, pattern: `%${escapeLike(lowered)}%` }
}

/** Comfy node classes of a node's latest version whose name matches `term` (typo-tolerant). */
function comfyNodeMatches(term: string): SQL {
  const { lowered, pattern } = comfyMatchValues(term)
  return classNameMatches(sql`${lowered}`, sql`${pattern}`)
}

/**
 * A stamp of the three rows a node is shown from: their xmin, which every committed change to a
 * row replaces (row-cache.ts).
 */
const rowStamp = sql<string>`${nodes}.xmin::text || ' ' || coalesce(${nodeVersions}.xmin::text, '') || ' ' || ${publishers}.xmin::text`

/** How many classes of the latest version match the placeholders `lowered` and `pattern`. */
const comfyNodesMatched = sql<number>`(select count(*)::int from ${comfyNodes}
  where ${comfyNodes.nodeVersionId} = ${nodes.latestVersionId}
    and ${classNameMatches(sql`${sql.placeholder('lowered')}`, sql`${sql.placeholder('pattern')}`)})`

/**
 * The reads of loadNodesSeen, as prepared statements (one per database and shape, prepared once
 * per connection: a cached page costs the database the execution of one plan). `ids` is one
 * array parameter; with `matching`, also how many classes of the latest version match `term`
 * (classNameMatches: `lowered` and `pattern`).
 */
function prepareRead<T extends SelectedFields>(
  db: Db,
  columns: T,
  name: string,
  matching: boolean,
) {
  const matched = matching ? comfyNodesMatched : sql<undefined>`null`
  return db
    .select({
      ...columns,
      stamp: rowStamp,
      comfyNodesMatched: matched,
      generation: currentGeneration,
      horizon: snapshotHorizon,
    })
    .from(nodes)
    .leftJoin(nodeVersions, eq(nodeVersions.id, nodes.latestVersionId))
    .innerJoin(publishers, eq(publishers.id, nodes.publisherId))
    .where(sql`${nodes.id} = any(${sql.placeholder('ids')}::text[])`)
    .prepare(name)
}
/** Each table's row as one JSON object: less for the API to parse (server/db/json-rows.ts). */
const wholeRow = {
  node: jsonRow(nodeColumns),
  latestVersion: jsonRow(getTableColumns(nodeVersions), nodeVersions.id),
  publisher: jsonRow(getTableColumns(publishers)),
}
/**
 * The JSON a process stored for the node from its rows as they are now, in the variant this
 * process writes (`variant`), else null (shared-json.ts).
 */
const storedJson = sql<string | null>`(select ${nodeJson.json} from ${nodeJson}
  where ${nodeJson.nodeId} = ${nodes.id} and ${nodeJson.stamp} = ${rowStamp}
    and ${nodeJson.variant} = ${sql.placeholder('variant')})`
/** A listing's rows: each node's stored JSON, or its rows where there is none. */
function prepareListedRead(db: Db) {
  return db
    .select({
      id: nodes.id,
      publisherId: nodes.publisherId,
      json: sql<string | null>`listed.json`,
      // Only where no JSON was stored: `listed.json` is not null otherwise.
      node: jsonRow(nodeColumns, sql`listed.missing`),
      latestVersion: jsonRow(getTableColumns(nodeVersions), sql`listed.missing_version`),
      publisher: jsonRow(getTableColumns(publishers), sql`listed.missing`),
      stamp: rowStamp,
      generation: currentGeneration,
      horizon: snapshotHorizon,
    })
    .from(nodes)
    .leftJoin(nodeVersions, eq(nodeVersions.id, nodes.latestVersionId))
    .innerJoin(publishers, eq(publishers.id, nodes.publisherId))
    .innerJoin(
      sql`lateral (select stored.json,
        case when stored.json is null then 1 end as missing,
        case when stored.json is null then ${nodeVersions.id} end as missing_version
        from (select ${storedJson} as json) as stored) as listed`,
      sql`true`,
    )
    .where(sql`${nodes.id} = any(${sql.placeholder('ids')}::text[])`)
    .prepare('node_rows_listed')
}
/**
 * Every node of `ids` with its stamp, whole only where the stamp is not the one given for it in
 * `stamps` (the kept row's, '' for none): one statement where reading the stamps and then the
 * rows that moved took two (loadNodesSeen).
 */
function prepareUnlessKeptRead(db: Db, name: string, matching: boolean) {
  const moved = sql`${rowStamp} <> kept.stamp`
  return db
    .select({
      id: nodes.id,
      node: jsonRow(nodeColumns, sql`seen.moved`),
      latestVersion: jsonRow(getTableColumns(nodeVersions), sql`seen.moved_version`),
      publisher: jsonRow(getTableColumns(publishers), sql`seen.moved`),
      stamp: rowStamp,
      comfyNodesMatched: matching ? comfyNodesMatched : sql<undefined>`null`,
      generation: currentGeneration,
      horizon: snapshotHorizon,
    })
    .from(nodes)
    .innerJoin(
      sql`unnest(${sql.placeholder('ids')}::text[], ${sql.placeholder('stamps')}::text[]) as kept(id, stamp)`,
      sql`kept.id = ${nodes.id}`,
    )
    .leftJoin(nodeVersions, eq(nodeVersions.id, nodes.latestVersionId))
    .innerJoin(publishers, eq(publishers.id, nodes.publisherId))
    .innerJoin(
      sql`lateral (select case when ${moved} then 1 end as moved,
        case when ${moved} then ${nodeVersions.id} end as moved_version) as seen`,
      sql`true`,
    )
    .prepare(name)
}
const prepareReads = (db: Db) => ({
  stamps: prepareRead(db, { id: nodes.id }, 'node_row_stamps', false),
  whole: prepareRead(db, wholeRow, 'node_rows', false),
  wholeMatching: prepareRead(db, wholeRow, 'node_rows_matching', true),
  unlessKept: prepareUnlessKeptRead(db, 'node_rows_unless_kept', false),
  unlessKeptMatching: prepareUnlessKeptRead(db, 'node_rows_unless_kept_matching', true),
  listed: prepareListedRead(db),
})
const preparedReads = new WeakMap<Db, ReturnType<typeof prepareReads>>()
/** The row reads of `db`, run where one plan serves every run (oneShapeDb). */
function readsOf(db: Db) {
  let reads = preparedReads.get(db)
  if (!reads) preparedReads.set(db, (reads = prepareReads(oneShapeDb(db))))
  return reads
}

/** A node as a listing keeps it: its rows, or the JSON a process stored for it (shared-json.ts). */
export type ListedNode = NodeWithRelations | StoredNodeJson

/** The reuse of node rows between requests: kept rows, and the log of what changed since. */
export interface RowReuse {
  rows: NodeRowCache<ListedNode>
  /** Absent: kept rows are checked by their stamps only (every page reads them). */
  changes?: RowChangeLog
  /**
   * How long before the request a read of the change log may have started and still answer it
   * (row-changes.ts `read`): PUBLIC_CACHE_MS for anonymous callers, absent for the others.
   */
  staleMs?: number
}

/** Rows as loadNodesSeen read them: with the horizon from which a change to them may be unseen. */
interface RowsSeen<T> extends Seen<T> {
  horizon?: bigint
}

/** The stamp of the rows each node was read from (rowStamp): stored with the JSON written of it. */
const stampsOfRows = new WeakMap<NodeWithRelations, string>()

/** The stamp of the rows `row` was read from, if it was read by loadNodesSeen. */
export function rowStampOf(row: NodeWithRelations): string | undefined {
  return stampsOfRows.get(row)
}

/**
 * Loads nodes with their latest version and publisher, in the order of `ids`; with `comfyTerm`,
 * also how many classes of each one's latest version match it; and the catalogue generation
 * these rows belong to (ordering-cache.ts `answer`). One query without kept rows. With kept rows
 * and the change log, a listing's page reads what changed since the last read of the log, then
 * only the rows that changed or were not kept; a search's page reads the rows' stamps, each row
 * whole only where it is not kept as it is now, in one statement (row-cache.ts). With `shared` (a
 * listing's page written from each node's JSON), a node whose JSON is stored for its rows as they
 * are is read as that JSON instead (shared-json.ts).
 */
async function loadNodesSeen(
  db: Db,
  ids: string[],
  comfyTerm?: string,
  reuse?: RowReuse,
): Promise<RowsSeen<NodeWithRelations[]>>
async function loadNodesSeen(
  db: Db,
  ids: string[],
  comfyTerm: undefined,
  reuse: RowReuse | undefined,
  shared: SharedNodeJson | undefined,
): Promise<RowsSeen<ListedNode[]>>
async function loadNodesSeen(
  db: Db,
  ids: string[],
  comfyTerm?: string,
  reuse?: RowReuse,
  shared?: SharedNodeJson,
): Promise<RowsSeen<ListedNode[]>> {
  if (ids.length === 0) return { value: [], generation: await catalogueGenerationOf(db) }
  const cache = reuse?.rows
  const reads = readsOf(db)
  const matching = comfyTerm ? comfyMatchValues(comfyTerm) : undefined
  const found = new Map<string, ListedNode>()
  /** A kept node this page may show: stored JSON only where it is written from JSON. */
  const usable = (kept: ListedNode | undefined) =>
    kept && (shared || !(kept instanceof StoredNodeJson)) ? kept : undefined
  const keep = (id: string, stamp: string, node: ListedNode, read: RowRead) => {
    if (!(node instanceof StoredNodeJson)) stampsOfRows.set(node, stamp)
    cache?.set(id, stamp, node, read)
    found.set(id, node)
  }
  /** Reads `which` whole (or as stored JSON), keeps them; their heads, for the matches. */
  const readKept = async (which: string[]) => {
    const sentAt = Date.now()
    if (shared) {
      const rows = await reads.listed.execute({ ids: which, variant: shared.variant })
      for (const { id, publisherId, json, node, latestVersion, publisher, ...head } of rows) {
        const read = { publisherId, horizon: BigInt(head.horizon), sentAt }
        if (json !== null) keep(id, head.stamp, new StoredNodeJson(id, json), read)
        else if (node && publisher) keep(id, head.stamp, { node, latestVersion, publisher }, read)
      }
      return rows.map((row) => ({
        id: row.id,
        generation: row.generation,
        horizon: row.horizon,
        comfyNodesMatched: 0,
      }))
    }
    const rows = matching
      ? await reads.wholeMatching.execute({ ids: which, ...matching })
      : await reads.whole.execute({ ids: which })
    for (const { stamp, comfyNodesMatched: _matched, generation: _g, horizon, ...row } of rows) {
      keep(row.node.id, stamp, row, {
        publisherId: row.publisher.id,
        horizon: BigInt(horizon),
        sentAt,
      })
    }
    return rows.map((row) => ({ ...row, id: row.node.id }))
  }

  const inOrder = (matches?: Map<string, unknown>) =>
    ids.flatMap((id): ListedNode[] => {
      const row = found.get(id)
      if (!row) return []
      if (!matches || row instanceof StoredNodeJson) return [row]
      return [{ ...row, comfyNodesMatched: Number(matches.get(id) ?? 0) }]
    })

  const anyKept = () => cache?.enabled === true && ids.some((id) => cache.holds(id))
  // With none of them kept, the log has nothing to say about them: read whole at once, below.
  if (!matching && cache?.enabled && reuse?.changes && (!reuse.changes.following || anyKept())) {
    const changes = await reuse.changes.read(reuse.staleMs)
    const missing = ids.filter((id) => {
      const kept = usable(cache.trusted(id))
      if (kept) found.set(id, kept)
      return !kept
    })
    const rows = missing.length > 0 ? await readKept(missing) : []
    // The catalogue generation as of the last statement (the rows read, if any).
    const generation = rows[0] ? Number(rows[0].generation) : changes.generation
    // Rows read after the log are at least as recent as its horizon.
    return { value: inOrder(), generation, horizon: changes.horizon }
  }

  let heads
  if (cache && anyKept() && shared) {
    heads = await reads.stamps.execute({ ids })
    const missing = heads.flatMap((head) => {
      const kept = usable(cache.get(head.id, head.stamp))
      if (kept) found.set(head.id, kept)
      return kept ? [] : [head.id]
    })
    if (missing.length > 0) await readKept(missing)
  } else if (cache && anyKept()) {
    // Each row whole only where the kept one's stamp moved (or none is kept).
    const stamps = ids.map((id) => cache.stampOf(id, (row) => usable(row) !== undefined) ?? '')
    const sentAt = Date.now()
    heads = matching
      ? await reads.unlessKeptMatching.execute({ ids, stamps, ...matching })
      : await reads.unlessKept.execute({ ids, stamps })
    const lost: string[] = []
    for (const { id, node, latestVersion, publisher, stamp, horizon } of heads) {
      if (node && publisher) {
        cache.stats.misses++
        const read = { publisherId: publisher.id, horizon: BigInt(horizon), sentAt }
        keep(id, stamp, { node, latestVersion, publisher }, read)
        continue
      }
      const kept = usable(cache.get(id, stamp))
      if (kept) found.set(id, kept)
      // Replaced or let go by another request since its stamp was sent.
      else lost.push(id)
    }
    if (lost.length > 0) await readKept(lost)
  } else {
    // None kept: every row is a miss (read whole).
    if (cache?.enabled) cache.stats.misses += ids.length
    heads = await readKept(ids)
  }

  const matches = new Map(heads.map((head) => [head.id, head.comfyNodesMatched]))
  const generation = heads[0] ? Number(heads[0].generation) : await catalogueGenerationOf(db)
  const horizon = heads[0] ? BigInt(heads[0].horizon) : undefined
  return { value: inOrder(comfyTerm ? matches : undefined), generation, horizon }
}

async function loadNodes(db: Db, ids: string[], comfyTerm?: string) {
  return (await loadNodesSeen(db, ids, comfyTerm)).value
}

/** One page of node ids in `order`, and the total (large totals cached briefly). */
async function pageOfNodeIds(
  db: Db,
  where: SQL | undefined,
  order: (SQL | typeof nodes.id)[],
  paging: Paging,
  /** A whole public listing in this ordering: a deep page starts at a mark (list-marks.ts). */
  marked?: NodeOrdering,
) {
  const offset = (paging.page - 1) * paging.limit
  const [page, total] = await Promise.all([
    (async () =>
      (marked
        ? await markedPage(db, publiclyVisible(), marked, offset, paging.limit)
        : undefined
      )?.map((id) => ({ id })) ??
      db
        .select({ id: nodes.id })
        .from(nodes)
        .where(where)
        .orderBy(...order)
        .limit(paging.limit)
        .offset(offset))(),
    cachedCount(
      db,
      db
        .select({ total: sql<number>`count(*)::int` })
        .from(nodes)
        .where(where),
    ),
  ])
  return { ids: page.map((row) => row.id), total }
}

/** What listings and searches reuse between requests: one of each per API process (app.ts). */
export interface NodeReadCaches extends RowReuse {
  orderings: OrderingCache
  /** Nodes' JSON shared between processes, for the public listing (shared-json.ts). */
  storedJson?: SharedNodeJson
  /** Pages of the public listing shared between processes (shared-pages.ts). */
  sharedPages?: SharedListingPages
  /** The public nodes' search words, for searches' full-text hits (term-index.ts). */
  termIndex?: SearchTermIndex
}

export interface NodePage<Row = NodeWithRelations> {
  rows: Row[]
  total: number
  /**
   * The page as a process wrote and stored it, gzip-compressed (shared-pages.ts); `rows` is then
   * empty.
   */
  stored?: Buffer
  /** Where to store the page once written: no stored page stood for it. */
  share?: PageToShare
}

/** Filters whose orderings are shared by every caller (the public's), and their key parts. */
function sharedFilters(filters: NodeFilters) {
  if ((filters.visibility ?? 'public') !== 'public' || filters.nodeIds?.length) return undefined
  return {
    tags: filters.tags,
    os: filters.supportedOs,
    accelerators: filters.supportedAccelerators,
    publisher: filters.publisherId,
  }
}

/**
 * How many times ORDERING_CACHE_MS an ordering is kept while the catalogue does not change: only
 * download counts move without changing it, and only the order by downloads follows them closely
 * (popularity moves a ranking by relevance a little at most: relevanceOf).
 */
const ageFactorOf = (sort: NodeSort) => (sort === 'downloads' ? 1 : 10)

/** The page `paging` of a whole ordering. */
const pageOf = (ids: string[], paging: Paging) =>
  ids.slice((paging.page - 1) * paging.limit, paging.page * paging.limit)

/** How many rows ahead of a client reading a listing's pages in order are read at once. */
const READ_AHEAD_ROWS = 2_000

/** Per listing: the last page asked and how far its rows were read ahead. */
interface Walk {
  page: number
  limit: number
  aheadTo: number
}
const walksOf = new WeakMap<RowReuse, { walks: Map<string, Walk>; reading: boolean }>()

/**
 * A client asking a listing's pages in order (ComfyUI-Manager reads every page of the catalogue,
 * one after the other): the rows of the next READ_AHEAD_ROWS nodes that are not kept are read in
 * one statement in the background, again when the client is halfway through them, so its next
 * pages find their rows kept instead of reading thirty each. Pages asked in any other order read
 * nothing ahead. See docs/ARCHITECTURE.md, "The whole catalogue from a freshly started API".
 */
function readAheadOfWalk(
  db: Db,
  reuse: RowReuse,
  key: string,
  ids: string[],
  paging: Paging,
  storedJson?: SharedNodeJson,
) {
  if (!reuse.changes || !reuse.rows.enabled) return
  let state = walksOf.get(reuse)
  if (!state) walksOf.set(reuse, (state = { walks: new Map(), reading: false }))
  const last = state.walks.get(key)
  const end = paging.page * paging.limit
  const inOrder = last?.limit === paging.limit && last.page === paging.page - 1
  const walk = { page: paging.page, limit: paging.limit, aheadTo: inOrder ? last.aheadTo : end }
  state.walks.delete(key)
  state.walks.set(key, walk)
  if (state.walks.size > 100) state.walks.delete(state.walks.keys().next().value as string)
  if (!inOrder || state.reading || walk.aheadTo - end > READ_AHEAD_ROWS / 2) return
  const from = Math.max(walk.aheadTo, end)
  const ahead = ids.slice(from, from + READ_AHEAD_ROWS).filter((id) => !reuse.rows.isTrusted(id))
  walk.aheadTo = Math.min(ids.length, from + READ_AHEAD_ROWS)
  if (ahead.length === 0) return
  const reading = state
  reading.reading = true
  loadNodesSeen(db, ahead, undefined, reuse, storedJson)
    .catch(() => undefined) // Read again by the pages themselves.
    .finally(() => {
      reading.reading = false
    })
}

/**
 * A listing. The public's listings (see sharedFilters) take their page from the cached ordering
 * of every matching node (ordering-cache.ts): a deep page costs what the first one does.
 */
export async function listNodes(
  db: Db,
  filters: NodeFilters,
  sort: NodeSort,
  paging: Paging,
  caches?: NodeReadCaches,
): Promise<NodePage>
export async function listNodes(
  db: Db,
  filters: NodeFilters,
  sort: NodeSort,
  paging: Paging,
  caches: NodeReadCaches | undefined,
  /** The page is written from each node's JSON: nodes may come as their stored JSON. */
  storedJson: SharedNodeJson | undefined,
): Promise<NodePage<ListedNode>>
export async function listNodes(
  db: Db,
  filters: NodeFilters,
  sort: NodeSort,
  paging: Paging,
  caches?: NodeReadCaches,
  storedJson?: SharedNodeJson,
): Promise<NodePage<ListedNode>> {
  // Built only when a statement needs it: a kept ordering's page does not (55 µs a page in a
  // CPU profile of the catalogue walk).
  const where = () => and(...filterConditions(filters))
  const shared = sharedFilters(filters)
  const pages = storedJson && shared ? caches?.sharedPages : undefined
  /**
   * The page of these ids. One whose rows this process does not all keep is asked of the pages
   * processes stored (a freshly started process finds the whole catalogue there:
   * shared-pages.ts); one written here from rows is stored unless this process stored it before.
   * A process keeping every row writes its pages itself: asking the store for each one made
   * Manager's pages at 32 connections three times slower.
   */
  const pageOfIds = async (
    ids: string[],
    total: number,
  ): Promise<Seen<NodePage<ListedNode>> & { asked: boolean }> => {
    const key =
      pages && ids.length > 0 ? pages.key(ids, total, paging.page, paging.limit) : undefined
    const due = pages && key !== undefined && pages.due(key) ? key : undefined
    // Whether every row is kept is looked at only for a page due: most pages of a busy process
    // are not.
    const asked =
      pages !== undefined &&
      due !== undefined &&
      !(caches !== undefined && ids.every((id) => caches.rows.isTrusted(id)))
    if (asked) {
      const stored = await pages.read(due, ids, caches?.staleMs)
      if (stored) {
        const value = { rows: [], total, stored: stored.gzip }
        return { value, generation: stored.generation, asked }
      }
    }
    const {
      value: rows,
      generation,
      horizon,
    } = await loadNodesSeen(db, ids, undefined, caches, storedJson)
    const share = due !== undefined && horizon !== undefined ? { key: due, horizon } : undefined
    return { value: { rows, total, share }, generation, asked }
  }
  const direct = async (): Promise<NodePage<ListedNode>> => {
    const { ids, total } = await pageOfNodeIds(
      db,
      where(),
      SORT_ORDER[sort],
      paging,
      // A whole public listing (ComfyUI-Manager's, by downloads): deep pages start at a mark.
      shared && Object.values(shared).every((part) => !part?.length)
        ? SORT_ORDERING[sort]
        : undefined,
    )
    return (await pageOfIds(ids, total)).value
  }
  if (caches && shared) {
    const key = orderingKey({ list: sort, ...shared })
    return caches.orderings.answer(
      key,
      async (): Promise<Ordering> => {
        const rows = await db
          .select({ id: nodes.id })
          .from(nodes)
          .where(where())
          .orderBy(...SORT_ORDER[sort])
        return { ids: rows.map((row) => row.id), total: rows.length }
      },
      async ({ ids, total }) => {
        const seen = await pageOfIds(pageOf(ids, paging), total)
        // A walk answered by stored pages has the next pages read ahead, not rows.
        if (seen.value.stored === undefined) {
          readAheadOfWalk(db, caches, key, ids, paging, storedJson)
        }
        // Only for a walk that asks the store (not every row kept).
        if (seen.asked) pages?.readAhead(key, ids, total, paging.page, paging.limit)
        return seen
      },
      ageFactorOf(sort),
      direct,
    )
  }
  return direct()
}

export interface SearchQuery {
  search?: string
  comfyNodeSearch?: string
  repositoryUrlSearch?: string
}

/** Matches the trigram index nodes_id_name_trgm_idx. */
const idAndName = sql`lower(${nodes.id} || ' ' || ${nodes.name})`

/** Text with CJK letters (see CJK_LETTERS) is also looked for inside names and descriptions. */
const CJK = new RegExp(CJK_LETTERS)

/** The predicate of nodes_cjk_idx: the nodes with CJK letters in the name or description. */
const CJK_PATTERN = sql.raw(`'${CJK_LETTERS}'`)
const hasCjk = sql`(${nodes.name} ~ ${CJK_PATTERN} or ${nodes.description} ~ ${CJK_PATTERN})`

/**
 * Points of the strongest way a node matches the words (see relevanceOf). Popularity multiplies
 * them by at most about 1.15, so it reorders only matches of (nearly) the same kind.
 */
const MATCH = {
  /** The id or the name is the text. */
  exact: 100,
  /** A ComfyUI class name of the latest version is the text (also typed with spaces). */
  classExact: 90,
  /** The text is in the id or the name as it was typed. */
  phraseInName: 70,
  /**
   * The publisher's name or id is the text. Below a phrase in a node's name, so that a
   * publisher named like a common word ("Upscale") does not take over that word's results.
   */
  publisher: 65,
  /** Every word (stemmed) is in the id or the name. */
  wordsInName: 60,
  /** A class name starts with the text ("KSampler" for "KSamplerAdvanced"). */
  classPrefix: 60,
  /**
   * The last word starts a word of the id or name, the others are whole words, not side by side
   * with it ("helper rest" for "Face Restore Helper"): side by side, they are a phrase in the name.
   */
  wordStartsInName: 57,
  /**
   * The text is a class name with a typo ("MaskMotioDetector"), found as the suggestions find it
   * (suggest.ts classTypos). Below a correct class start, above words found only in tags.
   */
  classTypo: 55,
  /**
   * The text is the start of a class name with a typo: weaker, as a correct word ("upscale") is
   * one edit from the start of other classes ("UpscalingTile"); below words in tags or author.
   */
  classTypoStart: 35,
  /**
   * A typo of the name scores up to this, by the square of its trigram word similarity above the
   * search threshold (0.5): a name spelt almost right ranks high, one sharing only some words
   * ("translate attention" for "matte attention") stays below nodes that have all the words.
   */
  similarName: 60,
  /** Every word is in the id, name, tags or author. */
  wordsInTagsOrAuthor: 45,
  /** Every word is somewhere (the description): this plus up to 10 by cover density. */
  wordsAnywhere: 30,
  /** A CJK text is inside the name or description (see CJK). */
  cjkSubstring: 30,
} as const

/** A number written into the SQL (the branches of a UNION need typed columns, not parameters). */
const points = (value: number) => sql.raw(String(value))

/** The words as one, for class names typed with spaces ("KSampler Advanced"). */
const squash = (lowered: string) => lowered.replace(/[\s_-]+/g, '')

/**
 * Whether the name or the description contains `text` (a CJK word). Without lower() when the
 * text has no case, as CJK has none: lower-casing every description costs most of the scan.
 */
function containsText(text: string): SQL {
  const caseless = text.toLowerCase() === text.toUpperCase()
  const inside = (column: SQL) =>
    caseless
      ? sql`strpos(${column}, ${text}) > 0`
      : sql`strpos(lower(${column}), ${text.toLowerCase()}) > 0`
  return sql`(${inside(sql`${nodes.name}`)} or ${inside(sql`${nodes.description}`)})`
}

/**
 * The words as typed so far (see textBranches): each but the last whole and anywhere, as the
 * full text reads them; the last as the start of a word of the id or name ("upsc" for
 * "Upscale": the search vector's weight A), also given alone as `last`. Undefined when the last
 * word is not letters and digits alone, which a tsquery would read as operators.
 */
function prefixQuery(text: string): { query: SQL; last: string; before: string } | undefined {
  const words = text
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '')
  const last = words.pop()
  if (!last || !/^[\p{L}\p{N}]+$/u.test(last) || CJK.test(last)) return undefined
  const start = sql`to_tsquery(${SEARCH_TS_CONFIG}::regconfig, ${`${last}:*A`})`
  return {
    last,
    before: words.join(' '),
    query:
      words.length === 0
        ? start
        : sql`(websearch_to_tsquery(${SEARCH_TS_CONFIG}::regconfig, ${words.join(' ')}) && ${start})`,
  }
}

/**
 * The words of id and name alone, as nodes_name_words_idx indexes them (the same expression, the
 * configuration written as a constant, so that the planner uses the index and its statistics).
 */
const nameWords = sql`to_tsvector(${sql.raw(`'${SEARCH_TS_CONFIG}'`)}::regconfig, coalesce(${nodes.id}, '') || ' ' || coalesce(${nodes.name}, ''))`

/**
 * One way a search finds nodes: `from` (the nodes, maybe joined) and `where`, the points only it
 * knows (`boost`: a class name equal to the words or starting with them, the publisher), and
 * whether it reads at most a capped number of nodes in the order of the sort (see rankedIds).
 */
interface Branch {
  from: SQL
  where: SQL
  boost: SQL
  capped: boolean
  /** The order its capped nodes are read in for relevance, when not the most downloaded first. */
  relevanceOrder?: SQL[]
  /**
   * Read only when these branches (by number) found fewer than `fewerThan` together: the prefix
   * branch when the full text did not fill the cap; the typo branch when both found fewer than
   * TYPOS_BELOW, the words being spelt wrong (else it would score thousands of trigram
   * candidates for hits that rank below theirs: similarName).
   */
  after?: { branches: number[]; fewerThan: 'cap' | number }
  /** The nodes found in the term index (filters applied): the branch is these ids alone. */
  ids?: string[]
  /** With `ids`: the points of each (instead of `boost`). */
  boosts?: number[]
  /** With `ids`: the text's word similarity to each one's id and name (FoundInOrder). */
  similarities?: number[]
  /** How many nodes it can match at most, whatever the text (see branchesToEstimate). */
  matchesAtMost?: number
  /** How many it matches, counted (the term index): taken instead of an estimate when capped. */
  total?: number
}

/**
 * The branches whose matches are estimated for the total (`EXPLAIN`): those that filled their
 * cap (`filled`, by number), except one that matches at most as many nodes as already counted.
 */
export function branchesToEstimate(
  filled: number[],
  branches: Pick<Branch, 'capped' | 'matchesAtMost'>[],
  total: number,
): number[] {
  return filled.filter((i) => {
    const branch = branches[i]
    return branch.capped && !(branch.matchesAtMost !== undefined && branch.matchesAtMost <= total)
  })
}

/** The hits of the term index's two branches (full text, typed so far), each with its count. */
type FoundInIndex = ReturnType<TermIndex['find']> & {
  /** The typo branch's (TermIndex.similar), when looked for and the text can be read there. */
  similar?: FoundInOrder
  /** The corrected words' branch's (TermIndex.withNameWords), when looked for. */
  corrected?: FoundInOrder
  /** The class-prefix branch's (TermIndex.classesStarting). */
  classes?: FoundClasses
}

/** A branch of the ids the term index found (filters applied): one array parameter, no table. */
const hitsOf = (found: FoundInOrder): Branch => ({
  from: sql``,
  where: sql`true`,
  boost: points(0),
  capped: false,
  ids: found.ids,
})

/** Typos are looked for when the words as typed found fewer nodes than this (textBranches). */
const TYPOS_BELOW = 20

/**
 * Whether the branches read only when the words as typed found few (Branch.after) are in the
 * statement: always without the term index; with its counts known, only when they found few, so
 * that the statement is planned without them otherwise.
 */
const wordsFoundFew = (found: FoundInIndex | undefined) =>
  !found || found.words.ids.length + found.start.ids.length < TYPOS_BELOW

/** Whether the typo branch looks for names like the text (`squashed`: its words as one). */
const typosLooked = (found: FoundInIndex | undefined, squashed: string) =>
  wordsFoundFew(found) && squashed.length >= TYPO_MIN_LENGTH

/** How many class names the class-prefix branch of a search reads at most (textBranches). */
const CLASS_ROWS_READ = 1_000

/**
 * The starts the class-prefix branch looks for, lower-cased: the text as typed and its words as one
 * ("KSampler Advanced"). The database reads each as a range of its index (classRanges); a class
 * name equal to one of them has the more points (MATCH.classExact).
 */
function classStartsOf(text: string): string[] {
  const lowered = text.toLowerCase()
  return [...new Set([lowered, squash(lowered)])].filter((prefix) => prefix !== '')
}

/**
 * The nodes whose id or name has the corrected words (name-vocabulary.ts), read when the words as
 * typed found few: when many names have them, walking the public nodes most downloaded first with
 * the search vector in the index (its weight A: id and name); when few do, from the names' own
 * index, every one of them (the planner, which computes the names' vector on each row it walks,
 * took 55 ms walking to 200 of 4,000).
 */
function correctedBranch(
  corrected: CorrectedWords | undefined,
  cap: number,
  /** Its hits, found in the term index. */
  inIndex?: FoundInOrder,
): Branch {
  const query = (weight: string) =>
    corrected?.words
      .map((alternatives) => `(${alternatives.map((word) => `${word}${weight}`).join(' | ')})`)
      .join(' & ') ?? ''
  const byIndex = corrected !== undefined && cheaperByIndex(corrected.share, corrected.nodes, cap)
  return {
    from: byIndex
      ? sql`(select * from ${nodes} where ${nameWords}
          @@ to_tsquery(${SEARCH_TS_CONFIG}::regconfig, ${query('')}) offset 0) as ${nodes}`
      : sql`${nodes}`,
    where: !corrected
      ? sql`false`
      : byIndex
        ? sql`true`
        : sql`${nodes.searchVector} @@ to_tsquery(${SEARCH_TS_CONFIG}::regconfig, ${query(':A')})`,
    boost: points(0),
    capped: true,
    after: { branches: [1, 2], fewerThan: TYPOS_BELOW },
    ...(corrected &&
      inIndex && {
        ids: inIndex.ids,
        total: inIndex.total,
        similarities: inIndex.similarities,
      }),
  }
}

/**
 * The ranges of the class names' index (`~>=~`, `~<~`: byte order) that names starting with the
 * prefixes are in: one per prefix, none inside another's (a prefix that starts with another is
 * that one's range already), so that no class is read twice.
 */
export function classRanges(prefixes: string[]): { start: string; past: string }[] {
  return prefixes
    .filter((prefix) => !prefixes.some((other) => other !== prefix && prefix.startsWith(other)))
    .map((prefix) => ({ start: prefix, past: pastPrefix(prefix) }))
}

/**
 * The ways the words find nodes, each answered by its own index (an OR of them would make the
 * planner scan every node): the id or name equal to the text; full text over the weighted
 * document (stemmed words in id, name, tags, author, description); the last word as the start of
 * a word of the id or name, as typed so far (prefixQuery: "upsc" finds "upscale"), unless the full
 * text filled its cap, from the names' own index when few names have that start (`startByIndex`),
 * else walking the nodes in the sort's order; when those two found fewer than TYPOS_BELOW, the
 * words with those no name has corrected to names' words (`corrected`: "bach" finds "batch"),
 * and when that too found few, trigram word similarity on id and name (typos of TYPO_MIN_LENGTH
 * letters or more: "upscalr" finds "upscale"); comfy node class names of the latest version by
 * prefix (as pasted from a workflow, also typed with spaces) and, with `typos`, the nodes whose
 * class name the text misspells (found beforehand as the suggestions find them); and the nodes
 * of a publisher named exactly so (few publishers: their table is scanned, the nodes come by
 * nodes_publisher_idx). Text with CJK letters also matches inside names and descriptions: a scan
 * (no index can find a word inside a run of CJK text), for such text only.
 */
function textBranches(
  text: string,
  typos: ClassTypo[],
  /** Whether the last word typed, as a start, is read from the names' index (name-starts.ts). */
  startByIndex: boolean,
  /** The words with those no name has corrected (name-vocabulary.ts). */
  corrected: CorrectedWords | undefined,
  cap: number,
  /** The full-text and typed-so-far hits, found in the term index (term-index.ts). */
  found?: FoundInIndex,
): Branch[] {
  const lowered = text.toLowerCase()
  const squashed = squash(lowered)
  const tsQuery = sql`websearch_to_tsquery(${SEARCH_TS_CONFIG}::regconfig, ${text})`
  const prefix = prefixQuery(text)
  const className = sql`lower(${comfyNodes.comfyNodeName})`
  const classPrefixes = classStartsOf(text)
  const classStarts = classRanges(classPrefixes)
  const classBoost = sql`case when ${className} in (${sql.join(
    classPrefixes.map((prefix) => sql`${prefix}`),
    sql`, `,
  )}) then ${points(MATCH.classExact)} else ${points(MATCH.classPrefix)} end`
  const zero = points(0)
  const typosLookedFor = wordsFoundFew(found)
  const branches: Branch[] = [
    {
      from: sql`${nodes}`,
      where: sql`(lower(${nodes.id}) = ${lowered} or lower(${nodes.name}) = ${lowered})`,
      boost: zero,
      capped: false,
    },
    found
      ? hitsOf(found.words)
      : {
          from: sql`${nodes}`,
          where: sql`${nodes.searchVector} @@ ${tsQuery}`,
          boost: zero,
          capped: true,
        },
    found
      ? hitsOf(found.start)
      : {
          from: sql`${nodes}`,
          where: !prefix
            ? sql`false`
            : startByIndex
              ? sql`${nameWords} @@ to_tsquery(${SEARCH_TS_CONFIG}::regconfig, ${`${prefix.last}:*`})
              and ${nodes.searchVector} @@ ${prefix.query}`
              : sql`${nodes.searchVector} @@ ${prefix.query}`,
          boost: zero,
          capped: true,
          after: { branches: [1], fewerThan: 'cap' },
        },
    correctedBranch(typosLookedFor ? corrected : undefined, cap, found?.corrected),
    {
      // A typo needs TYPO_MIN_LENGTH letters, as in the suggestions: a shorter text is similar
      // to a large part of all names, each of them checked by its trigram similarity.
      from: sql`${nodes}`,
      where: typosLooked(found, squashed) ? sql`${lowered} <% ${idAndName}` : sql`false`,
      boost: zero,
      capped: true,
      after: { branches: [1, 2, 3], fewerThan: TYPOS_BELOW },
      // Counted only below the cap (TermIndex.similar): estimated as the database's when it fills it.
      ...(found?.similar &&
        typosLooked(found, squashed) && {
          ids: found.similar.ids,
          total: found.similar.total < cap ? found.similar.total : undefined,
          similarities: found.similar.similarities,
        }),
    },
    found?.classes
      ? {
          ...hitsOf(found.classes),
          boosts: found.classes.boosts,
          capped: true,
          matchesAtMost: CLASS_ROWS_READ,
          total: found.classes.total,
        }
      : {
          // At most CLASS_ROWS_READ class names, in index order, before the nodes' filters: a broad
          // start ("preview", thousands of classes) with a filter few nodes pass would otherwise
          // walk every class of that start looking for the cap. Each start is a range of the index
          // given as parameters (classRanges), so that one plan suits any text (rowsOfNamed). The
          // lower-cased name is a column of its own so that the planner knows the rows come in its
          // order: it stops at the cap instead of sorting every class read ("workflow": 338 classes
          // read, not 1,000).
          from: sql`(select * from (${sql.join(
            classStarts.map(
              (range) => sql`(select *, ${className} as class_name from ${comfyNodes}
            where ${className} ~>=~ ${range.start} and ${className} ~<~ ${range.past}
            order by ${className} using ~<~ limit ${CLASS_ROWS_READ})`,
            ),
            sql` union all `,
          )}) as classes order by class_name using ~<~ limit ${CLASS_ROWS_READ}) as ${comfyNodes}
        join ${nodes} on ${nodes.latestVersionId} = ${comfyNodes.nodeVersionId}`,
          where: sql`true`,
          boost: classBoost,
          capped: true,
          // In the class names' index order: exact names first, then the shortest starts; a broad
          // start ("upscale") would otherwise look up the classes of every popular node.
          relevanceOrder: [sql`${comfyNodes}.class_name using ~<~`],
          // A node per class read at most (a version is one node's).
          matchesAtMost: CLASS_ROWS_READ,
        },
    {
      from: sql`${nodes}`,
      where: sql`${nodes.publisherId} in (select ${publishers.id} from ${publishers}
        where ${publishers.id} = ${lowered} or lower(${publishers.name}) = ${lowered})`,
      boost: points(MATCH.publisher),
      capped: true,
    },
  ]
  if (typos.length > 0) {
    // Two array parameters: the same statement text whatever the typos found.
    const typoPoints = typos.map((typo) => (typo.whole ? MATCH.classTypo : MATCH.classTypoStart))
    branches.push({
      from: sql`${nodes} join unnest(${sql.param(typos.map((typo) => typo.nodeId))}::text[],
          ${sql.param(typoPoints)}::int[]) as typo(id, points) on typo.id = ${nodes.id}`,
      where: sql`true`,
      boost: sql`typo.points`,
      capped: false,
    })
  }
  if (CJK.test(text)) {
    const terms = text.split(/\s+/).filter((term) => term !== '')
    branches.push({
      from: sql`${nodes}`,
      where: sql`${hasCjk} and ${sql.join(terms.map(containsText), sql` and `)}`,
      boost: points(MATCH.cjkSubstring),
      capped: true,
    })
  }
  return branches
}

/**
 * How well a hit matches the words, in MATCH points: the strongest of an exact id or name, the
 * branch's boost, the text in id or name, all its words in id and name, in tags and author or
 * anywhere (full text), and for hits the full text missed (typos) the trigram similarity to id
 * and name: the costliest part, left out where it cannot matter. Multiplied by popularity (log of
 * downloads): at most about 1.15, so a small exact match stays above a popular partial one.
 */
function relevanceOf(
  text: string,
  boost: SQL,
  /** The similarity the term index computed, where it did (else null): spared to the database. */
  given: SQL,
): SQL {
  const lowered = text.toLowerCase()
  // Each query a scalar subquery, computed once per statement: in a generic plan (rowsOfNamed)
  // a function of parameters is computed again on every row it is used on, the text parsed and
  // stemmed up to five times a candidate.
  const tsQuery = sql`(select websearch_to_tsquery(${SEARCH_TS_CONFIG}::regconfig, ${text}))`
  const vector = nodes.searchVector
  const prefix = prefixQuery(text)
  const startQuery = prefix && sql`(select ${prefix.query})`
  const similarity = sql`coalesce(${given}, word_similarity(${lowered}, ${idAndName}))`
  // Cheapest first: a hit with the text in its id or name (for a broad word, most hits) needs
  // no look at its full-text document.
  const match = sql`case
      when lower(${nodes.id}) = ${lowered} or lower(${nodes.name}) = ${lowered} then ${points(MATCH.exact)}
      when strpos(${idAndName}, ${lowered}) > 0 then greatest(${points(MATCH.phraseInName)}, ${boost})
      else greatest(${boost}, case
        ${startQuery ? sql`when not ${vector} @@ ${tsQuery} and ${vector} @@ ${startQuery} then ${points(MATCH.wordStartsInName)}` : sql``}
        when not ${vector} @@ ${tsQuery}
          then ${points(MATCH.similarName)} * power(greatest(${similarity} - 0.5, 0) / 0.5, 2)
        when not ts_filter(${vector}, '{a,b}') @@ ${tsQuery}
          then ${points(MATCH.wordsAnywhere)} + 10 * ts_rank_cd(${vector}, ${tsQuery}, 32)
        when ts_filter(${vector}, '{a}') @@ ${tsQuery} then ${points(MATCH.wordsInName)}
        else ${points(MATCH.wordsInTagsOrAuthor)} end) end`
  return sql`${match} * (1 + ln(1 + ${nodes.downloads}) / 100)`
}

/** How many ids of a search's ranking are cached: the first pages people and clients look at. */
const SEARCH_ORDERING_IDS = 200

/**
 * How many nodes each capped branch of a search reads at most, in the order asked (the most
 * downloaded first for relevance), from an index read in that order: a broad word ("comfyui",
 * tens of thousands of hits) is ranked among its most popular hits instead of scoring every one.
 * Exact ids and names, and misspelt classes, are read whole. A deeper page reads more.
 */
const SEARCH_CANDIDATES = SEARCH_ORDERING_IDS

/** The planner's estimate of how many rows `query` returns (from the table's statistics). */
async function estimatedRows(db: Db, query: SQL): Promise<number> {
  const result = (await db.execute(sql`explain (format json) ${query}`)) as unknown as {
    rows: Record<string, unknown>[]
  }
  const raw = Object.values(result.rows[0] ?? {})[0]
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as {
    Plan?: { 'Plan Rows'?: number }
  }[]
  return Math.round(plan[0]?.Plan?.['Plan Rows'] ?? 0)
}

/** The condition of a branch read only when others found few (Branch.after), in rankedIds. */
function readWhenFew(after: Branch['after'], cap: number): SQL {
  if (!after) return sql``
  const found = sql.join(
    after.branches.map((j) => sql`(select count(*) from b${sql.raw(String(j))})`),
    sql` + `,
  )
  return sql`and ${found} < ${after.fewerThan === 'cap' ? cap : after.fewerThan}`
}

/**
 * `limit` ids of the nodes the words match from `offset` on, ranked (see relevanceOf, or the
 * sort), and how many match. Each branch of textBranches reads its nodes in the order of the
 * sort (by downloads for relevance), the capped ones at most SEARCH_CANDIDATES or down to the
 * page; the union is ranked: for a sort other than relevance these are its first nodes exactly.
 * The total is counted when no branch reached its cap, else estimated from the statistics
 * (the most any capped branch matches): counting tens of thousands of hits costs what scoring
 * them did.
 */
async function rankedIds(
  db: Db,
  text: string,
  where: SQL,
  sort: NodeSort,
  limit: number,
  offset: number,
  /**
   * The term index, and the filters `where` is made of (filterConditions, nothing else): the
   * full-text and typed-so-far hits are found in it when it is of the current catalogue.
   */
  inIndex?: { index: SearchTermIndex; filters: NodeFilters },
): Promise<Ordering> {
  const cap = Math.max(SEARCH_CANDIDATES, offset + limit)
  const typedSoFar = prefixQuery(text)
  // The index holds the public nodes in downloads order: their first hits are relevance's.
  const indexed =
    inIndex && TermIndex.answers(inIndex.filters) && (sort === 'relevance' || sort === 'downloads')
      ? inIndex
      : undefined
  const corrected = correctedNameWords(db, text)
  // How the start of the last word is best read (name-starts.ts), when the term index does not
  // find it.
  const startRead = () => typedSoFar !== undefined && readStartByIndex(db, typedSoFar.last, cap)
  // Class names misspelt, looked up in the suggestion index (a few btree ranges), and the lexemes
  // of the text and its corrected words for the term index (else the start's read), all before
  // the statement; with the term index, the class starts come with the lexemes.
  const typoRanges = CJK.test(text) ? undefined : classTypoRanges(text)
  const [typosRead, terms, startWithoutIndex] = await Promise.all([
    !indexed && typoRanges ? classTypos(db, text) : [],
    indexed && searchTermsOf(db, text, typedSoFar, corrected?.words, typoRanges),
    !indexed && startRead(),
  ])
  const typos = terms ? classTyposAmong(text, terms.classStarts) : typosRead
  const index = indexed && terms?.terms ? indexed.index.at(terms.generation) : undefined
  const lowered = text.toLowerCase()
  const squashed = squash(lowered)
  let found: FoundInIndex | undefined
  if (indexed && index && terms?.terms) {
    found = index.find(terms.terms, indexed.filters, cap)
    // The branches read when the words as typed found few, in the index too when it can.
    if (typosLooked(found, squashed)) found.similar = index.similar(lowered, indexed.filters, cap)
    if (wordsFoundFew(found) && terms.terms.corrected) {
      found.corrected = index.withNameWords(terms.terms.corrected, indexed.filters, cap, lowered)
    }
    const classStarts = classStartsOf(text)
    found.classes = index.classesStarting(
      classRanges(classStarts).map((range) => range.start),
      classStarts,
      { exact: MATCH.classExact, start: MATCH.classPrefix },
      {
        filters: indexed.filters,
        cap,
        rowsRead: CLASS_ROWS_READ,
        byDownloads: sort === 'downloads',
      },
    )
  }
  const startByIndex = found ? false : indexed ? await startRead() : startWithoutIndex
  const branches = textBranches(text, typos, startByIndex, corrected, cap, found)
  // Each branch: the node ids with the points only it knows, and its number (to tell which
  // reached its cap); filters apply inside each branch. Branch 1 is the full text.
  const branchSql = branches.map((branch, i) =>
    branch.ids
      ? // Its points and similarities, where given, beside the ids (unnest pads the shorter).
        sql`b${sql.raw(String(i))} as (select given.id, coalesce(given.boost, ${branch.boost}) as boost,
          ${points(i)} as branch, given.similarity
          from unnest(${sql.param(branch.ids)}::text[], ${sql.param(branch.boosts ?? [])}::int[],
            ${sql.param(branch.similarities ?? [])}::float8[]) as given(id, boost, similarity)
          where true ${readWhenFew(branch.after, cap)})`
      : sql`b${sql.raw(String(i))} as (select ${nodes.id} as id, ${branch.boost} as boost,
          ${points(i)} as branch, null::float8 as similarity
        from ${branch.from} where ${branch.where} and ${where}
          ${readWhenFew(branch.after, cap)}
        order by ${sql.join((sort === 'relevance' && branch.relevanceOrder) || SORT_ORDER[sort], sql`, `)}
        ${branch.capped ? sql`limit ${cap}` : sql``})`,
  )
  const hits = sql.join(
    branches.map((_, i) => sql`select * from b${sql.raw(String(i))}`),
    sql` union all `,
  )
  // Each node once, with its best boost: the score is computed once per node, on its row.
  const order =
    sort === 'relevance'
      ? [
          sql`${relevanceOf(text, sql`best.boost`, sql`best.similarity`)} desc`,
          sql`${nodes.githubStars} desc`,
          ...nodeOrderBy.downloads,
        ]
      : SORT_ORDER[sort]
  const statement = sql`with ${sql.join(branchSql, sql`, `)}, hit as (${hits}),
        best as (select id, max(boost) as boost, max(similarity) as similarity from hit group by id)
      select (select count(*) from best)::int as total,
        to_json(array(select branch from hit group by branch having count(*) >= ${cap})) as capped,
        to_json(array(select ${nodes.id} from best join ${nodes} on ${nodes.id} = best.id
          order by ${sql.join(order, sql`, `)} limit ${limit} offset ${offset})) as ids`
  // The arrays as JSON, parsed natively: node-postgres parses an array's text a character at a
  // time, an object each (200 ids: 2 % of the API's CPU under never-seen searches, and garbage).
  type Ranked = { total: number; capped: number[]; ids: string[] }
  // With every branch read from the database one whose plan suits any text (the term index's hits
  // given as ids; CJK text's scan reads the nodes with CJK letters whatever the text), the
  // statement is one of few shapes: planned once per connection (oneShapeDb), not for each search
  // (docs/ARCHITECTURE.md, "Never-seen searches").
  const oneShape =
    found !== undefined &&
    (!wordsFoundFew(found) || corrected === undefined || found.corrected !== undefined)
  const [{ total: counted, capped: filled, ids }] = oneShape
    ? await rowsOfNamed<Ranked>(db, statement)
    : ((await db.execute(statement)) as unknown as { rows: Ranked[] }).rows
  // The term index counted its hits exactly; the branches of the statement that filled their cap
  // are estimated.
  const total = Math.max(counted, found?.words.total ?? 0, found?.start.total ?? 0)
  const capped = branchesToEstimate(filled.map(Number), branches, total)
  if (capped.length === 0) return { ids, total }
  const estimates = await Promise.all(
    capped.map((i) => {
      const branch = branches[i]
      return (
        branch.total ??
        estimatedRows(db, sql`select 1 from ${branch.from} where ${branch.where} and ${where}`)
      )
    }),
  )
  return { ids, total: Math.max(total, ...estimates) }
}

/**
 * Search. With words: the matching nodes (see textBranches), ranked by how well they match (see
 * relevanceOf), then stars and downloads (rankedIds); the public's first pages come from the
 * cached ranking (ordering-cache.ts). Without words it is the listing, with the extra comfy-node
 * and repository filters when given.
 */
export async function searchNodes(
  db: Db,
  query: SearchQuery,
  filters: NodeFilters,
  sort: NodeSort,
  paging: Paging,
  caches?: NodeReadCaches,
): Promise<NodePage> {
  const conditions = filterConditions(filters)
  const text = query.search?.trim() ?? ''
  const comfyTerm = query.comfyNodeSearch?.trim()
  if (comfyTerm) {
    conditions.push(
      sql`exists (select 1 from ${comfyNodes} where ${comfyNodes.nodeVersionId} = ${nodes.latestVersionId} and ${comfyNodeMatches(comfyTerm)})`,
    )
  }
  const repositoryTerm = query.repositoryUrlSearch?.trim()
  if (repositoryTerm) {
    conditions.push(
      sql`lower(${nodes.repository}) like ${`%${escapeLike(repositoryTerm.toLowerCase())}%`}`,
    )
  }
  const where = and(...conditions) ?? sql`true`

  let ids: string[]
  let total: number
  const shared = sharedFilters(filters)
  if (text) {
    const start = (paging.page - 1) * paging.limit
    // How many classes match: shown where the name does not say why a node was found.
    const matchTerm = comfyTerm || text
    // `where` is the filters alone: the term index can apply them (term-index.ts).
    const inIndex =
      caches?.termIndex && !comfyTerm && !repositoryTerm
        ? { index: caches.termIndex, filters }
        : undefined
    // The first SEARCH_ORDERING_IDS of a search are cached; deeper pages are asked directly.
    if (
      caches &&
      shared &&
      !comfyTerm &&
      !repositoryTerm &&
      start + paging.limit <= SEARCH_ORDERING_IDS
    ) {
      return caches.orderings.answer(
        orderingKey({ search: text, sort, ...shared }),
        () => rankedIds(db, text, where, sort, SEARCH_ORDERING_IDS, 0, inIndex),
        async ({ ids: ranked, total: matching }) => {
          const seen = await loadNodesSeen(db, pageOf(ranked, paging), matchTerm, caches)
          return { value: { rows: seen.value, total: matching }, generation: seen.generation }
        },
        ageFactorOf(sort),
      )
    }
    ;({ ids, total } = await rankedIds(db, text, where, sort, paging.limit, start, inIndex))
  } else if (!comfyTerm && !repositoryTerm) {
    return listNodes(db, filters, sort, paging, caches)
  } else {
    ;({ ids, total } = await pageOfNodeIds(db, where, SORT_ORDER[sort], paging))
  }
  // How many classes match: shown where the name does not say why a node was found.
  const { value: rows } = await loadNodesSeen(db, ids, comfyTerm || text, caches)
  return { rows, total }
}

/** One node by id (case-insensitive), whatever its status: callers decide who may see it. */
export async function findNode(db: Db, nodeId: string): Promise<NodeWithRelations | null> {
  const [found] = await db
    .select({ id: nodes.id })
    .from(nodes)
    .where(eq(sql`lower(${nodes.id})`, nodeId.toLowerCase()))
  if (!found) return null
  const [row] = await loadNodes(db, [found.id])
  return row ?? null
}

/** Today's calendar day in UTC: the day buckets are UTC days whatever the server's time zone. */
const UTC_TODAY = sql`(now() at time zone 'utc')::date`

export interface DailyDownloads {
  from: string
  to: string
  total: number
  daily: { day: string; downloads: number }[]
}

const DAY_MS = 86_400_000

/**
 * The node's downloads per UTC day of the last `days` days (today included), oldest first,
 * zero-filled. `nodeId` must exist (its row anchors the join, so "today" comes from the database
 * clock that stamps the buckets even when the node has none).
 */
export async function dailyDownloads(
  db: Db,
  nodeId: string,
  days: number,
): Promise<DailyDownloads> {
  const day = sql<string>`to_char(${nodeDownloadsDaily.day}, 'YYYY-MM-DD')`
  const rows = await db
    .select({
      today: sql<string>`to_char(${UTC_TODAY}, 'YYYY-MM-DD')`,
      day,
      count: nodeDownloadsDaily.count,
    })
    .from(nodes)
    .leftJoin(
      nodeDownloadsDaily,
      and(
        eq(nodeDownloadsDaily.nodeId, nodes.id),
        sql`${nodeDownloadsDaily.day} > ${UTC_TODAY} - ${days}::int`,
        sql`${nodeDownloadsDaily.day} <= ${UTC_TODAY}`,
      ),
    )
    .where(eq(nodes.id, nodeId))
  if (rows.length === 0) throw new Error(`dailyDownloads: no node '${nodeId}'`)
  const counts = new Map(rows.flatMap((row) => (row.day ? [[row.day, row.count ?? 0]] : [])))
  const today = Date.parse(`${rows[0].today}T00:00:00Z`)
  const daily = Array.from({ length: days }, (_, index) => {
    const key = new Date(today - (days - 1 - index) * DAY_MS).toISOString().slice(0, 10)
    return { day: key, downloads: counts.get(key) ?? 0 }
  })
  return {
    from: daily[0].day,
    to: daily[daily.length - 1].day,
    total: daily.reduce((sum, item) => sum + item.downloads, 0),
    daily,
  }
}

export interface DownloadCount {
  nodeId: string
  versionId: string
  count: number
}

/**
 * Adds installs to the nodes' totals, the versions' and today's buckets for the chart, in one
 * transaction. Rows are changed in id order, so processes flushing at once never deadlock.
 */
export async function countDownloads(db: Db, counts: DownloadCount[]): Promise<void> {
  const sum = (key: (item: DownloadCount) => string) => {
    const sums = new Map<string, number>()
    for (const item of counts) sums.set(key(item), (sums.get(key(item)) ?? 0) + item.count)
    return [...sums].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  }
  const byNode = sum((item) => item.nodeId)
  const byVersion = sum((item) => item.versionId)
  if (byNode.length === 0) return
  await db.transaction(async (tx) => {
    for (const [nodeId, count] of byNode) {
      await tx
        .update(nodes)
        .set({ downloads: sql`${nodes.downloads} + ${count}` })
        .where(eq(nodes.id, nodeId))
    }
    for (const [versionId, count] of byVersion) {
      await tx
        .update(nodeVersions)
        .set({ downloads: sql`${nodeVersions.downloads} + ${count}` })
        .where(eq(nodeVersions.id, versionId))
    }
    for (const [nodeId, count] of byNode) {
      await tx.execute(
        sql`insert into node_downloads_daily (node_id, day, count) values (${nodeId}, ${UTC_TODAY}, ${count})
            on conflict (node_id, day) do update set count = node_downloads_daily.count + ${count}`,
      )
    }
  })
}
