// The words of the public nodes' ids and names, with how often each occurs in them: a typed
// word no name has is corrected to the names' words one edit away (two from eight letters on), as
// the suggestions find typos (suggest.ts typoEdits), and search reads the nodes with the corrected
// words (queries.ts correctedBranch). Checking the trigram word similarity of every name near a
// typo cost about 13 µs a candidate, thousands of them for a misspelt common word; the vocabulary
// is thousands of words, kept in each API process and read again in the background when the
// catalogue changed (checked at most once a minute). A search never waits for it: until the first
// read is done, typos are found by the trigram branch alone. See docs/ARCHITECTURE.md,
// "Never-seen searches".
import { sql } from 'drizzle-orm'
import { editDistance } from '@/src/lib/edit-distance'
import type { Db } from '../db/client'
import { nodes } from '../db/schema'
import { catalogueGenerationOf } from './ordering-cache'
import { publiclyVisible } from './queries'
import { TYPO_MIN_LENGTH } from './suggest'

/** How long a vocabulary is used before the catalogue generation is checked again. */
const VOCABULARY_MS = 60_000

/** Corrections of one typed word at most, the words most nodes have first. */
const CORRECTIONS_PER_WORD = 8

/** The public nodes' words (word → how often their ids and names have it) and their number. */
export interface NameVocabulary {
  words: Map<string, number>
  nodes: number
  /** The words by length (made by byLength): a typo's corrections are the lengths around it. */
  lengths?: Map<number, { word: string; letters: number }[]>
}

/** Which of the letters a–z (and the digits, as one) `word` has, one bit each. */
function lettersOf(word: string): number {
  let letters = 0
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i) - 97
    letters |= code >= 0 && code < 26 ? 1 << code : 1 << 26
  }
  return letters
}

/** How many bits of `n` are set. */
function bitCount(n: number): number {
  let count = 0
  for (let rest = n; rest !== 0; rest &= rest - 1) count++
  return count
}

/** `vocabulary` with its words grouped by length, for correctionsOf. */
export function byLength(vocabulary: NameVocabulary): NameVocabulary {
  const lengths: NonNullable<NameVocabulary['lengths']> = new Map()
  for (const word of vocabulary.words.keys()) {
    const entry = { word, letters: lettersOf(word) }
    const group = lengths.get(word.length)
    if (group) group.push(entry)
    else lengths.set(word.length, [entry])
  }
  return { ...vocabulary, lengths }
}

interface Kept {
  /** When the vocabulary was last known current. */
  readAt: number
  /** The catalogue generation it was read at (ordering-cache.ts): names change only with it. */
  generation?: number
  vocabulary?: NameVocabulary
  reading: boolean
}
const kept = new WeakMap<Db, Kept>()

async function readVocabulary(db: Db): Promise<NameVocabulary> {
  const result = (await db.execute(
    sql`select word, count(*)::int as nodes
      from ${nodes}, regexp_split_to_table(lower(${nodes.id} || ' ' || ${nodes.name}), '[^a-z0-9]+') as word
      where ${publiclyVisible()} and length(word) >= ${TYPO_MIN_LENGTH - 1}
      group by word`,
  )) as unknown as { rows: { word: string; nodes: number }[] }
  const [total] = (
    (await db.execute(
      sql`select count(*)::int as nodes from ${nodes} where ${publiclyVisible()}`,
    )) as unknown as { rows: { nodes: number }[] }
  ).rows
  return byLength({
    words: new Map(result.rows.map((row) => [row.word, Number(row.nodes)])),
    nodes: Number(total?.nodes ?? 0),
  })
}

function entryOf(db: Db): Kept {
  let entry = kept.get(db)
  if (!entry) kept.set(db, (entry = { readAt: 0, reading: false }))
  return entry
}

/**
 * Reads the vocabulary of `db` again unless the catalogue has not changed since it was read (a
 * whole-table read: 0.85 s of PostgreSQL's time at 100,000 nodes); `force` reads it anyway. A
 * failed read keeps the last vocabulary.
 */
export async function refreshNameVocabulary(db: Db, force = true): Promise<void> {
  const entry = entryOf(db)
  entry.reading = true
  try {
    const generation = await catalogueGenerationOf(db)
    if (force || !entry.vocabulary || generation !== entry.generation) {
      entry.vocabulary = await readVocabulary(db)
      entry.generation = generation
    }
    entry.readAt = Date.now()
  } finally {
    entry.reading = false
  }
}

/** The vocabulary of `db` as last read (undefined before the first read ends); checked when old. */
function vocabularyOf(db: Db, now = Date.now()): NameVocabulary | undefined {
  const entry = entryOf(db)
  if (!entry.reading && now - entry.readAt >= VOCABULARY_MS) {
    // Tried again by the next search after a failure.
    refreshNameVocabulary(db, false).catch(() => undefined)
  }
  return entry.vocabulary
}

/** The words of `vocabulary` one edit from `word` (two from eight letters), most nodes first. */
export function correctionsOf(vocabulary: NameVocabulary, word: string): string[] {
  const most = word.length >= 8 ? 2 : 1
  const { lengths = byLength(vocabulary).lengths } = vocabulary
  // An edit adds or removes at most two of the letters a word has: a cheap test before the
  // alignment table (most words of the same length differ in far more).
  const letters = lettersOf(word)
  const near: [string, number][] = []
  for (let length = word.length - most; length <= word.length + most; length++) {
    for (const candidate of lengths?.get(length) ?? []) {
      if (bitCount(letters ^ candidate.letters) > 2 * most) continue
      if (editDistance(word, candidate.word, most) <= most) {
        near.push([candidate.word, vocabulary.words.get(candidate.word) ?? 0])
      }
    }
  }
  return near
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, CORRECTIONS_PER_WORD)
    .map(([candidate]) => candidate)
}

/** Typed words with those no name has replaced by their corrections. */
export interface CorrectedWords {
  /** Per typed word, the words any of which a name must have: itself, or its corrections. */
  words: string[][]
  /** About the share of the public nodes with them all (at most the rarest typed word's). */
  share: number
  /** How many public nodes there are. */
  nodes: number
}

/**
 * `text` with each word that no name has (of TYPO_MIN_LENGTH letters or more) replaced by its
 * corrections ("color upscle" → color, upscale or upscaler), or undefined when no word was
 * corrected or the text is not words of letters and digits (nothing a tsquery could misread).
 */
export function correctedWords(
  vocabulary: NameVocabulary,
  text: string,
): CorrectedWords | undefined {
  const typed = text
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '')
  if (typed.length === 0 || !typed.every((word) => /^[a-z0-9]+$/.test(word))) return undefined
  let corrected = false
  const words = typed.map((word) => {
    if (word.length < TYPO_MIN_LENGTH || vocabulary.words.has(word)) return [word]
    const corrections = correctionsOf(vocabulary, word)
    if (corrections.length === 0) return [word]
    corrected = true
    return corrections
  })
  if (!corrected) return undefined
  const having = (alternatives: string[]) =>
    alternatives.reduce((sum, word) => sum + (vocabulary.words.get(word) ?? 0), 0)
  const rarest = Math.min(...words.map(having))
  const share = vocabulary.nodes > 0 ? Math.min(1, rarest / vocabulary.nodes) : 0
  return { words, share, nodes: vocabulary.nodes }
}

/** correctedWords of `text` against `db`'s names, when their vocabulary has been read. */
export function correctedNameWords(db: Db, text: string): CorrectedWords | undefined {
  const vocabulary = vocabularyOf(db)
  return vocabulary ? correctedWords(vocabulary, text) : undefined
}
