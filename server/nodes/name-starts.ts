// How many node names have a word starting with what is typed, estimated from the statistics
// PostgreSQL keeps of the names' own words (the expression of nodes_name_words_idx): their most
// common lexemes and how often each occurs. Search reads a start many names have by walking the
// nodes in downloads order, and one few names have through that index (queries.ts textBranches,
// readStartByIndex): walking every node for a start no name has cost 40-55 ms at 100,000 nodes.
// The planner cannot choose between the two itself: the search vector's statistics mix the
// description's words with the name's ("exam" starts "example" in most descriptions and in no
// name). Read at most once a minute per database. See docs/ARCHITECTURE.md, "Never-seen searches".
import { sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { SEARCH_TS_CONFIG } from '../db/schema'

/** How long the statistics are reused: ANALYZE refreshes them every so often, not per write. */
const STATISTICS_MS = 60_000

/** The most common lexemes of names with their frequencies (a share of all nodes, 0–1). */
export interface NameLexemes {
  lexemes: string[]
  frequencies: number[]
  /** How many nodes there were when these were gathered (pg_class.reltuples). */
  rows: number
}

interface Kept {
  readAt: number
  statistics: Promise<NameLexemes | undefined>
}
const kept = new WeakMap<Db, Kept>()

/** pg_stats' row of the index expression; undefined before the table was first analyzed. */
async function readStatistics(db: Db): Promise<NameLexemes | undefined> {
  const result = (await db.execute(
    sql`select most_common_elems::text::text[] as lexemes,
        most_common_elem_freqs as frequencies,
        (select reltuples from pg_class where oid = to_regclass('nodes')) as rows
      from pg_stats where tablename = 'nodes_name_words_idx' and schemaname = current_schema()`,
  )) as unknown as {
    rows: { lexemes: string[] | null; frequencies: number[] | null; rows: number | null }[]
  }
  const [row] = result.rows
  if (!row?.lexemes || !row.frequencies) return undefined
  // The frequencies end with the least, the greatest and the null share: one per lexeme first.
  return {
    lexemes: row.lexemes,
    frequencies: row.frequencies.slice(0, row.lexemes.length).map(Number),
    rows: Math.max(0, Number(row.rows ?? 0)),
  }
}

/**
 * The statistics of `db`, read at most once a minute; an old read answers while the next is read.
 * None yet (a table not analyzed since the index was made) is not kept: the next search asks again.
 */
function statisticsOf(db: Db, now = Date.now()): Promise<NameLexemes | undefined> {
  const found = kept.get(db)
  if (found && now - found.readAt < STATISTICS_MS) return found.statistics
  const read = readStatistics(db).catch(() => undefined)
  if (!found) {
    kept.set(db, { readAt: now, statistics: read })
    void read.then((statistics) => {
      if (!statistics && kept.get(db)?.statistics === read) kept.delete(db)
    })
    return read
  }
  found.readAt = now
  void read.then((statistics) => {
    if (statistics) kept.set(db, { readAt: Date.now(), statistics: read })
  })
  return found.statistics
}

/**
 * The share of nodes whose id or name has a word starting with `start` (a lexeme, lower case), as
 * PostgreSQL estimates a prefix match: the common lexemes with that start together, plus, for the
 * rest, the share of common lexemes that have it.
 */
export function nameStartShare(statistics: NameLexemes, start: string): number {
  const { lexemes, frequencies } = statistics
  if (lexemes.length === 0) return 0
  let matched = 0
  let common = 0
  let matchedCount = 0
  for (const [i, lexeme] of lexemes.entries()) {
    const frequency = frequencies[i] ?? 0
    // As independent events: the chance a node has any of them.
    if (lexeme.startsWith(start)) {
      matched += frequency - matched * frequency
      matchedCount++
    }
    common += frequency - common * frequency
  }
  return Math.min(1, matched + (1 - common) * (matchedCount / lexemes.length))
}

/**
 * Walking the nodes in downloads order looks at about `cap / share` index entries before it has
 * `cap` with the start; the names' index reads about `share × rows` rows, each about this many
 * times as costly (the search vector is checked again on the row): 0.5 µs against about 10 µs
 * at 100,000 nodes (docs/ARCHITECTURE.md, "Never-seen searches").
 */
const INDEX_ROW_COST = 20

/**
 * The start as the full text reads it (lower case, stemmed: "utis" is read as "uti", which starts
 * "util"); empty for a stop word.
 */
async function stemmedStart(db: Db, start: string): Promise<string> {
  const result = (await db.execute(
    sql`select to_tsquery(${SEARCH_TS_CONFIG}::regconfig, ${`${start}:*`})::text as query`,
  )) as unknown as { rows: { query: string }[] }
  return /^'(.*)':\*$/.exec(result.rows[0]?.query ?? '')?.[1] ?? ''
}

/**
 * Whether the nodes with a word of id or name starting with `start` (a word of letters and
 * digits) are better read from the names' index than by walking the nodes most downloaded first,
 * for the first `cap` of them; false without statistics (the walk, which the planner chooses
 * anyway).
 */
export async function readStartByIndex(db: Db, start: string, cap: number): Promise<boolean> {
  const [statistics, stem] = await Promise.all([statisticsOf(db), stemmedStart(db, start)])
  return (
    statistics !== undefined &&
    stem !== '' &&
    cheaperByIndex(nameStartShare(statistics, stem), statistics.rows, cap)
  )
}

/**
 * Whether the first `cap` of the nodes that a `share` of `rows` nodes match are read with fewer
 * costs from an index of them than by walking all nodes in order (see INDEX_ROW_COST).
 */
export function cheaperByIndex(share: number, rows: number, cap: number): boolean {
  return INDEX_ROW_COST * share * share * rows < cap
}
