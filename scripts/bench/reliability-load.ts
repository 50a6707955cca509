// The load round of `npm run bench:reliability`: the whole stack (`scripts/start.ts`: the API,
// the website's production build under `next start`, the Auth emulator) with its demo data, then
// autocannon with --connections clients for --duration seconds on each of the website's home,
// node and search pages and the API's list, node, search and install calls, one after another.
// Every request comes from loopback, so the API's per-address limits are lifted
// (RATE_LIMIT_SCALE=0). Zero errors and zero non-2xx answers are the target.
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import autocannon from 'autocannon'

export interface LoadOptions {
  root: string
  connections: number
  duration: number
  /** Web, API and Auth emulator ports (the emulator also uses the next two). */
  ports: { web: number; api: number; auth: number }
  /** A PostgreSQL database for the API; PGlite in a temporary DATA_DIR when undefined. */
  databaseUrl: string | undefined
  /** Which target groups: `web` (the pages) and/or `api` (the calls). */
  groups: string[]
}

export interface LoadTarget {
  name: string
  url: string
  requestsPerSecond: number
  p50: number
  p99: number
  errors: number
  timeouts: number
  non2xx: number
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function waitFor(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The stack exited early (code ${child.exitCode}).`)
    try {
      if ((await fetch(url)).ok) return
    } catch {
      // not up yet
    }
    await sleep(500)
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s.`)
}

/** Resolves once `url` answers within 250 ms three times in a row (at most 60 s). */
async function waitUntilIdle(url: string): Promise<void> {
  const deadline = Date.now() + 60_000
  let fast = 0
  while (fast < 3 && Date.now() < deadline) {
    const started = performance.now()
    await fetch(url).then((response) => response.arrayBuffer())
    fast = performance.now() - started < 250 ? fast + 1 : 0
    if (fast < 3) await sleep(500)
  }
}

export async function loadRound(
  options: LoadOptions,
): Promise<{ targets: LoadTarget[]; failures: number }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-load-'))
  const { web, api, auth } = options.ports
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    WEB_PORT: String(web),
    API_PORT: String(api),
    AUTH_EMULATOR_PORT: String(auth),
    DATA_DIR: dataDir,
    NEXT_PUBLIC_SITE_URL: `http://localhost:${web}`,
    NEXT_TELEMETRY_DISABLED: '1',
    // All the load comes from 127.0.0.1: per-address limits would answer 429 to the bench.
    RATE_LIMIT_SCALE: '0',
    // The API's line per request would bury the stack's own messages printed below.
    LOG_LEVEL: 'warn',
  }
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl
  else delete env.DATABASE_URL
  console.log(
    `\n[load] starting the stack (web :${web}, API :${api}, ${options.databaseUrl ? 'PostgreSQL' : 'PGlite'}), RATE_LIMIT_SCALE=0: the API's per-address rate limits are off for this round`,
  )
  // Node with tsx's loader, not the tsx wrapper: 'exit' then means start.ts itself has stopped
  // the website and the emulator (the wrapper may exit first and leave them running).
  const stack = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: options.root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const log = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      if (line.trim() && !/^\s*(GET|POST|PUT|DELETE|HEAD) /.test(line)) {
        process.stdout.write(`  [stack] ${line}\n`)
      }
    }
  }
  stack.stdout.on('data', log)
  stack.stderr.on('data', log)
  const apiBase = `http://127.0.0.1:${api}`
  const webBase = `http://127.0.0.1:${web}`
  const targets: LoadTarget[] = []
  try {
    await waitFor(`${apiBase}/health`, stack, 900_000)
    await waitFor(`${webBase}/`, stack, 900_000)
    const list = (await (await fetch(`${apiBase}/nodes?limit=10`)).json()) as {
      nodes: { id: string; name?: string }[]
    }
    const node = list.nodes[0]
    if (!node) throw new Error('No node in the demo data.')
    // A word of a real node's name, so the search finds something.
    const term = encodeURIComponent((node.name ?? node.id).split(/[\s-]+/)[0].toLowerCase())
    const urls: [string, string][] = [
      ['web home', `${webBase}/`],
      ['web node page', `${webBase}/nodes/${node.id}`],
      ['web search page', `${webBase}/?q=${term}`],
      ['API list', `${apiBase}/nodes`],
      ['API node', `${apiBase}/nodes/${node.id}`],
      ['API search', `${apiBase}/nodes/search?search=${term}`],
      ['API install', `${apiBase}/nodes/${node.id}/install`],
    ]
    const chosen = urls.filter(([name]) =>
      options.groups.includes(name.split(' ')[0].toLowerCase()),
    )
    for (const [, url] of chosen) {
      const status = (await fetch(url)).status
      if (status !== 200) throw new Error(`${url} answers ${status} before the load.`)
    }
    console.log(
      `[load] ${options.connections} connections × ${options.duration} s per target, one target at a time`,
    )
    for (const [name, url] of chosen) {
      // The previous target's abandoned requests are still being answered: wait until the
      // stack is idle, so each target is measured on its own.
      await waitUntilIdle(url)
      const result = await autocannon({
        url,
        connections: options.connections,
        duration: options.duration,
        // As browsers and CDNs ask: pages are sent compressed.
        headers: { 'accept-encoding': 'gzip, deflate, br' },
      })
      const target: LoadTarget = {
        name,
        url,
        requestsPerSecond: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors,
        timeouts: result.timeouts,
        non2xx: result.non2xx,
      }
      targets.push(target)
      console.log(
        `[load] ${name.padEnd(16)} ${target.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${String(target.p50).padStart(5)} ms  p99 ${String(target.p99).padStart(5)} ms  errors ${target.errors} (timeouts ${target.timeouts})  non-2xx ${target.non2xx}`,
      )
    }
  } finally {
    if (stack.exitCode === null) {
      const exited = new Promise((resolve) => stack.once('exit', resolve))
      stack.kill('SIGINT')
      const timer = setTimeout(() => stack.kill('SIGKILL'), 30_000)
      await exited
      clearTimeout(timer)
    }
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
  const failures = targets.reduce((sum, t) => sum + t.errors + t.non2xx, 0)
  return { targets, failures }
}
