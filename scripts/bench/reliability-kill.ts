// The kill round of `npm run bench:reliability`: `kill -9` of the API while a version's zip is
// uploaded. The API runs as a child process (`server/main.ts`) on PostgreSQL or PGlite with a
// DATA_DIR of its own; a version is published with a personal access token and its zip streamed
// slowly to the signedUrl, then the API is SIGKILLed half-way through the body (`mid-body`) or
// after the last byte was sent (`after-body`: 0 ms, then 300 ms more each round, up to 2.1 s, to
// land around the answer). Then the database and `DATA_DIR/archives` are checked: no version row
// that claims an archive without its file, no archive file without its row (after the restart's
// maintenance), staged files counted. The API is restarted on the same database and storage and
// the same upload link is used again: it must answer 200 and the version must become Active.
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { eq } from 'drizzle-orm'
import { strToU8, zipSync } from 'fflate'
import { migrate, openDatabase } from '../../server/db/client'
import { nodeVersions, pendingUploads, publishers } from '../../server/db/schema'
import { createToken } from '../../server/tokens/tokens'
import { waitForPort } from '../net'
import { freshDatabase } from './databases'

export type Store = 'postgres' | 'pglite'
type Mode = 'mid-body' | 'after-body'

export interface KillOptions {
  root: string
  /** A PostgreSQL server URL (any database) to create `databaseName` on. */
  serverUrl: string
  databaseName: string
  port: number
  runs: number
  sizeMb: number
  stores: Store[]
}

interface KillRun {
  store: Store
  mode: Mode
  version: string
  /** Bytes of the body sent when the API was killed. */
  sentBytes: number
  killDelayMs: number | null
  /** The upload's status if it answered before the kill. */
  answerBeforeKill: number | null
  reopened: boolean
  reopenError?: string
  storedAfterKill: boolean
  rowsWithoutArchive: number
  archivesWithoutRowAfterKill: number
  archivesWithoutRowAfterRestart: number
  stagedFilesLeft: number
  restartMs: number
  reuploadStatus: number
  activeMs: number | null
}

const MB = 1024 * 1024
const NODE_ID = 'kill-bench'
const PUBLISHER_ID = 'bench'
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A node pack of about `sizeMb`: one node class plus incompressible assets (stored, level 0). */
function nodePack(sizeMb: number): Uint8Array {
  return zipSync({
    '__init__.py': strToU8(
      'class Bench:\n    @classmethod\n    def INPUT_TYPES(cls):\n        return {"required": {}}\n\n    RETURN_TYPES = ()\n    FUNCTION = "run"\n    CATEGORY = "bench"\n\n    def run(self):\n        return ()\n\n\nNODE_CLASS_MAPPINGS = {"Bench": Bench}\n',
    ),
    'pyproject.toml': strToU8('[project]\nname = "kill-bench"\nversion = "1.0.0"\n'),
    'web/assets/blob.bin': [new Uint8Array(randomBytes(sizeMb * MB)), { level: 0 }],
  })
}

/** Every file under `dir` (relative, '/'-separated), skipping the staging folder. */
function listFiles(dir: string): { archives: string[]; staged: number } {
  if (!fs.existsSync(dir)) return { archives: [], staged: 0 }
  const archives: string[] = []
  let staged = 0
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const relative = path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep)
    if (relative[0] === '.staging') staged++
    else archives.push(relative.join('/'))
  }
  return { archives, staged }
}

interface Inspection {
  keys: Set<string>
  rowsWithoutArchive: number
  storedVersion: boolean
}

/** The versions' archive keys (checked against the files) and whether `version` stored one. */
async function inspect(
  where: { url: string } | { dataDir: string },
  archivesDir: string,
  version: string,
): Promise<Inspection> {
  const database = await openDatabase(where)
  try {
    const rows = await database.db
      .select({
        version: nodeVersions.version,
        storageKey: nodeVersions.storageKey,
        uploadedSha256: pendingUploads.uploadedSha256,
      })
      .from(nodeVersions)
      .leftJoin(pendingUploads, eq(pendingUploads.nodeVersionId, nodeVersions.id))
    const keys = new Set<string>()
    let rowsWithoutArchive = 0
    for (const row of rows) {
      if (row.storageKey === null) continue
      keys.add(row.storageKey)
      if (!fs.existsSync(path.join(archivesDir, ...row.storageKey.split('/')))) {
        rowsWithoutArchive++
      }
    }
    // A link that recorded an upload while its version has no key is a half-made version too.
    rowsWithoutArchive += rows.filter(
      (row) => (row.uploadedSha256 !== null) !== (row.storageKey !== null),
    ).length
    const mine = rows.find((row) => row.version === version)
    return { keys, rowsWithoutArchive, storedVersion: mine?.storageKey != null }
  } finally {
    await database.close()
  }
}

/**
 * Streams `zip` to `url` in 256 kB chunks with pauses and kills the API at the mode's moment;
 * resolves once the API is dead (and the request closed, or 2 s later).
 */
async function slowUpload(
  url: string,
  zip: Uint8Array,
  mode: Mode,
  killDelayMs: number,
  kill: () => Promise<void>,
): Promise<{ sentBytes: number; answer: number | null }> {
  let sentBytes = 0
  let answer: number | null = null
  const request = http.request(url, {
    method: 'PUT',
    headers: { 'content-type': 'application/zip', 'content-length': zip.byteLength },
    agent: false,
  })
  request.on('response', (response) => {
    answer = response.statusCode ?? 0
    response.resume()
  })
  // The kill resets the connection: expected.
  request.on('error', () => undefined)
  const closed = new Promise<void>((resolve) => request.once('close', () => resolve()))
  const killAt = mode === 'mid-body' ? Math.floor(zip.byteLength / 2) : zip.byteLength
  const chunk = 256 * 1024
  for (let offset = 0; offset < killAt; offset += chunk) {
    const part = zip.subarray(offset, offset + chunk)
    await new Promise<void>((written) => request.write(part, () => written()))
    sentBytes += part.byteLength
    await sleep(15)
  }
  if (mode === 'after-body') {
    request.end()
    await sleep(killDelayMs)
  }
  await kill()
  await Promise.race([closed, sleep(2000)])
  request.destroy()
  return { sentBytes, answer }
}

export async function killRound(
  options: KillOptions,
): Promise<{ runs: KillRun[]; failures: number }> {
  const results: KillRun[] = []
  const zip = nodePack(options.sizeMb)
  const base = `http://127.0.0.1:${options.port}`
  for (const store of options.stores) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-kill-${store}-`))
    const archivesDir = path.join(dataDir, 'archives')
    const where =
      store === 'postgres'
        ? { url: await freshDatabase(options.serverUrl, options.databaseName) }
        : { dataDir: path.join(dataDir, 'pglite') }
    // A publisher and its token, written before the API starts (so it loads no demo data).
    const setup = await openDatabase(where)
    await migrate(setup)
    await setup.db.insert(publishers).values({ id: PUBLISHER_ID, name: 'Bench' })
    const { secret } = await createToken(setup.db, PUBLISHER_ID, {
      name: 'bench',
      description: '',
      expiresInDays: null,
    })
    await setup.close()

    let api: ChildProcess | null = null
    const startApi = async () => {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        DATA_DIR: dataDir,
        API_PORT: String(options.port),
        API_HOST: '127.0.0.1',
        API_PUBLIC_URL: base,
        NODE_ENV: 'production',
        MAX_ARCHIVE_MB: String(options.sizeMb + 16),
        REVIEW_MODE: 'auto',
        RATE_LIMIT_SCALE: '0',
      }
      if ('url' in where) env.DATABASE_URL = where.url
      else delete env.DATABASE_URL
      // Node itself with tsx's loader (not the tsx wrapper, which would survive as the parent
      // while the SIGKILL went to it alone): the signal reaches the process that serves.
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        cwd: options.root,
        env,
        stdio: ['ignore', 'ignore', 'inherit'],
      })
      api = child
      const started = performance.now()
      await waitForPort(options.port, 'The API', child, 300_000)
      return performance.now() - started
    }
    const killApi = async () => {
      const child = api
      if (!child || child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGKILL')
      await exited
    }

    try {
      await startApi()
      console.log(`\n[kill] ${store}: API up, ${(zip.byteLength / MB).toFixed(1)} MB zip`)
      for (let run = 0; run < options.runs; run++) {
        for (const [m, mode] of (['mid-body', 'after-body'] as const).entries()) {
          const version = `1.${run}.${m}`
          const published = await fetch(
            `${base}/publishers/${PUBLISHER_ID}/nodes/${NODE_ID}/versions`,
            {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({
                personal_access_token: secret,
                node: {
                  id: NODE_ID,
                  name: NODE_ID,
                  repository: `https://github.com/bench/${NODE_ID}`,
                },
                node_version: { version },
              }),
            },
          )
          if (published.status !== 201) {
            throw new Error(`publish ${version}: ${published.status} ${await published.text()}`)
          }
          const { signedUrl } = (await published.json()) as { signedUrl: string }
          const killDelayMs = mode === 'after-body' ? (run * 300) % 2400 : 0
          const upload = await slowUpload(signedUrl, zip, mode, killDelayMs, killApi)
          const result: KillRun = {
            store,
            mode,
            version,
            sentBytes: upload.sentBytes,
            killDelayMs: mode === 'after-body' ? killDelayMs : null,
            answerBeforeKill: upload.answer,
            reopened: true,
            storedAfterKill: false,
            rowsWithoutArchive: 0,
            archivesWithoutRowAfterKill: 0,
            archivesWithoutRowAfterRestart: 0,
            stagedFilesLeft: 0,
            restartMs: 0,
            reuploadStatus: 0,
            activeMs: null,
          }
          // The state the restart finds (PGlite: opening it is the crash recovery).
          let keys = new Set<string>()
          try {
            const seen = await inspect(where, archivesDir, version)
            keys = seen.keys
            result.rowsWithoutArchive = seen.rowsWithoutArchive
            result.storedAfterKill = seen.storedVersion
          } catch (error) {
            result.reopened = false
            result.reopenError = String(error).slice(0, 200)
          }
          const orphans = () => listFiles(archivesDir).archives.filter((key) => !keys.has(key))
          result.archivesWithoutRowAfterKill = orphans().length
          try {
            result.restartMs = Math.round(await startApi())
          } catch (error) {
            result.reopenError ??= String(error).slice(0, 200)
            result.reopened = false
            results.push(result)
            throw error
          }
          // Maintenance runs at start: an archive moved in but not committed goes away.
          for (let i = 0; i < 50 && orphans().length > 0; i++) await sleep(200)
          result.archivesWithoutRowAfterRestart = orphans().length
          result.stagedFilesLeft = listFiles(archivesDir).staged
          // The publisher's client tries again with the same link, at full speed.
          const again = await fetch(signedUrl, {
            method: 'PUT',
            headers: { 'content-type': 'application/zip' },
            body: Buffer.from(zip),
          })
          result.reuploadStatus = again.status
          await again.text()
          const from = performance.now()
          while (performance.now() - from < 180_000) {
            const answer = await fetch(`${base}/nodes/${NODE_ID}/versions/${version}`)
            const body = (await answer.json()) as { status?: string }
            if (body.status === 'NodeVersionStatusActive') {
              result.activeMs = Math.round(performance.now() - from)
              break
            }
            await sleep(100)
          }
          results.push(result)
          console.log(
            `[kill] ${store} ${mode} ${version}: sent ${(result.sentBytes / MB).toFixed(1)} MB, answer before kill ${result.answerBeforeKill ?? '-'}, re-upload ${result.reuploadStatus}, Active in ${result.activeMs ?? 'never'} ms`,
          )
        }
      }
    } finally {
      if (api) {
        const child: ChildProcess = api
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise((resolve) => child.once('exit', resolve))
          child.kill('SIGTERM')
          await exited
        }
      }
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  }

  console.log(
    `\n${'store'.padEnd(9)}${'mode'.padEnd(11)}${'version'.padEnd(8)}${'sent MB'.padStart(8)}${'kill+ms'.padStart(8)}${'answer'.padStart(7)}${'reopen'.padStart(7)}${'stored'.padStart(7)}${'row-no-zip'.padStart(11)}${'zip-no-row'.padStart(11)}${'→restart'.padStart(9)}${'staged'.padStart(7)}${'restart s'.padStart(10)}${'re-PUT'.padStart(7)}${'Active ms'.padStart(10)}`,
  )
  let failures = 0
  for (const r of results) {
    const bad =
      !r.reopened ||
      r.rowsWithoutArchive > 0 ||
      r.archivesWithoutRowAfterRestart > 0 ||
      r.reuploadStatus !== 200 ||
      r.activeMs === null
    if (bad) failures++
    console.log(
      `${r.store.padEnd(9)}${r.mode.padEnd(11)}${r.version.padEnd(8)}${(r.sentBytes / MB).toFixed(1).padStart(8)}${String(r.killDelayMs ?? '-').padStart(8)}${String(r.answerBeforeKill ?? '-').padStart(7)}${(r.reopened ? 'yes' : 'NO').padStart(7)}${(r.storedAfterKill ? 'yes' : 'no').padStart(7)}${String(r.rowsWithoutArchive).padStart(11)}${String(r.archivesWithoutRowAfterKill).padStart(11)}${String(r.archivesWithoutRowAfterRestart).padStart(9)}${String(r.stagedFilesLeft).padStart(7)}${(r.restartMs / 1000).toFixed(1).padStart(10)}${String(r.reuploadStatus).padStart(7)}${String(r.activeMs ?? 'never').padStart(10)}${bad ? '  FAIL' : ''}${r.reopenError ? `  (${r.reopenError})` : ''}`,
    )
  }
  console.log(
    "row-no-zip: version rows claiming an archive without its file (must be 0); zip-no-row: archive files without a row right after the kill, →restart: after the restart's maintenance (must be 0); staged: files left in archives/.staging (removed by maintenance after an hour).",
  )
  return { runs: results, failures }
}
