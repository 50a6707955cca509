/**
 * A stand-in for an AI provider's status API, on an ephemeral local port: answers every GET at
 * once with the job it was asked about (`{ id, path }`), or the provider's 404 for ids starting
 * with `missing`; records the headers of each request (to check what travels upstream).
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface FakeProvider {
  url: string
  /** Each request's path and headers, in order. */
  readonly requests: { path: string; headers: http.IncomingHttpHeaders }[]
  close(): Promise<void>
}

export async function startFakeProvider(): Promise<FakeProvider> {
  const requests: FakeProvider['requests'] = []
  const server = http.createServer((request, response) => {
    const path = request.url ?? '/'
    requests.push({ path, headers: request.headers })
    const id = path.split('?')[0].split('/').at(-1) ?? ''
    const missing = id.startsWith('missing')
    response.writeHead(missing ? 404 : 200, { 'content-type': 'application/json' })
    response.end(
      JSON.stringify(
        missing
          ? { error: { code: 'not_found', message: `No task ${id}` } }
          : { id, path, state: 'done' },
      ),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}
