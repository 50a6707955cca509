// Several website processes on one Redis (cache-handler.js, docs/ARCHITECTURE.md "Several
// website processes"): two more `next start` processes of the build the stack runs, with the same
// REDIS_URL and a key prefix of this run. A node page one process rendered is the page the other
// serves; after a change, regenerating it through one process is what the other serves next.
// Runs when TEST_REDIS_URL is set (.ci/run sets it when a Redis answers on 127.0.0.1:6379).
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import net from 'node:net'
import path from 'node:path'
import { expect, test, type APIRequestContext } from './test'
import { Redis } from 'ioredis'
import { E2E_PORTS } from '../playwright.config'
import { waitForPort } from '../scripts/net'
import { DEMO_FIREBASE_PROJECT_ID } from '../scripts/ports'
import { API_URL, createAccount } from './helpers'

const redisUrl = process.env.TEST_REDIS_URL
test.skip(!redisUrl, 'Needs TEST_REDIS_URL (a Redis for the shared page cache).')

const root = path.resolve(__dirname, '..')
const secret = randomBytes(24).toString('base64url')

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

interface Website {
  url: string
  process: ChildProcess
}

/** A `next start` of the existing build, configured as `npm start` configures its website. */
async function startWebsite(prefix: string): Promise<Website> {
  const port = await freePort()
  const child = spawn(
    path.join(root, 'node_modules', '.bin', 'next'),
    ['start', '-p', String(port), '-H', 'localhost'],
    {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: '1',
        API_URL,
        NEXT_PUBLIC_API_URL: `http://localhost:${E2E_PORTS.api}`,
        NEXT_PUBLIC_SITE_URL: `http://localhost:${E2E_PORTS.web}`,
        FIREBASE_AUTH_EMULATOR_HOST: `127.0.0.1:${E2E_PORTS.auth}`,
        NEXT_PUBLIC_FIREBASE_AUTH_EMULATOR_HOST: `127.0.0.1:${E2E_PORTS.auth}`,
        NEXT_PUBLIC_FIREBASE_PROJECT_ID: DEMO_FIREBASE_PROJECT_ID,
        REVALIDATE_SECRET: secret,
        REDIS_URL: redisUrl,
        REDIS_KEY_PREFIX: prefix,
      },
    },
  )
  await waitForPort(port, `next start on :${port}`, child)
  return { url: `http://127.0.0.1:${port}`, process: child }
}

async function stopWebsite(website: Website | undefined) {
  const child = website?.process
  if (!child || child.exitCode !== null) return
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

async function nodePage(request: APIRequestContext, website: Website, nodeId: string) {
  const response = await request.get(`${website.url}/nodes/${nodeId}`)
  expect(response.status()).toBe(200)
  return { cache: response.headers()['x-nextjs-cache'], html: await response.text() }
}

test.describe('two website processes on one Redis', () => {
  const prefix = `${process.env.TEST_REDIS_PREFIX ?? 'test:'}e2e-${randomUUID()}:`
  let a: Website | undefined
  let b: Website | undefined
  let redis: Redis | undefined

  test.beforeAll(async () => {
    redis = new Redis(redisUrl ?? '')
    ;[a, b] = await Promise.all([startWebsite(prefix), startWebsite(prefix)])
  })
  test.afterAll(async () => {
    await Promise.all([stopWebsite(a), stopWebsite(b)])
    const keys = (await redis?.keys(`${prefix}*`)) ?? []
    if (keys.length > 0) await redis?.del(...keys)
    await redis?.quit()
  })

  test('a page regenerated through one process is the page the other serves', async ({
    request,
  }) => {
    test.setTimeout(90_000)
    if (!a || !b) throw new Error('The website processes did not start.')
    const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`
    const account = await createAccount(request, `cache-${stamp}@example.com`, 'cache-password-1')
    const headers = { Authorization: `Bearer ${account.idToken}` }
    const publisherId = `cache-${stamp}`
    const nodeId = `cache-node-${stamp}`
    const nodeUrl = `${API_URL}/publishers/${publisherId}/nodes/${nodeId}`
    expect(
      (
        await request.post(`${API_URL}/publishers`, {
          headers,
          data: { id: publisherId, name: 'Cache' },
        })
      ).status(),
    ).toBe(201)
    const created = await request.post(`${API_URL}/publishers/${publisherId}/nodes`, {
      headers,
      data: { id: nodeId, name: 'Shared Cache Node', description: `First text ${stamp}` },
    })
    expect(created.status()).toBe(201)

    // Rendered by A and kept in Redis (not in `.next`, which both processes read), then served
    // by B from there.
    const first = await nodePage(request, a, nodeId)
    expect(first.html).toContain(`First text ${stamp}`)
    expect(await redis?.keys(`${prefix}pages:*/nodes/${nodeId}*`)).not.toEqual([])
    const fromB = await nodePage(request, b, nodeId)
    expect(fromB.cache).toBe('HIT')
    expect(fromB.html).toContain(`First text ${stamp}`)

    const updated = await request.put(nodeUrl, {
      headers,
      data: { description: `Second text ${stamp}` },
    })
    expect(updated.ok()).toBe(true)
    // Until the page is regenerated, B serves the cached page.
    expect((await nodePage(request, b, nodeId)).html).toContain(`First text ${stamp}`)

    // Regenerated through A only (as the API's pipeline and admin actions call it).
    const revalidated = await request.post(`${a.url}/api/revalidate/nodes/${nodeId}`, {
      headers: { 'x-revalidate-secret': secret },
    })
    expect(revalidated.status()).toBe(204)

    const afterRefresh = await nodePage(request, b, nodeId)
    expect(afterRefresh.cache).toBe('HIT')
    expect(afterRefresh.html).toContain(`Second text ${stamp}`)
    expect(afterRefresh.html).not.toContain(`First text ${stamp}`)
  })
})
