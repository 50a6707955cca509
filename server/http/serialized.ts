// Pages of nodes written from each node's JSON, serialized once per kept row. The node row cache
// (server/nodes/row-cache.ts) answers an unchanged row with the same object, so its JSON, written
// by the route's own response serializer (the contract's schema: undeclared fields are dropped as
// for any answer), is kept beside it and reused while the row is; a changed row is a new object.
// Serializing thirty nodes was most of the API's own work for a page whose rows are kept.
// See docs/ARCHITECTURE.md, "Node row cache".
import zlib from 'node:zlib'
import type { FastifyReply } from 'fastify'

/**
 * Whether an Accept-Encoding header accepts gzip (RFC 9110 §12.5.3): named (or as x-gzip), or
 * covered by `*`, with a weight above 0.
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false
  let named: boolean | undefined
  let any: boolean | undefined
  for (const part of header.split(',')) {
    const [coding, ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase())
    const weight = parameters.find((parameter) => parameter.startsWith('q='))
    const accepted = weight === undefined || Number(weight.slice(2)) > 0
    if (coding === 'gzip' || coding === 'x-gzip') named = accepted
    else if (coding === '*') any = accepted
  }
  return named ?? any ?? false
}

/** An answer already serialized by its route's response schema: app.ts sends its JSON as is. */
export class SerializedAnswer<T> {
  /** The answer's type, for the handler's signature only. */
  declare readonly answer?: T
  private encoded?: Buffer
  private sent = false
  /** The JSON gzip-compressed, when the answer came so (a stored page: shared-pages.ts). */
  private compressed?: Buffer
  /** The JSON (undefined for a compressed answer until asked for). */
  constructor(private text?: string) {}

  /** An answer stored gzip-compressed: sent so to a client that accepts gzip. */
  static gzipped<T>(gzip: Buffer): SerializedAnswer<T> {
    const answer = new SerializedAnswer<T>()
    answer.compressed = gzip
    return answer
  }

  /** Whether it is kept gzip-compressed: only then does the client's Accept-Encoding matter. */
  get isGzip(): boolean {
    return this.compressed !== undefined
  }

  /** The JSON. */
  get json(): string {
    return (this.text ??= this.compressed ? zlib.gunzipSync(this.compressed).toString() : '')
  }

  /**
   * What is sent, and whether it is gzip-compressed (only to a client that `acceptsGzip`). A
   * compressed answer is sent as it is, or decompressed once. Otherwise the JSON, then, from its
   * second send on (a public read cache's answer is sent to every caller within its TTL), its
   * UTF-8 bytes, encoded once. A string is measured and copied behind the headers at each send;
   * encoding every page instead made large Buffers whose collection lengthened the slowest
   * answers at 32 connections (ARCHITECTURE "What every request cost the API").
   */
  payload(acceptsGzip = false): { body: string | Buffer; gzip: boolean } {
    if (this.compressed) {
      if (acceptsGzip) return { body: this.compressed, gzip: true }
      return { body: (this.encoded ??= zlib.gunzipSync(this.compressed)), gzip: false }
    }
    if (!this.sent) {
      this.sent = true
      return { body: this.json, gzip: false }
    }
    return { body: (this.encoded ??= Buffer.from(this.json)), gzip: false }
  }
}

type Serialize = (payload: Record<string, unknown>) => string

interface PageFields {
  total: number
  page: number
  limit: number
  totalPages: number
}

const NO_PAGE: PageFields = { total: 0, page: 0, limit: 0, totalPages: 0 }

/**
 * Each item's JSON by the serializer that wrote it, for as long as the item object lives. Kept as
 * strings: the same kept as Buffers, joined with Buffer.concat, cost the API more CPU per page
 * and tripled the 97.5th percentile at 32 connections (ARCHITECTURE "Node row cache").
 */
const itemJson = new WeakMap<Serialize, WeakMap<object, string>>()

/** Writes a page's JSON from each item's JSON (pageWriter). */
export interface PageWriter<T> {
  /**
   * `item`'s JSON, written from `answer()` by the route's serializer once per item object;
   * `written` is told each JSON written anew (not one kept).
   */
  item(item: object, answer: () => unknown, written?: (json: string) => void): string
  /** The page of these items' JSON, with its fields. */
  page(itemsJson: string[], fields: PageFields): SerializedAnswer<T>
}

/**
 * The writer of `{ [listKey]: items, ...fields }` by the route's 200 schema, or `undefined` when
 * the route has no such serializer or the list is not its first property: the caller answers the
 * plain object.
 */
export function pageWriter<T>(reply: FastifyReply, listKey: string): PageWriter<T> | undefined {
  // Per media type where the schema gives one (the contract's `content`), else the route's.
  const serialize: Serialize | undefined =
    reply.getSerializationFunction('200', 'application/json') ??
    reply.getSerializationFunction('200')
  if (typeof serialize !== 'function') return undefined
  const open = `{"${listKey}":[`
  const emptyOf = (fields: PageFields) => serialize({ [listKey]: [], ...fields })
  const emptyPage = emptyOf(NO_PAGE)
  if (!emptyPage.startsWith(`${open}]`)) return undefined
  let kept = itemJson.get(serialize)
  if (!kept) itemJson.set(serialize, (kept = new WeakMap()))
  const known = kept
  const noPageTail = emptyPage.slice(open.length)
  return {
    item(item, answer, written) {
      let json = known.get(item)
      if (!json) {
        const alone = serialize({ [listKey]: [answer()], ...NO_PAGE })
        json = alone.slice(open.length, alone.length - noPageTail.length)
        known.set(item, json)
        written?.(json)
      }
      return json
    },
    page(itemsJson, fields) {
      return new SerializedAnswer<T>(
        open + itemsJson.join(',') + emptyOf(fields).slice(open.length),
      )
    },
  }
}

/**
 * `{ [listKey]: items, ...fields }` serialized by the route's 200 schema, each item's JSON written
 * once per item object (`toAnswer` must depend on the item alone). `undefined` when the route has
 * no such serializer or the list is not its first property: the caller answers the plain object.
 */
export function serializedPage<T, Item extends object>(
  reply: FastifyReply,
  listKey: string,
  items: Item[],
  toAnswer: (item: Item) => unknown,
  fields: PageFields,
): SerializedAnswer<T> | undefined {
  const writer = pageWriter<T>(reply, listKey)
  return writer?.page(
    items.map((item) => writer.item(item, () => toAnswer(item))),
    fields,
  )
}
