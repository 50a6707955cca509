// Query suggestions while a visitor types (`GET /nodes/suggest`): node names, ComfyUI node class
// names of latest versions, publishers and tags that the public sees. Each candidate gets a tier
// (exact, prefix, word prefix, inside, typo) and a similarity; the best tiers win, similarity then
// popularity break ties. Nodes and classes use the trigram indexes of search (a LIKE and a word
// similarity on the same GIN index); publishers are few; tags come from a vocabulary read once a
// minute and matched here, with one edit allowed for typos.
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '../db/client'
import { comfyNodes, nodes, publishers } from '../db/schema'
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

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (match) => `\\${match}`)

/** The typed text as matched: trimmed, single spaces, lower case. */
export function normalizeTyped(typed: string): string {
  return typed.trim().replace(/\s+/g, ' ').toLowerCase()
}

/** The SQL tier of `haystack` (lower case) for the typed text. */
function tierOf(haystack: SQL, text: string): SQL {
  const like = escapeLike(text)
  return sql`case when ${haystack} = ${text} then ${TIER.exact}
    when ${haystack} like ${`${like}%`} then ${TIER.prefix}
    when (${haystack} like ${`% ${like}%`} or ${haystack} like ${`%-${like}%`} or ${haystack} like ${`%\\_${like}%`}) then ${TIER.wordPrefix}
    when ${haystack} like ${`%${like}%`} then ${TIER.inside}
    else ${TIER.similar} end`
}

/** Rows of `haystack` containing the text, or similar to it (both answered by a trigram index). */
function matches(haystack: SQL, text: string): SQL {
  return sql`(${haystack} like ${`%${escapeLike(text)}%`} or ${text} <% ${haystack})`
}

type Row = Record<string, unknown>

async function rowsOf(db: Db, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as { rows: Row[] }
  return result.rows
}

const num = (value: unknown) => Number(value ?? 0)
const str = (value: unknown) => String(value ?? '')

async function nodeCandidates(db: Db, text: string, limit: number): Promise<Candidate[]> {
  const name = sql`lower(${nodes.name})`
  const id = sql`lower(${nodes.id})`
  const both = sql`lower(${nodes.id} || ' ' || ${nodes.name})`
  const rows = await rowsOf(
    db,
    sql`select ${nodes.id} as id, ${nodes.name} as name, ${nodes.downloads} as downloads,
        greatest(${tierOf(name, text)}, ${tierOf(id, text)}) as tier,
        word_similarity(${text}, ${both}) as similarity
      from ${nodes} where ${publiclyVisible()} and ${matches(both, text)}
      order by tier desc, similarity desc, ${nodes.downloads} desc nulls last, ${nodes.id}
      limit ${limit}`,
  )
  return rows.map((row) => ({
    kind: 'node',
    text: str(row.name) || str(row.id),
    target: str(row.id),
    detail: str(row.id),
    tier: num(row.tier),
    similarity: num(row.similarity),
    popularity: num(row.downloads),
  }))
}

async function comfyNodeCandidates(db: Db, text: string, limit: number): Promise<Candidate[]> {
  const className = sql`lower(${comfyNodes.comfyNodeName})`
  const rows = await rowsOf(
    db,
    sql`select ${comfyNodes.comfyNodeName} as class_name, ${nodes.id} as node_id,
        ${nodes.name} as node_name, ${nodes.downloads} as downloads,
        ${tierOf(className, text)} as tier, word_similarity(${text}, ${className}) as similarity
      from ${comfyNodes} join ${nodes} on ${nodes.latestVersionId} = ${comfyNodes.nodeVersionId}
      where ${publiclyVisible()} and ${matches(className, text)}
      order by tier desc, similarity desc, ${nodes.downloads} desc nulls last, ${comfyNodes.comfyNodeName}
      limit ${limit * 2}`,
  )
  // A class shipped by several nodes (forks) is suggested once, with its most used node.
  const seen = new Set<string>()
  const candidates: Candidate[] = []
  for (const row of rows) {
    const key = str(row.class_name).toLowerCase()
    if (seen.has(key)) continue
    seen.add(key)
    candidates.push({
      kind: 'comfy_node',
      text: str(row.class_name),
      target: str(row.node_id),
      detail: str(row.node_name) || str(row.node_id),
      tier: num(row.tier),
      similarity: num(row.similarity),
      popularity: num(row.downloads),
    })
  }
  return candidates.slice(0, limit)
}

async function publisherCandidates(db: Db, text: string, limit: number): Promise<Candidate[]> {
  const name = sql`lower(coalesce(${publishers.name}, ''))`
  const id = sql`lower(${publishers.id})`
  const both = sql`lower(${publishers.id} || ' ' || coalesce(${publishers.name}, ''))`
  const rows = await rowsOf(
    db,
    sql`select ${publishers.id} as id, ${publishers.name} as name,
        greatest(${tierOf(name, text)}, ${tierOf(id, text)}) as tier,
        word_similarity(${text}, ${both}) as similarity
      from ${publishers}
      where ${publishers.status} <> 'PublisherStatusBanned' and ${matches(both, text)}
        and exists (select 1 from ${nodes} where ${nodes.publisherId} = ${publishers.id} and ${publiclyVisible()})
      order by tier desc, similarity desc, ${publishers.id}
      limit ${limit}`,
  )
  return rows.map((row) => ({
    kind: 'publisher',
    text: str(row.name) || str(row.id),
    target: str(row.id),
    detail: str(row.id),
    tier: num(row.tier),
    similarity: num(row.similarity),
    popularity: 0,
  }))
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
  const tags = rowsOf(
    db,
    sql`select tag, count(*)::int as count from ${nodes}, unnest(${nodes.tags}) as tag
      where ${publiclyVisible()} group by tag`,
  ).then((rows) => rows.map((row) => ({ tag: str(row.tag), count: num(row.count) })))
  // A failed read is not kept: the next call reads again.
  tags.catch(() => vocabularies.delete(db))
  vocabularies.set(db, { readAt: now, tags })
  return tags
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
  const found = [
    ...(await nodeCandidates(db, text, limit)),
    ...(await comfyNodeCandidates(db, text, limit)),
    ...(await publisherCandidates(db, text, limit)),
    ...(await tagCandidates(db, text, limit)),
  ]
  return found
    .sort(byRank)
    .slice(0, limit)
    .map(({ kind, text: shown, target, detail }) =>
      detail === undefined || detail === shown
        ? { kind, text: shown, target }
        : { kind, text: shown, target, detail },
    )
}
