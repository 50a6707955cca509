// pg_trgm's word similarity in the API (trigrams.ts): the trigrams it reads and the similarity
// PostgreSQL gives (values from `select word_similarity(…)`); term-index.test.ts compares the
// typo branch's hits with the database's on both databases.
import {
  asciiTrigramKeys,
  asciiWordCharacter,
  trigramKey,
  trigramsOf,
  wordSimilarity,
} from './trigrams'

describe('pg_trgm word similarity', () => {
  it('cuts each word, padded two spaces before and one after, into trigrams in order', () => {
    expect(trigramsOf('ab', asciiWordCharacter)).toEqual(['  a', ' ab', 'ab '])
    expect(trigramsOf('x_ab-', asciiWordCharacter)).toEqual(['  x', ' x ', '  a', ' ab', 'ab '])
    expect(trigramsOf(' - ', asciiWordCharacter)).toEqual([])
    // A letter of another script is part of a word where the database's locale says so.
    expect(trigramsOf('é', asciiWordCharacter)).toEqual([])
    expect(trigramsOf('é', (c) => c === 'é')).toEqual(['  é', ' é '])
  })

  it('gives the similarity PostgreSQL gives', () => {
    expect(wordSimilarity('upscalr', 'ultimate sd upscale')).toBe(0.75)
    expect(wordSimilarity('ksamplr advancd', 'ksampleradvanced (efficient)')).toBe(0.5)
    expect(wordSimilarity('face restre', 'facerestore cf')).toBe(Math.fround(0.42857143))
    expect(wordSimilarity('abc', 'x_abc-y')).toBe(1)
    expect(wordSimilarity('lora', 'lo ra')).toBe(Math.fround(0.4))
    expect(wordSimilarity('aaaa', 'aaa aaaa')).toBe(1)
    expect(wordSimilarity('mask', 'mask')).toBe(1)
    expect(wordSimilarity('', 'mask')).toBe(0)
    expect(wordSimilarity('cafe', 'café cafe')).toBe(1)
    expect(wordSimilarity('cafe', 'café', (c) => asciiWordCharacter(c) || c === 'é')).toBe(
      Math.fround(0.6),
    )
  })
})

describe('trigram keys', () => {
  it('keeps the trigrams of ASCII text as numbers, the same as each trigram made one', () => {
    for (const text of ['ksampler advanced', 'x_ab-', ' - ', 'comfyui-video-helper 2x']) {
      expect(asciiTrigramKeys(text)).toEqual(trigramsOf(text, asciiWordCharacter).map(trigramKey))
    }
    expect(typeof trigramKey('abc')).toBe('number')
    expect(trigramKey(' é ')).toBe(' é ')
  })
})
