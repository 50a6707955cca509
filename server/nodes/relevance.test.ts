// Relevance of GET /nodes/search over the demo data, on both databases: a table of queries, each
// with the node a visitor means, derived from the data by fixed rules (never picked by hand):
// exact names, publishers, tags, description words, names with one letter dropped, swapped or
// doubled, names still being typed, ComfyUI class names whole, in part and misspelt, Chinese and
// Japanese description words, and queries with filters. It prints success@1 and success@3 and
// wants both at 95 % or more.
import { eq, sql } from 'drizzle-orm'
import { UNCLAIMED_PUBLISHER } from '@/src/lib/constants'
import { editDistance } from '@/src/lib/edit-distance'
import { oneShapeDb, openDatabase } from '../db/client'
import { nodes, publishers } from '../db/schema'
import type { QueryOf, Schemas } from '../http/operations'
import type { DemoNode } from '../seed/generate'
import { insertNodeWithVersions, isPublic, nodeFacts } from '../test/data'
import { BACKENDS, createTestApp, get, query, type TestApp } from '../test/harness'
import { OrderingCache } from './ordering-cache'
import { searchNodes, type ListedNode } from './queries'
import { NodeRowCache } from './row-cache'
import { SearchTermIndex } from './term-index'

type NodeListResponse = Schemas['NodeListResponse']
type SearchQuery = QueryOf<'searchNodes'>
type Filters = Pick<SearchQuery, 'tags' | 'publisher_id' | 'supported_os'>

const KINDS = [
  'exact name',
  'publisher',
  'tag',
  'description',
  'typo: dropped',
  'typo: swapped',
  'typo: doubled',
  'typed so far',
  'class name',
  'class partial',
  'class typo',
  'cjk',
  'filtered',
] as const
type Kind = (typeof KINDS)[number]

interface Case {
  query: string
  filters?: Filters
  expect: string
  kind: Kind
}

/** More nodes than the default test data, for names, classes and tags that compete. */
const DATA = { nodes: 150, publishers: 20 } as const

/** How many cases each rule contributes at most (spread over the candidates). */
const PER_RULE = 8

jest.setTimeout(120_000)

// ---------------------------------------------------------------------------------------------
// Fixtures: the demo descriptions are English only, so a few nodes describe themselves in
// Chinese and Japanese (CJK has no spaces: words are found inside longer runs of text).

const CJK_PUBLISHER = 'cjk-nodes'

const CJK_NODES = [
  {
    id: 'comfyui-gaoqing-fangda',
    name: 'Gaoqing Upscaler',
    description: '高清放大节点：支持分块放大、人脸修复和批量处理。',
    downloads: 900,
  },
  {
    id: 'comfyui-shipin-chazhen',
    name: 'Shipin Frames',
    description: '视频插帧与补帧节点，支持批量处理和显存优化。',
    downloads: 4000,
  },
  {
    id: 'comfyui-gazou-upscale',
    name: 'Gazou Upscale',
    description: '画像をアップスケールするノードです。タイル処理でVRAMを節約します。',
    downloads: 300,
  },
  {
    id: 'comfyui-kao-shuufuku',
    name: 'Kao Restore',
    description: '顔の修復と美肌補正を行うノード。写真の背景除去にも対応しています。',
    downloads: 1200,
  },
] as const

/** Words of one fixture description only (each query expects that node). */
const CJK_QUERIES: Case[] = [
  { query: '人脸修复', expect: 'comfyui-gaoqing-fangda', kind: 'cjk' },
  { query: '高清放大', expect: 'comfyui-gaoqing-fangda', kind: 'cjk' },
  { query: '视频插帧', expect: 'comfyui-shipin-chazhen', kind: 'cjk' },
  { query: '显存优化', expect: 'comfyui-shipin-chazhen', kind: 'cjk' },
  { query: 'アップスケール', expect: 'comfyui-gazou-upscale', kind: 'cjk' },
  { query: 'タイル処理', expect: 'comfyui-gazou-upscale', kind: 'cjk' },
  { query: '顔の修復', expect: 'comfyui-kao-shuufuku', kind: 'cjk' },
  { query: '背景除去', expect: 'comfyui-kao-shuufuku', kind: 'cjk' },
]

// ---------------------------------------------------------------------------------------------
// Deriving the cases

/** Lower-case words of a text (letters and digits). */
const wordsOf = (text: string): string[] => text.toLowerCase().match(/[a-z0-9]+/g) ?? []

/**
 * A crude stem for "could the search confuse these words": the first four letters. Coarser than
 * the database's stemmer (upscale/upscaling, anime/animate), so rules leave out doubtful cases.
 */
const stem = (word: string) => word.toLowerCase().slice(0, 4)

/** `count` items spread evenly over the list (all when it is shorter): deterministic. */
function spread<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items]
  return Array.from({ length: count }, (_, i) => items[Math.floor((i * items.length) / count)])
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/** The most downloaded node of a list (ties: the smaller id). */
function mostDownloaded(list: readonly DemoNode[]): DemoNode | undefined {
  return [...list].sort((a, b) => b.downloads - a.downloads || byId(a, b))[0]
}

/** ComfyUI class names split at their CamelCase humps ("KSamplerAdvanced" → KSampler, Advanced). */
const camelWords = (className: string) => className.split(/(?<=[a-z])(?=[A-Z])/)

/** One letter of the word dropped, two neighbours swapped, or one doubled, in its middle. */
function mistype(word: string, how: 'dropped' | 'swapped' | 'doubled'): string {
  const middle = Math.floor(word.length / 2)
  if (how === 'dropped') return word.slice(0, middle) + word.slice(middle + 1)
  if (how === 'doubled') return word.slice(0, middle + 1) + word.slice(middle)
  // Swap the first differing neighbours from the middle on ("tracking" → "tracikng").
  for (let i = middle; i < word.length - 1; i++) {
    if (word[i] !== word[i + 1]) {
      return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2)
    }
  }
  return word
}

interface Data {
  /** The public demo nodes, sorted by id. */
  nodes: DemoNode[]
  /** Class names of each public node's latest version. */
  classes: Map<string, string[]>
  publishers: { id: string; name: string }[]
}

/** The words inside a class name ("GGUFAnimeMerge" → gguf, anime, merge). */
const classWordsOf = (className: string) =>
  wordsOf(className.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z])([A-Z][a-z])/g, '$1 $2'))

/** Everything searchable of a node, as words: id, name, tags, author, description, classes. */
const allWordsOf = (node: DemoNode, data: Data) => [
  ...wordsOf(`${node.id} ${node.name} ${node.tags.join(' ')} ${node.author} ${node.description}`),
  ...(data.classes.get(node.id) ?? []).flatMap(classWordsOf),
]

/** Public nodes whose name no other public node has (case-insensitive). */
function uniquelyNamed(data: Data): DemoNode[] {
  const count = new Map<string, number>()
  for (const node of data.nodes) {
    count.set(node.name.toLowerCase(), (count.get(node.name.toLowerCase()) ?? 0) + 1)
  }
  return data.nodes.filter((node) => count.get(node.name.toLowerCase()) === 1)
}

/** Whole names that no other public node has: the name asked for is that node. */
function exactNameCases(data: Data): Case[] {
  return spread(uniquelyNamed(data), PER_RULE).map((node) => ({
    query: node.name,
    expect: node.id,
    kind: 'exact name',
  }))
}

/**
 * A publisher's name (when no other publisher has it) or id: its most downloaded public node.
 * Names alternate with ids.
 */
function publisherCases(data: Data): Case[] {
  const cases: Case[] = []
  const eligible = data.publishers.filter(
    (publisher) =>
      publisher.id !== UNCLAIMED_PUBLISHER.id &&
      data.nodes.some((n) => n.publisherId === publisher.id),
  )
  spread(eligible, PER_RULE).forEach((publisher, index) => {
    const best = mostDownloaded(data.nodes.filter((node) => node.publisherId === publisher.id))
    if (!best) return
    const sameName = data.publishers.filter(
      (p) => p.name.toLowerCase() === publisher.name.toLowerCase(),
    )
    const query = index % 2 === 0 && sameName.length === 1 ? publisher.name : publisher.id
    cases.push({ query, expect: best.id, kind: 'publisher' })
  })
  return cases
}

/**
 * A tag: its most downloaded carrier. When some carriers also have the tag's word in their id or
 * name ("upscaling" and "Upscale Tools"), those match better, and the most downloaded of them.
 * Tags whose word is also in the name of a node without the tag are left out (which of the two
 * is meant is a matter of taste).
 */
function tagCases(data: Data): Case[] {
  const tags = [...new Set(data.nodes.flatMap((node) => node.tags))].sort()
  const eligible = tags.flatMap((tag): Case[] => {
    const tagStems = tag.split('-').map(stem)
    const named = data.nodes.filter((node) =>
      wordsOf(`${node.id} ${node.name}`).some((word) => tagStems.includes(stem(word))),
    )
    if (named.some((node) => !node.tags.includes(tag))) return []
    const carriers = data.nodes.filter((node) => node.tags.includes(tag))
    const best = mostDownloaded(named.length > 0 ? named : carriers)
    return best ? [{ query: tag, expect: best.id, kind: 'tag' }] : []
  })
  return spread(eligible, PER_RULE - 2)
}

/**
 * A word of the description that is not in the node's name: "F1 and f2 nodes for ComfyUI." names
 * a second feature. Alone when no other public node has a word like it anywhere; otherwise with
 * the first feature, when no other public node has both.
 */
function descriptionCases(data: Data): Case[] {
  const cases: Case[] = []
  for (const node of data.nodes) {
    const features = /^(\S+) and (\S+) nodes for ComfyUI\.$/m.exec(node.description)
    if (!features) continue
    const [first, second] = [features[1].toLowerCase(), features[2].toLowerCase()]
    if (!/^[a-z]{4,}$/.test(second)) continue
    if (wordsOf(`${node.id} ${node.name}`).some((word) => stem(word) === stem(second))) continue
    const others = data.nodes
      .filter((other) => other.id !== node.id)
      .map((other) => allWordsOf(other, data))
    const has = (words: string[], word: string) => words.some((w) => stem(w) === stem(word))
    if (!others.some((words) => has(words, second))) {
      cases.push({ query: second, expect: node.id, kind: 'description' })
    } else if (!others.some((words) => has(words, second) && has(words, first))) {
      cases.push({ query: `${second} ${first}`, expect: node.id, kind: 'description' })
    }
  }
  return spread(cases, PER_RULE - 2)
}

/** A unique name with its longest word (6+ letters, not "ComfyUI") mistyped. */
function typoCases(data: Data, how: 'dropped' | 'swapped' | 'doubled'): Case[] {
  const kind: Kind = `typo: ${how}`
  const eligible = uniquelyNamed(data).flatMap((node): Case[] => {
    const words = node.name.split(' ')
    const longest = [...words]
      .filter((word) => /^[A-Za-z]{6,}$/.test(word) && word.toLowerCase() !== 'comfyui')
      .sort((a, b) => b.length - a.length)[0]
    if (!longest) return []
    const typo = mistype(longest.toLowerCase(), how)
    if (typo === longest.toLowerCase()) return []
    const query = words.map((word) => (word === longest ? typo : word)).join(' ')
    return [{ query, expect: node.id, kind }]
  })
  // A different slice of the nodes for each kind of typo.
  const offset = how === 'dropped' ? 0 : how === 'swapped' ? 1 : 2
  return spread(
    eligible.filter((_, index) => index % 3 === offset),
    PER_RULE - 2,
  )
}

/**
 * A unique name still being typed: its last word (6+ letters) cut to its first four, when no other
 * node has the other words and a word starting so.
 */
function typedSoFarCases(data: Data): Case[] {
  const eligible = uniquelyNamed(data).flatMap((node): Case[] => {
    const words = node.name.split(' ')
    const last = words[words.length - 1]
    if (words.length < 2 || !/^[A-Za-z]{6,}$/.test(last)) return []
    const start = last.slice(0, 4)
    const whole = words.slice(0, -1).map((word) => word.toLowerCase())
    const fits = (other: DemoNode) => {
      const otherWords = wordsOf(`${other.id} ${other.name}`)
      return (
        whole.every((word) => otherWords.includes(word)) &&
        otherWords.some((word) => word.startsWith(start.toLowerCase()))
      )
    }
    if (data.nodes.some((other) => other.id !== node.id && fits(other))) return []
    const query = [...words.slice(0, -1), start].join(' ')
    return [{ query, expect: node.id, kind: 'typed so far' }]
  })
  return spread(eligible, PER_RULE - 2)
}

/** Which public nodes have a latest-version class starting with `prefix` (case-insensitive). */
function nodesWithClassPrefix(data: Data, prefix: string): string[] {
  const lowered = prefix.toLowerCase()
  return [...data.classes]
    .filter(([, names]) => names.some((name) => name.toLowerCase().startsWith(lowered)))
    .map(([id]) => id)
}

/** Class names only one public node ships, as pasted from a workflow. */
function uniqueClasses(data: Data): { nodeId: string; className: string }[] {
  const owners = new Map<string, Set<string>>()
  for (const [nodeId, names] of data.classes) {
    for (const name of names) {
      const key = name.toLowerCase()
      owners.set(key, (owners.get(key) ?? new Set()).add(nodeId))
    }
  }
  return [...data.classes]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .flatMap(([nodeId, names]) => {
      const className = [...names].sort().find((name) => owners.get(name.toLowerCase())?.size === 1)
      return className ? [{ nodeId, className }] : []
    })
}

function classNameCases(data: Data): Case[] {
  return spread(uniqueClasses(data), PER_RULE - 2).map(({ nodeId, className }) => ({
    query: className,
    expect: nodeId,
    kind: 'class name',
  }))
}

/**
 * Parts of class names: the shortest CamelCase start only one node's classes have
 * ("KSampler" of "KSamplerAdvanced"), the name cut inside its last word, and its words typed with
 * spaces ("K Sampler Advanced").
 */
function classPartialCases(data: Data): Case[] {
  const classes = uniqueClasses(data)
  // A start that is also inside a node's id or name ("Caption") asks for that name instead.
  const inSomeName = (part: string) =>
    data.nodes.some((node) => `${node.id} ${node.name}`.toLowerCase().includes(part.toLowerCase()))
  const camelStarts = classes.flatMap(({ nodeId, className }): Case[] => {
    const humps = camelWords(className)
    for (let n = 1; n < humps.length; n++) {
      const prefix = humps.slice(0, n).join('')
      if (prefix.length < 5 || inSomeName(prefix)) continue
      const owners = nodesWithClassPrefix(data, prefix)
      if (owners.length === 1 && owners[0] === nodeId) {
        return [{ query: prefix, expect: nodeId, kind: 'class partial' }]
      }
    }
    return []
  })
  const cut = classes.flatMap(({ nodeId, className }): Case[] => {
    const prefix = className.slice(0, -2)
    const owners = nodesWithClassPrefix(data, prefix)
    return owners.length === 1 ? [{ query: prefix, expect: nodeId, kind: 'class partial' }] : []
  })
  const spaced = classes
    .filter(({ className }) => camelWords(className).length >= 3)
    .map(({ nodeId, className }): Case => ({
      query: camelWords(className).join(' '),
      expect: nodeId,
      kind: 'class partial',
    }))
  // Offsets, so that the three kinds mostly take classes of different nodes.
  return [...spread(camelStarts, 4), ...spread(cut.slice(1), 3), ...spread(spaced.slice(2), 3)]
}

/**
 * A class name only one public node ships, with a letter dropped or two swapped in its middle
 * ("MaskMotioDetector"), when no other class is as close to the typo (the search cannot tell).
 */
function classTypoCases(data: Data): Case[] {
  const names = [...data.classes.values()].flat().map((name) => name.toLowerCase())
  const cases = uniqueClasses(data).flatMap(({ nodeId, className }, index): Case[] => {
    const typo = mistype(className, index % 2 === 0 ? 'dropped' : 'swapped')
    const lowered = typo.toLowerCase()
    const rivals = names.filter(
      (name) => name !== className.toLowerCase() && editDistance(lowered, name, 2) <= 2,
    )
    return typo !== className && rivals.length === 0
      ? [{ query: typo, expect: nodeId, kind: 'class typo' }]
      : []
  })
  return spread(cases.slice(3), PER_RULE - 2)
}

/**
 * A word of a node's name that other nodes' names have too, with a filter (its publisher, its
 * first tag or its first OS) under which no other public node has a name word like it.
 */
function filteredCases(data: Data): Case[] {
  const cases: Case[] = []
  data.nodes.forEach((node, index) => {
    const filterKind = index % 3
    const filters: Filters | undefined =
      filterKind === 0
        ? { publisher_id: node.publisherId }
        : filterKind === 1
          ? node.tags[0] !== undefined
            ? { tags: [node.tags[0]] }
            : undefined
          : node.supportedOs[0] !== undefined
            ? { supported_os: [node.supportedOs[0]] }
            : undefined
    if (!filters) return
    const passes = (other: DemoNode) =>
      (filters.publisher_id === undefined || other.publisherId === filters.publisher_id) &&
      (filters.tags === undefined || filters.tags.every((tag) => other.tags.includes(tag))) &&
      (filters.supported_os === undefined ||
        filters.supported_os.some((os) => other.supportedOs.includes(os)))
    const nameWords = (other: DemoNode) => wordsOf(`${other.id} ${other.name}`)
    const word = wordsOf(node.name).find((candidate) => {
      if (candidate.length < 4 || candidate === 'comfyui') return false
      const others = data.nodes.filter((other) => other.id !== node.id)
      const elsewhere = others.some((other) => nameWords(other).includes(candidate))
      const rivals = others.some(
        (other) => passes(other) && nameWords(other).some((w) => stem(w) === stem(candidate)),
      )
      return elsewhere && !rivals
    })
    if (word) cases.push({ query: word, filters, expect: node.id, kind: 'filtered' })
  })
  return spread(cases, PER_RULE)
}

function deriveCases(data: Data): Case[] {
  return [
    ...exactNameCases(data),
    ...publisherCases(data),
    ...tagCases(data),
    ...descriptionCases(data),
    ...typoCases(data, 'dropped'),
    ...typoCases(data, 'swapped'),
    ...typoCases(data, 'doubled'),
    ...typedSoFarCases(data),
    ...classNameCases(data),
    ...classPartialCases(data),
    ...classTypoCases(data),
    ...CJK_QUERIES,
    ...filteredCases(data),
  ]
}

// ---------------------------------------------------------------------------------------------

describe.each(BACKENDS)('search relevance on %s', (backend) => {
  let h: TestApp
  let data: Data
  let cases: Case[]

  beforeAll(async () => {
    h = await createTestApp({ postgres: backend === 'postgres', ...DATA })
    await h.db.insert(publishers).values({ id: CJK_PUBLISHER, name: 'CJK Nodes' })
    for (const node of CJK_NODES) {
      await insertNodeWithVersions(
        h.db,
        { id: node.id, publisherId: CJK_PUBLISHER, name: node.name, description: node.description },
        [{ version: '1.0.0', status: 'NodeVersionStatusActive' }],
      )
      await h.db.update(nodes).set({ downloads: node.downloads }).where(eq(nodes.id, node.id))
    }
    const visible = new Set((await nodeFacts(h.db)).filter(isPublic).map((fact) => fact.id))
    const publicNodes = h.demo.nodes.filter((node) => visible.has(node.id)).sort(byId)
    const classes = new Map<string, string[]>()
    for (const node of publicNodes) {
      const names = h.demo.comfyNodes
        .filter((comfy) => comfy.nodeVersionId === node.latestVersionId)
        .map((comfy) => comfy.comfyNodeName)
      if (names.length > 0) classes.set(node.id, names)
    }
    data = {
      nodes: publicNodes,
      classes,
      publishers: h.demo.publishers
        .filter((publisher) => publisher.status !== 'PublisherStatusBanned')
        .map(({ id, name }) => ({ id, name })),
    }
    cases = deriveCases(data)
  })

  afterAll(async () => {
    await h?.close()
  })

  async function searchIds(text: string, filters: Filters = {}, limit = 10): Promise<string[]> {
    const reply = await get<NodeListResponse>(
      h.app,
      `/nodes/search${query({ search: text, limit, ...filters })}`,
    )
    expect(reply.status).toBe(200)
    return reply.body.nodes.map((node) => node.id)
  }

  it('derives at least 60 cases, of every kind', () => {
    expect(cases.length).toBeGreaterThanOrEqual(60)
    const kinds = new Set(cases.map((item) => item.kind))
    expect([...kinds].sort()).toEqual([...KINDS].sort())
  })

  it('finds the meant node first (success@1) and in the top 3 (success@3) for 95 % or more', async () => {
    const misses: string[] = []
    let at1 = 0
    let at3 = 0
    for (const item of cases) {
      const found = await searchIds(item.query, item.filters)
      const rank = found.indexOf(item.expect)
      if (rank === 0) at1++
      if (rank >= 0 && rank < 3) at3++
      if (rank !== 0) {
        const filters = item.filters ? ` ${JSON.stringify(item.filters)}` : ''
        misses.push(
          `  [${item.kind}] "${item.query}"${filters} → ${item.expect} at ${rank < 0 ? '-' : rank + 1}; top 3: ${found.slice(0, 3).join(', ')}`,
        )
      }
    }
    const percent = (hits: number) => ((100 * hits) / cases.length).toFixed(1)
    console.log(
      `search relevance on ${backend}: success@1 ${percent(at1)} %, success@3 ${percent(at3)} % (${cases.length} cases)` +
        (misses.length > 0 ? `\n${misses.join('\n')}` : ''),
    )
    expect(at1 / cases.length).toBeGreaterThanOrEqual(0.95)
    expect(at3 / cases.length).toBeGreaterThanOrEqual(0.95)
  })

  /** Orderings and rows never kept (each search asks the database), with the term index given. */
  const caches = (index?: SearchTermIndex) => ({
    orderings: new OrderingCache(h.db, 0),
    rows: new NodeRowCache<ListedNode>(0),
    termIndex: index,
  })

  it('finds and ranks the same with the term index as with the database alone', async () => {
    const termIndex = new SearchTermIndex(h.db)
    await termIndex.build()
    // The cases, their texts still being typed, and a few texts of more than words.
    const texts: { query: string; filters?: Filters }[] = cases.flatMap((item) => [
      item,
      { ...item, query: item.query.slice(0, Math.max(3, item.query.length - 2)) },
    ])
    texts.push(
      ...['face-restore', '"upscale image"', 'upscale -video', 'the', 'the upsc'].map((text) => ({
        query: text,
        filters: undefined,
      })),
    )
    for (const item of texts) {
      const filters = {
        tags: item.filters?.tags,
        supportedOs: item.filters?.supported_os,
        publisherId: item.filters?.publisher_id,
      }
      const page = (index?: SearchTermIndex) =>
        searchNodes(
          h.db,
          { search: item.query },
          filters,
          'relevance',
          { page: 1, limit: 50 },
          caches(index),
        )
      const [alone, indexed] = await Promise.all([page(), page(termIndex)])
      const ids = (found: typeof alone) => found.rows.map((row) => row.node.id)
      expect({ text: item.query, ids: ids(indexed), total: indexed.total }).toEqual({
        text: item.query,
        ids: ids(alone),
        total: alone.total,
      })
    }
    expect(termIndex.stats.hits).toBeGreaterThan(cases.length)
  })

  it('ranks the same with one generic plan for each shape of statement (PostgreSQL)', async () => {
    if (!h.databaseUrl) return
    // One connection for the statements of few shapes (oneShapeDb), which plans each of them once.
    const single = await openDatabase({ url: h.databaseUrl, poolMax: 1 })
    try {
      const termIndex = new SearchTermIndex(single.db)
      await termIndex.build()
      // Words of many nodes (the statement is prepared when the words find 20 nodes or more),
      // alone, started, two together and with a filter, and the cases' texts.
      const counts = new Map<string, number>()
      for (const node of data.nodes)
        for (const word of new Set(allWordsOf(node, data)))
          counts.set(word, (counts.get(word) ?? 0) + 1)
      const common = [...counts]
        .filter(([word, count]) => count >= 25 && word.length >= 4)
        .map(([word]) => word)
        .slice(0, 12)
      expect(common.length).toBeGreaterThan(1)
      const texts: { query: string; tags?: string[] }[] = [
        // Whole, started, and misspelt (a letter dropped: the typo branch, in the term index).
        ...common.flatMap((word) => [
          { query: word },
          { query: word.slice(0, 3) },
          { query: word.slice(0, 2) + word.slice(3) },
        ]),
        { query: `${common[0]} ${common[1]}` },
        { query: common[0], tags: data.nodes[0].tags.slice(0, 1) },
        ...cases.map((item) => ({ query: item.query, tags: item.filters?.tags })),
      ]
      for (const item of texts) {
        const page = (db: typeof h.db, index?: SearchTermIndex) =>
          searchNodes(
            db,
            { search: item.query },
            { tags: item.tags },
            'relevance',
            { page: 1, limit: 50 },
            caches(index),
          )
        const [alone, generic] = [await page(h.db), await page(single.db, termIndex)]
        const ids = (found: typeof alone) => found.rows.map((row) => row.node.id)
        expect({ text: item.query, ids: ids(generic), total: generic.total }).toEqual({
          text: item.query,
          ids: ids(alone),
          total: alone.total,
        })
      }
      // Every run of the ranking and of the rows' reads on that connection used its one plan.
      const [plans] = (
        (await oneShapeDb(single.db).execute(
          sql`select coalesce(sum(generic_plans) filter (where name like 'shape_%'), 0)::int as ranked,
              coalesce(sum(generic_plans) filter (where name like 'node_row%'), 0)::int as read,
              coalesce(sum(custom_plans), 0)::int as custom
            from pg_prepared_statements`,
        )) as unknown as { rows: { ranked: number; read: number; custom: number }[] }
      ).rows
      expect(plans.ranked).toBeGreaterThan(common.length)
      expect(plans.read).toBeGreaterThan(common.length)
      expect(plans.custom).toBe(0)
    } finally {
      await single.close()
    }
  })

  it('ranks a small exact name match above a much more popular partial match', async () => {
    // Nodes whose whole name is inside another node's name ("Color VAE", "Color VAE Plus"), then
    // those whose name's words all are ("Tile Pro", "Tile Latent Pro").
    const partOf = (small: DemoNode, other: DemoNode, phrase: boolean) =>
      other.id !== small.id &&
      other.name.toLowerCase() !== small.name.toLowerCase() &&
      (phrase
        ? other.name.toLowerCase().includes(small.name.toLowerCase())
        : wordsOf(small.name)
            .filter((word) => word !== 'comfyui')
            .every((word) => wordsOf(`${other.id} ${other.name}`).includes(word)))
    const pairs = [true, false].flatMap((phrase) =>
      data.nodes.flatMap((small) =>
        data.nodes
          .filter((other) => partOf(small, other, phrase))
          .map((popular) => ({ small, popular })),
      ),
    )
    expect(pairs.length).toBeGreaterThan(0)
    const setPopularity = (id: string, downloads: number, githubStars: number) =>
      h.db.update(nodes).set({ downloads, githubStars }).where(eq(nodes.id, id))
    for (const { small, popular } of pairs.slice(0, 3)) {
      try {
        await setPopularity(small.id, 1, 0)
        await setPopularity(popular.id, 50_000_000, 90_000)
        const found = await searchIds(small.name)
        expect(found).toContain(popular.id)
        expect(found[0]).toBe(small.id)
      } finally {
        await setPopularity(small.id, small.downloads, small.githubStars)
        await setPopularity(popular.id, popular.downloads, popular.githubStars)
      }
    }
  })
})
