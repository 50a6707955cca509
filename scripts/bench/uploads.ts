// `npm run bench:uploads`: what large request bodies cost the API. Starts the API on PGlite in a
// temporary folder, then sends bodies of 49 MB to made-up upload links (anonymous, as an
// attacker would) over real HTTP. Prints how much of a body the client could send before the
// answer, and the API's memory (RSS) before and after.
//   --bodies N (default 8)
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
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

async function main() {
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
