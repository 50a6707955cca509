// `npm run bench:api`: latency and throughput of the read calls that matter most, on
// PostgreSQL with 100k nodes and on PGlite with 10k, at 1 and N connections: ComfyUI-Manager's
// whole-catalogue read (limit 30, every page in order, read as Manager's aiohttp client reads it:
// gzip accepted; total time and slowest page; from a freshly
// started API, again with every row kept, both also with the default PUBLIC_CACHE_MS, with nodes'
// JSON and pages stored by an earlier process, with nodes' JSON alone, and as after a release, and
// its floors: answered from memory, a bare HTTP server, PostgreSQL alone reading each page's rows),
// list pages (first, Manager-sized, deep), a node, a search mix (common and rare words, two words, typos,
// class names, a tag filter, other sorts, pages 1–5), suggestions, and the admins' review queue;
// then lists and searches again with cached orderings and rows off (ORDERING_CACHE_MS=0,
// NODE_ROW_CACHE=0), the database's own cost. Datasets are generated once and reused (pass --fresh to rebuild). Prints a table and
// writes bench-results/api.json.
//   --only postgres|pglite   --seconds N (per scenario, default 8)   --connections N (default 32)
//   --port N (the bench API's port, default 8280)
//   --admin (only the admins' review queue)   --proxy (only the provider lookup's overhead)
//   --ci (only the CI commit summary, with 50k results stored)
//   --search (only searches: the repeating mix, never-seen searches of every kind, misspelt class
//   names; caches on as in production, then off; each line with the CPU a search cost the API,
//   the client and the rest, the database, read from /proc)
//   --never-seen (only the never-seen searches, caches on: a quicker run to compare two builds)
//   --cpu-prof DIR (the API process's CPU profile, written to DIR when it stops: node --cpu-prof)
import { spawn } from 'node:child_process'
import { performance } from 'node:perf_hooks'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { eq, sql } from 'drizzle-orm'
import { Client } from 'pg'
import { migrate, openDatabase, type Database } from '../../server/db/client'
import {
  listingPages,
  nodeColumns,
  nodeJson,
  nodes,
  nodeVersions,
  publishers,
  users,
} from '../../server/db/schema'
import { openAccount } from '../../server/customers/accounts'
import { createApiKey } from '../../server/customers/api-keys'
import { startFakeProvider } from '../../server/test/fake-provider'
import { loadDemoData } from '../../server/seed/load'
import { publiclyVisible } from '../../server/nodes/queries'
import { waitForPort } from '../net'
import { runLoad, type LoadResult } from './load'

const root = path.resolve(__dirname, '../..')
const args = process.argv.slice(2)
const flag = (name: string) => {
  const index = args.indexOf(`--${name}`)
  return index >= 0 ? args[index + 1] : undefined
}
const SECONDS = Number(flag('seconds') ?? 8)
const CONNECTIONS = Number(flag('connections') ?? 32)
const FRESH = args.includes('--fresh')
const ONLY = flag('only')
const ADMIN_ONLY = args.includes('--admin')
const PROXY_ONLY = args.includes('--proxy')
const CI_ONLY = args.includes('--ci')
/** --never-seen: with --search, only the never-seen searches, caches on (a quicker A/B run). */
const NEVER_SEEN_ONLY = args.includes('--never-seen')
const SEARCH_ONLY = args.includes('--search') || NEVER_SEEN_ONLY
/** --cpu-prof DIR: the API runs under `node --cpu-prof`, its profile written to DIR. */
const CPU_PROFILE_DIR = flag('cpu-prof')
/** --port N: where the bench's API listens (N + 1 for the admin run), so two benches can run at once. */
const API_PORT = Number(flag('port') ?? 8280)
const ADMIN_API_PORT = API_PORT + 1
/** The review queue's page size (components/admin/queue/queue-url.ts QUEUE_PAGE_SIZE). */
const QUEUE_PAGE_SIZE = 50
const SERVER_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test'

/** Fixed searches of the mix: common words, two words, typos (more come from the data). */
const SEARCHES = [
  'upscale',
  'video',
  'comfyui',
  'lora',
  'face restore',
  'lora loader',
  'controlnet apply',
  'upscalr',
  'contrlnet',
  'vidoe',
]
/** What a visitor has typed when suggestions are asked: prefixes, a class name, typos. */
const TYPED = ['up', 'upsc', 'face re', 'KSampler', 'controlnt', 'lora', 'vid', 'upscalr']
/** ComfyUI-Manager's page size when it reads the whole catalogue. */
const MANAGER_PAGE = 30

interface Backend {
  name: 'postgres' | 'pglite'
  nodes: number
  env: Record<string, string>
  open: () => Promise<Database>
}

async function postgresBackend(nodes: number): Promise<Backend | null> {
  const admin = new Client({ connectionString: SERVER_URL })
  try {
    await admin.connect()
  } catch {
    console.log(`PostgreSQL at ${SERVER_URL} does not answer: skipping the PostgreSQL run.`)
    return null
  }
  const name = `registry_bench_${nodes}`
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [name]))
    .rowCount
  if (exists && FRESH) await admin.query(`drop database ${name} with (force)`)
  if (!exists || FRESH) await admin.query(`create database ${name}`)
  // What PostgreSQL keeps in its own memory: with less than the searched tables and indexes, a
  // never-seen search reads pages from the system's cache or the disk (docs/ARCHITECTURE.md
  // "Never-seen searches").
  const buffers = (await admin.query<{ shared_buffers: string }>('show shared_buffers')).rows[0]
  console.log(`PostgreSQL shared_buffers: ${buffers?.shared_buffers ?? '?'}`)
  await admin.end()
  const url = new URL(SERVER_URL)
  url.pathname = `/${name}`
  return {
    name: 'postgres',
    nodes,
    env: { DATABASE_URL: url.toString() },
    open: () => openDatabase({ url: url.toString() }),
  }
}

function pgliteBackend(nodes: number): Backend {
  const dataDir = path.join(root, '.data', `bench-pglite-${nodes}`)
  if (FRESH) fs.rmSync(dataDir, { recursive: true, force: true })
  return {
    name: 'pglite',
    nodes,
    env: { DATA_DIR: dataDir },
    open: () => openDatabase({ dataDir: path.join(dataDir, 'pglite') }),
  }
}

interface Sample {
  /** Publicly visible node ids. */
  nodeIds: string[]
  /** Rare searches: names of sampled nodes, and class names of their latest versions. */
  rareSearches: string[]
  /** Publishers with versions in the review queue (Pending, of Active nodes). */
  queuePublisherIds: string[]
  /** Class names of the latest versions of sampled nodes (misspelt by --search). */
  classNames: string[]
  /**
   * Whole words of node names and descriptions (--search), most used first: "comfyui", "nodes",
   * "image" match tens of thousands of nodes at 100k.
   */
  vocabulary: string[]
  /** The public nodes' tags (--search's tag filter). */
  tags: string[]
}

/** Loads the dataset unless it is already there; returns samples of ids to ask for. */
async function prepare(backend: Backend): Promise<Sample> {
  const database = await backend.open()
  try {
    await migrate(database)
    const count = async () =>
      (await database.db.select({ n: sql<number>`count(*)::int` }).from(nodes))[0].n
    if ((await count()) !== backend.nodes) {
      if ((await count()) !== 0)
        throw new Error(`The ${backend.name} bench database is half-loaded: run with --fresh.`)
      const started = Date.now()
      process.stdout.write(`Loading ${backend.nodes} nodes into ${backend.name}… `)
      await loadDemoData(database.db, null, {
        nodes: backend.nodes,
        publishers: Math.round(backend.nodes / 25),
        seed: 1,
        withArchives: false,
      })
      // As autovacuum would soon after: the visibility map lets index-only scans skip the heap.
      await database.db.execute(sql`vacuum (analyze)`)
      console.log(`${((Date.now() - started) / 1000).toFixed(1)} s`)
    }
    const sample = await database.db
      .select({ id: nodes.id })
      .from(nodes)
      .where(publiclyVisible())
      .orderBy(sql`md5(${nodes.id})`)
      .limit(500)
    const publishers = await database.db
      .selectDistinct({ id: nodes.publisherId })
      .from(nodeVersions)
      .innerJoin(nodes, sql`${nodes.id} = ${nodeVersions.nodeId}`)
      .where(
        sql`${nodeVersions.status} = 'NodeVersionStatusPending' and ${nodes.status} = 'NodeStatusActive'`,
      )
    const names = await database.db.execute(
      sql`select nodes.name, (select c.comfy_node_name from comfy_nodes c
            where c.node_version_id = nodes.latest_version_id order by c.comfy_node_name limit 1) as class_name
          from nodes where ${publiclyVisible()} order by md5(nodes.id) limit 20`,
    )
    const rows = (names as unknown as { rows: { name: string; class_name: string | null }[] }).rows
    const classes = (await database.db.execute(
      sql`select distinct c.comfy_node_name as name from comfy_nodes c
            join nodes on c.node_version_id = nodes.latest_version_id
          where ${publiclyVisible()} and length(c.comfy_node_name) >= 8
          order by c.comfy_node_name limit 500`,
    )) as unknown as { rows: { name: string }[] }
    // Whole words of names and descriptions (of 2,000 sampled nodes), most used first.
    const vocabulary = (await database.db.execute(
      sql`select w as word from (select regexp_split_to_table(lower(name || ' ' || description),
            '[^a-z0-9]+') as w from nodes where ${publiclyVisible()} order by md5(nodes.id) limit 2000) as s
          where length(w) >= 3 group by 1 order by count(*) desc, 1`,
    )) as unknown as { rows: { word: string }[] }
    const tags = (await database.db.execute(
      sql`select distinct unnest(tags) as tag from nodes where ${publiclyVisible()} order by 1`,
    )) as unknown as { rows: { tag: string }[] }
    return {
      classNames: classes.rows.map((row) => row.name),
      vocabulary: vocabulary.rows.map((row) => row.word),
      tags: tags.rows.map((row) => row.tag),
      nodeIds: sample.map((row) => row.id),
      rareSearches: rows.flatMap((row) => [row.name, ...(row.class_name ? [row.class_name] : [])]),
      queuePublisherIds: publishers
        .map((row) => row.id)
        .sort()
        .filter((_, i) => i % 7 === 0)
        .slice(0, 100),
    }
  } finally {
    await database.close()
  }
}

/** CPU seconds `pid` and its descendants have used (Linux's /proc); undefined elsewhere. */
function processTreeCpuSeconds(pid: number): number | undefined {
  let entries: string[]
  try {
    entries = fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))
  } catch {
    return undefined
  }
  const parents = new Map<number, number>()
  const ticks = new Map<number, number>()
  for (const entry of entries) {
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
      // After the command's name, in parentheses: state, ppid, … utime (12th), stime (13th).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      parents.set(Number(entry), Number(fields[1]))
      ticks.set(Number(entry), Number(fields[11]) + Number(fields[12]))
    } catch {
      // Gone meanwhile.
    }
  }
  const inTree = (id: number): boolean => {
    for (let at: number | undefined = id; at !== undefined && at > 1; at = parents.get(at)) {
      if (at === pid) return true
    }
    return false
  }
  let total = 0
  for (const [id, used] of ticks) if (inTree(id)) total += used
  return total / 100 // USER_HZ
}

/** CPU milliseconds every core has been busy (not idle) since boot. */
const machineBusyMs = () =>
  os.cpus().reduce((sum, { times }) => sum + times.user + times.nice + times.sys + times.irq, 0)

/**
 * Runs the load and tells how much CPU each request cost: the machine's, the API process's, this
 * client's, and the rest (the database's, nearly all: the bench runs alone). Sampled from /proc
 * before and after, so it needs Linux; elsewhere only the load's figures.
 */
async function withCpuPerRequest(apiPid: number | undefined, load: () => Promise<LoadResult>) {
  const busy = machineBusyMs()
  const api = apiPid === undefined ? undefined : processTreeCpuSeconds(apiPid)
  const client = process.cpuUsage()
  const result = await load()
  const apiAfter = apiPid === undefined ? undefined : processTreeCpuSeconds(apiPid)
  if (api === undefined || apiAfter === undefined || result.requests === 0) {
    return { result, line: '' }
  }
  const used = process.cpuUsage(client)
  const per = (ms: number) => (ms / result.requests).toFixed(1)
  const allMs = machineBusyMs() - busy
  const apiMs = (apiAfter - api) * 1000
  const clientMs = (used.user + used.system) / 1000
  return {
    result,
    line: `  CPU a request: ${per(allMs)} ms in all, the API ${per(apiMs)}, the client ${per(clientMs)}, the rest (the database) ${per(allMs - apiMs - clientMs)}`,
  }
}

function resultLine(backend: Backend, name: string, r: LoadResult): string {
  return `${backend.name.padEnd(8)} ${String(backend.nodes).padStart(6)}  ${name.padEnd(40)} p50 ${r.p50.toFixed(1).padStart(6)} ms  p95 ${r.p95.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms  ${r.requestsPerSecond.toFixed(0).padStart(6)} req/s${r.errors ? `  (${r.errors} errors)` : ''}`
}

async function stopChild(child: ReturnType<typeof spawn>) {
  if (child.exitCode !== null) return
  child.kill('SIGTERM')
  await new Promise((resolve) => child.once('exit', resolve))
}

/**
 * The admins' review queue over HTTP, as the dashboard asks for it (GET /versions with
 * include_status_reason, one page of QUEUE_PAGE_SIZE), signed in as an admin: at 1 connection
 * (one admin) and at --connections. The API runs as scripts/bench/admin-api.ts (the token).
 */
async function measureReviewQueue(backend: Backend, sample: Sample) {
  const token = randomBytes(32).toString('base64url')
  const api = spawn(path.join(root, 'node_modules/.bin/tsx'), ['scripts/bench/admin-api.ts'], {
    cwd: root,
    env: {
      ...process.env,
      ...backend.env,
      API_PORT: String(ADMIN_API_PORT),
      NODE_ENV: 'production',
      BENCH_ADMIN_TOKEN: token,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  try {
    await waitForPort(ADMIN_API_PORT, 'The admin bench API', api, 120_000)
    const base = `http://127.0.0.1:${ADMIN_API_PORT}/versions?include_status_reason=true&limit=${QUEUE_PAGE_SIZE}&page=1`
    const pending = 'statuses=NodeVersionStatusPending'
    const headers = { authorization: `Bearer ${token}` }
    // The queue answers admins only: check the token works before measuring.
    const check = await fetch(`${base}&${pending}`, { headers })
    const body = (await check.json()) as {
      versions?: { status_reason?: unknown }[]
      total?: number
    }
    if (!check.ok || body.versions?.[0]?.status_reason === undefined) {
      throw new Error(`The review queue did not answer as for an admin (${check.status}).`)
    }
    let n = 0
    const publishers = sample.queuePublisherIds
    const scenarios: [string, () => string][] = [
      ['queue: Pending, oldest first', () => `${base}&${pending}&sort=oldest`],
      ['queue: Pending, newest first', () => `${base}&${pending}&sort=newest`],
      [
        'queue: Pending, one publisher, oldest',
        () => `${base}&${pending}&sort=oldest&publisher_id=${publishers[n++ % publishers.length]}`,
      ],
      [
        'queue: Pending + Flagged, oldest first',
        () => `${base}&${pending}&statuses=NodeVersionStatusFlagged&sort=oldest`,
      ],
    ]
    console.log(
      `${backend.name.padEnd(8)} ${String(backend.nodes).padStart(6)}  review queue: ${body.total} Pending versions of Active nodes, ${publishers.length} publishers sampled, ${QUEUE_PAGE_SIZE} per page`,
    )
    const results: Record<string, LoadResult> = {}
    for (const connections of [1, CONNECTIONS]) {
      for (const [name, url] of scenarios) {
        await runLoad(url, { connections: 4, seconds: 1, headers }) // warm up
        const label = `${name} (${connections} conn.)`
        results[label] = await runLoad(url, { connections, seconds: SECONDS, headers })
        console.log(resultLine(backend, label, results[label]))
      }
    }
    return results
  } finally {
    await stopChild(api)
  }
}

function startApi(backend: Backend, port: number, env: Record<string, string>) {
  const [command, commandArgs] = CPU_PROFILE_DIR
    ? [
        process.execPath,
        [
          '--cpu-prof',
          `--cpu-prof-dir=${path.resolve(CPU_PROFILE_DIR)}`,
          '--import',
          'tsx',
          'server/main.ts',
        ],
      ]
    : [path.join(root, 'node_modules/.bin/tsx'), ['server/main.ts']]
  return spawn(command, commandArgs, {
    cwd: root,
    env: {
      ...process.env,
      ...backend.env,
      API_PORT: String(port),
      API_HOST: '127.0.0.1',
      NODE_ENV: 'production',
      // The database's figures, not the public read cache's (identical anonymous reads within
      // PUBLIC_CACHE_MS share one answer, which would hide the queries measured here).
      PUBLIC_CACHE_MS: '0',
      // One client address asks everything: the per-address limits (120 searches a minute)
      // would answer most of it with 429.
      RATE_LIMIT_SCALE: '0',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
}

/** The search mix: every term × pages 1–5 × relevance, a tag filter, and two other sorts. */
function searchMix(base: string, sample: Sample) {
  const terms = [...SEARCHES, ...sample.rareSearches]
  const variants = ['', '&tags=video', '&sort=downloads', '&sort=newest']
  const urls = terms.flatMap((term) =>
    variants.flatMap((variant) =>
      [1, 2, 3, 4, 5].map(
        (page) =>
          `${base}/nodes/search?search=${encodeURIComponent(term)}&limit=10&page=${page}${variant}`,
      ),
    ),
  )
  // Spread: neighbours in the list share a ranking, the mix should not.
  return urls.map((_, i) => urls[(i * 7919) % urls.length])
}

/**
 * A page as ComfyUI-Manager's client (aiohttp) reads one: on a kept-alive connection, gzip
 * accepted (aiohttp's default Accept-Encoding) and decompressed in one piece, the JSON parsed.
 * Node's own `fetch` decompresses through web streams, which cost more than the page here
 * (docs/ARCHITECTURE.md, "Stored pages sent compressed").
 */
function managerGet(agent: http.Agent, url: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, headers: { 'accept-encoding': 'gzip, deflate' } })
    request.on('error', reject)
    request.on('response', (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('error', reject)
      response.on('end', () => {
        try {
          const body = Buffer.concat(chunks)
          const json =
            response.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(body) : body
          resolve(JSON.parse(json.toString('utf8')))
        } catch (error) {
          reject(error)
        }
      })
    })
  })
}

/**
 * ComfyUI-Manager's whole-catalogue read: `limit=30`, every page in order until one is empty,
 * one request at a time, by Manager's kind of client (managerGet), or by Node's `fetch` as the
 * bench read it before. Checks that every node came exactly once.
 */
async function catalogueSync(base: string, client: 'manager' | 'fetch' = 'manager') {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  const read = async (url: string) =>
    (client === 'fetch' ? await (await fetch(url)).json() : await managerGet(agent, url)) as {
      nodes: { id: string }[]
      total: number
    }
  const started = performance.now()
  const seen = new Set<string>()
  const pageIds: string[][] = []
  let pages = 0
  let slowest = { page: 0, ms: 0 }
  let total = 0
  try {
    for (let page = 1; ; page++) {
      const sent = performance.now()
      const body = await read(`${base}/nodes?page=${page}&limit=${MANAGER_PAGE}`)
      const ms = performance.now() - sent
      if (ms > slowest.ms) slowest = { page, ms }
      total = body.total
      if (body.nodes.length === 0) break
      pages = page
      pageIds.push(body.nodes.map((node) => node.id))
      for (const node of body.nodes) seen.add(node.id)
    }
  } finally {
    agent.destroy()
  }
  return {
    pageIds,
    pages,
    nodes: seen.size,
    total,
    seconds: (performance.now() - started) / 1000,
    slowestPage: slowest.page,
    slowestMs: slowest.ms,
  }
}

/**
 * A plain node:http server: `pages` pages of the same bytes (gzip-compressed once, sent so where
 * gzip is asked, as the API sends stored pages), then an empty page.
 */
const BARE_PAGE_SERVER = `const http = require('node:http'), fs = require('node:fs'), zlib = require('node:zlib')
const [file, pages, port] = process.argv.slice(1)
const body = fs.readFileSync(file), gzip = zlib.gzipSync(body), empty = Buffer.from('{"nodes":[],"total":0}')
http.createServer((request, response) => {
  const page = Number(new URL(request.url, 'http://bench').searchParams.get('page'))
  const compressed = page <= Number(pages) && /gzip/.test(request.headers['accept-encoding'] || '')
  const bytes = page > Number(pages) ? empty : compressed ? gzip : body
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': bytes.length,
    ...(compressed ? { 'content-encoding': 'gzip' } : {}) })
  response.end(bytes)
}).listen(Number(port), '127.0.0.1')`

/**
 * The walk's floor below the API on this machine: the same client reading `pages` pages of the
 * same bytes from a bare node:http process (a process of its own, as the API is).
 */
async function bareHttpWalk(page: Buffer, pages: number) {
  const port = API_PORT + 7
  const file = path.join(os.tmpdir(), `bench-page-${process.pid}.json`)
  fs.writeFileSync(file, page)
  const server = spawn(
    process.execPath,
    ['-e', BARE_PAGE_SERVER, file, String(pages), String(port)],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  )
  children.add(server)
  try {
    await waitForPort(port, 'The bare HTTP server', server, 30_000)
    await catalogueSync(`http://127.0.0.1:${port}`)
    return await catalogueSync(`http://127.0.0.1:${port}`)
  } finally {
    fs.rmSync(file, { force: true })
  }
}

/**
 * Forgets every node's stored JSON and every stored page (shared-json.ts, shared-pages.ts), as a
 * release of other code does.
 */
async function emptyNodeJson(backend: Backend) {
  const database = await backend.open()
  try {
    // A dataset made by older code may not have the tables yet.
    await migrate(database)
    await database.db.delete(nodeJson)
    await database.db.delete(listingPages)
  } finally {
    await database.close()
  }
}

/**
 * The walk's floor in the database: PostgreSQL answering the statement that reads a page's rows
 * (the node, its latest version, its publisher: the columns a page reads), one page at a time,
 * every page of the walk, the rows taken as text and not parsed. A freshly started API waits for
 * this before it can write any page.
 */
async function databaseWalk(backend: Backend, pageIds: string[][]) {
  const url = backend.env.DATABASE_URL
  if (!url) return undefined
  const database = await backend.open()
  const statement = database.db
    .select({ node: nodeColumns, latestVersion: nodeVersions, publisher: publishers })
    .from(nodes)
    .leftJoin(nodeVersions, eq(nodeVersions.id, nodes.latestVersionId))
    .innerJoin(publishers, eq(publishers.id, nodes.publisherId))
    .where(sql`${nodes.id} = any(${sql.placeholder('ids')}::text[])`)
    .toSQL().sql
  await database.close()
  const client = new Client({ connectionString: url })
  await client.connect()
  const asText = { getTypeParser: () => (value: string) => value }
  try {
    const read = async () => {
      const started = performance.now()
      for (const ids of pageIds) {
        await client.query({
          name: 'page_rows',
          text: statement,
          values: [ids],
          rowMode: 'array',
          types: asText,
        })
      }
      return (performance.now() - started) / 1000
    }
    await read()
    return await read()
  } finally {
    await client.end()
  }
}

async function measure(backend: Backend, sample: Sample) {
  const ids = sample.nodeIds
  const results: Record<string, unknown> = {}
  let n = 0
  const pick = <T>(list: T[]) => list[n++ % list.length]
  const base = `http://127.0.0.1:${API_PORT}`
  // Runs compare: no node's JSON stored by an earlier run (the deployed walk below shows both).
  await emptyNodeJson(backend)
  const totalNodes = (await (await fetchWhenUp(base, startApi(backend, API_PORT, {}))).json()) as {
    total: number
  }
  const managerPages = Math.ceil(totalNodes.total / MANAGER_PAGE)
  let pageIds: string[][] = []
  const search = searchMix(base, sample)
  const scenarios: [string, () => string][] = [
    ['GET /nodes (page 1, by downloads)', () => `${base}/nodes?page=1&limit=10`],
    [
      `GET /nodes (limit 30, pages 1–${managerPages})`,
      () => `${base}/nodes?page=${1 + ((n++ * 7919) % managerPages)}&limit=${MANAGER_PAGE}`,
    ],
    [
      'GET /nodes (deep pages 1–5,000, recent)',
      () => `${base}/nodes?page=${1 + ((n++ * 7919) % 5000)}&limit=10&sort=recent`,
    ],
    ['GET /nodes/{id}', () => `${base}/nodes/${encodeURIComponent(pick(ids))}`],
    [`GET /nodes/search (mix of ${search.length})`, () => pick(search)],
    [
      `GET /nodes/suggest (${TYPED.length} texts)`,
      () => `${base}/nodes/suggest?q=${encodeURIComponent(pick(TYPED))}`,
    ],
  ]
  try {
    // First, as a freshly started API would see it: reads every node once (and so warms caches).
    const sync = await catalogueSync(base)
    results.catalogueSync = { ...sync, pageIds: undefined }
    console.log(
      `${backend.name.padEnd(8)} ${String(backend.nodes).padStart(6)}  whole catalogue as ComfyUI-Manager reads it (limit ${MANAGER_PAGE}, pages in order): ${sync.pages} pages, ${sync.nodes} distinct nodes of ${sync.total}, ${sync.seconds.toFixed(1)} s, slowest page ${sync.slowestPage} at ${sync.slowestMs.toFixed(1)} ms`,
    )
    pageIds = sync.pageIds
    // The same walk again: every row kept, each page one read of the change log (shared).
    const warm = await catalogueSync(base)
    results.catalogueSyncWarm = { ...warm, pageIds: undefined }
    console.log(
      `${backend.name.padEnd(8)} ${String(backend.nodes).padStart(6)}  the same walk again (every row kept: one read of the change log a page): ${warm.seconds.toFixed(1)} s`,
    )
    // Warm: each search ranking asked once, as visitors had before, the term index built.
    await askEachSearchOnce(search)
    await whenTermIndexBuilt(base)
    for (const connections of [1, CONNECTIONS]) {
      for (const [name, url] of scenarios) {
        await runLoad(url, { connections: 4, seconds: 1 }) // warm up
        const label = `${name} (${connections} conn.)`
        const result = await runLoad(url, { connections, seconds: SECONDS })
        results[label] = result
        console.log(resultLine(backend, label, result))
      }
    }
  } finally {
    await stopAll()
  }

  // Issue 31's cold page: a freshly started API (nothing computed, no row kept) answering
  // Manager-sized pages spread over the catalogue, one connection, from its first request on.
  const managerScenario = scenarios[1]
  try {
    // No page from the store (shared-pages.ts): as this line measured before pages were shared.
    const fresh = startApi(backend, API_PORT, { SHARED_LISTING_PAGES_MS: '0' })
    children.add(fresh)
    await waitForPort(API_PORT, 'The API', fresh, 120_000)
    const label = `${managerScenario[0]}, freshly started API (1 conn.)`
    const result = await runLoad(managerScenario[1], { connections: 1, seconds: SECONDS })
    results[label] = result
    console.log(resultLine(backend, label, result))
  } finally {
    await stopAll()
  }

  // The walk as ComfyUI-Manager meets a deployed API: its default PUBLIC_CACHE_MS (1 s), so that
  // anonymous pages may rest on a read of the change log that old (ARCHITECTURE "Node row
  // cache"); no request before the walk. First as after a release (no node's JSON stored for
  // its code: shared-json.ts), then as a process started later meets it (the first one stored
  // every node's JSON).
  const deployedWalk = async (
    env: Record<string, string> = {},
    client: 'manager' | 'fetch' = 'manager',
  ) => {
    try {
      const deployed = startApi(backend, API_PORT, { PUBLIC_CACHE_MS: '1000', ...env })
      children.add(deployed)
      await waitForPort(API_PORT, 'The API', deployed, 120_000)
      const sync = await catalogueSync(base, client)
      const again = await catalogueSync(base, client)
      return { sync: { ...sync, pageIds: undefined }, again: { ...again, pageIds: undefined } }
    } finally {
      // Also stores what is left of the nodes' JSON before it exits.
      await stopAll()
    }
  }
  await emptyNodeJson(backend)
  const released = await deployedWalk()
  const later = await deployedWalk()
  // The same read by Node's fetch, the bench's client before (its decompression costs more).
  const laterByFetch = await deployedWalk({}, 'fetch')
  // As before pages were shared: every node's JSON stored, no page read from the store.
  const nodesOnly = await deployedWalk({ SHARED_LISTING_PAGES_MS: '0' })
  results.catalogueSyncReleased = released.sync
  results.catalogueSyncDeployed = later.sync
  results.catalogueSyncDeployedWarm = later.again
  results.catalogueSyncDeployedByFetch = laterByFetch.sync
  results.catalogueSyncDeployedNodeJsonOnly = nodesOnly.sync
  console.log(
    `${backend.name.padEnd(8)} ${String(backend.nodes).padStart(6)}  whole catalogue from a freshly started API with PUBLIC_CACHE_MS 1000 (the default), every page and node's JSON stored by an earlier process: ${later.sync.seconds.toFixed(1)} s, slowest page ${later.sync.slowestPage} at ${later.sync.slowestMs.toFixed(1)} ms; again: ${later.again.seconds.toFixed(1)} s; read by Node's fetch: ${laterByFetch.sync.seconds.toFixed(1)} s; nodes' JSON alone (SHARED_LISTING_PAGES_MS 0): ${nodesOnly.sync.seconds.toFixed(1)} s; the first walk after a release (nothing stored, each node and page written and stored): ${released.sync.seconds.toFixed(1)} s (target ≤ 5 s fresh)`,
  )

  // The whole-catalogue read's floor on this machine: the same walk with every page answered
  // from the API's memory (the public read cache kept for 10 minutes, the walk's third time: an
  // answer's second send encodes it once, serialized.ts `payload`), no database read at all:
  // HTTP, 60 kB of JSON a page, and the client's parse.
  try {
    const memory = startApi(backend, API_PORT, { PUBLIC_CACHE_MS: '600000' })
    children.add(memory)
    await waitForPort(API_PORT, 'The API', memory, 120_000)
    await catalogueSync(base)
    await catalogueSync(base)
    const floor = await catalogueSync(base)
    results.catalogueSyncFromMemory = { ...floor, pageIds: undefined }
    console.log(
      `${backend.name.padEnd(8)} ${String(backend.nodes).padStart(6)}  the same walk answered from the API's memory (no database read): ${floor.seconds.toFixed(1)} s, slowest page ${floor.slowestPage} at ${floor.slowestMs.toFixed(1)} ms`,
    )
    const page = Buffer.from(
      await (await fetch(`${base}/nodes?page=2&limit=${MANAGER_PAGE}`)).arrayBuffer(),
    )
    const bare = await bareHttpWalk(page, floor.pages)
    results.catalogueSyncBareHttp = { ...bare, pageIds: undefined }
    console.log(
      `${backend.name.padEnd(8)} ${String(backend.nodes).padStart(6)}  the same walk from a bare node:http process answering every page with one ${(page.byteLength / 1024).toFixed(0)} kB page (the client and HTTP alone, no API): ${bare.seconds.toFixed(1)} s`,
    )
    const rows = await databaseWalk(backend, pageIds)
    if (rows !== undefined) {
      results.catalogueSyncDatabaseRows = rows
      console.log(
        `${backend.name.padEnd(8)} ${String(backend.nodes).padStart(6)}  the same walk's rows from PostgreSQL alone (the statement a page reads them with, one page at a time, as text, nothing parsed): ${rows.toFixed(1)} s; with the bare HTTP walk ${(rows + bare.seconds).toFixed(1)} s, the least a walk that reads each page's rows when it is asked takes here (target ≤ 5 s from a freshly started API)`,
      )
    }
  } finally {
    await stopAll()
  }

  // The same without cached orderings: what each search and page costs the database.
  const cold = startApi(backend, API_PORT, {
    ORDERING_CACHE_MS: '0',
    NODE_ROW_CACHE: '0',
    SHARED_LISTING_PAGES_MS: '0',
  })
  try {
    await fetchWhenUp(base, cold)
    // Each search asked once first, as in the search-only run, and the term index built (a search
    // never waits for it), so the figures are not those of the minutes after a start.
    await askEachSearchOnce(search)
    await whenTermIndexBuilt(base)
    for (const connections of [1, CONNECTIONS]) {
      for (const [name, url] of scenarios.slice(1, 5).filter((_, i) => i !== 2)) {
        await runLoad(url, { connections: 4, seconds: 1 })
        const label = `${name}, nothing cached (${connections} conn.)`
        const result = await runLoad(url, { connections, seconds: SECONDS })
        results[label] = result
        console.log(resultLine(backend, label, result))
      }
    }
  } finally {
    await stopAll()
  }
  return results
}

/** Each search of the mix asked once, its first page: rankings computed, the term index built. */
async function askEachSearchOnce(search: string[]) {
  for (const url of new Set(search.map((u) => u.replace(/&page=\d+/, '&page=1')))) await fetch(url)
}

/**
 * Once a search finds the API's term index built (its first hit in /metrics, readable from
 * loopback): a build takes seconds at 100,000 nodes, and searches made meanwhile ask the database
 * alone (and share the CPU with the build), which is not what a running API does.
 */
async function whenTermIndexBuilt(base: string) {
  const deadline = Date.now() + 120_000
  for (let i = 0; Date.now() < deadline; i++) {
    // A text no never-seen search makes: it reaches the index, found or not.
    await fetch(`${base}/nodes/search?search=${encodeURIComponent(`index ready ${i}`)}&limit=1`)
    const metrics = await (await fetch(`${base}/metrics`)).text()
    const hits = /registry_cache_requests_total\{cache="search_terms",result="hit"\} (\d+)/.exec(
      metrics,
    )
    if (Number(hits?.[1] ?? 0) > 0) return
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  console.log('(the term index was not built within two minutes: searches below ask the database)')
}

/** `name` with one letter dropped (even n) or two neighbours swapped (odd n), at a place set by n. */
function misspelt(name: string, n: number): string {
  const at = 1 + (Math.floor(n / 2) % (name.length - 2))
  return n % 2 === 0
    ? name.slice(0, at) + name.slice(at + 1)
    : name.slice(0, at) + name[at + 1] + name[at] + name.slice(at + 2)
}

/**
 * Chinese and Japanese words as visitors type them (the generated data is English only: these
 * measure the CJK substring scan, which looks at every node whatever it finds).
 */
// prettier-ignore
const CJK_WORDS = [
  '高清', '放大', '人脸', '修复', '视频', '插帧', '显存', '优化', '批量', '处理', '节点', '背景',
  '除去', '画像', '動画', '顔', 'アップスケール', 'タイル', 'ノード', '写真', '補正', '生成', '模型', '风格',
]

/** `text` with the letters whose bit is set in `variant` upper-cased: a new text to the API's caches. */
function caseVariant(text: string, variant: number): string {
  if (variant === 0) return text
  return [...text]
    .map((letter, i) => ((variant >> (i % 24)) & 1 ? letter.toUpperCase() : letter))
    .join('')
}

/**
 * Unique search addresses from the data, one kind after the other: a whole word (every other one
 * among the twelve most used words, "comfyui", "nodes", "image": tens of thousands of hits), a
 * word's prefix, two words, a word with a letter dropped, with two letters swapped, a class name,
 * a word with a tag filter, CJK text. None is asked twice in a run: a word asked again is asked in
 * other letter cases (the ordering cache is keyed by the text as typed; the database's work is the
 * same), and every address is checked against those already made, by any API process of the run
 * (NeverSeenState).
 */
/** The kinds of neverSeenSearches, in its order. */
const NEVER_SEEN_KINDS = [
  'whole word',
  'prefix',
  'two words',
  'letter dropped',
  'letters swapped',
  'class name',
  'word and tag',
  'CJK',
]

/**
 * What a bench run has asked already, shared by all its never-seen generators (every API process,
 * every kind alone): a query asked again, even by a new process, would find its index and table
 * pages in PostgreSQL's memory, which a query never seen does not.
 */
interface NeverSeenState {
  counters: Map<string, number>
  seen: Set<string>
}

const neverSeenState = (): NeverSeenState => ({ counters: new Map(), seen: new Set() })

function neverSeenSearches(base: string, sample: Sample, state: NeverSeenState, onlyKind?: number) {
  const { counters, seen } = state
  const { vocabulary: words, classNames: classes, tags } = sample
  const broad = words.slice(0, 12)
  const longer = words.filter((word) => word.length >= 5)
  const next = (kind: string) => {
    const k = counters.get(kind) ?? 0
    counters.set(kind, k + 1)
    return k
  }
  /** The k-th item of `list`, and which round of the list it is in. */
  const at = <T>(list: T[], k: number): [T, number] => [
    list[k % list.length],
    Math.floor(k / list.length),
  ]
  const kinds: (() => [string, string])[] = [
    () => {
      const k = next('word')
      const [word, round] = k % 2 === 0 ? at(broad, k / 2) : at(words, (k - 1) / 2)
      return [caseVariant(word, round), '']
    },
    () => {
      const [word, round] = at(longer, next('prefix'))
      return [
        caseVariant(word.slice(0, 3 + (round % (word.length - 3))), Math.floor(round / 2)),
        '',
      ]
    },
    () => {
      const k = next('two')
      const [first, round] = at(words, k)
      return [`${first} ${words[(k * 7 + round + 1) % words.length]}`, '']
    },
    () => {
      const [word, round] = at(longer, next('dropped'))
      return [caseVariant(misspelt(word, 2 * round), Math.floor(round / (word.length - 2))), '']
    },
    () => {
      const [word, round] = at(longer, next('swapped'))
      return [caseVariant(misspelt(word, 2 * round + 1), Math.floor(round / (word.length - 2))), '']
    },
    () => {
      const [name, round] = at(classes, next('class'))
      return [caseVariant(name, round), '']
    },
    () => {
      const k = next('tag')
      const [word, round] = at(words, k)
      return [
        caseVariant(word, Math.floor(round / tags.length)),
        `&tags=${encodeURIComponent(tags[(k + round) % tags.length])}`,
      ]
    },
    () => {
      // One word, then every pair, then every triple…, written with or without a space.
      let rest = next('cjk')
      let length = 1
      while (rest >= CJK_WORDS.length ** length) rest -= CJK_WORDS.length ** length++
      const picked = Array.from(
        { length },
        (_, i) => CJK_WORDS[Math.floor(rest / CJK_WORDS.length ** i) % CJK_WORDS.length],
      )
      return [picked.join(rest % 2 === 0 ? ' ' : ''), '']
    },
  ]
  let n = 0
  return () => {
    // A kind whose texts all were asked would otherwise loop here for ever.
    for (let tries = 0; tries < 100_000; tries++) {
      const kind = onlyKind ?? n++ % kinds.length
      const [text, filter] = kinds[kind]()
      const address = `${base}/nodes/search?search=${encodeURIComponent(text)}&limit=10${filter}`
      if (seen.has(address)) continue
      seen.add(address)
      return address
    }
    throw new Error('The never-seen searches ran out of new texts: shorten --seconds.')
  }
}

/**
 * Searches only (--search): the repeating mix (cached rankings reused, as on a busy site), then
 * never-seen searches (every request a new text of one of the kinds of neverSeenSearches), and
 * misspelt class names alone; with caches on as in production, then with cached orderings and rows off.
 */
async function measureSearch(backend: Backend, sample: Sample) {
  const base = `http://127.0.0.1:${API_PORT}`
  const results: Record<string, unknown> = {}
  const search = searchMix(base, sample)
  const url = (text: string) => `${base}/nodes/search?search=${encodeURIComponent(text)}&limit=10`
  let n = 0
  let fresh = 0
  const asked = neverSeenState()
  const neverSeen = neverSeenSearches(base, sample, asked)
  const { classNames: classes } = sample
  const typoOnly = () => {
    const i = fresh++
    return misspelt(classes[i % classes.length], Math.floor(i / classes.length))
  }
  const neverSeenScenario: [string, () => string] = [
    'GET /nodes/search (never-seen searches)',
    () => neverSeen(),
  ]
  const scenarios: [string, () => string][] = NEVER_SEEN_ONLY
    ? [neverSeenScenario]
    : [
        [`GET /nodes/search (mix of ${search.length})`, () => search[n++ % search.length]],
        neverSeenScenario,
        [`GET /nodes/search (misspelt classes, ${classes.length})`, () => url(typoOnly())],
      ]
  const cacheModes = [
    ['', {}],
    [', nothing cached', { ORDERING_CACHE_MS: '0', NODE_ROW_CACHE: '0' }],
  ] as const
  for (const [cache, env] of NEVER_SEEN_ONLY ? cacheModes.slice(0, 1) : cacheModes) {
    try {
      const api = startApi(backend, API_PORT, env)
      await fetchWhenUp(base, api)
      await askEachSearchOnce(search)
      await whenTermIndexBuilt(base)
      // Never-seen searches go on where the last process stopped (NeverSeenState).
      for (const connections of [1, CONNECTIONS]) {
        for (const [name, next] of scenarios) {
          await runLoad(next, { connections: 4, seconds: 1 })
          const label = `${name}${cache} (${connections} conn.)`
          const { result, line } = await withCpuPerRequest(api.pid, () =>
            runLoad(next, { connections, seconds: SECONDS }),
          )
          results[label] = result
          console.log(resultLine(backend, label, result) + line)
        }
      }
      // Where the never-seen searches' time goes: each kind alone, one connection.
      if (cache) {
        for (const [kind, name] of NEVER_SEEN_KINDS.entries()) {
          const label = `GET /nodes/search (never-seen: ${name})${cache} (1 conn.)`
          const next = neverSeenSearches(base, sample, asked, kind)
          results[label] = await runLoad(next, { connections: 1, seconds: SECONDS / 2 })
          console.log(resultLine(backend, label, results[label] as LoadResult))
        }
      }
    } finally {
      await stopAll()
    }
  }
  return results
}

const children = new Set<ReturnType<typeof spawn>>()

/** Waits for the API started as `child`, then answers its first listing. */
async function fetchWhenUp(base: string, child: ReturnType<typeof spawn>) {
  children.add(child)
  await waitForPort(API_PORT, 'The API', child, 120_000)
  return fetch(`${base}/nodes?page=1&limit=1`)
}

async function stopAll() {
  for (const child of children) await stopChild(child)
  children.clear()
}

/**
 * What a provider lookup through `/proxy/luma/...` costs over asking the provider directly: a
 * fake provider answering at once, one connection each way, p95 against p95.
 */
async function measureProxy(backend: Backend) {
  const database = await backend.open()
  let key: string
  try {
    await database.db
      .insert(users)
      .values({ id: 'bench-proxy', email: 'bench-proxy@example.test', name: 'Bench' })
      .onConflictDoNothing()
    const { customer } = await openAccount(database.db, 'bench-proxy')
    key = (await createApiKey(database.db, customer.id, { name: 'bench', description: '' })).key
  } finally {
    await database.close()
  }
  const provider = await startFakeProvider()
  const base = `http://127.0.0.1:${API_PORT}`
  const api = startApi(backend, API_PORT, {
    PROXY_LUMA_URL: provider.url,
    PROXY_LUMA_KEY: 'bench-luma-key',
  })
  try {
    await fetchWhenUp(base, api)
    const direct = () => `${provider.url}/generations/job-1`
    const proxied = () => `${base}/proxy/luma/generations/job-1`
    const headers = { 'x-api-key': key }
    await runLoad(direct, { connections: 1, seconds: 1 })
    await runLoad(proxied, { connections: 1, seconds: 1, headers })
    const asked = await runLoad(direct, { connections: 1, seconds: SECONDS })
    const through = await runLoad(proxied, { connections: 1, seconds: SECONDS, headers })
    console.log(resultLine(backend, 'provider directly (1 conn.)', asked))
    console.log(resultLine(backend, 'GET /proxy/luma/generations/{id} (1 conn.)', through))
    const overhead = through.p95 - asked.p95
    console.log(
      `${backend.name.padEnd(8)} ${String(backend.nodes).padStart(6)}  proxy overhead: p95 ${overhead.toFixed(2)} ms over a direct call (p50 ${(through.p50 - asked.p50).toFixed(2)} ms); target ≤ 2 ms`,
    )
    return { direct: asked, proxied: through, overheadP95Ms: overhead }
  } finally {
    await stopAll()
    await provider.close()
  }
}

/** CI results stored for the summary's figures: 5,000 commits × 2 workflows × 5 systems. */
const CI_RESULTS = 50_000
const CI_BENCH_REPO = 'bench/ComfyUI'

/**
 * `GET /gitcommitsummary` with 50k workflow results stored (in a repository of their own, added
 * once by SQL): pages 1 to 100 of 50 commits, at 1 and 32 connections.
 */
async function measureCiSummary(backend: Backend) {
  const database = await backend.open()
  try {
    const commits = CI_RESULTS / 10
    await database.db.execute(sql`
      insert into ci_commits (repo, repo_key, commit_hash, branch_name, commit_message, author, commit_time)
      select ${CI_BENCH_REPO}, lower(${CI_BENCH_REPO}), md5('bench' || i), case when i % 5 = 0 then 'release' else 'master' end,
        'Bench commit ' || i, 'bench', timestamptz '2026-11-01' - i * interval '10 minutes'
      from generate_series(1, ${commits}) as i
      on conflict do nothing`)
    await database.db.execute(sql`
      insert into ci_workflow_results (commit_id, job_id, workflow_name, operating_system, status)
      select c.id, 'bench-' || c.commit_hash || '-' || w || '-' || o, 'workflow-' || w,
        (array['linux', 'windows', 'macos', 'linux-rocm', 'windows-arm'])[o],
        case when (hashtext(c.commit_hash) + w * 7 + o) % 20 = 0 then 'failed' else 'completed' end
      from ci_commits as c, generate_series(1, 2) as w, generate_series(1, 5) as o
      where c.repo_key = lower(${CI_BENCH_REPO})
      on conflict (job_id) do nothing`)
  } finally {
    await database.close()
  }
  const base = `http://127.0.0.1:${API_PORT}`
  const results: Record<string, unknown> = {}
  await fetchWhenUp(base, startApi(backend, API_PORT, {}))
  try {
    let n = 0
    const repo = encodeURIComponent(CI_BENCH_REPO)
    const scenarios: [string, () => string][] = [
      [
        `GET /gitcommitsummary (${CI_RESULTS / 1000}k results, pages 1–100 of 50)`,
        () => `${base}/gitcommitsummary?repoName=${repo}&pageSize=50&page=${1 + (n++ % 100)}`,
      ],
      [
        'GET /gitcommitsummary (branch, pages 1–20 of 50)',
        () =>
          `${base}/gitcommitsummary?repoName=${repo}&branchName=release&pageSize=50&page=${1 + (n++ % 20)}`,
      ],
    ]
    for (const connections of [1, CONNECTIONS]) {
      for (const [name, url] of scenarios) {
        await runLoad(url, { connections: 4, seconds: 1 })
        const label = `${name} (${connections} conn.)`
        const result = await runLoad(url, { connections, seconds: SECONDS })
        results[label] = result
        console.log(resultLine(backend, label, result))
      }
    }
  } finally {
    await stopAll()
  }
  return results
}

async function run(backend: Backend, report: Record<string, unknown>) {
  const sample = await prepare(backend)
  if (SEARCH_ONLY) {
    report[`${backend.name}Search`] = await measureSearch(backend, sample)
    return
  }
  if (!ADMIN_ONLY && !PROXY_ONLY)
    report[`${backend.name}CiSummary`] = await measureCiSummary(backend)
  if (CI_ONLY) return
  if (!ADMIN_ONLY) report[`${backend.name}Proxy`] = await measureProxy(backend)
  if (PROXY_ONLY) return
  if (!ADMIN_ONLY) report[backend.name] = await measure(backend, sample)
  report[`${backend.name}ReviewQueue`] = await measureReviewQueue(backend, sample)
}

async function main() {
  console.log(`${CONNECTIONS} connections, ${SECONDS} s per scenario\n`)
  const report: Record<string, unknown> = {
    connections: CONNECTIONS,
    seconds: SECONDS,
    at: new Date().toISOString(),
  }
  if (ONLY !== 'pglite') {
    const backend = await postgresBackend(100_000)
    if (backend) await run(backend, report)
  }
  if (ONLY !== 'postgres') await run(pgliteBackend(10_000), report)
  fs.mkdirSync(path.join(root, 'bench-results'), { recursive: true })
  const file = ADMIN_ONLY
    ? 'api-admin.json'
    : PROXY_ONLY
      ? 'api-proxy.json'
      : CI_ONLY
        ? 'api-ci.json'
        : SEARCH_ONLY
          ? 'api-search.json'
          : 'api.json'
  fs.writeFileSync(path.join(root, 'bench-results', file), JSON.stringify(report, null, 2))
  console.log(
    `\nTargets (PostgreSQL, 100k nodes): search mix p95 ≤ 20 ms (1 conn.), ≤ 150 ms and ≥ 300 req/s (32); list p95 ≤ 10 ms (1 conn.), ≤ 50 ms and ≥ 1,000 req/s (32); suggestions p95 ≤ 10 ms (1 conn.), ≤ 50 ms (32); review queue page p95 ≤ 50 ms at 1 connection; a proxied provider lookup p95 ≤ 2 ms over a direct call; never-seen searches (--search, caches on) p95 ≤ 50 ms (1 conn.), ≤ 250 ms and ≥ 300 req/s (32). Written to bench-results/${file}`,
  )
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
