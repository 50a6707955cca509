// The pipeline tells the website (a fake one on loopback) to regenerate a node's page.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  nodePageRefresher,
  nodePagesRefresher,
  PAGE_REFRESH_CONCURRENCY,
  REVALIDATE_SECRET_HEADER,
} from './page-refresh'

describe('nodePageRefresher', () => {
  let web: http.Server
  let url: string
  const calls: { method?: string; path?: string; secret?: string | string[] }[] = []
  let inFlight = 0
  let mostInFlight = 0

  beforeAll(async () => {
    web = http.createServer((request, response) => {
      calls.push({
        method: request.method,
        path: request.url,
        secret: request.headers[REVALIDATE_SECRET_HEADER],
      })
      // Slow pages, to see how many are regenerated at once.
      const slow = request.url?.includes('slow')
      inFlight++
      mostInFlight = Math.max(mostInFlight, inFlight)
      setTimeout(
        () => {
          inFlight--
          response.writeHead(request.url?.includes('broken') ? 502 : 204).end()
        },
        slow ? 50 : 0,
      )
    })
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(web.address() as AddressInfo).port}`
  })

  afterAll(async () => {
    await new Promise((resolve) => web.close(resolve))
  })

  const until = async (condition: () => boolean) => {
    while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5))
  }

  it('posts to the node page’s revalidation with the shared secret', async () => {
    const refresh = nodePageRefresher({ webUrl: url, revalidateSecret: 's3cret' })
    refresh?.('comfy.node')
    await until(() => calls.length === 1)
    expect(calls[0]).toEqual({
      method: 'POST',
      path: '/api/revalidate/nodes/comfy.node',
      secret: 's3cret',
    })
  })

  it('logs, and does not throw, when the website refuses or is down', async () => {
    const logged: string[] = []
    nodePageRefresher({ webUrl: url, revalidateSecret: 's' }, (m) => logged.push(m))?.('broken')
    nodePageRefresher({ webUrl: 'http://127.0.0.1:9', revalidateSecret: 's' }, (m) =>
      logged.push(m),
    )?.('down')
    await until(() => logged.length === 2)
    expect(logged.join('\n')).toMatch(/answered 502 to refreshing node broken/)
    expect(logged.join('\n')).toMatch(/Could not refresh the page of node down/)
  })

  it('does nothing without a website or secret configured', () => {
    expect(nodePageRefresher({ webUrl: undefined, revalidateSecret: 's' })).toBeUndefined()
    expect(nodePageRefresher({ webUrl: url, revalidateSecret: undefined })).toBeUndefined()
    expect(nodePagesRefresher({ webUrl: undefined, revalidateSecret: 's' })).toBeUndefined()
  })

  it('refreshes many pages each once, a few at a time, and settles when all are done', async () => {
    calls.length = 0
    mostInFlight = 0
    const refresh = nodePagesRefresher({ webUrl: url, revalidateSecret: 's' })
    const ids = ['slow-a', 'slow-b', 'SLOW-A', 'slow-c', 'slow-d', 'slow-e', 'slow-broken']
    await refresh?.(ids)
    expect(calls.map((call) => call.path?.split('/').pop()).sort()).toEqual(
      ['slow-a', 'slow-b', 'slow-broken', 'slow-c', 'slow-d', 'slow-e'].sort(),
    )
    expect(mostInFlight).toBe(PAGE_REFRESH_CONCURRENCY)
  })
})
