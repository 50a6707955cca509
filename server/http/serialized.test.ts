// Pages written from each item's kept JSON (serialized.ts) are the bytes the route's own
// serializer writes for the same answer, and each item object is serialized once.
import { gzipSync } from 'node:zlib'
import Fastify, { type FastifyInstance } from 'fastify'
import { acceptsGzip, pageWriter, serializedPage, SerializedAnswer } from './serialized'

interface Item {
  id: string
  note?: string
  tags: string[]
  secret?: string
}

const pageSchema = {
  type: 'object',
  required: ['items', 'total', 'page', 'limit', 'totalPages'],
  properties: {
    items: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'tags'],
        properties: {
          id: { type: 'string' },
          note: { type: 'string' },
          tags: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    total: { type: 'integer' },
    page: { type: 'integer' },
    limit: { type: 'integer' },
    totalPages: { type: 'integer' },
  },
}

const items: Item[] = [
  { id: 'plain', tags: [] },
  { id: 'quoted "name" \\ and \n lines', note: 'ünïcödé 漢字 😀 \u2028', tags: ['a', 'b"c'] },
  // Undeclared fields are dropped, as by the route's serializer.
  { id: 'with-secret', tags: ['x'], secret: 'never sent' },
]
const fields = { total: 3, page: 1, limit: 30, totalPages: 1 }

describe('serializedPage', () => {
  let app: FastifyInstance
  let answered = 0
  let current: Item[] = items
  const newlyWritten: string[] = []

  beforeAll(async () => {
    app = Fastify()
    const schema = { response: { 200: pageSchema } }
    app.get('/plain', { schema }, async () => ({ items: current, ...fields }))
    app.get('/kept', { schema }, async (_request, reply) => {
      const toAnswer = (item: Item) => {
        answered++
        return item
      }
      const page = serializedPage(reply, 'items', current, toAnswer, fields)
      if (!(page instanceof SerializedAnswer)) throw new Error('not serialized')
      reply.header('content-type', 'application/json; charset=utf-8')
      // As app.ts sends it: the JSON, then its UTF-8 bytes.
      page.payload()
      return page.payload().body
    })
    // The contract's form: the schema per media type.
    const byMediaType = {
      response: { 200: { content: { 'application/json': { schema: pageSchema } } } },
    }
    app.get('/by-media-type', { schema: byMediaType }, async (_request, reply) => {
      const page = serializedPage(reply, 'items', current, (item) => item, fields)
      if (!(page instanceof SerializedAnswer)) throw new Error('not serialized')
      reply.header('content-type', 'application/json; charset=utf-8')
      return page.json
    })
    // Items given as JSON written before (another process's, stored), beside written ones.
    app.get('/written', { schema }, async (_request, reply) => {
      const writer = pageWriter<unknown>(reply, 'items')
      if (!writer) throw new Error('no writer')
      const [first, ...others] = current
      const itemsJson = [
        JSON.stringify({ id: 'given', tags: [] }),
        ...[first, ...others].map((item) =>
          writer.item(
            item,
            () => item,
            (json) => newlyWritten.push(json),
          ),
        ),
      ]
      reply.header('content-type', 'application/json; charset=utf-8')
      return writer.page(itemsJson, fields).json
    })
    app.get('/unschemed', async (_request, reply) => {
      return serializedPage(reply, 'items', current, (item) => item, fields) ?? 'plain object'
    })
    await app.ready()
  })

  afterAll(() => app.close())

  it('writes the bytes the route serializer writes, undeclared fields dropped', async () => {
    const plain = await app.inject({ url: '/plain' })
    const kept = await app.inject({ url: '/kept' })
    expect(kept.statusCode).toBe(200)
    expect(kept.body).toBe(plain.body)
    expect((await app.inject({ url: '/by-media-type' })).body).toBe(plain.body)
    expect(kept.body).not.toContain('never sent')
    expect(kept.headers['content-type']).toBe('application/json; charset=utf-8')
    // The length of the UTF-8 bytes sent, not of the string (the items hold non-ASCII text).
    expect(Number(kept.headers['content-length'])).toBe(Buffer.byteLength(plain.body))
    expect(JSON.parse(kept.body)).toEqual({
      items: [items[0], items[1], { id: 'with-secret', tags: ['x'] }],
      ...fields,
    })
  })

  it('serializes each item object once, and a new object again', async () => {
    answered = 0
    current = items
    await app.inject({ url: '/kept' })
    expect(answered).toBe(0) // kept from the first test
    const changed = { ...items[0], note: 'changed' }
    current = [changed, items[1]]
    const page = await app.inject({ url: '/kept' })
    expect(answered).toBe(1)
    expect(JSON.parse(page.body).items[0]).toEqual({ id: 'plain', tags: [], note: 'changed' })
    current = []
    const empty = await app.inject({ url: '/kept' })
    expect(empty.body).toBe((await app.inject({ url: '/plain' })).body)
    current = items
  })

  it('tells each JSON written anew (not one kept), and joins given JSON with written', async () => {
    current = [{ id: 'fresh', tags: ['y'] }, items[1]]
    newlyWritten.length = 0
    const first = await app.inject({ url: '/written' })
    expect(newlyWritten).toEqual([
      '{"id":"fresh","tags":["y"]}',
      JSON.stringify({ id: items[1].id, tags: items[1].tags, note: items[1].note }),
    ])
    expect(JSON.parse(first.body)).toEqual({
      items: [{ id: 'given', tags: [] }, { id: 'fresh', tags: ['y'] }, items[1]],
      ...fields,
    })
    // Kept for these item objects since: nothing written, nothing told.
    await app.inject({ url: '/written' })
    expect(newlyWritten).toHaveLength(2)
    current = items
  })

  it('sends an answer as its JSON, then as its UTF-8 bytes encoded once, never compressed', () => {
    const answer = new SerializedAnswer<unknown>('{"text":"漢字 😀"}')
    expect(answer.payload(true)).toEqual({ body: answer.json, gzip: false })
    const { body: bytes } = answer.payload(true)
    expect(Buffer.isBuffer(bytes) && bytes.toString('utf8')).toBe(answer.json)
    expect(answer.payload().body).toBe(bytes)
  })

  it('sends a gzip-compressed answer as it is where gzip is accepted, else decompressed once', () => {
    const json = '{"text":"漢字 😀"}'
    const compressed = gzipSync(json)
    const answer = SerializedAnswer.gzipped<unknown>(compressed)
    expect(answer.payload(true)).toEqual({ body: compressed, gzip: true })
    const { body: plain, gzip } = answer.payload(false)
    expect(gzip).toBe(false)
    expect(Buffer.isBuffer(plain) && plain.toString('utf8')).toBe(json)
    expect(answer.payload(false).body).toBe(plain)
    expect(answer.json).toBe(json)
  })

  it('leaves the answer to the caller on a route without a response schema', async () => {
    const reply = await app.inject({ url: '/unschemed' })
    expect(reply.body).toBe('plain object')
  })
})

describe('acceptsGzip (Accept-Encoding, RFC 9110)', () => {
  it.each([
    ['gzip, deflate', true],
    ['gzip, deflate, br', true],
    ['GZip', true],
    ['x-gzip', true],
    ['br;q=1.0, gzip;q=0.8, *;q=0.1', true],
    ['*', true],
    ['deflate, *;q=0.5', true],
    [undefined, false],
    ['', false],
    ['identity', false],
    ['deflate, br', false],
    ['gzip;q=0', false],
    ['gzip; q=0.000', false],
    ['*;q=0', false],
    ['gzip;q=0, *', false],
    ['*, gzip;q=0', false],
    ['gzip;q=0.001', true],
    ['identity, *;q=0, gzip', true],
  ])('%j: %s', (header, accepted) => {
    expect(acceptsGzip(header)).toBe(accepted)
  })
})
