// Query suggestions while a visitor types (`GET /nodes/suggest`): node names, ComfyUI node class
// names of latest versions, publishers and tags that the public sees. Node, class and publisher
// labels come from the suggestion index (`suggestion_terms`, kept by triggers: schema.ts), where
// every label is found by a prefix of its start or of one of its words, a btree range read in
// order and capped; typos (four letters or more) are looked up by trigram similarity to whole
// labels only when prefixes found too few. Tags come from a vocabulary read once a minute and
// matched here, with one edit allowed. Each candidate gets a tier (exact, prefix, word prefix,
// inside, typo); the best tiers win, then the closer length, then popularity.
import { sql, type SQL } from 'drizzle-orm'
import { editDistance, editsToPrefix } from '@/src/lib/edit-distance'
import type { Db } from '../db/client'
import { escapeLike } from '../db/like'
import { nodes, publishers, suggestionTerms } from '../db/schema'
import type { Schemas } from '../http/operations'
import { publiclyVisible } from './queries'

export type Suggestion = Schemas['Suggestion']
type Kind = Suggestion['kind']

/** Exact > prefix > a word's prefix > inside > only similar (a typo). */
const TIER = { exact: 4, prefix: 3, wordPrefix: 2, inside: 1, similar: 0 } as const

interface Candidate extends Suggestion {
  tier: number
  similarity: number
  popularity: number
}

/** When kinds tie, the one a visitor most likely wants first. */
const KIND_ORDER: Kind[] = ['node', 'comfy_node', 'publisher', 'tag']

/** How long the tag vocabulary is reused: tags change with publishes, rarely. */
const TAG_VOCABULARY_MS = 60_000

/** The typed text as matched: trimmed, single spaces, lower case. */
export function normalizeTyped(typed: string): string {
  return typed.trim().replace(/\s+/g, ' ').toLowerCase()
}

type Row = Record<string, unknown>

async function rowsOf(db: Db, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as { rows: Row[] }
  return result.rows
}

const num = (value: unknown) => Number(value ?? 0)
const str = (value: unknown) => String(value ?? '')

/**
 * How many index rows one prefix reads, in term order, before ranking: the nearest terms come
 * first (an exact term before its longer ones), so a two-letter prefix matching thousands of
 * labels costs the same as a rare one.
 */
const PREFIX_ROWS = 200
/** Rows read for each shortened prefix when looking for a typo. */
const TYPO_ROWS = 40
/** A typo needs this many letters: shorter texts are only prefixes. */
export const TYPO_MIN_LENGTH = 4
/** Typos are looked for within the first letters typed. */
const TYPO_SPAN = 24

/**
 * Index rows whose term starts with `prefix` (whole labels only with `startsOnly`), in order.
 * Ordered `using ~<~`, the order of the text_pattern_ops index: a plain `order by term` follows
 * the database's collation, which the index cannot give, and sorts every row of the range.
 */
function prefixRows(prefix: string, rows: number, startsOnly = false): SQL {
  return sql`(select term, is_start, kind, label, node_id, publisher_id from ${suggestionTerms}
    where term like ${`${escapeLike(prefix)}%`} ${startsOnly ? sql`and is_start` : sql``}
    order by term using ~<~ limit ${rows})`
}

/**
 * Where a typo of `text` is looked for: whole labels starting with the text cut shorter letter by
 * letter (a typo keeps the letters before it, so one of those prefixes reaches the label), within
 * its first TYPO_SPAN letters; nowhere for texts shorter than TYPO_MIN_LENGTH.
 */
function typoPrefixes(text: string): string[] {
  if (text.length < TYPO_MIN_LENGTH) return []
  const typed = text.slice(0, TYPO_SPAN)
  return Array.from({ length: typed.length - 3 }, (_, i) => typed.slice(0, typed.length - 1 - i))
}

/**
 * How many edits make `text` (its first TYPO_SPAN letters) the start of `term`: one allowed,
 * two from eight letters on; Infinity beyond, or when the text is too short for a typo.
 */
function typoEdits(text: string, term: string): number {
  if (text.length < TYPO_MIN_LENGTH) return Number.POSITIVE_INFINITY
  const typed = text.slice(0, TYPO_SPAN)
  return editsToPrefix(typed, term, typed.length >= 8 ? 2 : 1)
}

interface IndexRow {
  term: string
  isStart: boolean
  kind: Kind
  label: string
  nodeId: string | null
  publisherId: string | null
}

/** Tier and similarity of an index row for the typed text, or undefined when it does not match. */
function match(row: IndexRow, text: string, squashed: string) {
  const { term } = row
  if (term.startsWith(text) || (row.isStart && squashed !== '' && term.startsWith(squashed))) {
    const tier =
      row.isStart && (term === text || term === squashed)
        ? TIER.exact
        : row.isStart
          ? TIER.prefix
          : TIER.wordPrefix
    return { tier, similarity: Math.min(1, text.length / Math.max(1, term.length)) }
  }
  if (!row.isStart) return undefined
  const edits = typoEdits(text, term)
  if (edits === Number.POSITIVE_INFINITY) return undefined
  return { tier: TIER.similar, similarity: 1 - edits / Math.min(text.length, TYPO_SPAN) }
}

/**
 * Nodes, classes and publishers from the suggestion index, reading index ranges: the text
 * and the text without spaces (class names); when those find too few, its typo ranges.
 * Each read also tells what the public sees and how popular each node is (withVisibility).
 */
async function indexedCandidates(db: Db, text: string, limit: number): Promise<Candidate[]> {
  // Class names are typed with or without spaces ("KSampler Adv" for "KSamplerAdvanced").
  const squashed = text.replace(/[\s_-]+/g, '')
  const ranges = [prefixRows(text, PREFIX_ROWS)]
  if (squashed !== text && squashed !== '') ranges.push(prefixRows(squashed, PREFIX_ROWS, true))
  const matched = new Map<string, Candidate>()
  const add = (rows: Row[]) => {
    for (const raw of rows) {
      if (raw.visible !== true) continue
      const row: IndexRow = {
        term: str(raw.term),
        isStart: raw.is_start === true,
        kind: str(raw.kind) as Kind,
        label: str(raw.label),
        nodeId: raw.node_id === null ? null : str(raw.node_id),
        publisherId: raw.publisher_id === null ? null : str(raw.publisher_id),
      }
      const found = match(row, text, squashed)
      if (!found) continue
      const target = row.nodeId ?? row.publisherId ?? ''
      const candidate: Candidate = {
        kind: row.kind,
        text: row.label,
        target,
        detail: row.kind === 'comfy_node' ? str(raw.node_name) || target : target,
        ...found,
        popularity: num(raw.downloads),
      }
      const key = `${row.kind}\u0000${target}\u0000${row.label}`
      const kept = matched.get(key)
      if (!kept || byRank(candidate, kept) < 0) matched.set(key, candidate)
    }
  }
  add(await rowsOf(db, withVisibility(ranges)))
  const shorter = typoPrefixes(text).map((prefix) => prefixRows(prefix, TYPO_ROWS, true))
  if (matched.size < limit && shorter.length > 0) add(await rowsOf(db, withVisibility(shorter)))
  return [...matched.values()]
}

/**
 * The index rows of `ranges` with whether the public sees them (an Active node of a publisher
 * that is not banned; a publisher that is not banned and has one), the node's name and
 * popularity: one query with the ranges.
 */
function withVisibility(ranges: SQL[]): SQL {
  // A ban is looked up for the few rows read, not joined from every publisher.
  const banned = (publisherId: SQL) =>
    sql`exists (select 1 from ${publishers} as p where p.id = ${publisherId}
      and p.status = 'PublisherStatusBanned')`
  return sql`select r.*, n.name as node_name, n.downloads,
      case when r.publisher_id is not null
        then not ${banned(sql`r.publisher_id`)} and exists (select 1 from ${nodes} as pn
          where pn.publisher_id = r.publisher_id and pn.status = 'NodeStatusActive')
        else n.status = 'NodeStatusActive' and not ${banned(sql`n.publisher_id`)} end as visible
    from (${sql.join(ranges, sql` union all `)}) as r
    left join ${nodes} as n on n.id = r.node_id`
}

/**
 * One suggestion per thing: its best row. A class shipped by several nodes (forks) is suggested
 * once, with its most used node.
 */
function distinct(candidates: Candidate[]): Candidate[] {
  const best = new Map<string, Candidate>()
  for (const candidate of [...candidates].sort(byRank)) {
    const key =
      candidate.kind === 'comfy_node'
        ? `${candidate.kind}\u0000${candidate.text.toLowerCase()}`
        : `${candidate.kind}\u0000${candidate.target}`
    if (!best.has(key)) best.set(key, candidate)
  }
  return [...best.values()]
}

interface TagVocabulary {
  readAt: number
  tags: Promise<{ tag: string; count: number }[]>
}
const vocabularies = new WeakMap<Db, TagVocabulary>()

/** The public tags with how many nodes carry each, read at most once a minute per database. */
function tagVocabulary(db: Db, now = Date.now()): TagVocabulary['tags'] {
  const kept = vocabularies.get(db)
  if (kept && now - kept.readAt < TAG_VOCABULARY_MS) return kept.tags
  const read = rowsOf(
    db,
    sql`select tag, count(*)::int as count from ${nodes}, unnest(${nodes.tags}) as tag
      where ${publiclyVisible()} group by tag`,
  ).then((rows) => rows.map((row) => ({ tag: str(row.tag), count: num(row.count) })))
  if (!kept) {
    // A failed first read is not kept: the next call reads again.
    read.catch(() => vocabularies.delete(db))
    vocabularies.set(db, { readAt: now, tags: read })
    return read
  }
  // An old vocabulary answers while the next is read (a whole-table read is no keystroke's wait);
  // if that read fails, the old one is kept for another period.
  kept.readAt = now
  read.then(
    () => vocabularies.set(db, { readAt: Date.now(), tags: read }),
    () => undefined,
  )
  return kept.tags
}

/** Whether `a` and `b` differ by at most one edit (insert, delete, change, or swap of two). */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true
  if (Math.abs(a.length - b.length) > 1) return false
  let i = 0
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1
  if (a.length === b.length) {
    const swapped = a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2)
    return swapped || a.slice(i + 1) === b.slice(i + 1)
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1)
}

/** Tier of a tag for the typed text (undefined: no match); a typo needs four letters or more. */
export function tagTier(tag: string, text: string): number | undefined {
  if (tag === text) return TIER.exact
  if (tag.startsWith(text)) return TIER.prefix
  if (tag.includes(`-${text}`)) return TIER.wordPrefix
  if (tag.includes(text)) return TIER.inside
  if (text.length >= 4 && withinOneEdit(tag, text)) return TIER.similar
  if (text.length >= 4 && withinOneEdit(tag.slice(0, text.length), text)) return TIER.similar
  return undefined
}

async function tagCandidates(db: Db, text: string, limit: number): Promise<Candidate[]> {
  const candidates: Candidate[] = []
  for (const { tag, count } of await tagVocabulary(db)) {
    const tier = tagTier(tag.toLowerCase(), text)
    if (tier === undefined) continue
    const similarity = Math.min(text.length, tag.length) / Math.max(text.length, tag.length)
    candidates.push({ kind: 'tag', text: tag, target: tag, tier, similarity, popularity: count })
  }
  return candidates.sort(byRank).slice(0, limit)
}

function byRank(a: Candidate, b: Candidate): number {
  return (
    b.tier - a.tier ||
    b.similarity - a.similarity ||
    b.popularity - a.popularity ||
    KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
    a.text.localeCompare(b.text)
  )
}

/** Up to `limit` suggestions for the typed text, best first. */
export async function suggest(db: Db, typed: string, limit: number): Promise<Suggestion[]> {
  const text = normalizeTyped(typed)
  if (!text) return []
  const [indexed, tags] = await Promise.all([
    indexedCandidates(db, text, limit),
    tagCandidates(db, text, limit),
  ])
  return distinct([...indexed, ...tags])
    .sort(byRank)
    .slice(0, limit)
    .map(({ kind, text: shown, target, detail }) =>
      detail === undefined || detail === shown
        ? { kind, text: shown, target }
        : { kind, text: shown, target, detail },
    )
}

/** A ComfyUI class name the typed text is a typo of, with the node whose latest version has it. */
export interface ClassTypo {
  nodeId: string
  /** The whole name is within the allowed edits, not only its start. */
  whole: boolean
}

/**
 * The least text greater than every text starting with `prefix`, in code point order (which is
 * UTF-8's byte order, the order of text_pattern_ops): its last letter's successor.
 */
export function pastPrefix(prefix: string): string {
  const letters = [...prefix]
  const last = letters.pop()?.codePointAt(0) ?? 0
  // Surrogates are no letters: the one after U+D7FF is U+E000.
  const next = last === 0xd7ff ? 0xe000 : Math.min(last + 1, 0x10ffff)
  return letters.join('') + String.fromCodePoint(next)
}

/**
 * Class starts within the ranges [low, high) of each prefix typed (the text arrays `low` and
 * `high`), TYPO_ROWS at most each, as rows (term, node_id) of `r`, from their own index
 * (suggestion_terms_class_start_idx: in the whole index a prefix such as "comf" walks past
 * thousands of node-id terms to find none). One statement whatever the number of prefixes,
 * prepared once per connection: a union of a range per prefix cost 3.5 ms of planning a search
 * (docs/ARCHITECTURE.md, "Never-seen searches"). A range inside another reads its rows again.
 */
export function classStartsIn(low: SQL, high: SQL): SQL {
  const { term, nodeId, kind, isStart } = suggestionTerms
  return sql`unnest(${low}::text[], ${high}::text[]) as p(low, high),
    lateral (select ${term} as term, ${nodeId} as node_id from ${suggestionTerms}
      where ${kind} = 'comfy_node' and ${isStart} and ${term} ~>=~ p.low and ${term} ~<~ p.high
      order by ${term} using ~<~ limit ${sql.raw(String(TYPO_ROWS))}) as r`
}

function prepareClassStarts(db: Db) {
  return db
    .selectDistinct({ term: sql<string>`r.term`, nodeId: sql<string>`r.node_id` })
    .from(classStartsIn(sql`${sql.placeholder('low')}`, sql`${sql.placeholder('high')}`))
    .prepare('class_typo_starts')
}
const preparedClassStarts = new WeakMap<Db, ReturnType<typeof prepareClassStarts>>()

/** The text as classTypos matches it: as typed and without spaces, each long enough for a typo. */
function typoTexts(typed: string): string[] {
  const text = normalizeTyped(typed)
  const squashed = text.replace(/[\s_-]+/g, '')
  return [...new Set([text, squashed])].filter((each) => each.length >= TYPO_MIN_LENGTH)
}

/** Ranges [low[i], high[i]) of class starts, as classStartsIn reads them. */
export type ClassTypoRanges = { low: string[]; high: string[] }

/** The ranges of class starts a typo of `typed` is looked for in (classStartsIn), none if short. */
export function classTypoRanges(typed: string): ClassTypoRanges {
  // The squashed text's prefixes up to its first space are the text's own: read once.
  const low = [...new Set(typoTexts(typed).flatMap(typoPrefixes))]
  return { low, high: low.map(pastPrefix) }
}

/** A class start read from the suggestion index (classStartsIn), with its node. */
export interface ClassStart {
  term: string
  nodeId: string
}

/**
 * The class names among `starts` (read in classTypoRanges(typed)) that `typed` is a typo of, by
 * the suggestions' own rules (typoEdits): exact names and starts are search's own matches.
 */
export function classTyposAmong(typed: string, starts: ClassStart[]): ClassTypo[] {
  const texts = typoTexts(typed)
  const found = new Map<string, ClassTypo>()
  for (const { term, nodeId } of starts) {
    if (texts.some((each) => term.startsWith(each))) continue
    const near = texts.filter((each) => typoEdits(each, term) !== Number.POSITIVE_INFINITY)
    if (near.length === 0) continue
    const whole = near.some((each) => editDistance(each, term, 2) <= (each.length >= 8 ? 2 : 1))
    if (!found.get(nodeId)?.whole) found.set(nodeId, { nodeId, whole })
  }
  return [...found.values()]
}

/**
 * Class names of latest versions that the text is a typo of, by the suggestions' own lookup
 * (typoPrefixes, typoEdits): for search (queries.ts), which finds exact and prefix class names
 * itself. The text is matched as typed and without spaces (class names are typed both ways);
 * who may see the nodes is left to the caller. A search with the term index reads the starts
 * with the text's lexemes instead (term-index.ts searchTermsOf).
 */
export async function classTypos(db: Db, typed: string): Promise<ClassTypo[]> {
  const ranges = classTypoRanges(typed)
  if (ranges.low.length === 0) return []
  let read = preparedClassStarts.get(db)
  if (!read) preparedClassStarts.set(db, (read = prepareClassStarts(db)))
  return classTyposAmong(typed, await read.execute(ranges))
}
