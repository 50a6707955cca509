// Deep pages of the public listing without a cached ordering (a fresh process, or
// ORDERING_CACHE_MS=0): an OFFSET skips every node before the page, one index entry each (90,000
// for ComfyUI-Manager's last pages). Every LIST_MARKS.every-th node of the order is kept in the
// database instead (node_list_marks), with the catalogue generation it was made in: a page starts
// at the mark before it (an index seek to that node's key) and skips fewer than
// LIST_MARKS.every entries. Marks of another generation, or older than LIST_MARKS.maxAgeS (download
// counts move the order without moving the generation), are made again in the background, and
// pages meanwhile use the OFFSET. See docs/ARCHITECTURE.md, "Cached orderings".
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '../db/client'
import { nodeListMarks, nodes, publishers } from '../db/schema'
import { currentGeneration } from './ordering-cache'

/** How far apart marks are, and how long they are used (tests change them). */
export const LIST_MARKS = { every: 250, maxAgeS: 60 }

/** Marks being made, per database: one at a time in a process. */
const making = new WeakMap<Db, Promise<void>>()

/**
 * Public (Active, not of a banned publisher: `publiclyVisible` in queries.ts), written so that
 * it filters the few rows a page reads of nodes_public_downloads_idx in its order (the planner
 * joins with publishers by hashing, then sorts everything).
 */
const visible = sql`${nodes.status} = 'NodeStatusActive' and ${nodes.publisherId} <> all(array(
  select ${publishers.id} from ${publishers} where ${publishers.status} = 'PublisherStatusBanned'))`

/**
 * The ids of the page at `offset` of the public listing by downloads, from the mark before it;
 * undefined when the page is near the start or no current mark is kept (then marks are made in
 * the background, and the caller uses an OFFSET).
 */
export async function markedPage(
  db: Db,
  /** Who sees a node (`publiclyVisible`), for making the marks: they number every public node. */
  publiclyVisible: SQL,
  offset: number,
  limit: number,
): Promise<string[] | undefined> {
  if (offset < LIST_MARKS.every) return undefined
  const result = (await db.execute(sql`
    with mark as (
      select ${nodeListMarks.position} as position, ${nodes.downloads} as downloads, ${nodes.id} as id
      from ${nodeListMarks} join ${nodes} on ${nodes.id} = ${nodeListMarks.nodeId}
      where ${nodeListMarks.sort} = 'downloads' and ${nodeListMarks.position} <= ${offset}
        and ${nodeListMarks.generation} = ${currentGeneration}
        and ${nodeListMarks.madeAt} > now() - make_interval(secs => ${LIST_MARKS.maxAgeS})
      order by ${nodeListMarks.position} desc limit 1)
    select (select position from mark) as position, array(
      select ${nodes.id} from ${nodes}
      where ${visible}
        and ${nodes.downloads} <= (select downloads from mark)
        and (${nodes.downloads} < (select downloads from mark) or ${nodes.id} >= (select id from mark))
      order by ${nodes.downloads} desc, ${nodes.id}
      offset (select ${offset}::int - position from mark) limit ${limit}) as ids`)) as unknown as {
    rows: { position: number | null; ids: string[] }[]
  }
  const [row] = result.rows
  if (row?.position !== null && row?.position !== undefined) return row.ids
  if (!making.has(db)) {
    const made = makeMarks(db, publiclyVisible).finally(() => making.delete(db))
    making.set(db, made)
    // A failure leaves the OFFSET in use; the next deep page tries again.
    made.catch(() => undefined)
  }
  return undefined
}

/** The marks being made in the background, if any (tests wait for them). */
export async function marksMade(db: Db): Promise<void> {
  await making.get(db)?.catch(() => undefined)
}

/** Marks the order as it is now, in one statement (one snapshot: nodes and generation agree). */
export async function makeMarks(db: Db, publiclyVisible: SQL): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(nodeListMarks).where(sql`${nodeListMarks.sort} = 'downloads'`)
    await tx.execute(sql`
      insert into ${nodeListMarks} (sort, position, node_id, generation)
      select 'downloads', position, id, ${currentGeneration} from (
        select ${nodes.id} as id,
          (row_number() over (order by ${nodes.downloads} desc, ${nodes.id}) - 1)::int as position
        from ${nodes} where ${publiclyVisible}) as ordered
      where position % ${LIST_MARKS.every} = 0
      on conflict (sort, position) do update
        set node_id = excluded.node_id, generation = excluded.generation, made_at = now()`)
  })
}
