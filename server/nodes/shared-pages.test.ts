/**
 * Pages of the public listing shared between API processes (shared-pages.ts): a process that
 * wrote a page from rows stores it; another process, or one started later, sends it while none of
 * its nodes or their publishers changed since, and writes it again otherwise. A client reading
 * pages in order has the next ones read ahead.
 */
import { gunzipSync, gzipSync } from 'node:zlib'
import { eq, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { firebaseTokenVerifier } from '../auth/verifier'
import { loadConfig } from '../config'
import { listingPages, nodes, publishers } from '../db/schema'
import { buildApp } from '../http/app'
import { forgetPublicAnswers } from '../http/public-cache'
import type { Schemas } from '../http/operations'
import { runMaintenance } from '../system/maintenance'
import { TEST_PROJECT_ID } from '../test/auth'
import { BACKENDS, createTestApp, get, TEST_PUBLIC_URL, type TestApp } from '../test/harness'
import { listingPageVariant, SHARED_PAGE_MS } from './shared-pages'

type NodeListResponse = Schemas['NodeListResponse']

jest.setTimeout(60_000)

describe('the variant of the pages a process writes', () => {
  it('follows the variant of its nodes’ JSON (here the public URL)', () => {
    expect(listingPageVariant('http://a.test')).toBe(listingPageVariant('http://a.test'))
    expect(listingPageVariant('http://a.test')).not.toBe(listingPageVariant('http://b.test'))
  })
})

describe.each(BACKENDS)('listing pages shared between processes on %s', (backend) => {
  let h: TestApp
  const opened: FastifyInstance[] = []

  /** Another API process over the same database, started now (nothing kept). */
  async function startProcess(env: Record<string, string> = {}) {
    const app = await buildApp({
      db: h.db,
      storage: h.storage,
      verifier: firebaseTokenVerifier(TEST_PROJECT_ID),
      config: loadConfig({
        ADMIN_EMAILS: h.adminEmail,
        API_PUBLIC_URL: TEST_PUBLIC_URL,
        FIREBASE_PROJECT_ID: TEST_PROJECT_ID,
        RATE_LIMIT_SCALE: '0',
        PUBLIC_CACHE_MS: '0',
        ...env,
      }),
    })
    await app.ready()
    opened.push(app)
    return app
  }

  const URL = '/nodes?page=1&limit=10'

  /** The page's nodes, and its exact bytes. */
  async function page(app: FastifyInstance, url = URL) {
    const reply = await get<NodeListResponse>(app, url)
    expect(reply.status).toBe(200)
    return {
      body: reply.body,
      ids: reply.body.nodes.map((node) => node.id),
      text: reply.response.body,
    }
  }

  /** A process writes the page from rows and stores it (when it stops at the latest). */
  async function written(url = URL) {
    const writer = await startProcess()
    const first = await page(writer, url)
    await writer.close()
    return first
  }

  /** A stored page's JSON (kept gzip-compressed). */
  const jsonOf = (stored: { gzip: Buffer }) => gunzipSync(stored.gzip).toString()

  /** Puts a marker in every stored page: a page that shows it was sent from the store. */
  async function markStored() {
    for (const stored of await h.db.select().from(listingPages)) {
      const marked = jsonOf(stored).replaceAll('"id":"', '"id":"stored-')
      await h.db
        .update(listingPages)
        .set({ gzip: gzipSync(marked) })
        .where(eq(listingPages.key, stored.key))
    }
  }

  const storedCount = async () => (await h.db.select().from(listingPages)).length

  beforeAll(async () => {
    h = await createTestApp({ postgres: backend === 'postgres' })
  })

  afterAll(async () => {
    for (const app of opened) await app.close()
    await h?.close()
  })

  beforeEach(async () => {
    // Processes of the test before have stored what they wrote (when they stopped).
    for (const app of opened.splice(0)) await app.close()
    await h.db.delete(listingPages)
  })

  it('stores the page a process wrote, which a process started later sends as stored', async () => {
    const first = await written()
    expect(await storedCount()).toBe(1)
    // The same bytes…
    expect((await page(await startProcess())).text).toBe(first.text)
    // …from the store, not written from rows.
    await markStored()
    expect((await page(await startProcess())).ids).toEqual(first.ids.map((id) => `stored-${id}`))
  })

  it('sends a stored page gzip-compressed, as stored, to a client that accepts gzip, and as JSON to others', async () => {
    const first = await written()
    const [stored] = await h.db.select().from(listingPages)
    expect(jsonOf(stored)).toBe(first.text)
    const reader = await startProcess()
    const compressed = await reader.inject({
      method: 'GET',
      url: URL,
      headers: { 'accept-encoding': 'br;q=1, gzip;q=0.8', origin: 'http://localhost:3000' },
    })
    expect(compressed.statusCode).toBe(200)
    expect(compressed.headers['content-encoding']).toBe('gzip')
    expect(compressed.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(compressed.headers.vary).toBe('Origin, Accept-Encoding')
    expect(compressed.rawPayload.equals(stored.gzip)).toBe(true)
    expect(Number(compressed.headers['content-length'])).toBe(stored.gzip.byteLength)
    // Refused by weight, or not asked for: the JSON, byte for byte what was written.
    for (const headers of [{ 'accept-encoding': 'gzip;q=0, identity' }, {}]) {
      const plain = await reader.inject({ method: 'GET', url: URL, headers })
      expect(plain.headers['content-encoding']).toBeUndefined()
      expect(String(plain.headers.vary)).toMatch(/accept-encoding/i)
      expect(plain.body).toBe(first.text)
    }
  })

  it('never sends a page once one of its nodes changed, and stores the page written again', async () => {
    const { ids } = await written()
    await markStored()
    // Behind every process's back, as another process or a migration would.
    await h.db.update(nodes).set({ description: 'Changed since' }).where(eq(nodes.id, ids[3]))

    const reader = await startProcess()
    const { body } = await page(reader)
    expect(body.nodes.map((node) => node.id)).toEqual(ids)
    expect(body.nodes[3].description).toBe('Changed since')
    await reader.close()
    const [stored] = await h.db.select().from(listingPages)
    expect(jsonOf(stored)).toContain('"description":"Changed since"')
    expect(jsonOf(stored)).not.toContain('stored-')
  })

  it('never sends a page once the publisher of one of its nodes changed', async () => {
    const { ids } = await written()
    await markStored()
    const [node] = await h.db.select().from(nodes).where(eq(nodes.id, ids[5]))
    await h.db
      .update(publishers)
      .set({ name: 'Renamed since' })
      .where(eq(publishers.id, node.publisherId))

    const { body } = await page(await startProcess())
    expect(body.nodes.map((shown) => shown.id)).toEqual(ids)
    expect(body.nodes[5].publisher?.name).toBe('Renamed since')
  })

  it('sends a page only while its nodes and order are the ones asked (another page, another total)', async () => {
    const first = await written()
    await markStored()
    // Another page of the same listing, and another size, are other pages.
    const reader = await startProcess()
    expect(
      (await page(reader, '/nodes?page=2&limit=10')).ids.some((id) => id.startsWith('stored-')),
    ).toBe(false)
    expect((await page(reader, '/nodes?page=1&limit=9')).ids).toEqual(first.ids.slice(0, 9))
    // A node hidden since changes the ordering's total: the stored page is not this one.
    await h.db.update(nodes).set({ status: 'NodeStatusBanned' }).where(eq(nodes.id, first.ids[9]))
    const after = await page(await startProcess())
    expect(after.ids).not.toContain(first.ids[9])
    expect(after.ids.some((id) => id.startsWith('stored-'))).toBe(false)
  })

  it('does not send a page stored longer ago than the change log is trusted, and maintenance removes it', async () => {
    await written()
    await markStored()
    await h.db.update(listingPages).set({
      writtenAt: sql`now() - make_interval(secs => ${SHARED_PAGE_MS / 1000 + 1})`,
    })
    const reader = await startProcess()
    expect((await page(reader)).ids.some((id) => id.startsWith('stored-'))).toBe(false)
    // It stored the page it wrote (when it stops at the latest); grown old too, it goes.
    await reader.close()
    await h.db.update(listingPages).set({
      writtenAt: sql`now() - make_interval(secs => ${SHARED_PAGE_MS / 1000 + 1})`,
    })
    const removed = await runMaintenance({ db: h.db, storage: h.storage })
    expect(removed.listingPages).toBe(1)
    expect(await storedCount()).toBe(0)
  })

  it('is never what a search, a signed-in admin’s listing or another public URL sends', async () => {
    const first = await written('/nodes?page=1&limit=30')
    await markStored()
    const reader = await startProcess()
    const search = await page(reader, `/nodes/search?search=${first.ids[0]}&limit=30`)
    expect(search.ids.length).toBeGreaterThan(0)
    expect(search.ids.some((id) => id.startsWith('stored-'))).toBe(false)
    const elsewhere = await startProcess({ API_PUBLIC_URL: 'http://elsewhere.test' })
    expect((await page(elsewhere, '/nodes?page=1&limit=30')).ids).toEqual(first.ids)
  })

  it('reads the next pages ahead of a client reading them in order, and drops them after a change made here', async () => {
    const writer = await startProcess()
    for (let n = 1; n <= 6; n++) await page(writer, `/nodes?page=${n}&limit=4`)
    await writer.close()
    await markStored()
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

    // Answers kept for PUBLIC_CACHE_MS, as pages read ahead may be: the processes of a test share
    // the public read cache of their database handle, emptied first (public-cache.ts).
    const reader = await startProcess({ PUBLIC_CACHE_MS: '60000' })
    forgetPublicAnswers(h.db)
    expect((await page(reader, '/nodes?page=1&limit=4')).ids[0]).toMatch(/^stored-/)
    // The first pages of a fresh process are read by themselves while the listing's ordering is
    // computed (ordering-cache.ts `direct`); the walk's pages come from it once it is there.
    await pause(300)
    expect((await page(reader, '/nodes?page=2&limit=4')).ids[0]).toMatch(/^stored-/)
    expect((await page(reader, '/nodes?page=3&limit=4')).ids[0]).toMatch(/^stored-/)
    // Pages 4–6 are read in the background: gone from the store since, they still answer.
    await pause(500)
    await h.db.delete(listingPages)
    expect((await page(reader, '/nodes?page=4&limit=4')).ids[0]).toMatch(/^stored-/)
    // After a change made by this process (its public answers forgotten), they no longer do.
    forgetPublicAnswers(h.db)
    expect((await page(reader, '/nodes?page=5&limit=4')).ids[0]).not.toMatch(/^stored-/)
  })

  it('is neither stored nor sent when answers may be kept for minutes (PUBLIC_CACHE_MS)', async () => {
    // Its pages could rest on a read of the change log older than the log is kept for.
    const { ids } = await written()
    await markStored()
    const lasting = await startProcess({ PUBLIC_CACHE_MS: String(SHARED_PAGE_MS / 2) })
    forgetPublicAnswers(h.db)
    expect((await page(lasting)).ids).toEqual(ids)
    await h.db.delete(listingPages)
    await page(lasting, '/nodes?page=2&limit=10')
    await lasting.close()
    expect(await storedCount()).toBe(0)
  })

  it('is neither stored nor sent with SHARED_LISTING_PAGES_MS=0', async () => {
    const { text } = await written()
    await markStored()
    const off = await startProcess({ SHARED_LISTING_PAGES_MS: '0' })
    expect((await page(off)).text).toBe(text)
    await h.db.delete(listingPages)
    await page(off, '/nodes?page=2&limit=10')
    await off.close()
    expect(await storedCount()).toBe(0)
  })
})
