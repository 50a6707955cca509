// The search term index (term-index.ts): the tsquery texts it reads, what it finds in which order
// with which filters, and on both databases that it finds what the full-text index finds and is
// used only for the catalogue generation it was built at.
import { eq, inArray, sql } from 'drizzle-orm'
import { nodeOrderBy } from '../db/ordering'
import { comfyNodes, nodes, SEARCH_TS_CONFIG } from '../db/schema'
import { BACKENDS, createTestApp, type TestApp } from '../test/harness'
import { publiclyVisible } from './queries'
import { classTypoRanges, classTypos, classTyposAmong, type ClassTypo } from './suggest'
import {
  codePointOrder,
  lexemeGroups,
  lexemesOfAnd,
  readTermIndex,
  SearchTermIndex,
  searchTermsOf,
  startLexeme,
  TermIndex,
  type IndexedNode,
} from './term-index'

jest.setTimeout(60_000)

const sortedBy = (typos: ClassTypo[]) =>
  [...typos].sort((a, b) => (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0))

describe('tsquery texts', () => {
  it('reads lexemes joined by AND, none for an empty query, nothing else', () => {
    expect(lexemesOfAnd("'upscal' & 'imag'")).toEqual(['upscal', 'imag'])
    expect(lexemesOfAnd("'lora'")).toEqual(['lora'])
    expect(lexemesOfAnd('')).toEqual([])
    expect(lexemesOfAnd("'it''s' & 'a\\\\b'")).toEqual(["it's", 'a\\b'])
    // A phrase, OR and NOT are left to the database.
    expect(lexemesOfAnd("'face-restor' <-> 'face' <-> 'restor'")).toBeUndefined()
    expect(lexemesOfAnd("'a' | 'b'")).toBeUndefined()
    expect(lexemesOfAnd("'a' & !'b'")).toBeUndefined()
  })

  it('reads an AND of ORs of lexemes, one OR alone without parentheses, nothing else', () => {
    expect(lexemeGroups("( 'batch' | 'bach' ) & 'color'")).toEqual([['batch', 'bach'], ['color']])
    expect(lexemeGroups("'color' & ( 'x2' | '3d' )")).toEqual([['color'], ['x2', '3d']])
    expect(lexemeGroups("'upscal' | 'upscal'")).toEqual([['upscal', 'upscal']])
    expect(lexemeGroups("'a'")).toEqual([['a']])
    expect(lexemeGroups('')).toEqual([])
    expect(lexemeGroups("'a' <-> 'b'")).toBeUndefined()
    expect(lexemeGroups("( 'a' | 'b' & 'c'")).toBeUndefined()
    expect(lexemeGroups("'a' & !'b'")).toBeUndefined()
  })

  it('reads the start of a word of the id or name, empty for a stop word', () => {
    expect(startLexeme("'upsc':*A")).toBe('upsc')
    expect(startLexeme('')).toBe('')
    expect(startLexeme("'upsc':*")).toBeUndefined()
    expect(startLexeme("'upsc'")).toBeUndefined()
  })
})

describe('finding in the index', () => {
  const node = (id: string, words: string, names: string, more: Partial<IndexedNode> = {}) => ({
    id,
    publisherId: 'pub',
    tags: null,
    supportedOs: null,
    supportedAccelerators: null,
    words,
    nameWords: names,
    idAndName: `${id} ${names}`,
    classes: [],
    ...more,
  })
  // Most downloaded first.
  const data: IndexedNode[] = [
    node('a', 'upscal imag comfyui', 'upscal', {
      tags: ['upscaling'],
      supportedOs: ['linux'],
      classes: ['ksampler', 'ksampleradvanced'],
    }),
    node('b', 'upscal video', 'upscal video', {
      publisherId: 'other',
      supportedOs: ['windows'],
      classes: ['ksamplerpipe'],
    }),
    node('c', 'imag mask comfyui', 'mask', {
      tags: ['upscaling', 'mask'],
      classes: ['loadimage', 'ksampler', 'ksampler'],
    }),
    node('d', 'upscal imag', 'upscaling imag', { supportedAccelerators: ['cuda'] }),
    node('e', 'lora', 'lora'),
  ]
  let index: TermIndex
  beforeAll(async () => {
    index = await TermIndex.build(7, data)
  })

  it('finds every word, most downloaded first, the first `cap` and how many', () => {
    const { words, start } = index.find({ words: ['upscal', 'imag'] }, {}, 10)
    expect(words).toEqual({ ids: ['a', 'd'], total: 2 })
    expect(start).toEqual({ ids: [], total: 0 })
    expect(index.find({ words: ['imag'] }, {}, 1).words).toEqual({ ids: ['a'], total: 3 })
    expect(index.find({ words: [] }, {}, 10).words.total).toBe(0)
    expect(index.find({ words: ['absent', 'imag'] }, {}, 10).words.total).toBe(0)
  })

  it('finds a start of a word of the id or name, with the words before it anywhere', () => {
    const typed = (words: string[], prefix: string) =>
      index.find({ words: ['nothing'], start: { words, prefix } }, {}, 10).start
    // "upscal" and "upscaling" start so, in the names of a, b and d; c has neither.
    expect(typed([], 'upsc')).toEqual({ ids: ['a', 'b', 'd'], total: 3 })
    expect(typed(['imag'], 'upsc')).toEqual({ ids: ['a', 'd'], total: 2 })
    // "mask" is in c's name; "imag" is in d's name but only in a's description.
    expect(typed([], 'ima')).toEqual({ ids: ['d'], total: 1 })
    // The last word a stop word: the words before it alone; nothing at all: none.
    expect(typed(['video'], '')).toEqual({ ids: ['b'], total: 1 })
    expect(typed([], '')).toEqual({ ids: [], total: 0 })
    // Looked for only when the whole words found fewer than the cap.
    const both = index.find({ words: ['imag'], start: { words: [], prefix: 'upsc' } }, {}, 3)
    expect(both.start.total).toBe(0)
  })

  it('applies the filters: every tag, any system or accelerator, the publisher', () => {
    const found = (filters: Parameters<TermIndex['find']>[1]) =>
      index.find({ words: ['upscal'] }, filters, 10).words.ids
    expect(found({ tags: ['upscaling'] })).toEqual(['a'])
    expect(index.find({ words: ['imag'] }, { tags: ['upscaling', 'mask'] }, 10).words.ids).toEqual([
      'c',
    ])
    expect(found({ supportedOs: ['linux', 'windows'] })).toEqual(['a', 'b'])
    expect(found({ supportedAccelerators: ['cuda'] })).toEqual(['d'])
    expect(found({ publisherId: 'other' })).toEqual(['b'])
    expect(found({ tags: ['absent'] })).toEqual([])
  })

  it('finds class names by their start, in name order or most downloaded first', () => {
    const classes = (
      starts: string[],
      options: Partial<Parameters<TermIndex['classesStarting']>[3]> = {},
    ) =>
      index.classesStarting(
        starts,
        ['ksampler'],
        { exact: 90, start: 60 },
        { filters: {}, cap: 10, rowsRead: 1000, byDownloads: false, ...options },
      )
    // "ksampler" (a, c), then "ksampleradvanced" (a), then "ksamplerpipe" (b): each node once,
    // with the points of its best name.
    expect(classes(['ksampler'])).toEqual({ ids: ['a', 'c', 'b'], boosts: [90, 90, 60], total: 3 })
    expect(classes(['ksampler'], { byDownloads: true }).ids).toEqual(['a', 'b', 'c'])
    expect(classes(['ksampler'], { cap: 2 })).toEqual({
      ids: ['a', 'c'],
      boosts: [90, 90],
      total: 3,
    })
    // The names read stop at `rowsRead` (a name and a node each), before the filters.
    expect(classes(['ksampler'], { rowsRead: 2 })).toEqual({
      ids: ['a', 'c'],
      boosts: [90, 90],
      total: 2,
    })
    expect(classes(['ksampler'], { rowsRead: 2, filters: { tags: ['mask'] } }).ids).toEqual(['c'])
    expect(classes(['ksampler'], { filters: { supportedOs: ['windows'] } }).ids).toEqual(['b'])
    // Two starts: their ranges in name order.
    expect(classes(['load', 'ksamplerp'])).toEqual({ ids: ['b', 'c'], boosts: [60, 60], total: 2 })
    expect(classes(['absent']).total).toBe(0)
  })

  it('orders names by code point, as the database orders their bytes', async () => {
    // JavaScript's < puts a letter past U+FFFF (two UTF-16 units from U+D800) before U+FFFD.
    expect('\u{1F600}' < '\uFFFD').toBe(true)
    expect(codePointOrder('\uFFFD', '\u{1F600}')).toBeLessThan(0)
    expect(codePointOrder('ab', 'a')).toBeGreaterThan(0)
    expect(codePointOrder('a\u00e9', 'a\u00e9')).toBe(0)
    const named = await TermIndex.build(1, [
      node('x', 'x', 'x', { classes: ['k\u{1F600}'] }),
      node('y', 'y', 'y', { classes: ['k\uFFFD'] }),
    ])
    const found = named.classesStarting(
      ['k'],
      [],
      { exact: 90, start: 60 },
      {
        filters: {},
        cap: 10,
        rowsRead: 1000,
        byDownloads: false,
      },
    )
    expect(found.ids).toEqual(['y', 'x'])
  })

  it('answers only the public listing without a list of ids', () => {
    expect(TermIndex.answers({})).toBe(true)
    expect(TermIndex.answers({ tags: ['x'], publisherId: 'p' })).toBe(true)
    expect(TermIndex.answers({ visibility: 'withBanned' })).toBe(false)
    expect(TermIndex.answers({ nodeIds: ['a'] })).toBe(false)
  })
})

describe.each(BACKENDS)('the term index on %s', (backend) => {
  let h: TestApp
  beforeAll(async () => {
    h = await createTestApp({ postgres: backend === 'postgres' })
  })
  afterAll(async () => {
    await h?.close()
  })

  /** The public nodes the full-text index finds for `query` (a tsquery expression), by id. */
  async function byDatabase(query: ReturnType<typeof sql>): Promise<string[]> {
    const rows = await h.db
      .select({ id: nodes.id })
      .from(nodes)
      .where(sql`${publiclyVisible()} and ${nodes.searchVector} @@ ${query}`)
    return rows.map((row) => row.id).sort()
  }

  it('finds what the full-text index finds, for whole words and starts of names', async () => {
    const index = await readTermIndex(h.db)
    const [{ name, description }] = await h.db
      .select({ name: nodes.name, description: nodes.description })
      .from(nodes)
      .where(publiclyVisible())
      .limit(1)
    const words = `${name} ${description ?? ''}`.split(/\W+/).filter((word) => word.length > 3)
    expect(words.length).toBeGreaterThan(2)
    for (const text of [words[0], `${words[1]} ${words[2]}`, words[words.length - 1]]) {
      const { terms, generation } = await searchTermsOf(h.db, text, undefined)
      expect(generation).toBe(index.generation)
      const found = index.find(terms ?? { words: ['never'] }, {}, 10_000)
      expect([...found.words.ids].sort()).toEqual(
        await byDatabase(sql`websearch_to_tsquery(${SEARCH_TS_CONFIG}::regconfig, ${text})`),
      )
    }
    const start = name.slice(0, 3).toLowerCase()
    const { terms } = await searchTermsOf(h.db, start, { before: '', last: start })
    const found = index.find({ ...(terms ?? { words: [] }), words: ['never'] }, {}, 10_000)
    expect(found.start.total).toBeGreaterThan(0)
    expect([...found.start.ids].sort()).toEqual(
      await byDatabase(sql`to_tsquery(${SEARCH_TS_CONFIG}::regconfig, ${`${start}:*A`})`),
    )
  })

  it("finds the nodes whose latest version has a class name with the start, as the database's", async () => {
    const index = await readTermIndex(h.db)
    const classes = await h.db
      .selectDistinct({ name: sql<string>`lower(${comfyNodes.comfyNodeName})` })
      .from(comfyNodes)
      .innerJoin(nodes, eq(nodes.latestVersionId, comfyNodes.nodeVersionId))
      .where(publiclyVisible())
    expect(classes.length).toBeGreaterThan(3)
    const starts = new Set(classes.slice(0, 8).flatMap(({ name }) => [name, name.slice(0, 3)]))
    for (const start of starts) {
      const found = index.classesStarting(
        [start],
        [start],
        { exact: 90, start: 60 },
        { filters: {}, cap: 10_000, rowsRead: 10_000, byDownloads: true },
      )
      const rows = await h.db
        .select({
          id: nodes.id,
          exact: sql<boolean>`bool_or(lower(${comfyNodes.comfyNodeName}) = ${start})`,
        })
        .from(comfyNodes)
        .innerJoin(nodes, eq(nodes.latestVersionId, comfyNodes.nodeVersionId))
        .where(
          sql`${publiclyVisible()} and starts_with(lower(${comfyNodes.comfyNodeName}), ${start})`,
        )
        .groupBy(nodes.id)
        .orderBy(...nodeOrderBy.downloads)
      expect(rows.length).toBeGreaterThan(0)
      expect({ start, ids: found.ids, boosts: found.boosts }).toEqual({
        start,
        ids: rows.map((row) => row.id),
        boosts: rows.map((row) => (row.exact ? 90 : 60)),
      })
    }
  })

  it('finds the names a misspelt text is like, as the typo branch finds them', async () => {
    const index = await readTermIndex(h.db)
    const names = await h.db.select({ name: nodes.name }).from(nodes).where(publiclyVisible())
    const texts = new Set<string>()
    for (const { name } of names.slice(0, 40)) {
      const lowered = name.toLowerCase()
      texts.add(lowered.slice(0, -1)) // a letter dropped
      texts.add(lowered.replace(/([a-z])([a-z])/, '$2$1')) // two swapped
      texts.add(`${lowered.split(/[^a-z0-9]+/).find((word) => word.length > 2) ?? 'x'}q`)
    }
    let matched = 0
    for (const text of [...texts].filter((t) => t.length >= 4 && /^[a-z0-9 _-]+$/.test(t))) {
      const found = index.similar(text, {}, 10_000)
      const rows = await h.db
        .select({
          id: nodes.id,
          similarity: sql<number>`word_similarity(${text}, lower(${nodes.id} || ' ' || ${nodes.name}))`,
        })
        .from(nodes)
        .where(sql`${publiclyVisible()} and ${text} <% lower(${nodes.id} || ' ' || ${nodes.name})`)
        .orderBy(...nodeOrderBy.downloads)
      expect({ text, ids: found?.ids }).toEqual({ text, ids: rows.map((row) => row.id) })
      // Each as the database computes it, to the bit (a float4, printed shortest): the ranking
      // takes it as given.
      expect(found?.similarities).toEqual(rows.map((row) => Math.fround(Number(row.similarity))))
      expect(found?.total).toBe(rows.length)
      expect(index.similar(text, {}, 2)?.ids).toEqual(rows.slice(0, 2).map((row) => row.id))
      matched += rows.length
    }
    expect(matched).toBeGreaterThan(40)
    // Characters the database's locale classes are left to the database.
    expect(index.similar('café', {}, 10)).toBeUndefined()
  })

  it('reads names with letters other than ASCII as the database does', async () => {
    const [node] = await h.db
      .select({ id: nodes.id, name: nodes.name })
      .from(nodes)
      .where(publiclyVisible())
      .limit(1)
    await h.db
      .update(nodes)
      .set({ name: 'Café–Überblick 中文Latent «Pixel» naïve' })
      .where(eq(nodes.id, node.id))
    try {
      const index = await readTermIndex(h.db)
      for (const text of ['cafe uberblick', 'berblick', 'latent pixel', 'naive', 'caf blick']) {
        const rows = await h.db
          .select({ id: nodes.id })
          .from(nodes)
          .where(
            sql`${publiclyVisible()} and ${text} <% lower(${nodes.id} || ' ' || ${nodes.name})`,
          )
          .orderBy(...nodeOrderBy.downloads)
        expect({ text, ids: index.similar(text, {}, 10_000)?.ids }).toEqual({
          text,
          ids: rows.map((row) => row.id),
        })
      }
    } finally {
      await h.db.update(nodes).set({ name: node.name }).where(eq(nodes.id, node.id))
    }
  })

  it('finds the names with corrected words as their branch finds them', async () => {
    const index = await readTermIndex(h.db)
    const names = await h.db.select({ name: nodes.name }).from(nodes).where(publiclyVisible())
    const words = [
      ...new Set(names.flatMap(({ name }) => name.toLowerCase().split(/[^a-z0-9]+/))),
    ].filter((word) => word.length >= 4)
    expect(words.length).toBeGreaterThan(6)
    const cases = [
      [[words[0], words[1]]],
      [[words[2]], [words[3], 'zzzz']],
      [['the', 'them'], [words[4]]],
      [[words[5], words[6]], ['absentword']],
    ]
    for (const corrected of cases) {
      const { terms } = await searchTermsOf(h.db, 'x', undefined, corrected)
      const groups = terms?.corrected ?? []
      const query = corrected.map((any) => `(${any.map((word) => `${word}:A`).join(' | ')})`)
      const rows = await h.db
        .select({ id: nodes.id })
        .from(nodes)
        .where(
          sql`${publiclyVisible()} and ${nodes.searchVector} @@ to_tsquery(${SEARCH_TS_CONFIG}::regconfig, ${query.join(' & ')})`,
        )
        .orderBy(...nodeOrderBy.downloads)
      const found = index.withNameWords(groups, {}, 3)
      expect({ corrected, ids: found.ids }).toEqual({
        corrected,
        ids: rows.slice(0, 3).map((row) => row.id),
      })
      expect(found.total).toBe(rows.length)
      expect(found.similarities).toBeUndefined()
      // With the text's word similarity to each, as the database computes it.
      const text = `${words[0]}x`
      const similar = index.withNameWords(groups, {}, 3, text)
      expect(similar.ids).toEqual(found.ids)
      const expected = await h.db
        .select({
          id: nodes.id,
          similarity: sql<number>`word_similarity(${text}, lower(${nodes.id} || ' ' || ${nodes.name}))`,
        })
        .from(nodes)
        .where(inArray(nodes.id, found.ids.length > 0 ? found.ids : ['none']))
      const byId = new Map(expected.map((row) => [row.id, Math.fround(Number(row.similarity))]))
      expect(similar.similarities).toEqual(found.ids.map((id) => byId.get(id)))
    }
  })

  it('reads the class starts of a typo with the lexemes, as the suggestion lookup alone does', async () => {
    const [{ name }] = await h.db
      .select({ name: comfyNodes.comfyNodeName })
      .from(comfyNodes)
      .innerJoin(nodes, eq(nodes.latestVersionId, comfyNodes.nodeVersionId))
      .where(sql`length(${comfyNodes.comfyNodeName}) >= 8`)
      .limit(1)
    // A letter dropped, then two swapped: typos of the class, not starts of it.
    for (const typed of [
      name.slice(0, 3) + name.slice(4),
      name.slice(0, 3) + name[4] + name[3] + name.slice(5),
    ]) {
      const { classStarts } = await searchTermsOf(
        h.db,
        typed,
        undefined,
        undefined,
        classTypoRanges(typed),
      )
      expect(classStarts.length).toBeGreaterThan(0)
      const merged = classTyposAmong(typed, classStarts)
      expect(merged.length).toBeGreaterThan(0)
      expect(sortedBy(merged)).toEqual(sortedBy(await classTypos(h.db, typed)))
    }
    // Without ranges (a CJK text, a short one), none are read.
    expect((await searchTermsOf(h.db, name, undefined)).classStarts).toEqual([])
  })

  it('leaves a phrase to the database', async () => {
    const { terms } = await searchTermsOf(h.db, 'face-restore', undefined)
    expect(terms).toBeUndefined()
  })

  it('answers only at the generation it was built at, built again after a change', async () => {
    const terms = new SearchTermIndex(h.db, 0)
    const { generation } = await searchTermsOf(h.db, 'x', undefined)
    expect(terms.at(generation)).toBeUndefined() // the first build starts
    await terms.build()
    expect(terms.at(generation)?.generation).toBe(generation)
    // A node hidden: the catalogue generation moves, the old index no longer answers.
    const [shown] = await h.db.select({ id: nodes.id }).from(nodes).where(publiclyVisible())
    await h.db.update(nodes).set({ status: 'NodeStatusBanned' }).where(eq(nodes.id, shown.id))
    try {
      const moved = (await searchTermsOf(h.db, 'x', undefined)).generation
      expect(moved).toBeGreaterThan(generation)
      expect(terms.at(moved)).toBeUndefined()
      await terms.build()
      const rebuilt = terms.at(moved)
      expect(rebuilt?.generation).toBe(moved)
      expect(rebuilt?.size).toBe((await readTermIndex(h.db)).size)
      expect(terms.stats).toEqual({ hits: 2, misses: 2 })
    } finally {
      await h.db.update(nodes).set({ status: 'NodeStatusActive' }).where(eq(nodes.id, shown.id))
    }
  })
})
