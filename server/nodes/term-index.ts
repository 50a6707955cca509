// The public nodes' search words (the lexemes of their search vectors), kept in each API process,
// so that a search finds its full-text and typed-so-far hits in memory instead of asking
// PostgreSQL to plan and walk an index for each new text (queries.ts rankedIds). The nodes are
// numbered in downloads order when the index is built; each lexeme keeps the numbers of the nodes
// that have it, in that order, so the first hits found are the most downloaded, as the branches
// they replace read them, and their count is exact. When the words find few, the branches read
// then are found here too: the nodes with the corrected words among their id and name lexemes, and
// those whose id and name the text is like by pg_trgm's word similarity (each node's trigrams,
// trigrams.ts), with that similarity for the ranking. So are the nodes whose latest version has a
// class name starting with the text. PostgreSQL still turns the typed text into lexemes (its
// stemmer) and ranks the hits. The index answers only for the catalogue generation it was built
// at; after a change it is built again in the background while searches ask the database. See
// docs/ARCHITECTURE.md, "Never-seen searches".
import { sql } from 'drizzle-orm'
import { SEARCH_WORD_SIMILARITY, type Db } from '../db/client'
import { nodeOrderBy } from '../db/ordering'
import { catalogueGeneration, comfyNodes, nodes, SEARCH_TS_CONFIG } from '../db/schema'
import { currentGeneration } from './ordering-cache'
import { publiclyVisible, type NodeFilters } from './queries'
import { classStartsIn, type ClassStart, type ClassTypoRanges } from './suggest'
import {
  asciiTrigramKeys,
  asciiWordCharacter,
  trigramKey,
  trigramsOf,
  wordSimilarityOf,
  type TrigramKey,
  type WordCharacter,
} from './trigrams'

/** A public node as the index is built from it. */
export interface IndexedNode {
  id: string
  publisherId: string
  tags: string[] | null
  supportedOs: string[] | null
  supportedAccelerators: string[] | null
  /** The lexemes of its search vector, separated by spaces (a lexeme never has one). */
  words: string
  /** Those of its id and name (weight A). */
  nameWords: string
  /** Its id and name, lower-cased by the database: `lower(id || ' ' || name)`. */
  idAndName: string
  /** The ComfyUI class names of its latest version, lower-cased by the database. */
  classes: string[]
}

/** A quoted lexeme of a tsquery's text form, at `from`; its end. */
function quotedAt(text: string, from: number): { lexeme: string; end: number } | undefined {
  if (text[from] !== "'") return undefined
  let lexeme = ''
  for (let i = from + 1; i < text.length; i++) {
    const letter = text[i]
    if (letter === '\\') lexeme += text[++i] ?? ''
    else if (letter === "'") {
      if (text[i + 1] !== "'") return { lexeme, end: i + 1 }
      lexeme += "'"
      i++
    } else lexeme += letter
  }
  return undefined
}

/**
 * The lexemes of a tsquery that is only lexemes joined by AND (`'upscal' & 'imag'`); none for an
 * empty one (only stop words); undefined for any other (a phrase, OR, NOT), left to the database.
 */
export function lexemesOfAnd(text: string): string[] | undefined {
  const lexemes: string[] = []
  let i = 0
  while (i < text.length) {
    const quoted = quotedAt(text, i)
    if (!quoted) return undefined
    lexemes.push(quoted.lexeme)
    i = quoted.end
    if (i === text.length) break
    if (text.slice(i, i + 3) !== ' & ') return undefined
    i += 3
  }
  return lexemes
}

/** The quoted lexemes joined by ` | ` from `from`, and where they end. */
function alternativesAt(
  text: string,
  from: number,
): { lexemes: string[]; end: number } | undefined {
  const lexemes: string[] = []
  let i = from
  for (;;) {
    const quoted = quotedAt(text, i)
    if (!quoted) return undefined
    lexemes.push(quoted.lexeme)
    i = quoted.end
    if (text.slice(i, i + 3) !== ' | ') return { lexemes, end: i }
    i += 3
  }
}

/**
 * The groups of lexemes of a tsquery that is an AND of ORs of lexemes (`( 'batch' | 'bach' ) &
 * 'color'`, one group printed without parentheses): a node must have one lexeme of each group.
 * None for an empty query; undefined for any other.
 */
export function lexemeGroups(text: string): string[][] | undefined {
  if (text === '') return []
  const alone = alternativesAt(text, 0)
  if (alone?.end === text.length) return [alone.lexemes]
  const groups: string[][] = []
  let i = 0
  for (;;) {
    if (text.startsWith('( ', i)) {
      const group = alternativesAt(text, i + 2)
      if (!group || text.slice(group.end, group.end + 2) !== ' )') return undefined
      groups.push(group.lexemes)
      i = group.end + 2
    } else {
      const quoted = quotedAt(text, i)
      if (!quoted) return undefined
      groups.push([quoted.lexeme])
      i = quoted.end
    }
    if (i === text.length) return groups
    if (text.slice(i, i + 3) !== ' & ') return undefined
    i += 3
  }
}

/** The lexeme of a tsquery `'upsc':*A`; '' for an empty one (a stop word); else undefined. */
export function startLexeme(text: string): string | undefined {
  if (text === '') return ''
  const quoted = quotedAt(text, 0)
  return quoted && text.slice(quoted.end) === ':*A' ? quoted.lexeme : undefined
}

/**
 * What a search looks for in the index, as the database's text search reads the text: the
 * lexemes every full-text hit has (any weight), and for the words typed so far the lexemes of the
 * words before the last and the start of a word of the id or name the last one is (queries.ts
 * prefixQuery: '' when the last word is a stop word).
 */
export interface SearchTerms {
  words: string[]
  start?: { words: string[]; prefix: string }
  /** The lexemes of the corrected words (queries.ts correctedBranch), a group per word. */
  corrected?: string[][]
}

/** Nodes of the index a branch found: the first `cap` in downloads order, and how many in all. */
export interface FoundInOrder {
  ids: string[]
  total: number
  /**
   * The word similarity of the text to each of `ids`' lower-cased id and name, as pg_trgm's
   * word_similarity gives it (TermIndex.similar, withNameWords): where the ranking would compute it.
   */
  similarities?: number[]
}

/** The nodes of class names with a start (TermIndex.classesStarting), each with its points. */
export interface FoundClasses extends FoundInOrder {
  /** The points of each of `ids`: `exact` where a class name is a start, else `start`. */
  boosts: number[]
}

/**
 * Strings in the order of their code points, as PostgreSQL's `~<~` orders UTF-8 bytes: JavaScript's
 * `<` compares UTF-16 units, which puts letters past U+FFFF before U+E000–U+FFFF.
 */
export function codePointOrder(a: string, b: string): number {
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x === y) continue
    const fix = (unit: number) =>
      unit >= 0xe000 ? unit - 0x800 : unit >= 0xd800 ? unit + 0x2000 : unit
    return fix(x) - fix(y)
  }
  return a.length - b.length
}

const NONE = new Int32Array(0)

const ASCII = /^[\x00-\x7f]*$/

/** The most trigrams a query `similar` answers may have (a text of about 250 letters). */
const MOST_QUERY_TRIGRAMS = 256

/** How many nodes `similar` counts trigrams of at a time. */
const SIMILAR_BLOCK = 4096

/**
 * Whether a node is in every one of `lists` (each ascending), asked of nodes in ascending order:
 * a cursor per list follows the questions.
 */
function inEvery(lists: ArrayLike<number>[]): (position: number) => boolean {
  const cursors = lists.map(() => 0)
  return (position) => {
    for (let j = 0; j < lists.length; j++) {
      const list = lists[j]
      let at = cursors[j]
      while (at < list.length && list[at] < position) at++
      cursors[j] = at
      if (at === list.length || list[at] !== position) return false
    }
    return true
  }
}

/**
 * The first of `length` sorted entries that `isBefore` does not put before what is looked for
 * (a binary search): where it is, or would be.
 */
function firstNotBefore(length: number, isBefore: (index: number) => boolean): number {
  let low = 0
  let high = length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (isBefore(middle)) low = middle + 1
    else high = middle
  }
  return low
}

/** Whether the ascending `list` has `value`. */
function hasSorted(list: ArrayLike<number>, value: number): boolean {
  const at = firstNotBefore(list.length, (i) => list[i] < value)
  return at < list.length && list[at] === value
}

/**
 * `names` sorted by code point: as JavaScript sorts them (UTF-16 units, natively) unless one has a
 * unit from U+D800 on, where the two orders differ (a comparator in JavaScript is slower).
 */
function inCodePointOrder(names: string[]): string[] {
  names.sort()
  return names.some((name) => /[\ud800-\uffff]/.test(name)) ? names.sort(codePointOrder) : names
}

/** How many nodes TermIndex.build adds before letting other work run. */
const BUILD_SLICE = 1_000

/**
 * `text` as a string of its own: a long slice keeps the whole text it was cut from alive (V8's
 * sliced strings), here the lexemes of a node.
 */
const ownCopy = <Key extends string | number>(key: Key): Key =>
  typeof key === 'number' || key.length < 13 ? key : (Buffer.from(key).toString() as Key)

/**
 * Each lexeme's node numbers, packed in one array (3.5 million at 100,000 nodes, where an array
 * per lexeme cost about 200 MB and most of the build's time). Built from the lexemes of each node
 * in turn (`add`, numbers ascending), then `done`.
 */
class Postings<Key extends string | number = string> {
  private readonly slots = new Map<Key, number>()
  private offsets = new Int32Array(1)
  private positions = new Int32Array(0)
  /** While built: each lexeme met, as its slot, and the node it was met in. */
  private met: number[] = []

  /** Adds the lexemes of `text` (separated by spaces) to the node numbered `position`. */
  addWords(this: Postings, text: string, position: number): void {
    let from = 0
    while (from < text.length) {
      let end = text.indexOf(' ', from)
      if (end < 0) end = text.length
      if (end > from) this.add(text.slice(from, end), position)
      from = end + 1
    }
  }

  /** Adds `key` to the node numbered `position` (at most once per node); its slot. */
  add(key: Key, position: number): number {
    const slot = this.slotOf(key)
    this.met.push(slot, position)
    return slot
  }

  /** The number of `key`, a new one if it was not met yet. */
  slotOf(key: Key): number {
    let slot = this.slots.get(key)
    if (slot === undefined) this.slots.set(ownCopy(key), (slot = this.slots.size))
    return slot
  }

  /** The number of `key` if it was met, else undefined. */
  slotMet(key: Key): number | undefined {
    return this.slots.get(key)
  }

  /** How many keys were met. */
  get size(): number {
    return this.slots.size
  }

  /** The nodes with the key numbered `slot`, ascending. */
  ofSlot(slot: number): Int32Array {
    return this.positions.subarray(this.offsets[slot], this.offsets[slot + 1])
  }

  /** Packs what was added: each slot's numbers together, in the order they were added. */
  done(): this {
    const { met } = this
    const offsets = new Int32Array(this.slots.size + 1)
    for (let i = 0; i < met.length; i += 2) offsets[met[i] + 1]++
    for (let slot = 0; slot < this.slots.size; slot++) offsets[slot + 1] += offsets[slot]
    const next = offsets.slice(0, this.slots.size)
    const positions = new Int32Array(met.length / 2)
    for (let i = 0; i < met.length; i += 2) positions[next[met[i]]++] = met[i + 1]
    this.offsets = offsets
    this.positions = positions
    this.met = []
    return this
  }

  /** The nodes with `lexeme`, ascending. */
  of(lexeme: Key): Int32Array {
    const slot = this.slots.get(lexeme)
    return slot === undefined ? NONE : this.ofSlot(slot)
  }

  /** Every lexeme, sorted. */
  sorted(): Key[] {
    return [...this.slots.keys()].sort()
  }

  /**
   * The keys in `order` with their slots, the keys then let go (ofSlot answers, `of` no longer):
   * for keys only ever read in order, whose map would be most of the memory.
   */
  keysInOrder(order: (keys: Key[]) => Key[]): { keys: Key[]; slots: Int32Array<ArrayBuffer> } {
    const keys = order([...this.slots.keys()])
    const slots = Int32Array.from(keys, (key) => this.slots.get(key) ?? -1)
    this.slots.clear()
    return { keys, slots }
  }
}

export class TermIndex {
  private readonly ids: string[] = []
  /** Tag, system, accelerator or publisher → its nodes, ascending: filters are intersections. */
  private readonly tags = new Postings()
  private readonly os = new Postings()
  private readonly accelerators = new Postings()
  private readonly publishers = new Postings()
  /** Lexeme → the numbers of the nodes that have it, ascending (downloads order). */
  private words = new Postings()
  /** The same for the lexemes of ids and names (weight A). */
  private nameWords = new Postings()
  /** The lexemes of nameWords, sorted: a start's lexemes are a range of them. */
  private nameWordsSorted: string[] = []
  /** Lower-cased class name of a latest version → its nodes, ascending (by classSlots). */
  private classes = new Postings()
  /** The class names, in code point order: a start's names are a range of them. */
  private classNamesSorted: string[] = []
  /** The slot in `classes` of each of classNamesSorted. */
  private classSlots = new Int32Array(0)
  /** Trigram (trigrams.ts) → the nodes whose lower-cased id and name have it, ascending. */
  private trigrams = new Postings<TrigramKey>()
  /** Each node's trigrams in order, as numbers of `trigrams`: node p's from trigramStarts[p]. */
  private trigramSequence = new Int32Array(0)
  private trigramStarts = new Int32Array(1)
  /** Scratch of `similar`, all -1 between calls: a trigram's number in the query. */
  private queryNumbers = new Int32Array(0)
  /** Scratch of `similar` for wordSimilarityOf, all -1 between calls. */
  private lastAt = new Int32Array(0)
  /** Scratch of `similar`: how many of the query's trigrams each node of a block has. */
  private readonly present = new Uint16Array(SIMILAR_BLOCK)

  private constructor(
    /** The catalogue generation the nodes were read at. */
    readonly generation: number,
    readonly builtAt: number,
  ) {}

  /**
   * The index of `nodesInOrder` (the public nodes, most downloaded first). A thousand nodes at a
   * time, other work in between: 100,000 nodes take about 2 s of the process.
   */
  static async build(
    generation: number,
    nodesInOrder: IndexedNode[],
    builtAt = Date.now(),
    /** How the database classes characters other than ASCII (wordCharactersOf). */
    wordCharacter: WordCharacter = asciiWordCharacter,
  ): Promise<TermIndex> {
    const index = new TermIndex(generation, builtAt)
    const words = new Postings()
    const nameWords = new Postings()
    const classes = new Postings()
    const trigrams = new Postings<TrigramKey>()
    const sequence: number[] = []
    const starts = [0]
    for (let from = 0; from < nodesInOrder.length; from += BUILD_SLICE) {
      if (from > 0) await new Promise((resolve) => setImmediate(resolve))
      for (const node of nodesInOrder.slice(from, from + BUILD_SLICE)) {
        const position = index.ids.length
        index.ids.push(node.id)
        for (const tag of new Set(node.tags)) index.tags.add(tag, position)
        for (const os of new Set(node.supportedOs)) index.os.add(os, position)
        for (const name of new Set(node.supportedAccelerators)) {
          index.accelerators.add(name, position)
        }
        index.publishers.add(node.publisherId, position)
        words.addWords(node.words, position)
        nameWords.addWords(node.nameWords, position)
        for (const name of new Set(node.classes)) classes.add(name, position)
        const keys = ASCII.test(node.idAndName)
          ? asciiTrigramKeys(node.idAndName)
          : trigramsOf(node.idAndName, wordCharacter).map(trigramKey)
        const distinct = new Set<TrigramKey>()
        for (const key of keys) {
          const met = distinct.has(key)
          distinct.add(key)
          sequence.push(met ? trigrams.slotOf(key) : trigrams.add(key, position))
        }
        starts.push(sequence.length)
      }
    }
    index.words = words.done()
    index.nameWords = nameWords.done()
    index.trigrams = trigrams.done()
    index.trigramSequence = Int32Array.from(sequence)
    index.trigramStarts = Int32Array.from(starts)
    index.queryNumbers = new Int32Array(trigrams.size).fill(-1)
    index.lastAt = new Int32Array(trigrams.size + MOST_QUERY_TRIGRAMS).fill(-1)
    index.nameWordsSorted = nameWords.sorted()
    index.classes = classes.done()
    ;({ keys: index.classNamesSorted, slots: index.classSlots } =
      classes.keysInOrder(inCodePointOrder))
    for (const filter of [index.tags, index.os, index.accelerators, index.publishers]) filter.done()
    return index
  }

  get size(): number {
    return this.ids.length
  }

  /**
   * Whether the index can answer for these filters: the public's (it holds public nodes only),
   * without a list of node ids.
   */
  static answers(filters: NodeFilters): boolean {
    return (filters.visibility ?? 'public') === 'public' && !filters.nodeIds?.length
  }

  /**
   * The full-text hits (every lexeme of `terms.words`) and, when they are fewer than `cap`, the
   * typed-so-far hits, each the first `cap` that pass the filters (as queries.ts
   * filterConditions) and how many do.
   */
  find(
    terms: SearchTerms,
    filters: NodeFilters,
    cap: number,
  ): { words: FoundInOrder; start: FoundInOrder } {
    const filtered = this.filterLists(filters)
    const none = { ids: [], total: 0 }
    const words =
      terms.words.length === 0
        ? none
        : this.inOrder([...terms.words.map((word) => this.words.of(word)), ...filtered], cap)
    let start: FoundInOrder = none
    if (terms.start && words.total < cap) {
      const lists: ArrayLike<number>[] = terms.start.words.map((word) => this.words.of(word))
      if (terms.start.prefix !== '') lists.push(this.union(this.startingWith(terms.start.prefix)))
      if (lists.length > 0) start = this.inOrder([...lists, ...filtered], cap)
    }
    return { words, start }
  }

  /**
   * The nodes whose id and name are like `query` (lower-cased) as the search's typo branch reads
   * them, `query <% lower(id || ' ' || name)`: pg_trgm's word similarity (trigrams.ts) at least
   * SEARCH_WORD_SIMILARITY. The first `cap` that pass the filters and how many, or `cap` when
   * there are that many (each candidate's similarity is computed: a short text has tens of
   * thousands); undefined when the query is more than ASCII (its characters are classed by the
   * database's locale) or very long.
   */
  similar(query: string, filters: NodeFilters, cap: number): FoundInOrder | undefined {
    return this.withSimilarityTo(query, (similarityAt, queryLength, slots) => {
      // A node's similarity is at most the share of the query's trigrams it has anywhere: they
      // are counted a block of nodes at a time, in order, so that the walk stops at `cap`.
      const lists = slots.map((slot) => this.trigrams.ofSlot(slot))
      const cursors = lists.map(() => 0)
      const passes = inEvery(this.filterLists(filters))
      const least = Math.max(1, SEARCH_WORD_SIMILARITY * queryLength - 1e-6)
      const present = this.present
      const found = { ids: [] as string[], total: 0, similarities: [] as number[] }
      for (let from = 0; from < this.ids.length; from += present.length) {
        const to = Math.min(this.ids.length, from + present.length)
        present.fill(0)
        for (let k = 0; k < lists.length; k++) {
          const list = lists[k]
          let at = cursors[k]
          for (; at < list.length && list[at] < to; at++) present[list[at] - from]++
          cursors[k] = at
        }
        for (let position = from; position < to; position++) {
          if (present[position - from] < least || !passes(position)) continue
          const similarity = similarityAt(position)
          if (similarity < SEARCH_WORD_SIMILARITY) continue
          found.ids.push(this.ids[position])
          found.similarities.push(similarity)
          if (++found.total === cap) return found
        }
      }
      return found
    })
  }

  /**
   * `measure` given the word similarity of `query` (lower-cased) to a node's lower-cased id and name
   * (pg_trgm's, trigrams.ts), the query's number of distinct trigrams and the slots of those the
   * nodes have; undefined when the query is more than ASCII (its characters are classed by the
   * database's locale) or very long.
   */
  private withSimilarityTo<T>(
    query: string,
    measure: (
      similarityAt: (position: number) => number,
      queryLength: number,
      slots: number[],
    ) => T,
  ): T | undefined {
    if (!ASCII.test(query)) return undefined
    const numbers = new Map<number, number>()
    for (const key of asciiTrigramKeys(query)) if (!numbers.has(key)) numbers.set(key, numbers.size)
    const queryLength = numbers.size
    if (queryLength > MOST_QUERY_TRIGRAMS) return undefined
    const { queryNumbers, lastAt, trigramSequence, trigramStarts } = this
    const slots: number[] = []
    for (const [trigram, number] of numbers) {
      const slot = this.trigrams.slotMet(trigram)
      if (slot === undefined) continue
      queryNumbers[slot] = number
      slots.push(slot)
    }
    const target: number[] = []
    const similarityAt = (position: number) => {
      target.length = 0
      for (let i = trigramStarts[position]; i < trigramStarts[position + 1]; i++) {
        const slot = trigramSequence[i]
        const number = queryNumbers[slot]
        target.push(number >= 0 ? number : queryLength + slot)
      }
      return wordSimilarityOf(queryLength, target, lastAt)
    }
    try {
      return measure(similarityAt, queryLength, slots)
    } finally {
      for (const slot of slots) queryNumbers[slot] = -1
    }
  }

  /**
   * The nodes whose id or name has a lexeme of each group (SearchTerms.corrected, as queries.ts
   * correctedBranch reads them), the first `cap` that pass the filters and how many.
   */
  withNameWords(
    groups: string[][],
    filters: NodeFilters,
    cap: number,
    /** The text whose word similarity to each hit is wanted (FoundInOrder.similarities). */
    similarTo?: string,
  ): FoundInOrder {
    if (groups.length === 0) return { ids: [], total: 0 }
    const lists = groups.map((group) => this.union(group.map((word) => this.nameWords.of(word))))
    const { positions, total } = this.positionsInOrder(
      [...lists, ...this.filterLists(filters)],
      cap,
    )
    const similarities =
      similarTo === undefined
        ? undefined
        : this.withSimilarityTo(similarTo, (similarityAt) => positions.map(similarityAt))
    return {
      ids: positions.map((position) => this.ids[position]),
      total,
      ...(similarities && { similarities }),
    }
  }

  /**
   * The nodes with a class name starting with one of `starts` (lower-cased; none starting with
   * another), as queries.ts textBranches' class branch reads them from the database: the first
   * `rowsRead` class names of nodes in code point order (a node per name and node), then those
   * that pass the filters, each once with the most points (`exact` for a name equal to one of
   * `exactNames`, else `start`). The first `cap` in the order the names were read, or most
   * downloaded first (`byDownloads`), and how many.
   */
  classesStarting(
    starts: string[],
    exactNames: string[],
    points: { exact: number; start: number },
    options: { filters: NodeFilters; cap: number; rowsRead: number; byDownloads: boolean },
  ): FoundClasses {
    const sorted = this.classNamesSorted
    // The names' nodes come in no one order: each filter list is searched (they ascend).
    const lists = this.filterLists(options.filters)
    const passes = (position: number) => lists.every((list) => hasSorted(list, position))
    const boostOf = new Map<number, number>()
    let read = 0
    for (const start of [...starts].sort(codePointOrder)) {
      const first = firstNotBefore(sorted.length, (i) => codePointOrder(sorted[i], start) < 0)
      for (let i = first; i < sorted.length && read < options.rowsRead; i++) {
        const name = sorted[i]
        if (!name.startsWith(start)) break
        const boost = exactNames.includes(name) ? points.exact : points.start
        const list = this.classes.ofSlot(this.classSlots[i])
        for (let j = 0; j < list.length && read < options.rowsRead; j++, read++) {
          const position = list[j]
          if (!passes(position)) continue
          boostOf.set(position, Math.max(boostOf.get(position) ?? 0, boost))
        }
      }
    }
    const positions = [...boostOf.keys()]
    if (options.byDownloads) positions.sort((a, b) => a - b)
    const first = positions.slice(0, options.cap)
    return {
      ids: first.map((position) => this.ids[position]),
      boosts: first.map((position) => boostOf.get(position) ?? 0),
      total: positions.length,
    }
  }

  /** The nodes of the id or name lexemes starting with `prefix`, a list per lexeme. */
  private startingWith(prefix: string): Int32Array[] {
    const sorted = this.nameWordsSorted
    const lists: Int32Array[] = []
    const first = firstNotBefore(sorted.length, (i) => sorted[i] < prefix)
    for (let i = first; i < sorted.length && sorted[i].startsWith(prefix); i++) {
      lists.push(this.nameWords.of(sorted[i]))
    }
    return lists
  }

  /** The nodes in any of `lists`, ascending. */
  private union(lists: Int32Array[]): ArrayLike<number> {
    if (lists.length <= 1) return lists[0] ?? NONE
    const marked = new Uint8Array(this.ids.length)
    for (const list of lists) for (let j = 0; j < list.length; j++) marked[list[j]] = 1
    const union: number[] = []
    for (let position = 0; position < marked.length; position++) {
      if (marked[position]) union.push(position)
    }
    return union
  }

  /**
   * The nodes in every one of `lists` that pass: the first `cap` (their ids) and how many. The
   * shortest list is walked; the others are followed with a cursor each (all ascend).
   */
  private inOrder(lists: ArrayLike<number>[], cap: number): FoundInOrder {
    const { positions, total } = this.positionsInOrder(lists, cap)
    return { ids: positions.map((position) => this.ids[position]), total }
  }

  /** inOrder's nodes as their numbers. */
  private positionsInOrder(
    lists: ArrayLike<number>[],
    cap: number,
  ): { positions: number[]; total: number } {
    const found = { positions: [] as number[], total: 0 }
    if (lists.length === 0) return found
    const [shortest, ...others] = [...lists].sort((a, b) => a.length - b.length)
    const inOthers = inEvery(others)
    for (let i = 0; i < shortest.length; i++) {
      const position = shortest[i]
      if (!inOthers(position)) continue
      if (found.total < cap) found.positions.push(position)
      found.total++
    }
    return found
  }

  /**
   * The filters of queries.ts filterConditions as lists of nodes a hit must be in: each requested
   * tag; any requested system, any requested accelerator; the publisher.
   */
  private filterLists(filters: NodeFilters): ArrayLike<number>[] {
    const { tags, supportedOs, supportedAccelerators, publisherId } = filters
    const lists: ArrayLike<number>[] = (tags ?? []).map((tag) => this.tags.of(tag))
    if (supportedOs?.length) lists.push(this.union(supportedOs.map((os) => this.os.of(os))))
    if (supportedAccelerators?.length) {
      lists.push(this.union(supportedAccelerators.map((name) => this.accelerators.of(name))))
    }
    if (publisherId) lists.push(this.publishers.of(publisherId))
    return lists
  }
}

/** Reads the public nodes, most downloaded first, with the catalogue generation (one snapshot). */
export async function readTermIndex(db: Db): Promise<TermIndex> {
  const rows = await db
    .select({
      id: nodes.id,
      publisherId: nodes.publisherId,
      tags: nodes.tags,
      supportedOs: nodes.supportedOs,
      supportedAccelerators: nodes.supportedAccelerators,
      words: sql<string>`array_to_string(tsvector_to_array(${nodes.searchVector}), ' ')`,
      nameWords: sql<string>`array_to_string(tsvector_to_array(ts_filter(${nodes.searchVector}, '{a}')), ' ')`,
      idAndName: sql<string>`lower(${nodes.id} || ' ' || ${nodes.name})`,
      // As JSON: node-postgres parses an array's text a character at a time.
      classes: sql<string[]>`coalesce((select json_agg(lower(${comfyNodes.comfyNodeName}))
        from ${comfyNodes} where ${comfyNodes.nodeVersionId} = ${nodes.latestVersionId}), '[]'::json)`,
      generation: currentGeneration,
    })
    .from(nodes)
    .where(publiclyVisible())
    .orderBy(...nodeOrderBy.downloads)
  const generation = rows[0]
    ? Number(rows[0].generation)
    : ((await db.select().from(catalogueGeneration))[0]?.generation ?? 0)
  return TermIndex.build(generation, rows, Date.now(), await wordCharactersOf(db, rows))
}

/**
 * Which characters of the nodes' ids and names pg_trgm reads as part of a word: the letters and
 * digits of ASCII, and the others the database's locale calls letters or digits (asked once per
 * build: a character of a word has trigrams of its own).
 */
async function wordCharactersOf(
  db: Db,
  rows: Pick<IndexedNode, 'idAndName'>[],
): Promise<WordCharacter> {
  const others = new Set<string>()
  for (const { idAndName } of rows) {
    if (ASCII.test(idAndName)) continue
    for (const character of idAndName) if (character > '\x7f') others.add(character)
  }
  if (others.size === 0) return asciiWordCharacter
  const result =
    (await db.execute(sql`select array(select c from unnest(${sql.param([...others])}::text[]) as c
      where cardinality(show_trgm(c)) > 0) as letters`)) as unknown as {
      rows: { letters: string[] }[]
    }
  const letters = new Set(result.rows[0]?.letters ?? [])
  return (character) => asciiWordCharacter(character) || letters.has(character)
}

/**
 * The statement turning a text into lexemes as the search branches read it (queries.ts
 * textBranches): the whole text, the words before the last, and the last as a start of a word of
 * the id or name; with the catalogue generation. One text for every search, prepared once per
 * connection (the one-row generation table is its FROM).
 */
function prepareTermsRead(db: Db) {
  const config = sql.raw(`'${SEARCH_TS_CONFIG}'::regconfig`)
  return db
    .select({
      generation: catalogueGeneration.generation,
      words: sql<string>`websearch_to_tsquery(${config}, ${sql.placeholder('text')}::text)::text`,
      before: sql<string>`websearch_to_tsquery(${config}, ${sql.placeholder('before')}::text)::text`,
      start: sql<string>`case when ${sql.placeholder('start')}::text = '' then ''
        else to_tsquery(${config}, ${sql.placeholder('start')}::text)::text end`,
      corrected: sql<string>`case when ${sql.placeholder('corrected')}::text = '' then ''
        else to_tsquery(${config}, ${sql.placeholder('corrected')}::text)::text end`,
      // The class starts a typo of the text is looked for among (suggest.ts classTypos), as
      // JSON: one round trip for both. Each once: the ranges nest.
      classStarts: sql<ClassStart[]>`(select coalesce(json_agg(json_build_object('term', r.term,
        'nodeId', r.node_id)), '[]'::json) from (select distinct r.term, r.node_id from ${classStartsIn(
          sql`${sql.placeholder('low')}`,
          sql`${sql.placeholder('high')}`,
        )}) as r)`,
    })
    .from(catalogueGeneration)
    .prepare('search_terms')
}
const preparedTermReads = new WeakMap<Db, ReturnType<typeof prepareTermsRead>>()

/**
 * `text`'s lexemes (SearchTerms) and the catalogue generation they were read at; undefined
 * terms when the text is more than words (a phrase, OR, NOT: left to the database).
 * `typedSoFar`: the words before the last and the last (queries.ts prefixQuery), if any. Also
 * the class starts in `typoRanges` (suggest.ts classTypoRanges), read in the same statement.
 */
export async function searchTermsOf(
  db: Db,
  text: string,
  typedSoFar: { before: string; last: string } | undefined,
  /** The words with those no name has corrected, any of each (name-vocabulary.ts). */
  corrected?: string[][],
  typoRanges: ClassTypoRanges = { low: [], high: [] },
): Promise<{ terms?: SearchTerms; generation: number; classStarts: ClassStart[] }> {
  let read = preparedTermReads.get(db)
  if (!read) preparedTermReads.set(db, (read = prepareTermsRead(db)))
  const [row] = await read.execute({
    text,
    before: typedSoFar?.before ?? '',
    start: typedSoFar ? `${typedSoFar.last}:*A` : '',
    corrected: corrected?.map((words) => `(${words.join(' | ')})`).join(' & ') ?? '',
    ...typoRanges,
  })
  const base = { generation: Number(row?.generation ?? 0), classStarts: row?.classStarts ?? [] }
  const words = row ? lexemesOfAnd(row.words) : undefined
  if (!words) return base
  const correctedGroups = corrected && lexemeGroups(row.corrected)
  const more = correctedGroups ? { corrected: correctedGroups } : {}
  if (!typedSoFar) return { terms: { words, ...more }, ...base }
  const before = lexemesOfAnd(row.before)
  const prefix = startLexeme(row.start)
  if (!before || prefix === undefined) return base
  return { terms: { words, start: { words: before, prefix }, ...more }, ...base }
}

/**
 * A process's term index of `db`: built on the first search, built again when a search finds the
 * catalogue generation moved (or the index older than `maxAgeMs`: downloads reorder the nodes
 * without moving it), at most once every `minRebuildMs`. A search never waits for a build.
 */
export class SearchTermIndex {
  private index: TermIndex | undefined
  private building = false
  private lastBuildAt = Number.NEGATIVE_INFINITY
  /** Searches answered from the index, and those that found it absent or of another generation. */
  readonly stats = { hits: 0, misses: 0 }

  constructor(
    private readonly db: Db,
    private readonly minRebuildMs = 60_000,
    private readonly maxAgeMs = 15 * 60_000,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /** The index when it was built at `generation`, else undefined (and a build started if due). */
  at(generation: number, now = Date.now()): TermIndex | undefined {
    const index = this.index
    const current = index?.generation === generation
    const due = !current || now - index.builtAt >= this.maxAgeMs
    if (due && !this.building && now - this.lastBuildAt >= this.minRebuildMs) {
      void this.build(now)
    }
    this.stats[current ? 'hits' : 'misses']++
    return current ? index : undefined
  }

  /** Builds the index now (a failed build keeps the last one). */
  async build(now = Date.now()): Promise<void> {
    this.building = true
    this.lastBuildAt = now
    try {
      const built = await readTermIndex(this.db)
      if (!this.index || built.generation >= this.index.generation) this.index = built
    } catch (error) {
      this.onError(error)
    } finally {
      this.building = false
    }
  }
}
