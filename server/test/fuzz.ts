/**
 * Schema fuzzing: requests generated from openapi.yml for every operation (a valid-ish baseline
 * from openapi-sampler, then fast-check mutations: wrong types, huge strings, NUL characters, deep
 * nesting, invalid JSON, wrong media types, hostile path and query parameters), and a checksum of
 * every table for "a refused request changes nothing". Used by server/http/fuzz.test.ts.
 */
import fc from 'fast-check'
import { sample } from 'openapi-sampler'
import { sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { listOperations, type OpenApiDocument, type OperationInfo } from '../http/contract'

type JsonSchema = Parameters<typeof sample>[0]

export type Role = 'anonymous' | 'user' | 'owner' | 'admin'
export const ROLES: readonly Role[] = ['anonymous', 'user', 'owner', 'admin']

interface ParameterSpec {
  name: string
  in: 'path' | 'query' | 'header' | 'cookie'
  required: boolean
  schema: JsonSchema
}

export interface FuzzOperation extends OperationInfo {
  parameters: ParameterSpec[]
  /** The JSON body's schema (none: no JSON body). */
  jsonBody?: JsonSchema
}

/** Real values the fuzzer may use, so that requests get past "not found" into handler code. */
export interface FuzzTargets {
  /** Path parameter values by name (e.g. nodeId → ids of seeded nodes). */
  path: Record<string, readonly string[]>
  /** Fields merged into an operation's sampled body (e.g. a real personal access token). */
  body: Record<string, Record<string, unknown>>
}

export interface FuzzRequest {
  operationId: string
  /** Which mutation made it ('baseline': none). */
  mutation: string
  role: Role
  method: string
  url: string
  headers: Record<string, string>
  payload?: string | Buffer
}

/** Percent-encodes like encodeURIComponent, but never throws (a lone surrogate becomes U+FFFD). */
function encode(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-_.!~*'()]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('')
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Follows `$ref`s of the contract (`#/components/...`). */
function resolve(document: OpenApiDocument, value: unknown): unknown {
  let current = value
  for (let hops = 0; isRecord(current) && typeof current.$ref === 'string' && hops < 20; hops++) {
    const ref: string = current.$ref
    current = ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((node, key) => (isRecord(node) ? node[key] : undefined), document)
  }
  return current
}

/** Every operation of the contract with its parameters and JSON body schema. */
export function fuzzOperations(document: OpenApiDocument): FuzzOperation[] {
  return listOperations(document).map((operation) => {
    const item = resolve(document, document.paths[operation.path])
    const raw = isRecord(item) ? resolve(document, item[operation.method.toLowerCase()]) : {}
    const op = isRecord(raw) ? raw : {}
    const shared = isRecord(item) && Array.isArray(item.parameters) ? item.parameters : []
    const own = Array.isArray(op.parameters) ? op.parameters : []
    const parameters = [...shared, ...own]
      .map((parameter) => resolve(document, parameter))
      .filter(isRecord)
      .map((parameter) => ({
        name: String(parameter.name),
        in: parameter.in as ParameterSpec['in'],
        required: parameter.required === true,
        schema: (resolve(document, parameter.schema) ?? {}) as JsonSchema,
      }))
    const body = resolve(document, op.requestBody)
    const content = isRecord(body) && isRecord(body.content) ? body.content : {}
    const json = content['application/json']
    const jsonBody = isRecord(json) && json.schema ? (json.schema as JsonSchema) : undefined
    return { ...operation, parameters, jsonBody }
  })
}

/** A sample value of a schema (patterns honoured), or `fallback` when the sampler cannot. */
function sampleOf(document: OpenApiDocument, schema: JsonSchema, fallback: unknown): unknown {
  try {
    return sample(schema, { skipReadOnly: true, enablePatterns: true, quiet: true }, document)
  } catch {
    return fallback
  }
}

/** Paths (as key lists) of every value inside `value`, the value itself first. */
function pathsIn(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const found: (string | number)[][] = [prefix]
  if (Array.isArray(value)) value.forEach((item, i) => found.push(...pathsIn(item, [...prefix, i])))
  else if (isRecord(value)) {
    for (const [key, item] of Object.entries(value)) found.push(...pathsIn(item, [...prefix, key]))
  }
  return found
}

/** A copy of `value` with the value at `path` replaced (or removed, for `undefined`). */
function replaceAt(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement
  const [head, ...rest] = path
  if (Array.isArray(value)) {
    const copy = [...value]
    if (rest.length === 0 && replacement === undefined) copy.splice(Number(head), 1)
    else copy[Number(head)] = replaceAt(copy[Number(head)], rest, replacement)
    return copy
  }
  if (isRecord(value)) {
    const copy = { ...value }
    if (rest.length === 0 && replacement === undefined) Reflect.deleteProperty(copy, String(head))
    else copy[String(head)] = replaceAt(copy[String(head)], rest, replacement)
    return copy
  }
  return replacement
}

// Hostile path segments, already in their on-the-wire form.
const PATH_ATTACKS = [
  '..',
  '.',
  '../',
  '../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  '%2e%2e%2f',
  '%2e%2e',
  '%2E%2E%5C',
  '..%5c..%5c',
  '%00',
  'a%00b',
  '%00.zip',
  '1.0.0%00.zip',
  '%',
  '%zz',
  '%c0%ae%c0%ae%2f',
  '%ff%fe',
  '%ed%a0%80',
  '%20',
  '%09%0a%0d',
  '%2f',
  '~',
  '$',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  '-1',
  '0',
  '1e309',
  '99999999999999999999999999',
  encode('ノード'),
  encode('\u202eevil'),
  encode('a\u200bb'),
  encode('😀'),
  encode("' or 1=1 --"),
  encode('<script>alert(1)</script>'),
  encode('${jndi:ldap://x}'),
  'x'.repeat(1001),
  'x'.repeat(10_000),
]

const QUERY_ATTACKS = [
  '',
  '%00',
  'a%00b',
  '%',
  '%zz',
  '%ed%a0%80',
  '-1',
  '0',
  '1.5',
  '1e309',
  'NaN',
  'Infinity',
  '99999999999999999999999999',
  'true',
  'null',
  '[]',
  '{}',
  encode('😀ノ\u202e'),
  encode("' or 1=1 --"),
  encode('%_\\'),
  'x'.repeat(10_000),
]

const INVALID_JSON = [
  '',
  ' ',
  '{',
  '}',
  '[',
  '{"a":}',
  '{"a":1,}',
  "{'a':1}",
  '{"a":1}}',
  '{"a":1} trailing',
  'undefined',
  'NaN',
  '{"a":NaN}',
  '\uFEFF{}',
  '{"a":"\\u00"}',
  '{"a":"\\x41"}',
  '{"a":"\ud800"}',
  '{"a":"\\ud800"}',
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  '\u0000',
  '{"a":"b"\u0000}',
  '1'.repeat(5000),
  '-',
  '[1,2',
  '"unterminated',
]

const WRONG_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/zip',
  'application/octet-stream',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/jsonx',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  '*/*',
  ';;;',
  '',
]

const BAD_AUTHORIZATION = [
  'Bearer',
  'Bearer ',
  'Bearer undefined',
  'Bearer null',
  'Bearer x.y.z',
  'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9.',
  'Basic YWRtaW46YWRtaW4=',
  `Bearer ${'a'.repeat(20_000)}`,
  'Bearer a b',
  'bearer\u0000x',
]

/** `depth` nested arrays or objects around a value, as JSON text (no recursion to build it). */
function nestedJson(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array'
    ? `${'['.repeat(depth)}1${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
}

/** Wrong-typed replacements for a JSON field. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.constant({}),
  fc.constant([]),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
  fc.string(),
  fc.constant(-1),
  fc.constant(Number.MAX_SAFE_INTEGER),
  fc.constant(1e308),
)

const weirdString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\u202e\u200b\ufeff',
    '\ud800',
    '../../etc/passwd',
    '%00',
    "'; drop table nodes; --",
    '%_',
    '\\',
    ' ',
  ),
)

/** What a mutation changes of the baseline request. */
interface Draft {
  path: Record<string, string>
  query: [string, string][]
  /** The JSON body value (before serialisation), `undefined` for none. */
  body: unknown
  /** The body as sent, when a mutation wrote it directly. */
  rawBody?: string | Buffer
  contentType?: string | null
  authorization?: string
}

type Mutation = (draft: Draft, op: FuzzOperation) => fc.Arbitrary<Draft>

const pick = <T>(items: readonly T[]): fc.Arbitrary<T> => fc.constantFrom(...items)

const MUTATIONS: Record<
  string,
  { weight: number; applies: (op: FuzzOperation) => boolean; mutate: Mutation }
> = {
  'path-param': {
    weight: 4,
    applies: (op) => op.parameters.some((p) => p.in === 'path'),
    mutate: (draft, op) =>
      fc
        .tuple(
          pick(op.parameters.filter((p) => p.in === 'path').map((p) => p.name)),
          fc.oneof(
            pick(PATH_ATTACKS),
            weirdString.map((text) => encode(text)),
            fc
              .string({ maxLength: 30 })
              .map(
                (text) =>
                  `${draft.path[Object.keys(draft.path)[0]] ?? ''}${text.replace(/[/?#]/g, '')}`,
              ),
          ),
        )
        .map(([name, value]) => ({ ...draft, path: { ...draft.path, [name]: value } })),
  },
  'query-param': {
    weight: 3,
    applies: (op) => op.parameters.some((p) => p.in === 'query'),
    mutate: (draft, op) =>
      fc
        .tuple(
          pick(op.parameters.filter((p) => p.in === 'query').map((p) => p.name)),
          fc.oneof(
            pick(QUERY_ATTACKS).map((value) => [value]),
            fc.array(pick(QUERY_ATTACKS), { minLength: 2, maxLength: 4 }),
            weirdString.map((text) => [encode(text)]),
          ),
          fc.constantFrom('', '[]', '[0]', '[a]', '.x'),
        )
        .map(([name, values, suffix]) => ({
          ...draft,
          query: [
            ...draft.query.filter(([key]) => key !== name),
            ...values.map((value): [string, string] => [`${name}${suffix}`, value]),
          ],
        })),
  },
  'query-extra': {
    weight: 1,
    applies: () => true,
    mutate: (draft) =>
      fc
        .array(
          fc.tuple(
            fc.oneof(
              pick(['__proto__', 'constructor', '__proto__[isAdmin]', 'a[b][c]', '', '%00']),
              fc.string({ maxLength: 10 }).map((text) => encode(text)),
            ),
            pick(QUERY_ATTACKS),
          ),
          { minLength: 1, maxLength: 3 },
        )
        .map((extra) => ({ ...draft, query: [...draft.query, ...extra] })),
  },
  'body-wrong-type': {
    weight: 4,
    applies: (op) => op.jsonBody !== undefined,
    mutate: (draft) =>
      fc
        .tuple(pick(pathsIn(draft.body)), wrongValue)
        .map(([path, value]) => ({ ...draft, body: replaceAt(draft.body, path, value) })),
  },
  'body-missing-field': {
    weight: 1,
    applies: (op) => op.jsonBody !== undefined,
    mutate: (draft) => {
      const paths = pathsIn(draft.body).filter((path) => path.length > 0)
      if (paths.length === 0) return fc.constant({ ...draft, body: {} })
      return pick(paths).map((path) => ({ ...draft, body: replaceAt(draft.body, path, undefined) }))
    },
  },
  'body-huge-string': {
    weight: 2,
    applies: (op) => op.jsonBody !== undefined,
    mutate: (draft, op) =>
      fc
        .tuple(
          pick(pathsIn(draft.body)),
          pick([201, 1001, 5000, 60_000, 100_000, op.bodyLimitBytes + 1, 2 * 1024 * 1024]),
          pick(['x', 'é', '😀', '\\', '"']),
        )
        .map(([path, length, unit]) => ({
          ...draft,
          body: replaceAt(draft.body, path, unit.repeat(Math.ceil(length / unit.length))),
        })),
  },
  'body-nul-or-unicode': {
    weight: 2,
    applies: (op) => op.jsonBody !== undefined,
    mutate: (draft) =>
      fc
        .tuple(pick(pathsIn(draft.body)), weirdString, fc.boolean())
        .map(([path, text, asKey]) =>
          asKey && path.length > 0
            ? { ...draft, body: replaceAt(draft.body, path.slice(0, -1), { [text]: 'x' }) }
            : { ...draft, body: replaceAt(draft.body, path, text) },
        ),
  },
  'body-deep-nesting': {
    weight: 1,
    applies: (op) => op.jsonBody !== undefined,
    mutate: (draft) =>
      fc
        .tuple(
          pick([100, 1000, 5000, 20_000, 100_000]),
          pick(['array', 'object'] as const),
          fc.boolean(),
        )
        .map(([depth, kind, whole]) => {
          const nested = nestedJson(depth, kind)
          if (whole || !isRecord(draft.body)) return { ...draft, rawBody: nested }
          const [first] = Object.keys(draft.body)
          // The nesting inside a field: the body's JSON with that field's value swapped in.
          const text = JSON.stringify({ ...draft.body, [first ?? 'a']: '\u0001NESTED\u0001' })
          return { ...draft, rawBody: text.replace('"\\u0001NESTED\\u0001"', nested) }
        }),
  },
  'body-invalid-json': {
    weight: 2,
    applies: (op) => op.jsonBody !== undefined,
    mutate: (draft) =>
      fc
        .oneof(
          pick(INVALID_JSON),
          fc.string({ unit: 'binary', maxLength: 50 }),
          fc.constant(JSON.stringify(draft.body ?? {}).slice(0, -1)),
        )
        .map((rawBody) => ({ ...draft, rawBody })),
  },
  'body-shape': {
    weight: 1,
    applies: (op) => op.jsonBody !== undefined,
    mutate: (draft) =>
      pick<unknown>([null, [], [draft.body], 'text', 0, true, {}, [{}]]).map((body) => ({
        ...draft,
        rawBody: JSON.stringify(body),
      })),
  },
  'body-extra-fields': {
    weight: 1,
    applies: (op) => op.jsonBody !== undefined,
    mutate: (draft) =>
      fc
        .dictionary(
          fc.oneof(
            pick(['__proto__', 'constructor', 'prototype', 'isAdmin', 'id', '']),
            fc.string(),
          ),
          wrongValue,
          { minKeys: 1, maxKeys: 3 },
        )
        .map((extra) => {
          const base = isRecord(draft.body) ? JSON.stringify(draft.body).slice(1, -1) : ''
          const more = Object.entries(extra)
            .map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`)
            .join(',')
          return { ...draft, rawBody: `{${[base, more].filter(Boolean).join(',')}}` }
        }),
  },
  'content-type': {
    weight: 2,
    applies: (op) => op.requestContentTypes.length > 0,
    mutate: (draft) =>
      fc
        .oneof(pick(WRONG_CONTENT_TYPES), fc.constant(null))
        .map((contentType) => ({ ...draft, contentType })),
  },
  'body-on-bodyless': {
    weight: 1,
    applies: (op) => op.requestContentTypes.length === 0,
    mutate: (draft) =>
      fc
        .tuple(
          pick(['{}', '{"a":1}', '{', 'x'.repeat(100_000), nestedJson(1000, 'array')]),
          fc.oneof(pick(WRONG_CONTENT_TYPES), fc.constant('application/json'), fc.constant(null)),
        )
        .map(([rawBody, contentType]) => ({ ...draft, rawBody, contentType })),
  },
  'archive-body': {
    weight: 3,
    applies: (op) => op.requestContentTypes.includes('application/zip'),
    mutate: (draft) =>
      fc
        .oneof(
          fc.uint8Array({ maxLength: 2000 }).map((bytes) => Buffer.from(bytes)),
          fc
            .uint8Array({ maxLength: 500 })
            .map((bytes) => Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.from(bytes)])),
          // An end-of-central-directory record claiming entries that are not there.
          fc.constant(Buffer.from('504b0506000000000100010000000000ffffff7f0000', 'hex')),
          fc.constant(Buffer.alloc(0)),
        )
        .map((rawBody) => ({ ...draft, rawBody, contentType: 'application/zip' })),
  },
  authorization: {
    weight: 1,
    applies: (op) => op.access !== 'public',
    mutate: (draft) =>
      pick(BAD_AUTHORIZATION).map((authorization) => ({ ...draft, authorization })),
  },
}

function encodeQuery(name: string, value: unknown): [string, string][] {
  const values = Array.isArray(value) ? value : [value]
  return values
    .filter((item) => item !== undefined && item !== null)
    .map((item) => [
      encode(name),
      encode(typeof item === 'object' ? JSON.stringify(item) : String(item)),
    ])
}

/** The baseline request of an operation: real targets where known, sampled values otherwise. */
function baseline(
  document: OpenApiDocument,
  op: FuzzOperation,
  targets: FuzzTargets,
): fc.Arbitrary<Draft> {
  const pathParams = op.parameters.filter((p) => p.in === 'path')
  const queryParams = op.parameters.filter((p) => p.in === 'query')
  const pathArbs = pathParams.map((p) => {
    const sampled = String(sampleOf(document, p.schema, 'x'))
    const known = targets.path[p.name] ?? []
    return pick([...known, ...known, sampled]).map((value) => [p.name, encode(value)] as const)
  })
  const queryArbs = queryParams.map((p) =>
    fc
      .boolean()
      .map((include) =>
        include || p.required ? encodeQuery(p.name, sampleOf(document, p.schema, '1')) : [],
      ),
  )
  const sampledBody = op.jsonBody ? sampleOf(document, op.jsonBody, {}) : undefined
  const body =
    sampledBody !== undefined && isRecord(sampledBody)
      ? { ...sampledBody, ...targets.body[op.operationId] }
      : sampledBody
  return fc.tuple(fc.tuple(...pathArbs), fc.tuple(...queryArbs)).map(([path, query]) => ({
    path: Object.fromEntries(path),
    query: query.flat(),
    body,
  }))
}

function toRequest(
  op: FuzzOperation,
  draft: Draft,
  mutation: string,
  role: Role,
  tokens: Record<Role, string | undefined>,
): FuzzRequest {
  const path = op.path.replace(/\{([^}]+)\}/g, (_match, name: string) => draft.path[name] ?? 'x')
  const search = draft.query.map(([key, value]) => `${key}=${value}`).join('&')
  const headers: Record<string, string> = {}
  const token = tokens[role]
  if (draft.authorization !== undefined) headers.authorization = draft.authorization
  else if (token) headers.authorization = `Bearer ${token}`
  let payload: string | Buffer | undefined = draft.rawBody
  if (payload === undefined && draft.body !== undefined) payload = JSON.stringify(draft.body)
  const declared = op.requestContentTypes[0]
  const contentType =
    draft.contentType === undefined
      ? payload !== undefined
        ? (declared ?? 'application/json')
        : undefined
      : draft.contentType
  if (contentType) headers['content-type'] = contentType
  return {
    operationId: op.operationId,
    mutation,
    role,
    method: op.method,
    url: search ? `${path}?${search}` : path,
    headers,
    payload,
  }
}

export interface GenerateOptions {
  seed: number
  count: number
  /** The bearer token of each role (anonymous: none). */
  tokens: Record<Role, string | undefined>
  targets: FuzzTargets
  /** How often an operation is picked relative to others (default 1). */
  weight?: (op: FuzzOperation) => number
}

/** `count` requests over every operation of the contract, deterministic for a seed. */
export function generateRequests(
  document: OpenApiDocument,
  options: GenerateOptions,
): FuzzRequest[] {
  const operations = fuzzOperations(document)
  const perOperation = operations.map((op) => {
    const mutations = Object.entries(MUTATIONS).filter(([, m]) => m.applies(op))
    const arbitrary = fc
      .tuple(baseline(document, op, options.targets), pick(ROLES))
      .chain(([draft, role]) =>
        fc
          .oneof(
            { weight: 3, arbitrary: fc.constant({ mutation: 'baseline', draft }) },
            ...mutations.map(([name, m]) => ({
              weight: m.weight,
              arbitrary: m.mutate(draft, op).map((mutated) => ({ mutation: name, draft: mutated })),
            })),
          )
          .map(({ mutation, draft: final }) =>
            toRequest(op, final, mutation, role, options.tokens),
          ),
      )
    return { weight: options.weight?.(op) ?? 1, arbitrary }
  })
  // Every operation at least once, in order, then weighted picks.
  const firstRound = perOperation.map(
    ({ arbitrary }, index) => fc.sample(arbitrary, { seed: options.seed + index, numRuns: 1 })[0],
  )
  const rest = fc.sample(fc.oneof(...perOperation), {
    seed: options.seed,
    numRuns: Math.max(0, options.count - firstRound.length),
  })
  return [...firstRound, ...rest]
}

/** The tables of the public schema (every table the API can write). */
export async function publicTables(db: Db): Promise<string[]> {
  const result = (await db.execute(
    sql`select table_name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  )) as unknown as { rows: { table_name: string }[] }
  return result.rows.map((row) => row.table_name)
}
