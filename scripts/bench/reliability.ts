// `npm run bench:reliability`: faults and load. Rounds, chosen with --round (comma-separated,
// default all three):
//   outage  The API while PostgreSQL goes away. The API runs as a child process
//           (`tsx server/main.ts`, demo data) on PostgreSQL reached through a TCP proxy this
//           script controls; --clients loops (default 20) ask GET /nodes and GET /nodes/{id} all
//           the time and /health is polled every 200 ms. The database is cut away for --outage
//           seconds (default 5), then every session is terminated (pg_terminate_backend) three
//           times. Prints the answers by status (any 5xx other than 503 is a failure), the time to
//           recover after the database returns and the /health states seen.
//   kill    `kill -9` of the API during uploads (reliability-kill.ts): --kills rounds (default 2)
//           per store of --stores (default postgres,pglite), a --kill-mb zip (default 20).
//   load    --connections clients (default 200) for --duration seconds (default 60) per target
//           on the website's pages and the API's calls (reliability-load.ts); --targets web,api
//           picks the groups, --load-database-url runs the API on PostgreSQL instead of PGlite.
// --database names the PostgreSQL database the outage and kill rounds recreate. Writes
// bench-results/reliability.json; exits non-zero on any failure.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { waitForPort } from '../net'
import { killRound, type Store } from './reliability-kill'
import { loadRound } from './reliability-load'
import { startTcpProxy } from './tcp-proxy'
import { Client } from 'pg'
import { freshDatabase } from './databases'

const root = path.resolve(__dirname, '../..')
const args = process.argv.slice(2)
const flag = (name: string) => {
  const index = args.indexOf(`--${name}`)
  return index >= 0 ? args[index + 1] : undefined
}
const CLIENTS = Number(flag('clients') ?? 20)
const OUTAGE_SECONDS = Number(flag('outage') ?? 5)
const API_PORT = Number(flag('port') ?? 8290)
const SERVER_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres'
const DATABASE_NAME = flag('database') ?? 'registry_bench_reliability'
const ROUNDS = (flag('round') ?? 'outage,kill,load').split(',')
for (const round of ROUNDS) {
  if (!['outage', 'kill', 'load'].includes(round)) {
    throw new Error(`--round takes outage, kill and load (comma-separated); not '${round}'.`)
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface Tally {
  byStatus: Record<string, number>
  /** Answers that were not JSON `{error, message}` while not 200. */
  notJson: number
  /** The distinct messages of the 503 answers. */
  messages: string[]
}

function tally(): Tally {
  return { byStatus: {}, notJson: 0, messages: [] }
}

async function outageRound(report: Record<string, unknown>) {
  const databaseUrl = await freshDatabase(SERVER_URL, DATABASE_NAME)
  const target = new URL(databaseUrl)
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) })
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-reliability-'))
  const api = spawn(path.join(root, 'node_modules/.bin/tsx'), ['server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: proxy.proxiedUrl(databaseUrl),
      DATA_DIR: dataDir,
      API_PORT: String(API_PORT),
      API_HOST: '127.0.0.1',
      NODE_ENV: 'production',
      // All load comes from one loopback address: per-IP rate limits would answer 429.
      RATE_LIMIT_SCALE: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  let apiExitedEarly = false
  api.once('exit', () => (apiExitedEarly = true))
  const base = `http://127.0.0.1:${API_PORT}`
  try {
    const started = Date.now()
    await waitForPort(API_PORT, 'The API', api, 300_000)
    console.log(`API up on PostgreSQL through the proxy in ${(Date.now() - started) / 1000} s`)
    const list = (await (await fetch(`${base}/nodes?limit=50`)).json()) as {
      nodes: { id: string }[]
    }
    const ids = list.nodes.map((node) => node.id)
    console.log(
      `${CLIENTS} clients on GET /nodes and GET /nodes/{id} (${ids.length} ids), /health every 200 ms\n`,
    )

    let phase = 'before'
    const tallies: Record<string, Tally> = {}
    const health: Record<string, Record<string, number>> = {}
    let lastOkAt = 0
    let running = true
    let n = 0
    const clients = Array.from({ length: CLIENTS }, async () => {
      while (running) {
        const url = n++ % 2 ? `${base}/nodes/${ids[n % ids.length]}` : `${base}/nodes?limit=10`
        try {
          const response = await fetch(url, { signal: AbortSignal.timeout(15_000) })
          const text = await response.text()
          // Counted in the phase it answered in (one sent before a cut may answer 503 after it).
          const t = (tallies[phase] ??= tally())
          t.byStatus[response.status] = (t.byStatus[response.status] ?? 0) + 1
          if (response.status === 200) lastOkAt = performance.now()
          else {
            try {
              const body = JSON.parse(text) as { error?: unknown; message?: unknown }
              if (typeof body.error !== 'string' || typeof body.message !== 'string') t.notJson += 1
              else if (!t.messages.includes(body.message)) t.messages.push(body.message)
            } catch {
              t.notJson += 1
            }
            // As a client honouring Retry-After would, but sooner: keep the pressure on.
            await sleep(50)
          }
        } catch {
          const t = (tallies[phase] ??= tally())
          t.byStatus.network = (t.byStatus.network ?? 0) + 1
          await sleep(50)
        }
      }
    })
    const healthPoller = (async () => {
      while (running) {
        try {
          const response = await fetch(`${base}/health`, { signal: AbortSignal.timeout(3000) })
          const body = (await response.json()) as { status: string; database: string }
          const h = (health[phase] ??= {})
          const key = `${response.status} ${body.status}/${body.database}`
          h[key] = (h[key] ?? 0) + 1
        } catch {
          const h = (health[phase] ??= {})
          h['no answer'] = (h['no answer'] ?? 0) + 1
        }
        await sleep(200)
      }
    })()

    /** Milliseconds from now until a request answers 200 again (every client shares lastOkAt). */
    const timeToRecover = async () => {
      const from = performance.now()
      while (lastOkAt < from && performance.now() - from < 60_000) await sleep(10)
      return lastOkAt >= from ? Math.round(lastOkAt - from) : null
    }

    await sleep(3000)
    // Round 1: the database is cut away (connections closed, new ones refused).
    phase = `outage ${OUTAGE_SECONDS} s`
    await proxy.cut()
    await sleep(OUTAGE_SECONDS * 1000)
    phase = 'after outage'
    await proxy.restore()
    const recoveredOutage = await timeToRecover()
    await sleep(3000)

    // Round 2: every session of the database is terminated, three times, one second apart.
    phase = 'pg_terminate_backend ×3'
    const admin = new Client({ connectionString: databaseUrl })
    await admin.connect()
    let terminated = 0
    let recoveredTerminate: (number | null)[] = []
    for (let round = 0; round < 3; round++) {
      const { rows } = await admin.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity, pg_terminate_backend(pid)
         where datname = current_database() and pid <> pg_backend_pid()`,
      )
      terminated += rows[0].n
      recoveredTerminate = [...recoveredTerminate, await timeToRecover()]
      await sleep(1000)
    }
    await admin.end()
    phase = 'after terminations'
    await sleep(3000)
    running = false
    await Promise.all([...clients, healthPoller])

    let failures = 0
    for (const [name, t] of Object.entries(tallies)) {
      const other = Object.entries(t.byStatus).filter(
        ([status]) => !['200', '503'].includes(status),
      )
      failures += other.reduce((sum, [, count]) => sum + count, 0) + t.notJson
      console.log(
        `${name.padEnd(26)} ${Object.entries(t.byStatus)
          .map(([status, count]) => `${status}: ${count}`)
          .join('  ')}${t.notJson ? `  (${t.notJson} not JSON {error, message})` : ''}`,
      )
      for (const message of t.messages) console.log(`${''.padEnd(26)} "${message}"`)
      console.log(
        `${''.padEnd(26)} /health: ${Object.entries(health[name] ?? {})
          .map(([state, count]) => `${state} ×${count}`)
          .join(', ')}`,
      )
    }
    console.log(
      `\nRecovered (first 200 after the database returned): ${recoveredOutage} ms after the ${OUTAGE_SECONDS} s outage; ${recoveredTerminate.join(' / ')} ms after each termination (${terminated} sessions terminated).`,
    )
    console.log(
      `Answers other than 200 and 503 (or without a JSON message): ${failures} (must be 0). API process still running: ${!apiExitedEarly}.`,
    )
    report.outage = {
      clients: CLIENTS,
      outageSeconds: OUTAGE_SECONDS,
      tallies,
      health,
      recoveredOutageMs: recoveredOutage,
      recoveredTerminateMs: recoveredTerminate,
      terminated,
      failures,
      apiSurvived: !apiExitedEarly,
    }
    return failures + (apiExitedEarly ? 1 : 0)
  } finally {
    if (api.exitCode === null) {
      api.kill('SIGTERM')
      await new Promise((resolve) => api.once('exit', resolve))
    }
    await proxy.close()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

async function main() {
  const report: Record<string, unknown> = { rounds: ROUNDS, at: new Date().toISOString() }
  let failures = 0
  try {
    if (ROUNDS.includes('outage')) {
      console.log('== outage: PostgreSQL cut away and its sessions terminated ==')
      failures += await outageRound(report)
    }
    if (ROUNDS.includes('kill')) {
      console.log('\n== kill: kill -9 of the API during uploads ==')
      const kill = await killRound({
        root,
        serverUrl: SERVER_URL,
        databaseName: DATABASE_NAME,
        port: API_PORT,
        runs: Number(flag('kills') ?? 2),
        sizeMb: Number(flag('kill-mb') ?? 20),
        stores: (flag('stores') ?? 'postgres,pglite').split(',') as Store[],
      })
      report.kill = kill
      failures += kill.failures
    }
    if (ROUNDS.includes('load')) {
      console.log('\n== load: concurrent clients on the website and the API ==')
      const load = await loadRound({
        root,
        connections: Number(flag('connections') ?? 200),
        duration: Number(flag('duration') ?? 60),
        ports: {
          web: Number(flag('web-port') ?? 3290),
          api: Number(flag('load-api-port') ?? 8292),
          auth: Number(flag('auth-port') ?? 9390),
        },
        databaseUrl: flag('load-database-url'),
        groups: (flag('targets') ?? 'web,api').split(','),
      })
      report.load = load
      failures += load.failures
    }
  } finally {
    fs.mkdirSync(path.join(root, 'bench-results'), { recursive: true })
    fs.writeFileSync(
      path.join(root, 'bench-results', 'reliability.json'),
      JSON.stringify(report, null, 2),
    )
  }
  console.log(`\nFailures over all rounds: ${failures} (must be 0).`)
  if (failures > 0) process.exitCode = 1
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
