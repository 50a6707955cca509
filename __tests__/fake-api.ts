// A fake registry API on loopback for the website's server-side tests: started before the file's
// tests (API_URL points at it), stopped after them. Tests may listen to its 'request' events.
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export function fakeRegistryApi(handler: http.RequestListener): http.Server {
  const server = http.createServer(handler)
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    process.env.API_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    delete process.env.API_URL
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })
  return server
}
