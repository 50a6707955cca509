// Deep pages of a public listing without a cached ordering (a fresh process, or
// ORDERING_CACHE_MS=0): an OFFSET skips every node before the page, one index entry each (90,000
// for ComfyUI-Manager's last pages), or sorts every node when the order's index cannot filter
// them. Every LIST_MARKS.every-th node of each order is kept in the database instead
// (node_list_marks), with the catalogue generation it was made in: a page starts at the mark
// before it (an index seek to that node's key) and skips fewer than LIST_MARKS.every entries.
// Marks of another generation, or of the order by downloads older than LIST_MARKS.maxAgeS
// (download counts move it without moving the generation), are made again in the background, and
// pages meanwhile use the OFFSET. See docs/ARCHITECTURE.md, "Cached orderings".
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '../db/client'
import { nodeOrderBy, nodeOrderKeys, type NodeSort as NodeOrdering } from '../db/ordering'
import { nodeListMarks, nodes, publishers } from '../db/schema'
import { currentGeneration } from './ordering-cache'

/** How far apart marks are, and how long marks by downloads are used (tests change them). */
export const LIST_MARKS = { every: 250, maxAgeS: 60 }

/** Marks being made, per database and ordering: one at a time in a process. */
const making = new WeakMap<Db, Map<NodeOrdering, Promise<void>>>()

/**
 * Public (Active, not of a banned publisher: `publiclyVisible` in queries.ts), written so that
 * it filters the few rows a page reads of an ordering's index in its order (the planner would
 * join with publishers by hashing, then sort everything); by downloads, from
 * nodes_public_downloads_idx alone.
 */
const visible = sql`${nodes.status} = 'NodeStatusActive' and ${nodes.publisherId} <> all(array(
  select ${publishers.id} from ${publishers} where ${publishers.status} = 'PublisherStatusBanned'))`

/**
 * The nodes from the mark on, in the ordering: its key after the mark's, or the same key and an
 * id from the mark's on (an index seek). Nodes without a key (the order by latest version's last
 * ones) follow a mark without one, by id.
 */
function fromMark(ordering: NodeOrdering): { keyed: SQL; keyless?: SQL } {
  const { key, descending, nullable } = nodeOrderKeys[ordering]
  const after = descending ? sql`<` : sql`>`
  const keyed = sql`${key} ${after}= (select key from mark)
    and (${key} ${after} (select key from mark) or ${nodes.id} >= (select id from mark))`
  if (!nullable) return { keyed }
  return {
    keyed,
    keyless: sql`(select key from mark) is null and ${key} is null
      and ${nodes.id} >= (select id from mark)`,
  }
}

/**
 * The ids of the page at `offset` of a public listing (no filters) in `ordering`, from the mark
 * before it; undefined when the page is near the start or no current mark is kept (then marks
 * are made in the background, and the caller uses an OFFSET), or when the page runs from the
 * nodes with a key into those without (the few nodes without a latest version).
 */
export async function markedPage(
  db: Db,
  /** Who sees a node (`publiclyVisible`), for making the marks: they number every public node. */
  publiclyVisible: SQL,
  ordering: NodeOrdering,
  offset: number,
  limit: number,
): Promise<string[] | undefined> {
  if (offset < LIST_MARKS.every) return undefined
  const { key } = nodeOrderKeys[ordering]
  const { keyed, keyless } = fromMark(ordering)
  const fresh =
    ordering === 'downloads'
      ? sql`and ${nodeListMarks.madeAt} > now() - make_interval(secs => ${LIST_MARKS.maxAgeS})`
      : sql``
  const page = (
    from: SQL,
  ) => sql`array(select ${nodes.id} from ${nodes} where ${visible} and ${from}
    order by ${sql.join(nodeOrderBy[ordering], sql`, `)}
    offset (select ${offset}::int - position from mark) limit ${limit})`
  const result = (await db.execute(sql`
    with mark as (
      select ${nodeListMarks.position} as position, ${key} as key, ${nodes.id} as id
      from ${nodeListMarks} join ${nodes} on ${nodes.id} = ${nodeListMarks.nodeId}
      where ${nodeListMarks.sort} = ${ordering} and ${nodeListMarks.position} <= ${offset}
        and ${nodeListMarks.generation} = ${currentGeneration} ${fresh}
      order by ${nodeListMarks.position} desc limit 1)
    select (select position from mark) as position, (select key from mark) is null as keyless,
      ${page(keyed)} as ids, ${keyless ? page(keyless) : sql`null::text[]`} as keyless_ids`)) as unknown as {
    rows: {
      position: number | null
      keyless: boolean
      ids: string[]
      keyless_ids: string[] | null
    }[]
  }
  const [row] = result.rows
  if (row?.position !== null && row?.position !== undefined) {
    if (!keyless) return row.ids
    if (row.keyless) return row.keyless_ids ?? []
    return row.ids.length === limit ? row.ids : undefined
  }
  const started = making.get(db) ?? new Map<NodeOrdering, Promise<void>>()
  making.set(db, started)
  if (!started.has(ordering)) {
    const made = makeMarks(db, publiclyVisible, ordering).finally(() => started.delete(ordering))
    started.set(ordering, made)
    // A failure leaves the OFFSET in use; the next deep page tries again.
    made.catch(() => undefined)
  }
  return undefined
}

/** The marks being made in the background, if any (tests wait for them). */
export async function marksMade(db: Db): Promise<void> {
  await Promise.all(
    [...(making.get(db)?.values() ?? [])].map((made) => made.catch(() => undefined)),
  )
}

/**
 * Marks `ordering` as it is now, in one statement (one snapshot: nodes and generation agree).
 */
export async function makeMarks(
  db: Db,
  publiclyVisible: SQL,
  ordering: NodeOrdering,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(nodeListMarks).where(sql`${nodeListMarks.sort} = ${ordering}`)
    await tx.execute(sql`
      insert into ${nodeListMarks} (sort, position, node_id, generation)
      select ${ordering}, position, id, ${currentGeneration} from (
        select ${nodes.id} as id, (row_number() over (
            order by ${sql.join(nodeOrderBy[ordering], sql`, `)}) - 1)::int as position
        from ${nodes} where ${publiclyVisible}) as ordered
      where position % ${LIST_MARKS.every} = 0
      on conflict (sort, position) do update
        set node_id = excluded.node_id, generation = excluded.generation, made_at = now()`)
  })
}
