/**
 * @jest-environment node
 */
// The API counts per-address limits by the visitor's address: a page rendered per request (here
// a publisher's) passes its visitor's address chain on in X-Forwarded-For, so one busy website is
// not one address to the API. Checked against a fake API on loopback that records the header.
import http from 'node:http'
import { Socket } from 'node:net'
import type { GetServerSidePropsContext } from 'next'
import { getServerSideProps as publisherProps } from '@/pages/publishers/[publisherId]'
import { fakeRegistryApi } from '../fake-api'

const seen: (string | undefined)[] = []
/** `publisher id <- address chain` of each request, to tell two visitors' calls apart. */
const pairs: string[] = []
fakeRegistryApi((request, response) => {
  const forwarded = request.headers['x-forwarded-for'] as string | undefined
  seen.push(forwarded)
  pairs.push(`${(request.url ?? '').split('/')[2]} <- ${forwarded}`)
  response.writeHead(200, { 'content-type': 'application/json' })
  response.end(
    // One body for both calls: the publisher's fields, and an empty page of its nodes.
    JSON.stringify({
      id: 'acme',
      name: 'Acme',
      nodes: [],
      total: 0,
      page: 1,
      limit: 10,
      totalPages: 1,
    }),
  )
})

beforeEach(() => void (seen.length = pairs.length = 0))

function visit(
  remoteAddress: string,
  forwarded?: string,
  publisherId = 'acme',
): GetServerSidePropsContext {
  const socket = new Socket()
  Object.defineProperty(socket, 'remoteAddress', { value: remoteAddress })
  const req = Object.assign(new http.IncomingMessage(socket), { cookies: {} })
  if (forwarded) req.headers['x-forwarded-for'] = forwarded
  return {
    req,
    res: new http.ServerResponse(req),
    params: { publisherId },
    query: { publisherId },
    resolvedUrl: `/publishers/${publisherId}`,
    locale: 'en',
    locales: ['en'],
    defaultLocale: 'en',
  }
}

it("sends the visitor's address with the page's API calls", async () => {
  await publisherProps(visit('203.0.113.7'))
  expect(new Set(seen)).toEqual(new Set(['203.0.113.7']))
})

it('keeps the chain a proxy in front of the website gave, then adds its own peer', async () => {
  await publisherProps(visit('10.0.0.2', '198.51.100.4'))
  expect(new Set(seen)).toEqual(new Set(['198.51.100.4, 10.0.0.2']))
})

it('does not mix up two visitors rendered at the same time', async () => {
  await Promise.all([
    publisherProps(visit('203.0.113.1', undefined, 'acme')),
    publisherProps(visit('203.0.113.2', undefined, 'beta')),
  ])
  expect(new Set(pairs)).toEqual(new Set(['acme <- 203.0.113.1', 'beta <- 203.0.113.2']))
  expect(pairs).toHaveLength(4)
})
