// `npm run bench:uploads`: what large request bodies cost the API. Starts the API on PGlite in a
// temporary folder, then sends bodies of 49 MB to made-up upload links (anonymous, as an
// attacker would) over real HTTP. Prints how much of a body the client could send before the
// answer, and the API's memory (RSS) before and after.
//   --bodies N (default 8)
//   --s3 [--uploads N (default 5)]: instead, the two ways of getting a 49 MB archive into an
//   S3-compatible bucket (s3rver on loopback, in a process of its own): PUT to the API, which
//   stages, checks and streams it to the bucket (what the registry does), or a presigned PUT
//   straight to the store, after which the API must read it back to check it. Prints MB/s seen by
//   the client and the API's CPU time per upload.
import { spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { PutObjectCommand } from '@aws-sdk/client-s3'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import { strToU8, zipSync } from 'fflate'
import { migrate, openDatabase } from '../../server/db/client'
import { publishers } from '../../server/db/schema'
import { DEFAULT_ARCHIVE_LIMITS, uploadRefusals } from '../../server/pipeline/archive'
import { S3ArchiveStorage } from '../../server/storage/s3'
import { createToken } from '../../server/tokens/tokens'
import { waitForPort } from '../net'

const root = path.resolve(__dirname, '../..')
const args = process.argv.slice(2)
const BODIES = Number(args[args.indexOf('--bodies') + 1] || 8)
const PORT = 8290
const MB = 1024 * 1024
const BODY_BYTES = 49 * MB

/** PUTs `size` bytes at the server's pace; resolves when it answers. */
function put(pathname: string, size: number): Promise<{ status: number; written: number }> {
  return new Promise((resolve, reject) => {
    const request = http.request({
      host: '127.0.0.1',
      port: PORT,
      path: pathname,
      method: 'PUT',
      headers: { 'content-type': 'application/zip', 'content-length': size },
    })
    const chunk = Buffer.alloc(256 * 1024, 7)
    let written = 0
    let answered = false
    const more = () => {
      while (!answered && written < size) {
        written += chunk.byteLength
        if (!request.write(chunk)) return void request.once('drain', more)
      }
      if (!answered) request.end()
    }
    request.on('response', (response) => {
      answered = true
      response.resume()
      response.on('end', () => {
        request.destroy()
        resolve({ status: response.statusCode ?? 0, written })
      })
    })
    request.on('error', (error) => {
      if (!answered) reject(error)
    })
    more()
  })
}

/** RSS of a process and its descendants (tsx runs the API in a child process). */
async function rssOf(pid: number): Promise<number> {
  const status = await fs.promises.readFile(`/proc/${pid}/status`, 'utf8')
  const own = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024
  const children = await fs.promises
    .readFile(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .catch(() => '')
  const sizes = await Promise.all(
    children
      .split(/\s+/)
      .filter(Boolean)
      .map((child) => rssOf(Number(child))),
  )
  return own + sizes.reduce((sum, size) => sum + size, 0)
}

/** CPU seconds (user + system) of a process and its descendants. */
async function cpuOf(pid: number): Promise<number> {
  const stat = await fs.promises.readFile(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const own = (Number(fields[11]) + Number(fields[12])) / 100
  const children = await fs.promises
    .readFile(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .catch(() => '')
  const times = await Promise.all(
    children
      .split(/\s+/)
      .filter(Boolean)
      .map((child) => cpuOf(Number(child))),
  )
  return own + times.reduce((sum, time) => sum + time, 0)
}

/** A valid node pack of about 49 MB (a module and incompressible stored assets). */
function archive(): Uint8Array<ArrayBuffer> {
  const bytes = zipSync({
    '__init__.py': strToU8('NODE_CLASS_MAPPINGS = {}\n'),
    'web/a.bin': [randomBytes(24 * MB), { level: 0 }],
    'web/b.bin': [randomBytes(25 * MB - 4096), { level: 0 }],
  })
  return new Uint8Array(bytes)
}

async function benchS3() {
  const UPLOADS = args.includes('--uploads') ? Number(args[args.indexOf('--uploads') + 1]) : 5
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'
  const S3_PORT = 8292
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-bench-s3-'))
  const store = spawn(
    process.execPath,
    [
      '-e',
      `const S3rver = require('s3rver'); new S3rver({ address: '127.0.0.1', port: ${S3_PORT}, silent: true, directory: process.argv[1], configureBuckets: [{ name: 'bench', configs: [] }] }).run()`,
      path.join(dataDir, 's3'),
    ],
    { cwd: root, stdio: 'ignore' },
  )
  const env = {
    S3_ENDPOINT: `http://127.0.0.1:${S3_PORT}`,
    S3_BUCKET: 'bench',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  }
  let api: ReturnType<typeof spawn> | undefined
  const storage = new S3ArchiveStorage(
    {
      endpoint: env.S3_ENDPOINT,
      publicEndpoint: undefined,
      region: 'us-east-1',
      bucket: 'bench',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      forcePathStyle: true,
      publicBaseUrl: undefined,
      presignTtlS: 900,
    },
    path.join(dataDir, 'staging'),
  )
  try {
    await waitForPort(S3_PORT, 's3rver', store)
    // A publisher and a token, written before the API opens the same PGlite folder.
    const database = await openDatabase({ dataDir: path.join(dataDir, 'pglite') })
    await migrate(database)
    await database.db.insert(publishers).values({ id: 'bench', name: 'Bench' })
    const { secret } = await createToken(database.db, 'bench', {
      name: 'bench',
      description: '',
      expiresInDays: null,
    })
    await database.close()
    api = spawn(path.join(root, 'node_modules/.bin/tsx'), ['server/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        ...env,
        API_PORT: String(PORT),
        DATA_DIR: dataDir,
        WORKER: 'off',
        RATE_LIMIT_SCALE: '0',
      },
      stdio: 'ignore',
    })
    await waitForPort(PORT, 'The API', api)
    const apiPid = api.pid ?? 0
    const zip = archive()
    const mb = zip.byteLength / MB
    console.log(
      `${UPLOADS} uploads of a ${mb.toFixed(1)} MB archive into s3rver on loopback (${os.cpus().length} cores)`,
    )

    // 1. The registry's way: PUT to the API's signedUrl.
    let seconds = 0
    let cpu = 0
    for (let i = 0; i < UPLOADS; i++) {
      const nodeId = `bench-s3-${i}`
      const published = await fetch(
        `http://127.0.0.1:${PORT}/publishers/bench/nodes/${nodeId}/versions`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            personal_access_token: secret,
            node: { id: nodeId, name: nodeId, repository: `https://github.com/bench/${nodeId}` },
            node_version: { version: '1.0.0' },
          }),
        },
      )
      if (published.status !== 201) throw new Error(`publish: ${published.status}`)
      const { signedUrl } = (await published.json()) as { signedUrl: string }
      const cpuBefore = await cpuOf(apiPid)
      const started = performance.now()
      const uploaded = await fetch(`http://127.0.0.1:${PORT}${new URL(signedUrl).pathname}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/zip' },
        body: zip,
      })
      if (uploaded.status !== 200) throw new Error(`upload: ${uploaded.status}`)
      seconds += (performance.now() - started) / 1000
      cpu += (await cpuOf(apiPid)) - cpuBefore
    }
    console.log(
      `  PUT to the API (staged, checked, streamed to the bucket): ${((mb * UPLOADS) / seconds).toFixed(0)} MB/s to 200; API CPU ${((cpu / UPLOADS) * 1000).toFixed(0)} ms per upload`,
    )

    // 2. A presigned PUT straight to the store; then what the API must do before anything else
    // reads the object: fetch it back, hash it, check its size and structure.
    seconds = 0
    let verifySeconds = 0
    cpu = 0
    for (let i = 0; i < UPLOADS; i++) {
      const key = `bench/direct-${i}/1.0.0/node.zip`
      const url = await getSignedUrl(
        storage.client,
        new PutObjectCommand({ Bucket: 'bench', Key: key, ContentType: 'application/zip' }),
        { expiresIn: 900 },
      )
      const started = performance.now()
      const uploaded = await fetch(url, {
        method: 'PUT',
        headers: { 'content-type': 'application/zip' },
        body: zip,
      })
      if (uploaded.status !== 200) throw new Error(`presigned PUT: ${uploaded.status}`)
      seconds += (performance.now() - started) / 1000
      const cpuBefore = process.cpuUsage()
      const verifying = performance.now()
      const bytes = await storage.get(key)
      if (!bytes || bytes.byteLength !== zip.byteLength) throw new Error('read back: wrong size')
      createHash('sha256').update(bytes).digest('hex')
      const limits = { ...DEFAULT_ARCHIVE_LIMITS, maxArchiveBytes: 64 * MB }
      if (uploadRefusals(bytes, limits).length > 0) throw new Error('refused')
      verifySeconds += (performance.now() - verifying) / 1000
      const used = process.cpuUsage(cpuBefore)
      cpu += (used.user + used.system) / 1e6
    }
    console.log(
      `  presigned PUT to the store: ${((mb * UPLOADS) / seconds).toFixed(0)} MB/s to 200; then reading it back and checking it: ${((verifySeconds / UPLOADS) * 1000).toFixed(0)} ms and ${((cpu / UPLOADS) * 1000).toFixed(0)} ms CPU per upload (${((mb * UPLOADS) / (seconds + verifySeconds)).toFixed(0)} MB/s until checked)`,
    )
  } finally {
    storage.close()
    if (api) {
      api.kill('SIGINT')
      await new Promise((resolve) => api?.once('exit', resolve))
    }
    store.kill('SIGINT')
    await new Promise((resolve) => store.once('exit', resolve))
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

async function main() {
  if (args.includes('--s3')) return benchS3()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-bench-uploads-'))
  const api = spawn(path.join(root, 'node_modules/.bin/tsx'), ['server/main.ts'], {
    cwd: root,
    env: { ...process.env, API_PORT: String(PORT), DATA_DIR: dataDir },
    stdio: 'ignore',
  })
  try {
    await waitForPort(PORT, 'The API', api)
    const pid = api.pid ?? 0
    const before = await rssOf(pid)
    let largestTaken = 0
    for (let i = 0; i < BODIES; i++) {
      const sent = await put(`/uploads/made-up-upload-link-${i}-${'x'.repeat(16)}`, BODY_BYTES)
      if (sent.status !== 404)
        throw new Error(`expected 404 for a made-up link, got ${sent.status}`)
      largestTaken = Math.max(largestTaken, sent.written)
    }
    const after = await rssOf(pid)
    console.log(`${BODIES} anonymous PUTs of 49 MB to made-up upload links: all 404`)
    console.log(
      `  most of one body the client could send before the answer: ${(largestTaken / MB).toFixed(1)} MB (socket buffers)`,
    )
    console.log(
      `  API memory (RSS): ${(before / MB).toFixed(0)} MB before, ${(after / MB).toFixed(0)} MB after (${(after - before) / MB >= 0 ? '+' : ''}${((after - before) / MB).toFixed(0)} MB)`,
    )
  } finally {
    api.kill('SIGINT')
    await new Promise((resolve) => api.once('exit', resolve))
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
