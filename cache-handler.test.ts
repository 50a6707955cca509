// The website's page cache in Redis (cache-handler.js): what one `next start` process writes,
// another reads; tags, lifetimes and build ids; and a Redis that does not answer is a miss.
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { Redis } from 'ioredis'
import RedisCacheHandler from './cache-handler'

/** A `.next` folder with a BUILD_ID; the handler gets its `server` folder, as Next gives it. */
function buildDir(buildId: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'page-cache-'))
  fs.writeFileSync(path.join(dir, 'BUILD_ID'), buildId)
  return path.join(dir, 'server')
}

function handler(serverDistDir: string): RedisCacheHandler {
  return new RedisCacheHandler({ serverDistDir, revalidatedTags: [], _requestHeaders: {} })
}

type Value = RedisCacheHandler.Value

// What Next passes for a page of the pages router (IncrementalCacheKind / CachedRouteKind).
const PAGE_GET = { kind: 'PAGES', isFallback: false }
const PAGE_SET = { cacheControl: { revalidate: 60, expire: 660 } }

function page(title: string): Value {
  return {
    kind: 'PAGES',
    html: `<!DOCTYPE html><html><body><h1>${title}</h1></body></html>`,
    pageData: { pageProps: { title, dehydratedState: { queries: [] } } },
    headers: { 'x-next-cache-tags': undefined },
    status: 200,
  }
}

function fetchEntry(body: string, tags: string[]): [Value, { fetchCache: true; tags: string[] }] {
  return [
    {
      kind: 'FETCH',
      data: { headers: {}, body, url: 'http://api/x', status: 200 },
      revalidate: 60,
      tags,
    },
    { fetchCache: true, tags },
  ]
}

const FETCH_GET = (tags: string[]) => ({
  kind: 'FETCH',
  revalidate: 60,
  tags,
  fetchUrl: 'http://api/x',
})

const savedEnv = { url: process.env.REDIS_URL, prefix: process.env.REDIS_KEY_PREFIX }
afterEach(async () => {
  RedisCacheHandler.closeAll()
  process.env.REDIS_URL = savedEnv.url
  process.env.REDIS_KEY_PREFIX = savedEnv.prefix
  if (savedEnv.url === undefined) delete process.env.REDIS_URL
  if (savedEnv.prefix === undefined) delete process.env.REDIS_KEY_PREFIX
  jest.restoreAllMocks()
})

const redisUrl = process.env.TEST_REDIS_URL
// Without TEST_REDIS_URL (e.g. redis://127.0.0.1:6379) this part is skipped; .ci/run sets it
// when a Redis answers locally.
const describeWithRedis = redisUrl ? describe : describe.skip

describeWithRedis('shared through Redis (TEST_REDIS_URL)', () => {
  let prefix: string
  let redis: Redis

  beforeEach(() => {
    // A prefix of its own per test, so parallel runs never share entries.
    prefix = `${process.env.TEST_REDIS_PREFIX ?? 'test:'}${randomUUID()}:`
    process.env.REDIS_URL = redisUrl
    process.env.REDIS_KEY_PREFIX = prefix
    redis = new Redis(redisUrl ?? '')
  })
  afterEach(async () => {
    const keys = await redis.keys(`${prefix}*`)
    if (keys.length > 0) await redis.del(...keys)
    await redis.quit()
  })

  it('gives a page written by one process to another, with its lifetime', async () => {
    const dist = buildDir('build-1')
    const before = Date.now()
    await handler(dist).set('/nodes/n1', page('First'), PAGE_SET)
    // Another handler (Next makes one per request) finds it; so would another process.
    const read = await handler(dist).get('/nodes/n1', PAGE_GET)
    expect(read?.value).toEqual(page('First'))
    expect(read?.cacheControl).toEqual({ revalidate: 60, expire: 660 })
    expect(read?.lastModified).toBeGreaterThanOrEqual(before)
    // Stored under the prefix and the build id, as long as Next would serve it.
    const key = `${prefix}pages:build-1:/nodes/n1`
    const ttl = await redis.ttl(key)
    expect(ttl).toBeGreaterThan(600)
    expect(ttl).toBeLessThanOrEqual(660)

    // Regenerated: the next read anywhere is the new page.
    await handler(dist).set('/nodes/n1', page('Second'), PAGE_SET)
    expect((await handler(dist).get('/nodes/n1', PAGE_GET))?.value).toEqual(page('Second'))
  })

  it('keeps a page that is not found, and binary payloads', async () => {
    const dist = buildDir('build-1')
    await handler(dist).set('/nodes/gone', null, PAGE_SET)
    const gone = await handler(dist).get('/nodes/gone', PAGE_GET)
    expect(gone).not.toBeNull()
    expect(gone?.value).toBeNull()

    const payload = {
      kind: 'APP_PAGE',
      html: '<p>x</p>',
      rscData: Buffer.from([0, 255, 1, 254]),
      segmentData: new Map([['/a', Buffer.from('segment')]]),
      headers: undefined,
      postponed: undefined,
      status: 200,
    } as const
    await handler(dist).set('/app', payload, PAGE_SET)
    const read = await handler(dist).get('/app', { ...PAGE_GET, kind: 'APP_PAGE' })
    expect(read?.value).toEqual(payload)
  })

  it('does not serve pages of another build', async () => {
    await handler(buildDir('build-1')).set('/nodes/n1', page('Old build'), PAGE_SET)
    expect(await handler(buildDir('build-2')).get('/nodes/n1', PAGE_GET)).toBeNull()
  })

  it('keeps an entry without an expire time for at most two weeks', async () => {
    const dist = buildDir('build-1')
    const [value, ctx] = fetchEntry('{}', [])
    await handler(dist).set('fetch-key', value, ctx)
    const ttl = await redis.ttl(`${prefix}pages:build-1:fetch-key`)
    expect(ttl).toBeGreaterThan(13 * 24 * 3600)
    expect(ttl).toBeLessThanOrEqual(14 * 24 * 3600)
  })

  it('lets Redis drop a page once its expire time has passed', async () => {
    const dist = buildDir('build-1')
    await handler(dist).set('/nodes/short', page('Short'), {
      cacheControl: { revalidate: 1, expire: 1 },
    })
    const key = `${prefix}pages:build-1:/nodes/short`
    expect(await redis.pttl(key)).toBeGreaterThan(0)
    // Redis removes it (polled, no timing asserted): the next read is a miss, rendered afresh.
    while ((await redis.exists(key)) === 1) await new Promise((resolve) => setTimeout(resolve, 100))
    expect(await handler(dist).get('/nodes/short', PAGE_GET)).toBeNull()
  })

  it('revalidateTag removes the entries with that tag only', async () => {
    const dist = buildDir('build-1')
    const [a, aCtx] = fetchEntry('"a"', ['node:a'])
    const [b, bCtx] = fetchEntry('"b"', ['node:b'])
    await handler(dist).set('fetch-a', a, aCtx)
    await handler(dist).set('fetch-b', b, bCtx)
    await handler(dist).revalidateTag('node:a')
    expect(await handler(dist).get('fetch-a', FETCH_GET(['node:a']))).toBeNull()
    expect((await handler(dist).get('fetch-b', FETCH_GET(['node:b'])))?.value).toEqual(b)
    // A list of tags, and a tag no entry has.
    await handler(dist).revalidateTag(['node:b', 'node:none'])
    expect(await handler(dist).get('fetch-b', FETCH_GET(['node:b']))).toBeNull()
  })
  it('shares pages again once Redis answers again', async () => {
    const target = new URL(redisUrl ?? '')
    // A forwarder to the test Redis on a port of its own, which does not listen at first.
    const sockets = new Set<net.Socket>()
    const forwarder = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 6379), target.hostname)
      for (const socket of [client, upstream]) {
        sockets.add(socket)
        socket.on('error', () => socket.destroy())
        socket.on('close', () => sockets.delete(socket))
      }
      client.pipe(upstream).pipe(client)
    })
    const port = await new Promise<number>((resolve) =>
      forwarder.listen(0, '127.0.0.1', () =>
        resolve((forwarder.address() as net.AddressInfo).port),
      ),
    )
    await new Promise((resolve) => forwarder.close(resolve))
    process.env.REDIS_URL = `redis://127.0.0.1:${port}`
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined)
    const dist = buildDir('build-1')
    await handler(dist).set('/nodes/n1', page('Lost'), PAGE_SET)
    expect(await handler(dist).get('/nodes/n1', PAGE_GET)).toBeNull()
    expect(warn).toHaveBeenCalledTimes(1)

    await new Promise<void>((resolve) => forwarder.listen(port, '127.0.0.1', resolve))
    try {
      // ioredis reconnects on its own (polled, no timing asserted).
      let read = null
      while (read === null) {
        await handler(dist).set('/nodes/n1', page('Kept'), PAGE_SET)
        read = await handler(dist).get('/nodes/n1', PAGE_GET)
        if (read === null) await new Promise((resolve) => setTimeout(resolve, 100))
      }
      expect(read.value).toEqual(page('Kept'))
      expect(warn).toHaveBeenCalledTimes(2)
      expect(String(warn.mock.calls[1][0])).toMatch(/^Page cache: Redis answers again/)
    } finally {
      RedisCacheHandler.closeAll()
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => forwarder.close(resolve))
    }
  })
})

describe('a Redis that does not answer', () => {
  it('is a miss for reads and drops writes, with one warning', async () => {
    process.env.REDIS_URL = 'redis://127.0.0.1:1'
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined)
    const dist = buildDir('build-1')
    await expect(handler(dist).set('/nodes/n1', page('First'), PAGE_SET)).resolves.toBeUndefined()
    await expect(handler(dist).get('/nodes/n1', PAGE_GET)).resolves.toBeNull()
    await expect(handler(dist).revalidateTag('node:a')).resolves.toBeUndefined()
    await expect(handler(dist).get('/nodes/n1', PAGE_GET)).resolves.toBeNull()
    expect(warn).toHaveBeenCalledTimes(1)
    expect(String(warn.mock.calls[0][0])).toMatch(/^Page cache: Redis does not answer/)
  })

  it('refuses to start without REDIS_URL', () => {
    delete process.env.REDIS_URL
    expect(() => handler(buildDir('build-1'))).toThrow(/REDIS_URL/)
  })
})
