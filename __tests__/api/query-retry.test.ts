/**
 * @jest-environment node
 */
// Seed sections 8 and 9, as behaviour: the app's query client, through the app's axios instance,
// against a small HTTP server on loopback. A 500 is retried 3 times (4 requests in all), a 404 or
// 400 never; data is stale at once (a new observer refetches) and kept 24 hours after its last
// use. The server-rendering client never retries at all.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { QueryObserver, type QueryClient } from '@tanstack/react-query'
import { customInstance } from '@/src/api/mutator'
import { makeQueryClient, makeServerQueryClient } from '@/src/api/query-client'

let server: http.Server
const hits = new Map<string, number>()
const clients: QueryClient[] = []

/** The app's query client; cleared after each test (its 24-hour timers would keep Jest alive). */
function appQueryClient(): QueryClient {
  const client = makeQueryClient()
  clients.push(client)
  return client
}

afterEach(() => {
  for (const client of clients.splice(0)) client.clear()
})

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const path = request.url ?? ''
    const count = (hits.get(path) ?? 0) + 1
    hits.set(path, count)
    const status = path.startsWith('/missing')
      ? 404
      : path.startsWith('/refused')
        ? 400
        : path.startsWith('/broken')
          ? 500
          : 200
    response.writeHead(status, { 'content-type': 'application/json' })
    response.end(JSON.stringify(status === 200 ? { count } : { error: 'x', message: 'no' }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  process.env.API_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  delete process.env.API_URL
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

/** Observes a query as a mounted component would, until it settles. */
function observe(client: QueryClient, url: string) {
  const observer = new QueryObserver(client, {
    queryKey: [url],
    queryFn: ({ signal }) => customInstance<{ count: number }>({ url, method: 'GET' }, { signal }),
    // The rule under test is how often a query is retried, not how long it waits in between.
    retryDelay: 0,
  })
  return new Promise<{ status: string; data?: { count: number } }>((resolve) => {
    const unsubscribe = observer.subscribe((result) => {
      if (result.status === 'pending' || result.fetchStatus === 'fetching') return
      unsubscribe()
      resolve({ status: result.status, data: result.data })
    })
  })
}

it('retries a query that fails with 500 three times, then gives up', async () => {
  const result = await observe(appQueryClient(), '/broken/a')
  expect(result.status).toBe('error')
  expect(hits.get('/broken/a')).toBe(4)
})

it('never retries a 404', async () => {
  const result = await observe(appQueryClient(), '/missing/a')
  expect(result.status).toBe('error')
  expect(hits.get('/missing/a')).toBe(1)
})

it('never retries a 400 (a request the API refuses is refused again)', async () => {
  const result = await observe(appQueryClient(), '/refused/a')
  expect(result.status).toBe('error')
  expect(hits.get('/refused/a')).toBe(1)
})

it('server rendering never retries, not even a 500 (no visitor waits out a back-off)', async () => {
  const client = makeServerQueryClient()
  const fetch = (url: string) =>
    client.fetchQuery({
      queryKey: [url],
      queryFn: ({ signal }) => customInstance({ url, method: 'GET' }, { signal }),
    })
  await expect(fetch('/broken/server')).rejects.toMatchObject({ response: { status: 500 } })
  await expect(fetch('/refused/server')).rejects.toMatchObject({ response: { status: 400 } })
  expect(hits.get('/broken/server')).toBe(1)
  expect(hits.get('/refused/server')).toBe(1)
  client.clear()
})

it('treats data as stale at once: the next observer fetches again', async () => {
  const client = appQueryClient()
  expect((await observe(client, '/fresh/a')).data).toEqual({ count: 1 })
  expect((await observe(client, '/fresh/a')).data).toEqual({ count: 2 })
})

it('keeps unused data 24 hours, then drops it', async () => {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] })
  try {
    const client = appQueryClient()
    client.setQueryData(['/kept/a'], { count: 0 })
    // Mounted and unmounted once, so garbage collection is scheduled.
    const observer = new QueryObserver(client, { queryKey: ['/kept/a'], enabled: false })
    observer.subscribe(() => {})()
    jest.advanceTimersByTime(24 * 60 * 60 * 1000 - 1)
    expect(client.getQueryData(['/kept/a'])).toEqual({ count: 0 })
    jest.advanceTimersByTime(1)
    expect(client.getQueryData(['/kept/a'])).toBeUndefined()
  } finally {
    jest.useRealTimers()
  }
})
