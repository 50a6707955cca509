// pg_trgm's word similarity (`word_similarity(a, b)`, the `a <% b` of the search's typo branch),
// computed as PostgreSQL computes it, so that the term index can find a misspelt name's nodes in
// memory with the same hits (queries.ts textBranches, term-index.ts similar). Trigrams here are
// strings of three characters; pg_trgm hashes one with a character of several bytes into three
// bytes, which tells two such trigrams apart unless their hashes collide (never among ASCII).
// See docs/ARCHITECTURE.md, "Never-seen searches".

/** Whether a character is part of a word (pg_trgm's ISWORDCHR: a letter or digit of the locale). */
export type WordCharacter = (character: string) => boolean

const ASCII_ALNUM = /^[a-z0-9]$/i

/** Letters and digits of ASCII, as every locale classes them; nothing else. */
export const asciiWordCharacter: WordCharacter = (character) => ASCII_ALNUM.test(character)

/**
 * The trigrams of `text` in order, as pg_trgm makes them for word similarity (generate_trgm_only):
 * each word, a run of word characters, padded with two spaces before and one after, cut into every
 * run of three characters. `text` is lower-cased already (the database's lower()).
 */
export function trigramsOf(text: string, isWordCharacter: WordCharacter): string[] {
  const characters = Array.from(text)
  const trigrams: string[] = []
  let at = 0
  while (at < characters.length) {
    while (at < characters.length && !isWordCharacter(characters[at])) at++
    if (at === characters.length) break
    let end = at
    while (end < characters.length && isWordCharacter(characters[end])) end++
    const padded = ['', '', ...characters.slice(at, end), ''].map((c) => c || ' ')
    for (let i = 0; i + 3 <= padded.length; i++)
      trigrams.push(padded[i] + padded[i + 1] + padded[i + 2])
    at = end
  }
  return trigrams
}

/** A trigram kept by the term index: three ASCII characters as one number (trigramKey). */
export type TrigramKey = number | string

/** `trigram` as a key: three ASCII characters as a number of 7 bits each, else the string. */
export function trigramKey(trigram: string): TrigramKey {
  const [a, b, c] = [0, 1, 2].map((i) => trigram.charCodeAt(i))
  return trigram.length === 3 && a < 128 && b < 128 && c < 128 ? (a << 14) | (b << 7) | c : trigram
}

const isAsciiAlnum = (code: number) =>
  (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90)

/** The keys of trigramsOf(text, asciiWordCharacter) of an ASCII text, without making strings. */
export function asciiTrigramKeys(text: string): number[] {
  const keys: number[] = []
  const space = 32
  let at = 0
  while (at < text.length) {
    while (at < text.length && !isAsciiAlnum(text.charCodeAt(at))) at++
    if (at === text.length) break
    let end = at
    while (end < text.length && isAsciiAlnum(text.charCodeAt(end))) end++
    let [a, b] = [space, space]
    for (let i = at; i <= end; i++) {
      const c = i < end ? text.charCodeAt(i) : space
      keys.push((a << 14) | (b << 7) | c)
      ;[a, b] = [b, c]
    }
    at = end
  }
  return keys
}

/** pg_trgm's CALCSML: the share of trigrams in common, as a float4. */
const similarity = (count: number, length1: number, length2: number) =>
  Math.fround(count / (length1 + length2 - count))

/**
 * The word similarity of a text of `queryLength` distinct trigrams to the text whose trigrams,
 * in order, are `target`: each given as its number among the distinct trigrams of both, those of
 * the query first (`found(j)`: trigram j is one of the query's). pg_trgm's
 * iterate_word_similarity: the best share over every extent of the target's trigrams that starts
 * and ends with one of the query's. `lastAt` is scratch space of at least as many entries as
 * distinct trigrams, all -1, and left so.
 */
export function wordSimilarityOf(
  queryLength: number,
  target: ArrayLike<number>,
  lastAt: Int32Array,
): number {
  const found = (j: number) => j < queryLength
  let targetLength = 0
  let count = 0
  let lower = -1
  let best = 0
  for (let i = 0; i < target.length; i++) {
    const j = target[i]
    if (lower >= 0 || found(j)) {
      if (lastAt[j] < 0) {
        targetLength++
        if (found(j)) count++
      }
      lastAt[j] = i
    }
    if (!found(j)) continue
    if (lower === -1) {
      lower = i
      targetLength = 1
    }
    let current = similarity(count, queryLength, targetLength)
    // A later start of the extent, when it is better.
    let tryCount = count
    let tryLength = targetLength
    const previousLower = lower
    for (let tryLower = lower; tryLower <= i; tryLower++) {
      const tried = similarity(tryCount, queryLength, tryLength)
      if (tried > current) {
        current = tried
        targetLength = tryLength
        lower = tryLower
        count = tryCount
      }
      const k = target[tryLower]
      if (lastAt[k] === tryLower) {
        tryLength--
        if (found(k)) tryCount--
      }
    }
    if (current > best) best = current
    for (let dropped = previousLower; dropped < lower; dropped++) {
      const k = target[dropped]
      if (lastAt[k] === dropped) lastAt[k] = -1
    }
  }
  for (let i = 0; i < target.length; i++) lastAt[target[i]] = -1
  return best
}

/** word_similarity(query, target) of two lower-cased texts, as pg_trgm computes it. */
export function wordSimilarity(
  query: string,
  target: string,
  isWordCharacter: WordCharacter = asciiWordCharacter,
): number {
  const numbers = new Map<string, number>()
  for (const trigram of trigramsOf(query, isWordCharacter)) {
    if (!numbers.has(trigram)) numbers.set(trigram, numbers.size)
  }
  const queryLength = numbers.size
  const sequence = trigramsOf(target, isWordCharacter).map((trigram) => {
    let j = numbers.get(trigram)
    if (j === undefined) numbers.set(trigram, (j = numbers.size))
    return j
  })
  return wordSimilarityOf(queryLength, sequence, new Int32Array(numbers.size).fill(-1))
}
