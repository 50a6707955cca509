// Typed words no name has, corrected to the names' words (name-vocabulary.ts): the pure rules,
// and the vocabulary read from both databases.
import { eq, inArray } from 'drizzle-orm'
import { nodes } from '../db/schema'
import { insertNodeWithVersions } from '../test/data'
import { BACKENDS, createTestApp, type TestApp } from '../test/harness'
import {
  correctedNameWords,
  correctedWords,
  correctionsOf,
  refreshNameVocabulary,
} from './name-vocabulary'

jest.setTimeout(60_000)

describe('corrections of typed words', () => {
  const vocabulary = {
    words: new Map([
      ['upscale', 40],
      ['upscaler', 90],
      ['color', 30],
      ['batch', 12],
      ['beach', 3],
      ['segmentation', 7],
      ['mask', 5],
    ]),
    nodes: 200,
  }
  const words = (text: string) => correctedWords(vocabulary, text)?.words

  it('finds the words one edit away, two from eight letters on, most nodes first', () => {
    expect(correctionsOf(vocabulary, 'upscle')).toEqual(['upscale'])
    expect(correctionsOf(vocabulary, 'upscalr')).toEqual(['upscaler', 'upscale'])
    expect(correctionsOf(vocabulary, 'bach')).toEqual(['batch', 'beach'])
    expect(correctionsOf(vocabulary, 'segmetaton')).toEqual(['segmentation'])
    // Two edits of a seven-letter word are too many.
    expect(correctionsOf(vocabulary, 'uxscaxe')).toEqual([])
  })

  it('replaces only the words no name has, and only from four letters on', () => {
    expect(words('Color Upscle')).toEqual([['color'], ['upscale']])
    expect(words('colr upscaler')).toEqual([['color'], ['upscaler']])
    // "mas" is one edit from "mask", but three letters are a start, not a typo.
    expect(words('mas upscle')).toEqual([['mas'], ['upscale']])
    expect(words('color upscale')).toBeUndefined()
    expect(words('zzzzz')).toBeUndefined()
    // Not words of letters and digits: nothing a tsquery could misread.
    expect(words('upscle!')).toBeUndefined()
    expect(words('   ')).toBeUndefined()
  })

  it('gives the share of nodes the rarest typed word allows at most', () => {
    // upscaler or upscale: 130 of 200; color: 30.
    expect(correctedWords(vocabulary, 'upscalr')?.share).toBeCloseTo(130 / 200)
    expect(correctedWords(vocabulary, 'colr upscalr')?.share).toBeCloseTo(30 / 200)
    // A word no name has, with no correction: none.
    expect(correctedWords(vocabulary, 'upscalr qqqq')?.share).toBe(0)
  })
})

describe.each(BACKENDS)('the names vocabulary on %s', (backend) => {
  let h: TestApp

  beforeAll(async () => {
    h = await createTestApp({ postgres: backend === 'postgres', nodes: 0 })
  })

  afterAll(async () => {
    await h?.close()
  })

  it('holds the public names words, read in the background, never waited for', async () => {
    const publisherId = h.demo.publishers[0]?.id ?? ''
    const ids = ['zula-tools', 'zula-hidden']
    try {
      await insertNodeWithVersions(h.db, { id: ids[0], publisherId, name: 'Zula Tools' }, [
        { version: '1.0.0', status: 'NodeVersionStatusActive' },
      ])
      await insertNodeWithVersions(h.db, { id: ids[1], publisherId, name: 'Quorx Helper' }, [
        { version: '1.0.0', status: 'NodeVersionStatusActive' },
      ])
      await h.db.update(nodes).set({ status: 'NodeStatusBanned' }).where(eq(nodes.id, ids[1]))
      // Before a read has ended, no correction: the search goes on without one.
      expect(correctedNameWords(h.db, 'zulu tools')).toBeUndefined()
      await refreshNameVocabulary(h.db)
      expect(correctedNameWords(h.db, 'zulu tools')?.words).toEqual([['zula'], ['tools']])
      // A banned node is not public: its words are not offered.
      expect(correctedNameWords(h.db, 'quorz')).toBeUndefined()
    } finally {
      await h.db.delete(nodes).where(inArray(nodes.id, ids))
    }
  })
})
