/**
 * @jest-environment node
 */
// The API counts per-address limits (searches) by the visitor's address: a server-rendered page
// passes its visitor's address chain on in X-Forwarded-For, so one busy website is not one
// address to the API. Checked against a fake API on loopback that records the header.
import http from 'node:http'
import { Socket } from 'node:net'
import type { GetServerSidePropsContext } from 'next'
import { getServerSideProps as homeProps } from '@/pages/index'
import { fakeRegistryApi } from '../fake-api'

const seen: (string | undefined)[] = []
fakeRegistryApi((request, response) => {
  seen.push(request.headers['x-forwarded-for'] as string | undefined)
  response.writeHead(200, { 'content-type': 'application/json' })
  response.end(JSON.stringify({ total: 0, page: 1, limit: 10, totalPages: 1, nodes: [] }))
})

beforeEach(() => void (seen.length = 0))

function visit(remoteAddress: string, forwarded?: string): GetServerSidePropsContext {
  const socket = new Socket()
  Object.defineProperty(socket, 'remoteAddress', { value: remoteAddress })
  const req = Object.assign(new http.IncomingMessage(socket), { cookies: {} })
  if (forwarded) req.headers['x-forwarded-for'] = forwarded
  return {
    req,
    res: new http.ServerResponse(req),
    params: {},
    query: { search: 'upscale' },
    resolvedUrl: '/?search=upscale',
    locale: 'en',
    locales: ['en'],
    defaultLocale: 'en',
  }
}

it("sends the visitor's address with the page's API calls", async () => {
  await homeProps(visit('203.0.113.7'))
  expect(seen).toEqual(['203.0.113.7'])
})

it('keeps the chain a proxy in front of the website gave, then adds its own peer', async () => {
  await homeProps(visit('10.0.0.2', '198.51.100.4'))
  expect(seen).toEqual(['198.51.100.4, 10.0.0.2'])
})

it('does not mix up two visitors rendered at the same time', async () => {
  await Promise.all([homeProps(visit('203.0.113.1')), homeProps(visit('203.0.113.2'))])
  expect([...seen].sort()).toEqual(['203.0.113.1', '203.0.113.2'])
})
