// The pipeline tells the website (a fake one on loopback) to regenerate a node's page.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { nodePageRefresher, REVALIDATE_SECRET_HEADER } from './page-refresh'

describe('nodePageRefresher', () => {
  let web: http.Server
  let url: string
  const calls: { method?: string; path?: string; secret?: string | string[] }[] = []

  beforeAll(async () => {
    web = http.createServer((request, response) => {
      calls.push({
        method: request.method,
        path: request.url,
        secret: request.headers[REVALIDATE_SECRET_HEADER],
      })
      response.writeHead(request.url?.includes('broken') ? 502 : 204).end()
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
  })
})
