import { inArray, sql } from 'drizzle-orm'
import type { Schemas } from '../http/operations'
import { nodes } from '../db/schema'
import { insertNodeWithVersions, isPublic, nodeFacts, type NodeFacts } from '../test/data'
import { BACKENDS, createTestApp, get, query, type QueryValue, type TestApp } from '../test/harness'
import { cheaperByIndex, readStartByIndex } from './name-starts'
import { correctedNameWords, refreshNameVocabulary } from './name-vocabulary'
import { branchesToEstimate, classRanges } from './queries'

type NodeListResponse = Schemas['NodeListResponse']

jest.setTimeout(60_000)

describe('the branches estimated for a total', () => {
  it('asks for the capped ones, except one bounded by what was already counted', () => {
    const branches = [{ capped: false }, { capped: true }, { capped: true, matchesAtMost: 1_000 }]
    expect(branchesToEstimate([0, 1, 2], branches, 400)).toEqual([1, 2])
    expect(branchesToEstimate([1, 2], branches, 1_000)).toEqual([1])
    expect(branchesToEstimate([2], branches, 5_000)).toEqual([])
    expect(branchesToEstimate([], branches, 0)).toEqual([])
  })
})

describe('the class names a search reads by their start', () => {
  it('reads one range of the index per start, none inside another', () => {
    expect(classRanges(['ksampler'])).toEqual([{ start: 'ksampler', past: 'ksamples' }])
    expect(classRanges(['seed kit', 'seedkit'])).toEqual([
      { start: 'seed kit', past: 'seed kiu' },
      { start: 'seedkit', past: 'seedkiu' },
    ])
    // "ab_" typed: its squashed form "ab" already covers it.
    expect(classRanges(['ab_', 'ab'])).toEqual([{ start: 'ab', past: 'ac' }])
  })
})

describe.each(BACKENDS)('GET /nodes/search on %s', (backend) => {
  let h: TestApp
  let facts: NodeFacts[]
  let publicFacts: NodeFacts[]

  beforeAll(async () => {
    h = await createTestApp({ postgres: backend === 'postgres' })
    facts = await nodeFacts(h.db)
    publicFacts = facts.filter(isPublic)
  })

  afterAll(async () => {
    await h?.close()
  })

  async function search(params: Record<string, QueryValue | undefined>) {
    const reply = await get<NodeListResponse>(
      h.app,
      `/nodes/search${query({ limit: 100, ...params })}`,
    )
    expect(reply.status).toBe(200)
    return reply.body
  }

  const ids = (body: NodeListResponse) => body.nodes.map((node) => node.id)

  /** A public node of the seed (not one of the fixed demo nodes) with a one-word-ish name. */
  function sampleNode(): NodeFacts {
    const node = publicFacts.find((candidate) => !candidate.id.startsWith('comfyui-demo-'))
    if (!node) throw new Error('no public node in the seed')
    return node
  }

  it('ranks an exact id match first', async () => {
    for (const node of publicFacts.slice(0, 8)) {
      const body = await search({ search: node.id })
      expect(body.nodes[0]?.id).toBe(node.id)
      // ids match case-insensitively too
      expect((await search({ search: node.id.toUpperCase() })).nodes[0]?.id).toBe(node.id)
    }
  })

  it('finds a node despite a typo in a word of its name', async () => {
    const node = publicFacts.find((candidate) =>
      candidate.name.split(' ').some((word) => word.length >= 6 && /^[A-Za-z]+$/.test(word)),
    )
    if (!node) throw new Error('no node name with a word of 6+ letters')
    const word = node.name.split(' ').find((w) => w.length >= 6 && /^[A-Za-z]+$/.test(w)) ?? ''
    // Mistype the last letter ("Upscaler" → "upscalex"), like "upscalr" for "upscale".
    const last = word.slice(-1).toLowerCase()
    const typo = word.slice(0, -1).toLowerCase() + (last === 'x' ? 'q' : 'x')
    expect(typo).not.toBe(word.toLowerCase())
    const body = await search({ search: typo })
    expect(ids(body)).toContain(node.id)
  })

  it('finds a node despite a letter missing inside a word of its name', async () => {
    const word = (name: string) =>
      name.split(' ').find((w) => w.length >= 7 && /^[A-Za-z]+$/.test(w)) ?? ''
    const node = publicFacts.find((candidate) => word(candidate.name))
    if (!node) throw new Error('no node name with a word of 7+ letters')
    // Drop a letter in the middle ("Upscaler" → "upscler"), the commonest slip after a wrong one.
    const full = word(node.name).toLowerCase()
    const middle = Math.floor(full.length / 2)
    const typo = full.slice(0, middle) + full.slice(middle + 1)
    expect(ids(await search({ search: typo }))).toContain(node.id)
  })

  /** The words of a node's id and name, in lower case. */
  const wordsOf = (node: NodeFacts) =>
    `${node.id} ${node.name}`
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((word) => word !== '')
  const longWords = (node: NodeFacts) =>
    node.name.split(' ').filter((word) => /^[A-Za-z]{7,}$/.test(word) && word !== 'ComfyUI')

  it('finds nodes by a word started, and looks for typos only when the words find few', async () => {
    // 24 nodes with a word of their own, and one spelt like it with a letter missing.
    const publisherId = publicFacts[0]?.publisherId ?? ''
    const spelt = Array.from({ length: 24 }, (_, i) => `quillwort-${i}`)
    const misspelt = 'quilwort-max'
    try {
      for (const id of [...spelt, misspelt]) {
        const name = id.replace('quillwort', 'Quillwort').replace('quilwort', 'Quilwort')
        await insertNodeWithVersions(h.db, { id, publisherId, name }, [
          { version: '1.0.0', status: 'NodeVersionStatusActive' },
        ])
      }
      // The start of the word finds every node with it (the full text knows whole words only).
      const started = ids(await search({ search: 'QUILL' }))
      expect(started).toEqual(expect.arrayContaining(spelt))
      // 24 nodes with the words as typed: the misspelt one is not looked for.
      expect(started).not.toContain(misspelt)
      expect(ids(await search({ search: 'quillwort' }))).not.toContain(misspelt)
      // Few with the words as typed: similar names come after them.
      const few = ids(await search({ search: 'quillwort 3' }))
      expect(few[0]).toBe('quillwort-3')
      expect(few).toContain(misspelt)
    } finally {
      await h.db.delete(nodes).where(inArray(nodes.id, [...spelt, misspelt]))
    }
  })

  it('finds a word start few names have through their own index, not by the description', async () => {
    const publisherId = publicFacts[0]?.publisherId ?? ''
    const named = 'zumbrella-grips'
    const described = 'plain-helper-zx'
    try {
      await insertNodeWithVersions(h.db, { id: named, publisherId, name: 'Zumbrella Grips' }, [
        { version: '1.0.0', status: 'NodeVersionStatusActive' },
      ])
      await insertNodeWithVersions(
        h.db,
        { id: described, publisherId, name: 'Plain Helper', description: 'Zumbrellas for all.' },
        [{ version: '1.0.0', status: 'NodeVersionStatusActive' }],
      )
      // With statistics of the names' words, "zumbr" is a start few names have (name-starts.ts).
      await h.db.execute(sql`analyze ${nodes}`)
      expect(await readStartByIndex(h.db, 'zumbr', 200)).toBe(true)
      const found = ids(await search({ search: 'Zumbr' }))
      expect(found[0]).toBe(named)
      // Typed so far is a start of the id or name: the description's word is not one.
      expect(found).not.toContain(described)
      // The start after a whole word, from the same index.
      expect(ids(await search({ search: 'grips zumbr' }))[0]).toBe(named)
    } finally {
      await h.db.delete(nodes).where(inArray(nodes.id, [named, described]))
    }
  })

  it('looks for typos from four letters on, as the suggestions do', async () => {
    const publisherId = publicFacts[0]?.publisherId ?? ''
    const id = 'qrid-tools'
    try {
      await insertNodeWithVersions(h.db, { id, publisherId, name: 'Qrid Tools' }, [
        { version: '1.0.0', status: 'NodeVersionStatusActive' },
      ])
      // "qra" shares half its trigrams with "qrid": three letters are a start, never a typo.
      expect(ids(await search({ search: 'qra' }))).not.toContain(id)
      expect(ids(await search({ search: 'qri' }))).toContain(id)
      expect(ids(await search({ search: 'qrid' }))[0]).toBe(id)
    } finally {
      await h.db.delete(nodes).where(inArray(nodes.id, [id]))
    }
  })

  it("corrects a word no name has to the names' words one edit away", async () => {
    const publisherId = publicFacts[0]?.publisherId ?? ''
    const id = 'zula-grips'
    try {
      await insertNodeWithVersions(h.db, { id, publisherId, name: 'Zula Grips' }, [
        { version: '1.0.0', status: 'NodeVersionStatusActive' },
      ])
      await refreshNameVocabulary(h.db)
      // "zulu" has under half its trigrams in "zula": only the correction finds it, from the
      // names' index (few names have "zula").
      expect(ids(await search({ search: 'Zulu' }))).toContain(id)
      expect(ids(await search({ search: 'zulu grips' }))[0]).toBe(id)
      // A word most names have, misspelt: read walking the nodes (name-starts.ts cheaperByIndex).
      const common = correctedNameWords(h.db, 'comfyiu')
      expect(common?.words).toEqual([['comfyui']])
      expect(cheaperByIndex(common?.share ?? 0, common?.nodes ?? 0, 200)).toBe(false)
      const found = (await search({ search: 'comfyiu' })).nodes
      expect(found.length).toBeGreaterThanOrEqual(20)
      for (const node of found) expect(`${node.id} ${node.name}`.toLowerCase()).toContain('comfyui')
    } finally {
      await h.db.delete(nodes).where(inArray(nodes.id, [id]))
    }
  })

  it('finds a node by two words of its name in another order, the last unfinished', async () => {
    const node = publicFacts.find((candidate) => longWords(candidate).length >= 2)
    if (!node) throw new Error('no node name with two words of 7+ letters')
    const [first, second] = longWords(node)
    const text = `${second} ${first.slice(0, 5)}`.toLowerCase()
    const found = ids(await search({ search: text }))
    expect(found).toContain(node.id)
    // Only nodes with both words rank above it.
    const start = first.slice(0, 5).toLowerCase()
    for (const id of found.slice(0, found.indexOf(node.id))) {
      const words = wordsOf(publicFacts.find((fact) => fact.id === id) ?? node)
      expect(words).toContain(second.toLowerCase())
      expect(words.some((word) => word.startsWith(start))).toBe(true)
    }
  })

  it('searches description words (full text, stemmed)', async () => {
    const publicDescriptions = h.demo.nodes.filter((node) =>
      publicFacts.some((fact) => fact.id === node.id),
    )
    const described = (word: RegExp) =>
      publicDescriptions.filter((node) => word.test(node.description)).map((node) => node.id)
    // "Tiled mode for images larger than your VRAM" is in some generated descriptions only.
    const vram = described(/\bVRAM\b/)
    expect(vram.length).toBeGreaterThan(0)
    expect(vram.length).toBeLessThan(publicFacts.length)
    expect(ids(await search({ search: 'vram' })).sort()).toEqual(vram.sort())
    // Stemming: "processed" finds "Batch processing for … workflows".
    const processing = described(/\bprocessing\b/)
    expect(processing.length).toBeGreaterThan(0)
    expect(ids(await search({ search: 'processed' })).sort()).toEqual(processing.sort())
  })

  it('searches tags', async () => {
    const tag = 'segmentation'
    const expected = publicFacts.filter((node) => node.tags.includes(tag)).map((node) => node.id)
    if (expected.length === 0) throw new Error(`no public node tagged ${tag}`)
    const body = await search({ search: tag })
    expect(ids(body)).toEqual(expect.arrayContaining(expected))
  })

  function comfyClassOfPublicNode() {
    const node = h.demo.nodes.find(
      (candidate) =>
        candidate.latestVersionId &&
        publicFacts.some((f) => f.id === candidate.id) &&
        h.demo.comfyNodes.some((c) => c.nodeVersionId === candidate.latestVersionId),
    )
    const comfy = h.demo.comfyNodes.find((c) => c.nodeVersionId === node?.latestVersionId)
    if (!node || !comfy) throw new Error('no public node with comfy nodes')
    return { node, className: comfy.comfyNodeName }
  }

  it('finds a node by a ComfyUI node class name via search', async () => {
    const { node, className } = comfyClassOfPublicNode()
    const body = await search({ search: className })
    expect(ids(body)).toContain(node.id)
    const hit = body.nodes.find((candidate) => candidate.id === node.id)
    expect(hit?.comfy_nodes_matched).toBeGreaterThan(0)
  })

  /** Every class name of the public nodes' latest versions, with the nodes that ship it. */
  function publicClasses(): Map<string, Set<string>> {
    const shipped = new Map<string, Set<string>>()
    for (const node of h.demo.nodes) {
      if (!node.latestVersionId || !publicFacts.some((fact) => fact.id === node.id)) continue
      for (const comfy of h.demo.comfyNodes) {
        if (comfy.nodeVersionId !== node.latestVersionId) continue
        shipped.set(
          comfy.comfyNodeName,
          (shipped.get(comfy.comfyNodeName) ?? new Set()).add(node.id),
        )
      }
    }
    return shipped
  }

  it('finds a node by a class name with one letter dropped or two swapped', async () => {
    const shipped = publicClasses()
    // A deterministic sample: every few names in sorted order, 12 or more of them.
    const names = [...shipped.keys()].filter((name) => name.length >= 8).sort()
    const step = Math.max(1, Math.floor(names.length / 12))
    const sample = names.filter((_, index) => index % step === 0)
    expect(sample.length).toBeGreaterThanOrEqual(12)
    const misses: string[] = []
    for (const [index, name] of sample.entries()) {
      // "MaskMotionDetector" → "MaskMotioDetector" / "MaskMotoinDetector": the place moves
      // along, after the first three letters (a typo is looked for from those on, as suggestions do).
      const at = 3 + (index % (name.length - 5))
      const dropped = name.slice(0, at) + name.slice(at + 1)
      const swapped = name.slice(0, at) + name[at + 1] + name[at] + name.slice(at + 2)
      for (const typo of [dropped, swapped]) {
        if (typo === name) continue
        const found = ids(await search({ search: typo }))
        for (const nodeId of shipped.get(name) ?? []) {
          if (!found.includes(nodeId)) misses.push(`${typo} (${name}) → ${nodeId}`)
        }
      }
    }
    expect(misses).toEqual([])
  })

  it('still ranks the node of an exact class name first', async () => {
    const shipped = publicClasses()
    const name = [...shipped.keys()]
      .filter((each) => each.length >= 10 && shipped.get(each)?.size === 1)
      .sort()[0]
    const [nodeId] = [...(shipped.get(name) ?? [])]
    const found = ids(await search({ search: name }))
    expect(found[0]).toBe(nodeId)
  })

  it.each(['qzxvkjwplm', 'Xqjzvbnmwk', 'zzzqqqxxxjjj'])(
    'finds nothing for gibberish: %s',
    async (text) => {
      expect((await search({ search: text })).total).toBe(0)
    },
  )

  it('comfy_node_search matches class names and reports comfy_nodes_matched', async () => {
    const { node, className } = comfyClassOfPublicNode()
    const body = await search({ comfy_node_search: className })
    expect(ids(body)).toContain(node.id)
    for (const hit of body.nodes) expect(hit.comfy_nodes_matched).toBeGreaterThan(0)
    const lower = await search({ comfy_node_search: className.toLowerCase() })
    expect(ids(lower)).toContain(node.id)
    expect((await search({ comfy_node_search: 'NoSuchComfyClassAnywhere' })).total).toBe(0)
  })

  it('repository_url_search matches part of the repository URL', async () => {
    const node = sampleNode()
    const demoNode = h.demo.nodes.find((candidate) => candidate.id === node.id)
    const repository = demoNode?.repository ?? ''
    const body = await search({ repository_url_search: repository.replace('https://', '') })
    expect(ids(body)).toEqual([node.id])
    const byOwner = await search({ repository_url_search: `github.com/${node.publisherId}/` })
    expect(byOwner.total).toBe(publicFacts.filter((f) => f.publisherId === node.publisherId).length)
  })

  it('combines search with filters', async () => {
    const tag = 'utility'
    const all = await search({ search: 'comfyui' })
    const filtered = await search({ search: 'comfyui', tags: tag })
    expect(filtered.total).toBeLessThanOrEqual(all.total)
    expect(filtered.total).toBeGreaterThan(0)
    for (const node of filtered.nodes) expect(node.tags).toContain(tag)
    const publisherId = sampleNode().publisherId ?? ''
    const byPublisher = await search({ search: 'comfyui', publisher_id: publisherId })
    for (const node of byPublisher.nodes) expect(node.publisher?.id).toBe(publisherId)
  })

  it('paginates search results with a correct total', async () => {
    const all = await search({ search: 'comfyui' })
    expect(all.total).toBeGreaterThan(5)
    const pageSize = 4
    const seen: string[] = []
    for (let page = 1; page <= Math.ceil(all.total / pageSize); page++) {
      const body = await search({ search: 'comfyui', page, limit: pageSize })
      expect(body).toMatchObject({
        total: all.total,
        page,
        limit: pageSize,
        totalPages: Math.ceil(all.total / pageSize),
      })
      seen.push(...ids(body))
    }
    expect(seen).toHaveLength(all.total)
    expect(new Set(seen).size).toBe(all.total)
  })

  it('an empty search behaves like the list', async () => {
    for (const params of [{}, { search: '' }, { search: '   ' }]) {
      const body = await search(params)
      expect(body.total).toBe(publicFacts.length)
      const list = await get<NodeListResponse>(h.app, '/nodes?limit=100')
      expect(ids(body)).toEqual(ids(list.body))
    }
  })

  it('never shows hidden nodes', async () => {
    const hidden = facts.filter((node) => !isPublic(node))
    for (const node of hidden) expect(ids(await search({ search: node.id }))).not.toContain(node.id)
  })

  it.each([
    '%',
    '_',
    "'",
    '\\',
    "O'Reilly%_\\",
    '"upscale" -video OR face',
    '-',
    'OR',
    '"',
    '!!! & | ( ) : *',
    '🙂 emoji',
  ])('does not fail on special characters: %s', async (text) => {
    const body = await search({ search: text })
    expect(Array.isArray(body.nodes)).toBe(true)
    await search({ comfy_node_search: text })
    await search({ repository_url_search: text })
  })

  it('treats LIKE wildcards literally', async () => {
    expect((await search({ repository_url_search: '%' })).total).toBe(0)
    expect((await search({ comfy_node_search: '_' })).total).toBe(0)
  })
})
