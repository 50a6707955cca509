// `npm run bench:cluster`: the registry as several machines would run it, on loopback. Two API
// processes (WORKER=off) and two website processes, each pair behind a round-robin TCP balancer
// (round-robin-proxy.ts), one pipeline worker, on PostgreSQL, Redis and an S3-compatible server
// (s3rver, started here), with the Firebase Auth emulator for the owner's sign-in. Then, in order:
//   1. publish through API 1 → the worker decides → install through API 2: the same bytes;
//   2. the owner edits the node (the website's owner tools: the API, then the website's
//      revalidate route through the balancer) → both website processes serve the new page;
//   3. refused publish tokens from one address, alternating between the APIs: limited at the
//      count of one process (shared in Redis), not twice it;
//   4. `kill -9` API 1 in the middle of an upload → the client's error is retried through the
//      balancer (API 2) → 200 and Active;
//   5. `kill -9` the worker in the middle of a job → a new worker takes the job again when its
//      lease runs out → Active;
//   6. maintenance (what the API runs hourly) → no object in the bucket without its version row,
//      and no version row without its object;
//   7. read throughput of the pair (through the balancer) against API 1 alone.
// Prints a table and exits non-zero when a check fails. Flags: --base-port (default 8400),
// --seconds per throughput run (default 8), --connections (default 32), --mb for the big upload
// (default 16), --database (default registry_bench_cluster, recreated on the server of
// BENCH_DATABASE_URL/TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres).
import { spawn, type ChildProcess } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import { and, eq, isNotNull } from 'drizzle-orm'
import { getApps, initializeApp } from 'firebase-admin/app'
import { getAuth } from 'firebase-admin/auth'
import { strToU8, zipSync } from 'fflate'
import { loadConfig } from '../../server/config'
import { openDatabase, type Db } from '../../server/db/client'
import { ciWorkflowResults, jobs, nodeVersions } from '../../server/db/schema'
import { attachDemoMembership } from '../../server/seed/load'
import { DEMO_PUBLISHER } from '../../server/seed/accounts'
import { storageFromConfig } from '../../server/storage/from-config'
import { startTestS3, TEST_BUCKET } from '../../server/storage/test-s3'
import { runMaintenance } from '../../server/system/maintenance'
import { createToken } from '../../server/tokens/tokens'
import { startAuthEmulator } from '../auth-emulator'
import { waitForPort } from '../net'
import { DEMO_FIREBASE_PROJECT_ID } from '../ports'
import { ensureWebBuild } from '../web-build'
import { runLoad, type LoadResult } from './load'
import { startRoundRobinProxy } from './round-robin-proxy'
import { freshDatabase } from './databases'

const root = path.resolve(__dirname, '../..')
const args = process.argv.slice(2)
const flag = (name: string) => {
  const index = args.indexOf(`--${name}`)
  return index >= 0 ? args[index + 1] : undefined
}
const BASE_PORT = Number(flag('base-port') ?? 8400)
const SECONDS = Number(flag('seconds') ?? 8)
const CONNECTIONS = Number(flag('connections') ?? 32)
const BIG_MB = Number(flag('mb') ?? 16)
const DATABASE_NAME = flag('database') ?? 'registry_bench_cluster'
const SERVER_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres'
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379'

const PORTS = {
  api1: BASE_PORT,
  api2: BASE_PORT + 1,
  apiBalancer: BASE_PORT + 2,
  web1: BASE_PORT + 10,
  web2: BASE_PORT + 11,
  webBalancer: BASE_PORT + 12,
  auth: BASE_PORT + 20,
  workerMetrics: BASE_PORT + 30,
}
const NODE_ID = 'cluster-bench'
const MB = 1024 * 1024
/** What comfy-cli sends with an archive. */
const ZIP = { 'content-type': 'application/zip' }
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

interface Check {
  step: string
  ok: boolean
  detail: string
}
const checks: Check[] = []
function record(step: string, ok: boolean, detail: string) {
  checks.push({ step, ok, detail })
  console.log(`[cluster] ${ok ? 'ok  ' : 'FAIL'} ${step}: ${detail}`)
}

/** A node pack: one node class, a description, and `assetMb` of incompressible bytes. */
function nodePack(version: string, assetMb = 0): Uint8Array {
  const files: Parameters<typeof zipSync>[0] = {
    '__init__.py': strToU8(
      'class ClusterBench:\n    @classmethod\n    def INPUT_TYPES(cls):\n        return {"required": {}}\n\n    RETURN_TYPES = ()\n    FUNCTION = "run"\n    CATEGORY = "bench"\n\n    def run(self):\n        return ()\n\n\nNODE_CLASS_MAPPINGS = {"ClusterBench": ClusterBench}\n',
    ),
    'pyproject.toml': strToU8(`[project]\nname = "${NODE_ID}"\nversion = "${version}"\n`),
  }
  if (assetMb > 0)
    files['web/assets/blob.bin'] = [new Uint8Array(randomBytes(assetMb * MB)), { level: 0 }]
  return zipSync(files)
}

/** Each process's output goes to a file of its own here (printed at the end). */
const LOG_DIR = path.join(os.tmpdir(), 'bench-cluster-logs')

/**
 * A child process of this repository's TypeScript, run by Node with tsx's loader (so a SIGKILL
 * reaches the process that serves); its output is appended to LOG_DIR/<name>.log.
 */
function spawnTs(script: string[], env: NodeJS.ProcessEnv, name: string): ChildProcess {
  const log = fs.openSync(path.join(LOG_DIR, `${name}.log`), 'a')
  const child = spawn(process.execPath, ['--import', 'tsx', ...script], {
    cwd: root,
    env,
    stdio: ['ignore', log, log],
  })
  fs.closeSync(log)
  return child
}

async function kill(child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGKILL') {
  if (!child || child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill(signal)
  await exited
}

async function json<T>(answer: Response, what: string): Promise<T> {
  const text = await answer.text()
  if (!answer.ok) throw new Error(`${what}: ${answer.status} ${text.slice(0, 300)}`)
  return JSON.parse(text) as T
}

/** PUTs an archive on a connection of its own, as comfy-cli does; resolves with the status. */
function upload(url: string, zip: Uint8Array): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method: 'PUT',
      headers: { ...ZIP, 'content-length': zip.byteLength },
      agent: false,
    })
    request.on('response', (response) => {
      response.resume()
      response.on('end', () => resolve(response.statusCode ?? 0))
    })
    request.on('error', reject)
    request.end(zip)
  })
}

/** Sends `zip` slowly to `url` and calls `kill` half-way; resolves with what the client saw. */
function uploadKilledHalfWay(url: string, zip: Uint8Array, killAt: () => Promise<void>) {
  return new Promise<string>((resolve) => {
    const request = http.request(url, {
      method: 'PUT',
      headers: { 'content-type': 'application/zip', 'content-length': zip.byteLength },
      agent: false,
    })
    let settled = false
    const done = (seen: string) => {
      if (!settled) resolve(seen)
      settled = true
    }
    request.on('response', (response) => {
      response.resume()
      done(`answer ${response.statusCode}`)
    })
    request.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message))
    void (async () => {
      const chunk = 256 * 1024
      for (let offset = 0; offset < zip.byteLength / 2; offset += chunk) {
        await new Promise<void>((written) =>
          request.write(zip.subarray(offset, offset + chunk), () => written()),
        )
        await sleep(10)
      }
      await killAt()
      await sleep(2000)
      request.destroy()
      done('no answer')
    })()
  })
}

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
): Promise<{ value: T; ms: number }> {
  const started = performance.now()
  while (performance.now() - started < timeoutMs) {
    const value = await probe().catch(() => undefined)
    if (value !== undefined) return { value, ms: Math.round(performance.now() - started) }
    await sleep(100)
  }
  throw new Error(`${what}: not within ${timeoutMs / 1000} s.`)
}

async function versionStatus(apiPort: number, version: string): Promise<string | undefined> {
  const answer = await fetch(`http://127.0.0.1:${apiPort}/nodes/${NODE_ID}/versions/${version}`)
  if (!answer.ok) return undefined
  return ((await answer.json()) as { status?: string }).status
}

/** Waits until `version` is Active as API `port` sees it; resolves with how long it took. */
function waitForActive(port: number, version: string, timeoutMs: number) {
  return waitFor(
    `version ${version} Active`,
    async () =>
      (await versionStatus(port, version)) === 'NodeVersionStatusActive' ? true : undefined,
    timeoutMs,
  )
}

async function main() {
  console.log('[cluster] setting up PostgreSQL, Redis, S3 and the Auth emulator…')
  const databaseUrl = await freshDatabase(SERVER_URL, DATABASE_NAME)
  const s3 = await startTestS3()
  const redisPrefix = `bench-cluster-${randomBytes(4).toString('hex')}:`
  fs.rmSync(LOG_DIR, { recursive: true, force: true })
  fs.mkdirSync(LOG_DIR, { recursive: true })
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-cluster-'))
  const children: ChildProcess[] = []
  const emulator = startAuthEmulator(PORTS.auth, path.join(dataDir, 'auth'))
  children.push(emulator)
  await waitForPort(PORTS.auth, 'The Auth emulator', emulator)
  process.env.FIREBASE_AUTH_EMULATOR_HOST = `127.0.0.1:${PORTS.auth}`
  const revalidateSecret = randomBytes(24).toString('base64url')
  const apiBalancer = await startRoundRobinProxy([PORTS.api1, PORTS.api2], PORTS.apiBalancer)
  const webBalancer = await startRoundRobinProxy([PORTS.web1, PORTS.web2], PORTS.webBalancer)
  const apiUrl = `http://127.0.0.1:${PORTS.apiBalancer}`
  // Not production: the Auth emulator is refused there (server/auth/emulator-guard.ts).
  const sharedEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    ...s3.env(),
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    REDIS_URL,
    REDIS_KEY_PREFIX: redisPrefix,
    API_HOST: '127.0.0.1',
    API_PUBLIC_URL: apiUrl,
    WEB_INTERNAL_URL: `http://127.0.0.1:${PORTS.webBalancer}`,
    REVALIDATE_SECRET: revalidateSecret,
    TRUST_PROXY: 'loopback',
    REVIEW_MODE: 'auto',
    MAX_ARCHIVE_MB: String(BIG_MB + 16),
    FIREBASE_AUTH_EMULATOR_HOST: `127.0.0.1:${PORTS.auth}`,
    FIREBASE_PROJECT_ID: DEMO_FIREBASE_PROJECT_ID,
    WORKER: 'off',
    WORKER_METRICS_PORT: String(PORTS.workerMetrics),
    LOG_LEVEL: 'info',
  }
  const apis: Record<1 | 2, ChildProcess | undefined> = { 1: undefined, 2: undefined }
  const startApi = async (which: 1 | 2) => {
    const port = which === 1 ? PORTS.api1 : PORTS.api2
    const child = spawnTs(
      ['server/main.ts'],
      { ...sharedEnv, API_PORT: String(port) },
      `api-${which}`,
    )
    apis[which] = child
    await waitForPort(port, `API ${which}`, child, 300_000)
  }
  let worker: ChildProcess | undefined
  const startWorker = () => {
    worker = spawnTs(['server/cli.ts', 'worker'], { ...sharedEnv, LOG_LEVEL: 'info' }, 'worker')
  }
  const config = loadConfig(sharedEnv)
  const database = await openDatabase({ url: databaseUrl })
  const db: Db = database.db
  try {
    // API 1 alone first: it migrates and loads the demo data (archives into the bucket).
    await startApi(1)
    await startApi(2)
    startWorker()

    const auth = getAuth(getApps()[0] ?? initializeApp({ projectId: DEMO_FIREBASE_PROJECT_ID }))
    const owner = { email: 'cluster-owner@example.com', password: 'cluster-password-1' }
    const user = await auth.createUser({ ...owner, emailVerified: true, displayName: 'Owner' })
    await attachDemoMembership(db, user.uid, owner.email, 'Owner')
    const { secret: pat } = await createToken(db, DEMO_PUBLISHER.id, {
      name: 'cluster bench',
      description: '',
      expiresInDays: null,
    })
    const signIn = await fetch(
      `http://127.0.0.1:${PORTS.auth}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...owner, returnSecureToken: true }),
      },
    )
    const { idToken } = await json<{ idToken: string }>(signIn, 'sign-in')

    const webEnv: NodeJS.ProcessEnv = {
      ...sharedEnv,
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      API_URL: apiUrl,
      // The settings `npm start` builds with, so its build is reused.
      NEXT_PUBLIC_API_URL: 'http://localhost:8080',
      NEXT_PUBLIC_SITE_URL: 'http://localhost:3000',
      NEXT_PUBLIC_FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
      NEXT_PUBLIC_FIREBASE_PROJECT_ID: DEMO_FIREBASE_PROJECT_ID,
    }
    await ensureWebBuild(root, webEnv)
    for (const [i, port] of [PORTS.web1, PORTS.web2].entries()) {
      const log = fs.openSync(path.join(LOG_DIR, `web-${i + 1}.log`), 'a')
      const web = spawn(
        path.join(root, 'node_modules/.bin/next'),
        ['start', '-p', String(port), '-H', 'localhost'],
        { cwd: root, env: webEnv, stdio: ['ignore', log, log] },
      )
      fs.closeSync(log)
      children.push(web)
      await waitForPort(port, `Website :${port}`, web)
    }
    console.log('[cluster] up: 2 APIs, 1 worker, 2 websites')

    // 1. Publish through API 1, the worker decides, install through API 2.
    const publish = async (version: string, port: number, headers: Record<string, string> = {}) =>
      fetch(`http://127.0.0.1:${port}/publishers/${DEMO_PUBLISHER.id}/nodes/${NODE_ID}/versions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({
          personal_access_token: pat,
          node: {
            id: NODE_ID,
            name: 'Cluster bench',
            description: 'Published by bench:cluster.',
            repository: `https://github.com/comfy-demo/${NODE_ID}`,
          },
          node_version: { version },
        }),
      })
    const first = nodePack('1.0.0')
    const published = await json<{ signedUrl: string }>(
      await publish('1.0.0', PORTS.api1),
      'publish 1.0.0',
    )
    const viaApi1 = published.signedUrl.replace(apiUrl, `http://127.0.0.1:${PORTS.api1}`)
    const putStatus = await upload(viaApi1, first)
    const decided = await waitForActive(PORTS.api2, '1.0.0', 120_000)
    const install = await json<{ downloadUrl: string }>(
      await fetch(`http://127.0.0.1:${PORTS.api2}/nodes/${NODE_ID}/install?version=1.0.0`),
      'install',
    )
    // The API's link answers a redirect to the store (a presigned GET); the bytes come from there.
    const link = await fetch(install.downloadUrl, { redirect: 'manual' })
    const store = link.headers.get('location') ?? ''
    const downloaded = new Uint8Array(await (await fetch(store)).arrayBuffer())
    const same = sha256(downloaded) === sha256(first)
    record(
      '1 publish API 1 → worker → install API 2',
      putStatus === 200 && link.status === 302 && store.startsWith(s3.endpoint) && same,
      `PUT ${putStatus}, Active after ${decided.ms} ms, download link ${link.status} to the store (${new URL(store || 'http://none').host}), ${same ? 'same bytes' : 'DIFFERENT bytes'}`,
    )

    // 2. The owner edits the node; both website processes serve the new page.
    const pagePath = `/nodes/${NODE_ID}`
    const page = async (port: number) => (await fetch(`http://localhost:${port}${pagePath}`)).text()
    for (const port of [PORTS.web1, PORTS.web2, PORTS.web1, PORTS.web2]) await page(port)
    const marker = `Edited by the owner ${randomBytes(4).toString('hex')}`
    const edit = await fetch(`${apiUrl}/publishers/${DEMO_PUBLISHER.id}/nodes/${NODE_ID}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${idToken}` },
      body: JSON.stringify({ id: NODE_ID, name: 'Cluster bench', description: marker }),
    })
    await json(edit, 'edit')
    const revalidate = await fetch(
      `http://localhost:${PORTS.webBalancer}/api/revalidate/nodes/${NODE_ID}`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${idToken}` },
      },
    )
    await revalidate.text()
    const shown = await Promise.all(
      [PORTS.web1, PORTS.web2].map((port) =>
        waitFor(
          `the new page on :${port}`,
          async () => ((await page(port)).includes(marker) ? true : undefined),
          15_000,
        )
          .then(({ ms }) => `${ms} ms`)
          .catch(() => 'not within 15 s'),
      ),
    )
    record(
      '2 owner edit → both websites',
      revalidate.ok && shown.every((seen) => seen.endsWith(' ms')),
      `revalidate ${revalidate.status} (one process), new page on web 1 after ${shown[0]}, web 2 after ${shown[1]}`,
    )

    // 3. Rate limits counted once: refused tokens from one (forwarded) address, both APIs in turn.
    const limit = 10
    const statuses: number[] = []
    for (let i = 0; i < limit + 2; i++) {
      const port = i % 2 === 0 ? PORTS.api1 : PORTS.api2
      const answer = await fetch(
        `http://127.0.0.1:${port}/publishers/${DEMO_PUBLISHER.id}/nodes/${NODE_ID}/versions`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.29' },
          body: JSON.stringify({
            personal_access_token: 'wrong-token',
            node: { id: NODE_ID },
            node_version: { version: '9.9.9' },
          }),
        },
      )
      await answer.text()
      statuses.push(answer.status)
    }
    const firstLimited = statuses.indexOf(429) + 1
    record(
      '3 rate limit shared by both APIs',
      firstLimited === limit + 1,
      `refused tokens alternating API 1/2: first 429 at attempt ${firstLimited || 'never'} (limit ${limit} per address; ${statuses.join(' ')})`,
    )

    // 4. kill -9 API 1 in the middle of an upload; the client retries through the balancer.
    const big = nodePack('1.1.0', BIG_MB)
    const second = await json<{ signedUrl: string }>(
      await publish('1.1.0', PORTS.api2),
      'publish 1.1.0',
    )
    const seen = await uploadKilledHalfWay(
      second.signedUrl.replace(apiUrl, `http://127.0.0.1:${PORTS.api1}`),
      big,
      () => kill(apis[1]),
    )
    const retried = await upload(second.signedUrl, big)
    await startApi(1)
    const bigActive = await waitForActive(PORTS.apiBalancer, '1.1.0', 180_000).catch(
      () => undefined,
    )
    record(
      '4 kill -9 API 1 mid-upload',
      seen !== 'answer 200' && retried === 200 && bigActive !== undefined,
      `client saw ${seen} at ${(big.byteLength / 2 / MB).toFixed(1)} MB; retry through the balancer ${retried}; Active ${bigActive ? `after ${bigActive.ms} ms` : 'never'}`,
    )

    // 5. kill -9 the worker in the middle of a job; a new worker takes it when its lease ends.
    await publish('1.2.0', PORTS.api1).then(async (answer) => {
      const { signedUrl } = await json<{ signedUrl: string }>(answer, 'publish 1.2.0')
      const sent = await upload(signedUrl, nodePack('1.2.0', BIG_MB))
      if (sent !== 200) throw new Error(`upload 1.2.0: ${sent}`)
    })
    const claimed = await waitFor(
      'the job claimed',
      async () => {
        const [row] = await db
          .select({ id: jobs.id })
          .from(jobs)
          .where(and(isNotNull(jobs.leaseUntil), eq(jobs.state, 'running')))
        return row
      },
      60_000,
    ).catch(() => undefined)
    await kill(worker)
    const killedAt = performance.now()
    startWorker()
    const taken = await waitForActive(PORTS.apiBalancer, '1.2.0', 180_000).catch(() => undefined)
    record(
      '5 kill -9 worker mid-job',
      claimed !== undefined && taken !== undefined,
      `${claimed ? 'killed while the job ran' : 'job never seen running'}; Active ${taken ? `${Math.round((performance.now() - killedAt) / 1000)} s after the kill (lease ${'30'} s)` : 'never'}`,
    )

    // 6. Maintenance, then bucket and database agree.
    const storage = await storageFromConfig(config)
    await runMaintenance({ db, storage })
    const { credentials, region, forcePathStyle } = s3.config()
    const client = new S3Client({ endpoint: s3.endpoint, credentials, region, forcePathStyle })
    const objects = new Set<string>()
    let token: string | undefined
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: TEST_BUCKET, ContinuationToken: token }),
      )
      for (const item of page.Contents ?? []) if (item.Key) objects.add(item.Key)
      token = page.NextContinuationToken
    } while (token)
    const rows = await db
      .select({ key: nodeVersions.storageKey })
      .from(nodeVersions)
      .where(isNotNull(nodeVersions.storageKey))
    const ciRows = await db.select({ files: ciWorkflowResults.outputFiles }).from(ciWorkflowResults)
    const keys = new Set([
      ...rows.map((row) => row.key ?? ''),
      ...ciRows.flatMap((row) => row.files.map((file) => file.key)),
    ])
    const orphans = [...objects].filter((key) => !keys.has(key))
    const missing = [...keys].filter((key) => !objects.has(key))
    record(
      '6 maintenance: bucket = rows',
      orphans.length === 0 && missing.length === 0,
      `${objects.size} objects, ${keys.size} rows; ${orphans.length} objects without a row, ${missing.length} rows without an object`,
    )

    // 7. Read throughput: the pair behind the balancer against API 1 alone.
    const reads = (port: number) => {
      let i = 0
      const paths = [
        '/nodes?page=1&limit=20',
        `/nodes/${NODE_ID}`,
        '/nodes?page=2&limit=20&sort=downloads',
      ]
      return () => `http://127.0.0.1:${port}${paths[i++ % paths.length]}`
    }
    const one: LoadResult = await runLoad(reads(PORTS.api1), {
      connections: CONNECTIONS,
      seconds: SECONDS,
    })
    const pair: LoadResult = await runLoad(reads(PORTS.apiBalancer), {
      connections: CONNECTIONS,
      seconds: SECONDS,
    })
    const ratio = pair.requestsPerSecond / one.requestsPerSecond
    record(
      '7 read throughput pair / one',
      one.errors === 0 && pair.errors === 0,
      `one ${one.requestsPerSecond.toFixed(0)} req/s (p95 ${one.p95.toFixed(0)} ms), pair ${pair.requestsPerSecond.toFixed(0)} req/s (p95 ${pair.p95.toFixed(0)} ms): ×${ratio.toFixed(2)} on ${os.cpus().length} cores`,
    )

    // 8. Every process answers /metrics on loopback; the queue is empty once all is decided.
    const scrape = async (port: number) => {
      const answer = await fetch(`http://127.0.0.1:${port}/metrics`)
      return { status: answer.status, text: await answer.text() }
    }
    const scraped = await Promise.all([PORTS.api1, PORTS.api2, PORTS.workerMetrics].map(scrape))
    const queued = /^registry_jobs_queued (\d+)/m.exec(scraped[0].text)?.[1]
    const steps =
      /^registry_pipeline_step_duration_seconds_count\{[^}]*step="scan"[^}]*\} (\d+)/m.exec(
        scraped[2].text,
      )?.[1]
    record(
      '8 /metrics on every process',
      scraped.every((one) => one.status === 200) && queued === '0',
      `API 1, API 2, worker: ${scraped.map((one) => one.status).join(', ')}; jobs queued ${queued ?? '?'}; scans timed by the new worker ${steps ?? '?'}`,
    )
  } finally {
    await Promise.all([kill(apis[1], 'SIGTERM'), kill(apis[2], 'SIGTERM'), kill(worker, 'SIGTERM')])
    await Promise.all(children.map((child) => kill(child, 'SIGINT')))
    await apiBalancer.close()
    await webBalancer.close()
    await database.close()
    await s3.close()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }

  console.log(`\n${'step'.padEnd(42)}${'result'.padEnd(8)}detail`)
  for (const check of checks) {
    console.log(`${check.step.padEnd(42)}${(check.ok ? 'ok' : 'FAIL').padEnd(8)}${check.detail}`)
  }
  const failed = checks.filter((check) => !check.ok).length
  console.log(failed === 0 ? '\nAll checks passed.' : `\n${failed} check(s) failed.`)
  console.log(`Each process's output: ${LOG_DIR}`)
  process.exit(failed === 0 ? 0 : 1)
}

main().catch((error: unknown) => {
  console.error(error)
  console.error(`Each process's output: ${LOG_DIR}`)
  process.exit(1)
})
