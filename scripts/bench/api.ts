// `npm run bench:api`: latency and throughput of the read calls that matter most, on
// PostgreSQL with 100k nodes and on PGlite with 10k. Datasets are generated once and reused
// (pass --fresh to rebuild). Prints a table and writes bench-results/api.json.
//   --only postgres|pglite   --seconds N (per scenario, default 8)   --connections N (default 32)
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { sql } from 'drizzle-orm'
import { Client } from 'pg'
import { migrate, openDatabase, type Database } from '../../server/db/client'
import { nodes } from '../../server/db/schema'
import { loadDemoData } from '../../server/seed/load'
import { publiclyVisible } from '../../server/nodes/queries'
import { listAllVersions } from '../../server/versions/queries'
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
const API_PORT = 8280
const SERVER_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test'

/** Five searches: common words, two words, a class name and one with a typo. */
const SEARCHES = ['upscale', 'face restore', 'controlnet', 'upscalr', 'lora loader']

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

/** Loads the dataset unless it is already there; returns a sample of node ids. */
async function prepare(backend: Backend): Promise<string[]> {
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
      console.log(`${((Date.now() - started) / 1000).toFixed(1)} s`)
    }
    const sample = await database.db
      .select({ id: nodes.id })
      .from(nodes)
      .where(publiclyVisible())
      .orderBy(sql`md5(${nodes.id})`)
      .limit(500)
    return sample.map((row) => row.id)
  } finally {
    await database.close()
  }
}

/**
 * The admins' review queue (`GET /versions?statuses=Pending&statuses=Flagged&include_status_reason=true`,
 * first page) measured at the database, one query at a time: the HTTP bench has no admin token.
 */
async function measureReviewQueue(backend: Backend) {
  const database = await backend.open()
  try {
    const timings: number[] = []
    for (let run = 0; run < 60; run++) {
      const started = performance.now()
      await listAllVersions(
        database.db,
        { statuses: ['NodeVersionStatusPending', 'NodeVersionStatusFlagged'], sort: 'newest' },
        { page: 1, limit: 20 },
      )
      if (run >= 10) timings.push(performance.now() - started) // the first ones warm up
    }
    timings.sort((a, b) => a - b)
    const at = (p: number) =>
      timings[Math.min(timings.length - 1, Math.ceil(p * timings.length) - 1)]
    const result = { p50: at(0.5), p95: at(0.95) }
    console.log(
      `${backend.name.padEnd(8)} ${String(backend.nodes).padStart(6)}  ${'admin review queue (database, 1 at a time)'.padEnd(40)} p50 ${result.p50.toFixed(1).padStart(6)} ms  p95 ${result.p95.toFixed(1).padStart(6)} ms`,
    )
    return result
  } finally {
    await database.close()
  }
}

async function measure(backend: Backend) {
  const ids = await prepare(backend)
  const api = spawn(path.join(root, 'node_modules/.bin/tsx'), ['server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      ...backend.env,
      API_PORT: String(API_PORT),
      API_HOST: '127.0.0.1',
      NODE_ENV: 'production',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  try {
    await waitForPort(API_PORT, 'The API', api, 120_000)
    const base = `http://127.0.0.1:${API_PORT}`
    let n = 0
    const pick = <T>(list: T[]) => list[n++ % list.length]
    const scenarios: [string, () => string][] = [
      ['GET /nodes (page 1, by downloads)', () => `${base}/nodes?page=1&limit=10`],
      [
        'GET /nodes (deep page, recent)',
        () => `${base}/nodes?page=${1 + (n++ % 200)}&limit=10&sort=recent`,
      ],
      ['GET /nodes/{id}', () => `${base}/nodes/${encodeURIComponent(pick(ids))}`],
      [
        'GET /nodes/search (5 queries, 1 typo)',
        () => `${base}/nodes/search?search=${encodeURIComponent(pick(SEARCHES))}&limit=10`,
      ],
      ...SEARCHES.map((term): [string, () => string] => [
        `  search "${term}"`,
        () => `${base}/nodes/search?search=${encodeURIComponent(term)}&limit=10`,
      ]),
    ]
    const results: Record<string, LoadResult> = {}
    for (const [name, url] of scenarios) {
      await runLoad(url, { connections: 4, seconds: 1 }) // warm up
      const seconds = name.startsWith('  ') ? Math.max(2, SECONDS / 4) : SECONDS
      results[name] = await runLoad(url, { connections: CONNECTIONS, seconds })
      const r = results[name]
      console.log(
        `${backend.name.padEnd(8)} ${String(backend.nodes).padStart(6)}  ${name.padEnd(40)} p50 ${r.p50.toFixed(1).padStart(6)} ms  p95 ${r.p95.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms  ${r.requestsPerSecond.toFixed(0).padStart(6)} req/s${r.errors ? `  (${r.errors} errors)` : ''}`,
      )
    }
    return results
  } finally {
    api.kill('SIGTERM')
    await new Promise((resolve) => api.once('exit', resolve))
  }
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
    if (backend) {
      report.postgres = await measure(backend)
      report.postgresReviewQueue = await measureReviewQueue(backend)
    }
  }
  if (ONLY !== 'postgres') {
    const backend = pgliteBackend(10_000)
    report.pglite = await measure(backend)
    report.pgliteReviewQueue = await measureReviewQueue(backend)
  }
  fs.mkdirSync(path.join(root, 'bench-results'), { recursive: true })
  fs.writeFileSync(path.join(root, 'bench-results', 'api.json'), JSON.stringify(report, null, 2))
  console.log(
    '\nTargets (PostgreSQL, 100k nodes): search p95 ≤ 20 ms, list p95 ≤ 10 ms. Written to bench-results/api.json',
  )
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
