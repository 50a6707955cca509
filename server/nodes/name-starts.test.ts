// The share of names with a word start, estimated from PostgreSQL's statistics of the names'
// words (name-starts.ts): as a pure function, and read from both databases once analyzed.
import { sql } from 'drizzle-orm'
import { nodes } from '../db/schema'
import { insertNodeWithVersions } from '../test/data'
import { BACKENDS, createTestApp, type TestApp } from '../test/harness'
import { nameStartShare, readStartByIndex } from './name-starts'

jest.setTimeout(60_000)

describe('nameStartShare', () => {
  const statistics = {
    lexemes: ['comfyui', 'node', 'upscal', 'upset'],
    frequencies: [0.9, 0.3, 0.02, 0.01],
    rows: 1_000,
  }

  /** The chance a node has one of the common lexemes at all. */
  const common = 1 - (1 - 0.9) * (1 - 0.3) * (1 - 0.02) * (1 - 0.01)

  it('adds up the common lexemes with the start, as independent events, and extrapolates', () => {
    // comfyui alone, plus for the uncommon lexemes the share of common ones with that start.
    expect(nameStartShare(statistics, 'comfy')).toBeCloseTo(0.9 + (1 - common) * (1 / 4), 9)
    // upscal and upset together: 0.02 + 0.01 − 0.02 × 0.01.
    expect(nameStartShare(statistics, 'ups')).toBeCloseTo(0.0298 + (1 - common) * (2 / 4), 9)
  })

  it('gives a start no common lexeme has nothing', () => {
    expect(nameStartShare(statistics, 'zebra')).toBe(0)
    expect(nameStartShare({ lexemes: [], frequencies: [], rows: 0 }, 'a')).toBe(0)
  })
})

describe.each(BACKENDS)('readStartByIndex on %s', (backend) => {
  let h: TestApp

  beforeAll(async () => {
    h = await createTestApp({ postgres: backend === 'postgres', nodes: 0 })
  })

  afterAll(async () => {
    await h?.close()
  })

  it('walks until the names are analyzed, then reads the starts few names have by the index', async () => {
    expect(await readStartByIndex(h.db, 'lantern', 200)).toBe(false)
    const publisherId = h.demo.publishers[0]?.id ?? ''
    for (let i = 0; i < 40; i++) {
      const name = i < 30 ? 'Grip Tools' : 'Lantern'
      await insertNodeWithVersions(h.db, { id: `node-${i}`, publisherId, name }, [])
    }
    await h.db.execute(sql`analyze ${nodes}`)
    // Most names start a word so: walking finds the first 200 soonest.
    expect(await readStartByIndex(h.db, 'grip', 200)).toBe(false)
    // A fifth of them, or none: their own index reads fewer rows.
    expect(await readStartByIndex(h.db, 'lantern', 200)).toBe(true)
    expect(await readStartByIndex(h.db, 'zzz', 200)).toBe(true)
    // For the first 20 only, a fifth of the names is soon found walking.
    expect(await readStartByIndex(h.db, 'lantern', 20)).toBe(false)
  })
})
