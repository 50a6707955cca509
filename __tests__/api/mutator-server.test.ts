/**
 * @jest-environment node
 *
 * The API client on the server (page rendering): a GET whose kept-alive connection the API closed
 * is sent again once on a new connection; a write or an answered error is not. Against a real
 * HTTP server on loopback that drops chosen requests.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { customInstance } from '@/src/api/mutator'

let server: http.Server
let baseURL = ''
/** How many of the next requests the server drops without answering. */
let dropNext = 0
let seen: string[] = []

beforeAll(async () => {
  server = http.createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`)
    if (dropNext > 0) {
      dropNext--
      request.socket.destroy()
      return
    }
    if (request.url === '/fails') {
      response.writeHead(500, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ error: 'Internal', message: 'broken' }))
      return
    }
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ ok: true }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

beforeEach(() => {
  seen = []
  dropNext = 0
})

test('a GET whose connection was dropped is sent once more and answers', async () => {
  dropNext = 1
  await expect(customInstance({ baseURL, url: '/nodes', method: 'GET' })).resolves.toEqual({
    ok: true,
  })
  expect(seen).toEqual(['GET /nodes', 'GET /nodes'])
})

test('a GET dropped twice fails after one more try', async () => {
  dropNext = 2
  await expect(customInstance({ baseURL, url: '/nodes', method: 'GET' })).rejects.toMatchObject({
    code: 'ECONNRESET',
  })
  expect(seen).toEqual(['GET /nodes', 'GET /nodes'])
})

test('a write whose connection was dropped is not repeated', async () => {
  dropNext = 1
  await expect(
    customInstance({ baseURL, url: '/publishers', method: 'POST', data: { id: 'x' } }),
  ).rejects.toMatchObject({ code: 'ECONNRESET' })
  expect(seen).toEqual(['POST /publishers'])
})

test('an answered error is not repeated', async () => {
  await expect(customInstance({ baseURL, url: '/fails', method: 'GET' })).rejects.toMatchObject({
    response: { status: 500 },
  })
  expect(seen).toEqual(['GET /fails'])
})
