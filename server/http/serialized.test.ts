// Pages written from each item's kept JSON (serialized.ts) are the bytes the route's own
// serializer writes for the same answer, and each item object is serialized once.
import Fastify, { type FastifyInstance } from 'fastify'
import { pageWriter, serializedPage, SerializedAnswer } from './serialized'

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
      return page.payload()
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

  it('sends an answer as its JSON, then as its UTF-8 bytes encoded once', () => {
    const answer = new SerializedAnswer<unknown>('{"text":"漢字 😀"}')
    expect(answer.payload()).toBe(answer.json)
    const bytes = answer.payload()
    expect(Buffer.isBuffer(bytes) && bytes.toString('utf8')).toBe(answer.json)
    expect(answer.payload()).toBe(bytes)
  })

  it('leaves the answer to the caller on a route without a response schema', async () => {
    const reply = await app.inject({ url: '/unschemed' })
    expect(reply.body).toBe('plain object')
  })
})
