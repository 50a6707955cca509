/**
 * Nodes' JSON shared between API processes (shared-json.ts): a process that wrote a node's JSON
 * for the public listing stores it with the node's row stamp; another process, or one started
 * later, sends it as stored while the stamp is the node's and the variant its own, and writes it
 * again otherwise. Searches and other listings never send it.
 */
import fs from 'node:fs'
import path from 'node:path'
import { eq, inArray, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { firebaseTokenVerifier } from '../auth/verifier'
import { loadConfig } from '../config'
import { nodeJson, nodes } from '../db/schema'
import { buildApp } from '../http/app'
import type { Schemas } from '../http/operations'
import { runMaintenance } from '../system/maintenance'
import { TEST_PROJECT_ID } from '../test/auth'
import { BACKENDS, createTestApp, get, TEST_PUBLIC_URL, type TestApp } from '../test/harness'
import { NODE_JSON_SOURCES, nodeJsonVariant } from './shared-json'

type NodeListResponse = Schemas['NodeListResponse']

jest.setTimeout(60_000)

const ROOT = path.join(__dirname, '..', '..')

describe('the variant of the JSON a process writes', () => {
  /** The modules `file` imports at run time (not types alone), as repository paths. */
  function runtimeImports(file: string): string[] {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8')
    const found = [...text.matchAll(/^import (?!type )[^;]*? from '([^']+)'/gm)].map((m) => m[1])
    return found.flatMap((specifier) => {
      const base = specifier.startsWith('@/')
        ? specifier.slice(2)
        : specifier.startsWith('.')
          ? path.join(path.dirname(file), specifier)
          : undefined
      if (!base) return [] // A package: its version is in package-lock.json, not written here.
      const candidates = ['.ts', '.tsx', '/index.ts'].map((ending) => base + ending)
      return candidates.filter((candidate) => fs.existsSync(path.join(ROOT, candidate)))
    })
  }

  it('is made from every module toApiNode runs, so another build writes another variant', () => {
    const seen = new Set<string>()
    const pending = ['server/http/serialize.ts']
    while (pending.length > 0) {
      const file = pending.pop() as string
      if (seen.has(file)) continue
      seen.add(file)
      pending.push(...runtimeImports(file))
    }
    expect([...seen].sort()).toEqual(NODE_JSON_SOURCES.filter((f) => f.endsWith('.ts')).sort())
    expect(NODE_JSON_SOURCES).toContain('openapi.yml')
  })

  it('differs with the public URL the JSON links to', () => {
    expect(nodeJsonVariant('http://a.test')).toBe(nodeJsonVariant('http://a.test'))
    expect(nodeJsonVariant('http://a.test')).not.toBe(nodeJsonVariant('http://b.test'))
  })
})

describe.each(BACKENDS)('nodes JSON shared between processes on %s', (backend) => {
  let h: TestApp
  const opened: FastifyInstance[] = []

  /** Another API process over the same database, started now (nothing kept). */
  async function startProcess(env: Record<string, string> = {}) {
    const app = await buildApp({
      db: h.db,
      storage: h.storage,
      verifier: firebaseTokenVerifier(TEST_PROJECT_ID),
      config: loadConfig({ ...envOf(h), ...env }),
    })
    await app.ready()
    opened.push(app)
    return app
  }

  /** The page's nodes, and its exact bytes. */
  async function page(app: FastifyInstance, url = '/nodes?page=1&limit=10') {
    const reply = await get<NodeListResponse>(app, url)
    expect(reply.status).toBe(200)
    return { ids: reply.body.nodes.map((node) => node.id), text: reply.response.body }
  }

  const storedOf = (ids: string[]) =>
    h.db.select().from(nodeJson).where(inArray(nodeJson.nodeId, ids))

  beforeAll(async () => {
    h = await createTestApp({ postgres: backend === 'postgres' })
  })

  afterAll(async () => {
    for (const app of opened) await app.close()
    await h?.close()
  })

  beforeEach(async () => {
    await h.db.delete(nodeJson)
  })

  it('stores the JSON a process wrote, which a process started later sends as stored', async () => {
    const writer = await startProcess()
    const first = await page(writer)
    // Stored when it stops at the latest (SHARED_NODE_JSON_MS after it wrote them).
    await writer.close()
    const stored = await storedOf(first.ids)
    expect(stored.map((row) => row.nodeId).sort()).toEqual([...first.ids].sort())
    expect(new Set(stored.map((row) => row.variant))).toEqual(
      new Set([nodeJsonVariant(TEST_PUBLIC_URL)]),
    )

    // A later process sends the same bytes…
    expect((await page(await startProcess())).text).toBe(first.text)
    // …from what is stored, not from the rows: a marker put in the stored JSON shows.
    const [marked] = first.ids
    await h.db
      .update(nodeJson)
      .set({
        json: sql`replace(${nodeJson.json}, '"id":"' || ${nodeJson.nodeId}, '"id":"stored-' || ${nodeJson.nodeId})`,
      })
      .where(eq(nodeJson.nodeId, marked))
    const later = await page(await startProcess())
    expect(later.ids[0]).toBe(`stored-${marked}`)
    expect(later.ids.slice(1)).toEqual(first.ids.slice(1))
  })

  it('writes a node again once its rows changed, and never sends the older JSON', async () => {
    const writer = await startProcess()
    const { ids } = await page(writer)
    await writer.close()
    const [changed] = ids
    const [before] = await storedOf([changed])
    // Behind every process's back, as another process or a migration would.
    await h.db.update(nodes).set({ description: 'Changed since' }).where(eq(nodes.id, changed))

    const reader = await startProcess()
    const reply = await get<NodeListResponse>(reader, '/nodes?page=1&limit=10')
    expect(reply.body.nodes.find((node) => node.id === changed)?.description).toBe('Changed since')
    await reader.close()
    const [after] = await storedOf([changed])
    expect(after.stamp).not.toBe(before.stamp)
    expect(after.json).toContain('"description":"Changed since"')
  })

  it('is not sent by a process of another variant (here another public URL), which writes its own', async () => {
    const writer = await startProcess()
    const { ids } = await page(writer)
    await writer.close()
    await h.db.update(nodeJson).set({ json: sql`replace(${nodeJson.json}, '"id":"', '"id":"x')` })

    const elsewhere = await startProcess({ API_PUBLIC_URL: 'http://elsewhere.test' })
    const reply = await get<NodeListResponse>(elsewhere, '/nodes?page=1&limit=10')
    expect(reply.body.nodes.map((node) => node.id)).toEqual(ids)
    const linked = reply.body.nodes.flatMap((node) => node.latest_version?.downloadUrl ?? [])
    expect(linked.length).toBeGreaterThan(0)
    for (const url of linked) expect(url).toMatch(/^http:\/\/elsewhere\.test\//)
    await elsewhere.close()
    const variants = new Set((await storedOf(ids)).map((row) => row.variant))
    expect(variants).toEqual(new Set([nodeJsonVariant('http://elsewhere.test')]))
  })

  it('is never what a search or a publisher listing sends', async () => {
    const writer = await startProcess()
    const { ids } = await page(writer, '/nodes?page=1&limit=30')
    await writer.close()
    await h.db.update(nodeJson).set({ json: sql`replace(${nodeJson.json}, '"id":"', '"id":"x')` })

    const reader = await startProcess()
    const [first] = await h.db.select().from(nodes).where(eq(nodes.id, ids[0]))
    const search = await get<NodeListResponse>(reader, `/nodes/search?search=${first.id}&limit=30`)
    expect(search.body.nodes.length).toBeGreaterThan(0)
    for (const node of search.body.nodes) expect(node.id.startsWith('x')).toBe(false)
    const byPublisher = await get<NodeListResponse>(
      reader,
      `/publishers/${first.publisherId}/nodes/v2?limit=30`,
    )
    expect(byPublisher.body.nodes.length).toBeGreaterThan(0)
    for (const node of byPublisher.body.nodes) expect(node.id.startsWith('x')).toBe(false)
    // The listing of a process that read none of these rows does send it.
    expect((await page(await startProcess())).ids.every((id) => id.startsWith('x'))).toBe(true)
  })

  it('is neither stored nor sent with SHARED_NODE_JSON_MS=0', async () => {
    const writer = await startProcess()
    const { ids, text } = await page(writer)
    await writer.close()
    await h.db.update(nodeJson).set({ json: sql`replace(${nodeJson.json}, '"id":"', '"id":"x')` })
    await h.db.delete(nodeJson).where(eq(nodeJson.nodeId, ids[0]))

    const off = await startProcess({ SHARED_NODE_JSON_MS: '0' })
    expect((await page(off)).text).toBe(text)
    await off.close()
    expect(await storedOf([ids[0]])).toEqual([])
  })

  it('of a deleted node is removed by maintenance, that of a node changed is not', async () => {
    const writer = await startProcess()
    const { ids } = await page(writer)
    await writer.close()
    const gone = ids[ids.length - 1]
    await h.db.delete(nodes).where(eq(nodes.id, gone))
    // Logged as changed too, and still there: its JSON stays (the stamp tells it is stale).
    await h.db.update(nodes).set({ description: 'Changed' }).where(eq(nodes.id, ids[0]))
    expect(await storedOf([gone])).toHaveLength(1)

    const removed = await runMaintenance({ db: h.db, storage: h.storage })
    expect(removed.nodeJson).toBe(1)
    expect(await storedOf([gone])).toEqual([])
    expect(await storedOf(ids.slice(0, -1))).toHaveLength(ids.length - 1)
  })
})

/** The settings `h` was made with, as environment variables, for another process. */
function envOf(h: TestApp): Record<string, string> {
  return {
    ADMIN_EMAILS: h.adminEmail,
    API_PUBLIC_URL: TEST_PUBLIC_URL,
    FIREBASE_PROJECT_ID: TEST_PROJECT_ID,
    RATE_LIMIT_SCALE: '0',
    PUBLIC_CACHE_MS: '0',
    // Whole pages would be sent as stored (shared-pages.test.ts): nodes' JSON alone here.
    SHARED_LISTING_PAGES_MS: '0',
  }
}
