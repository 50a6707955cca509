// The registry API: every route comes from openapi.yml (fastify-openapi-glue), so requests are
// validated and responses serialised by the contract's schemas. Handlers live in their domain's
// routes.ts (server/<domain>/), collected in handlers.ts.
import { Stream } from 'node:stream'
import { AjvCompiler } from '@fastify/ajv-compiler'
import cors from '@fastify/cors'
import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifySchemaCompiler,
  type preParsingHookHandler,
} from 'fastify'
import openapiGlue from 'fastify-openapi-glue'
import { authenticate } from '../auth/authenticate'
import type { AppDeps } from './context'
import {
  CONTRACT_FORMATS,
  DEFAULT_BODY_LIMIT_KB,
  listOperations,
  loadContract,
  routeOperationId,
  type OpenApiDocument,
  type OperationInfo,
} from './contract'
import { isDatabaseBusy, isDatabaseUnavailable } from '../db/errors'
import { StorageUnavailableError } from '../storage'
import { badRequest, HttpError, notImplemented } from './errors'
import { handlerFor, type HandlerMap } from './operations'
import { handlers as defaultHandlers } from './handlers'
import { registerSecurityHeaders } from './security'
import { registerRateLimits } from './rate-limits'
import { publicAnswers } from './public-cache'
import { acceptsGzip, SerializedAnswer } from './serialized'
import { DownloadCounter } from '../nodes/download-counter'
import { OrderingCache } from '../nodes/ordering-cache'
import { NodeRowCache } from '../nodes/row-cache'
import { RowChangeLog } from '../nodes/row-changes'
import { nodeJsonVariant, SharedNodeJson } from '../nodes/shared-json'
import { listingPageVariant, SHARED_PAGE_MS, SharedListingPages } from '../nodes/shared-pages'
import { SearchTermIndex } from '../nodes/term-index'
import { ProxyLookupLog } from '../proxy/lookup-log'
import { countDownloads, type DownloadCount, type ListedNode } from '../nodes/queries'
import { registerRawBodyCapture } from '../releases/raw-body'
import { countCacheStats } from '../db/count-cache'
import { poolStatsByName } from '../db/client'
import {
  fastifyLoggerOptions,
  REQUEST_ID_FIELD,
  REQUEST_ID_HEADER,
  requestIdOf,
  withRequestId,
  type LogSettings,
  type LogSink,
} from '../system/logging'
import { RegistryMetrics } from '../system/metrics'

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${+(bytes / (1024 * 1024)).toFixed(1)} MB` : `${bytes} bytes`
}

/**
 * Request bodies are validated strictly: `{"id": true}` or `{"id": ["x"]}` is not a string.
 * Query strings arrive as text, so their numbers and booleans are converted, and a single
 * `statuses=A` becomes the array the contract declares.
 */
function strictBodyValidators(): FastifySchemaCompiler<unknown> {
  const compilers = AjvCompiler()
  // verbose: errors carry their schema, for `x-invalid-message` (validationMessage).
  const ajvOptions = {
    strict: false,
    removeAdditional: false,
    useDefaults: true,
    verbose: true,
    formats: CONTRACT_FORMATS,
  } as const
  const forBody = compilers({}, { customOptions: { ...ajvOptions, coerceTypes: false } })
  const forText = compilers({}, { customOptions: { ...ajvOptions, coerceTypes: 'array' } })
  return (route) => (route.httpPart === 'body' ? forBody : forText)(route)
}

/** 415 for a request body whose media type the operation does not declare, before it is read. */
function refuseUndeclaredMediaType(operation: OperationInfo): preParsingHookHandler {
  const declared = new Set(operation.requestContentTypes)
  return async (request, _reply, payload) => {
    const hasBody =
      request.headers['transfer-encoding'] !== undefined ||
      Number(request.headers['content-length'] ?? 0) > 0
    if (declared.size === 0 || !hasBody) return payload
    const mediaType = String(request.headers['content-type'] ?? '')
      .split(';')[0]
      .trim()
      .toLowerCase()
    if (declared.has(mediaType)) return payload
    throw new HttpError(
      415,
      'Unsupported Media Type',
      `Send the request body as ${[...declared].join(' or ')}${mediaType ? `, not ${mediaType}` : ' (the Content-Type header is missing)'}.`,
    )
  }
}

/** Removes `null` properties, at any depth, from parsed JSON (see `x-null-means-absent`). */
function dropNullProperties(value: unknown): void {
  if (typeof value !== 'object' || value === null) return
  for (const [key, item] of Object.entries(value)) {
    if (item === null && !Array.isArray(value)) Reflect.deleteProperty(value, key)
    else dropNullProperties(item)
  }
}

/**
 * Far deeper than any request of the contract. JSON nested deeper (e.g. 20,000 `[`s, which fit in
 * the body limit) is refused here, before anything walks it recursively and overflows the stack.
 */
const MAX_JSON_DEPTH = 64

/**
 * How long a browser may reuse a CORS preflight: a day. Chromium keeps one at most 2 hours and
 * Firefox a day, each for one address, so a repeat visit to a page makes no preflight.
 */
export const CORS_PREFLIGHT_MAX_AGE_S = 86_400

/** Methods named as they are in the request metrics; anything else is counted as OTHER. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/** Where the first string with a NUL character is in `value` ('' for the value itself). */
function nulPath(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\0') ? path : null
  if (typeof value !== 'object' || value === null) return null
  // Parsed data only: an archive upload's body is a stream.
  if (value instanceof Stream || ArrayBuffer.isView(value)) return null
  if (depth > MAX_JSON_DEPTH) {
    throw badRequest(`Invalid request body: it is nested more than ${MAX_JSON_DEPTH} levels deep.`)
  }
  for (const [key, item] of Object.entries(value)) {
    const found = nulPath(
      item,
      Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key,
      depth + 1,
    )
    if (found !== null) return found
  }
  return null
}

function refuseNulCharacters(request: FastifyRequest): void {
  const parts: [string, unknown][] = [
    ['path parameter', request.params],
    ['query parameter', request.query],
    ['request body field', request.body],
  ]
  for (const [where, value] of parts) {
    const path = nulPath(value)
    if (path !== null) {
      throw badRequest(
        `Invalid ${path ? `${where} '${path}'` : 'request body'}: it must not contain NUL characters (\\u0000).`,
      )
    }
  }
}

export interface BuildAppOptions {
  /** One JSON line per request (server/system/logging.ts); none when absent (tests). */
  log?: { settings: LogSettings; sink: LogSink }
  /** Replace the handler map (tests of the contract use this). */
  handlers?: HandlerMap
  contract?: OpenApiDocument
}

const LOCATION_NAMES: Record<string, string> = {
  querystring: 'query parameter',
  params: 'path parameter',
  body: 'request body field',
  headers: 'header',
}

/** Turns Ajv's error into a message that names the field, e.g. "query parameter 'limit' must be <= 100". */
function validationMessage(error: FastifyError): string {
  const first = error.validation?.[0]
  if (!first) return error.message
  const where = LOCATION_NAMES[error.validationContext ?? ''] ?? 'input'
  const missing = (first.params as { missingProperty?: string }).missingProperty
  const field = [first.instancePath.replace(/^\//, '').replace(/\//g, '.'), missing]
    .filter(Boolean)
    .join('.')
  const allowed = (first.params as { allowedValues?: unknown[] }).allowedValues
  // The contract words some rules for people (`x-invalid-message`, e.g. on SemVer).
  const parent = 'parentSchema' in first ? first.parentSchema : undefined
  const worded =
    typeof parent === 'object' && parent !== null && 'x-invalid-message' in parent
      ? parent['x-invalid-message']
      : undefined
  const detail =
    typeof worded === 'string'
      ? worded
      : allowed
        ? `must be one of: ${allowed.join(', ')}`
        : first.message
  if (missing) return `Missing ${where} '${field}'.`
  return field ? `Invalid ${where} '${field}': ${detail}.` : `Invalid ${where}: ${detail}.`
}

/** What a handler's answer sends: an answer serialized already (serialized.ts) as its JSON. */
function sent(reply: FastifyReply, answer: unknown): unknown {
  if (!(answer instanceof SerializedAnswer)) return answer
  reply.header('content-type', 'application/json; charset=utf-8')
  // Accept-Encoding is read only for an answer kept compressed (a stored page), not on every page.
  const { body, gzip } = answer.payload(
    answer.isGzip && acceptsGzip(reply.request.headers['accept-encoding']),
  )
  // The same address answers compressed or not by what the client accepts (CORS may vary it by
  // Origin already).
  const vary = reply.getHeader('vary')
  reply.header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding')
  if (gzip) reply.header('content-encoding', 'gzip')
  return body
}

export async function buildApp(
  deps: AppDeps,
  options: BuildAppOptions = {},
): Promise<FastifyInstance> {
  const contract = options.contract ?? loadContract()
  const handlers = options.handlers ?? defaultHandlers
  const operations = new Map(listOperations(contract).map((op) => [op.operationId, op]))

  const metrics = deps.metrics ?? new RegistryMetrics()
  const app = Fastify({
    logger: options.log ? fastifyLoggerOptions(options.log.settings, options.log.sink) : false,
    // One line per request, written when it is answered (below), instead of fastify's two.
    logController: new LogController({
      disableRequestLogging: true,
      requestIdLogLabel: REQUEST_ID_FIELD,
    }),
    genReqId: requestIdOf,
    // Each route gets its operation's limit (onRoute below); archives are streamed with their own.
    bodyLimit: DEFAULT_BODY_LIMIT_KB * 1024,
    // Path parameters are bounded by the contract's own maxLength (up to 300 for class names);
    // the router's default limit (100) would answer 414 before validation for valid values.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1000 },
    // Behind a load balancer (TRUST_PROXY) the client's address is what per-address limits count.
    trustProxy: deps.config.trustProxy,
  })
  app.setValidatorCompiler(strictBodyValidators())

  // The request id goes back to the client (and to support), and is on every line about it.
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id)
  })
  // Timed and logged by operation (the contract's operationId) and the route's template: never
  // the URL, whose path may hold a credential (an upload link) and whose query is unbounded.
  app.addHook('onResponse', async (request, reply) => {
    const operationId = routeOperationId(request.routeOptions.schema)
    const operation = operationId ?? (request.method === 'OPTIONS' ? 'preflight' : 'unmatched')
    const method = KNOWN_METHODS.has(request.method) ? request.method : 'OTHER'
    const status = reply.statusCode
    metrics.observeRequest(operation, method, status, reply.elapsedTime / 1000)
    const line = {
      operation,
      method,
      route: request.routeOptions.url,
      status,
      duration_ms: Math.round(reply.elapsedTime * 10) / 10,
    }
    if (status >= 500) request.log.error(line, 'request')
    else request.log.info(line, 'request')
  })

  // nosniff, no framing, a no-content CSP; no-store on answers to credentials (security.ts).
  // First, so that answers other plugins end early (CORS preflights) carry them too.
  await registerSecurityHeaders(app)
  // The website calls every method of the contract from the browser. Its no-cache request headers
  // make every call need a preflight, so browsers are told to keep one for as long as they will
  // (docs/ARCHITECTURE.md, "Page weight").
  await app.register(cors, {
    origin: deps.config.corsOrigins,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    credentials: false,
    maxAge: CORS_PREFLIGHT_MAX_AGE_S,
  })

  app.addHook('onRoute', (route) => {
    const operationId = routeOperationId(route.schema)
    const operation = operationId ? operations.get(operationId) : undefined
    if (!operation) return
    route.bodyLimit = operation.bodyLimitBytes
    route.preParsing = [...[route.preParsing ?? []].flat(), refuseUndeclaredMediaType(operation)]
    if (operation.nullMeansAbsent) {
      route.preValidation = [
        ...[route.preValidation ?? []].flat(),
        async (request: FastifyRequest) => void dropNullProperties(request.body),
      ]
    }
    // Archive uploads arrive as a stream that the handler reads (with its own size cap); the
    // contract's `format: binary` string schema describes that for clients, so it is not
    // validated. fastify-openapi-glue passes it as `{ content: { 'application/zip': { schema } } }`.
    const body = route.schema?.body as
      { content?: Record<string, { schema?: { format?: string } }> } | undefined
    const binary =
      body?.content !== undefined &&
      Object.values(body.content).every((media) => media.schema?.format === 'binary')
    if (binary && route.schema) delete route.schema.body
  })

  registerRawBodyCapture(app)

  // Archives are not read here: the upload handler checks its link first, then streams them.
  app.addContentTypeParser('application/zip', (_request, payload, done) => done(null, payload))

  // PostgreSQL cannot store NUL in text; it is never meaningful in our fields either.
  app.addHook('preValidation', async (request) => refuseNulCharacters(request))

  app.setErrorHandler((error: FastifyError, request, reply) => {
    // A refused upload is not read to its end: close the connection after answering, so the
    // client stops sending (it cannot send the next request on this connection anyway).
    if (!request.raw.complete) reply.header('connection', 'close')
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({ error: error.error, message: error.message })
    }
    if (error.validation) {
      return reply.status(400).send({ error: 'Bad Request', message: validationMessage(error) })
    }
    if (isDatabaseBusy(error)) {
      // A time limit of the database session (db/client.ts DatabaseTimeouts) ended the request.
      return reply.status(503).header('retry-after', '2').send({
        error: 'Service Unavailable',
        message: 'The database is busy right now. Try again in a few seconds.',
      })
    }
    if (error instanceof StorageUnavailableError) {
      // The archive store is down: nothing was recorded, the same request can be sent again.
      request.log.warn({ err: error }, 'archive store unavailable')
      return reply.status(503).header('retry-after', '10').send({
        error: 'Service Unavailable',
        message:
          'The archive store cannot be reached right now. Nothing was changed; try again in a few seconds.',
      })
    }
    if (isDatabaseUnavailable(error)) {
      // PostgreSQL restarts or dropped the connection: the pool reconnects for later requests.
      request.log.warn({ err: error }, 'database unavailable')
      return reply.status(503).header('retry-after', '5').send({
        error: 'Service Unavailable',
        message: 'The database cannot be reached right now. Try again in a few seconds.',
      })
    }
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500
    if (status >= 500) request.log.error(error)
    if (status === 413) {
      const limit = request.routeOptions.bodyLimit ?? DEFAULT_BODY_LIMIT_KB * 1024
      return reply.status(413).send({
        error: 'Payload Too Large',
        message: `The request body is too large: at most ${formatBytes(limit)} are accepted here.`,
      })
    }
    const message =
      status >= 500 ? 'Something went wrong on our side. Try again later.' : error.message
    return reply
      .status(status)
      .send({ error: status >= 500 ? 'Internal Server Error' : error.name, message })
  })

  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({
      error: 'Not Found',
      message: `No route for ${request.method} ${request.url.split('?')[0]}.`,
    }),
  )

  const publicCache = publicAnswers(deps.db, deps.config.publicCacheMs)
  const nodeRows = new NodeRowCache<ListedNode>(deps.config.nodeRowCache)
  const storedJson =
    deps.config.sharedNodeJsonMs > 0
      ? new SharedNodeJson(
          deps.db,
          nodeJsonVariant(deps.config.publicUrl),
          deps.config.sharedNodeJsonMs,
          (error) => app.log.warn({ err: error }, "nodes' JSON not stored; written again later"),
        )
      : undefined
  // Pages are shared only where nodes' JSON is: they are written from it. A page is stored at
  // most PUBLIC_CACHE_MS and SHARED_LISTING_PAGES_MS after the change-log read its rows rest on,
  // which must stay well within the SHARED_PAGE_MS it may answer for (shared-pages.ts).
  const sharedPages =
    storedJson &&
    deps.config.sharedListingPagesMs > 0 &&
    deps.config.publicCacheMs + deps.config.sharedListingPagesMs < SHARED_PAGE_MS / 2
      ? new SharedListingPages(
          deps.db,
          listingPageVariant(deps.config.publicUrl),
          deps.config.sharedListingPagesMs,
          (error) => app.log.warn({ err: error }, 'listing pages not stored; written again later'),
        )
      : undefined
  // Before the database closes.
  if (storedJson) app.addHook('onClose', () => storedJson.flush())
  if (sharedPages) app.addHook('onClose', () => sharedPages.flush())
  const nodeCaches = {
    orderings: new OrderingCache(deps.db, deps.config.orderingCacheMs),
    rows: nodeRows,
    changes: new RowChangeLog(deps.db, (read, lapsed) => nodeRows.applyChanges(read, lapsed)),
    storedJson,
    sharedPages,
    termIndex:
      deps.config.searchTermIndexMs > 0
        ? new SearchTermIndex(deps.db, deps.config.searchTermIndexMs, undefined, (error) =>
            app.log.warn({ err: error }, 'search term index not built; searches ask the database'),
          )
        : undefined,
  }
  // Anonymous callers' pages may rest on a read of the change log as old as a public answer may
  // be (docs/ARCHITECTURE.md, "Node row cache").
  const anonymousNodeCaches = { ...nodeCaches, staleMs: deps.config.publicCacheMs }
  // A change made here (a write, a pipeline job) shows to them at once, as public answers do.
  publicCache.onForget(() => {
    nodeCaches.changes.changed()
    sharedPages?.changed()
  })
  const writeDownloads = (counts: DownloadCount[]) => countDownloads(deps.db, counts)
  const downloads = new DownloadCounter(writeDownloads, deps.config.downloadFlushMs, (error) =>
    app.log.warn({ err: error }, 'download counts not written yet; kept for the next try'),
  )
  // Counts held in memory are written before the API stops.
  app.addHook('onClose', () => downloads.flush())
  metrics.watchBacklog('download', () => downloads.backlog())
  const proxyLog = new ProxyLookupLog(deps.db, deps.config.proxyLogFlushMs, (error) =>
    app.log.warn({ err: error }, 'provider lookups not recorded yet; kept for the next try'),
  )
  app.addHook('onClose', () => proxyLog.flush())
  metrics.watchBacklog('lookup', () => proxyLog.backlog())
  metrics.watchCache('public_answers', () => publicCache.stats)
  metrics.watchCache('orderings', () => nodeCaches.orderings.stats)
  metrics.watchCache('node_rows', () => nodeCaches.rows.stats)
  const { termIndex } = nodeCaches
  if (termIndex) metrics.watchCache('search_terms', () => termIndex.stats)
  metrics.watchCache('counts', () => countCacheStats(deps.db))
  metrics.watchPools(() => poolStatsByName(deps.db))
  metrics.watchJobs(deps.db)

  // Before the routes: it adds its checks to them (server/http/rate-limits.ts).
  const rateLimits = await registerRateLimits(app, deps.config, operations)

  await app.register(openapiGlue, {
    specification: contract,
    operationResolver: (operationId: string) => {
      const operation = operations.get(operationId)
      const handler = handlerFor(handlers, operationId)
      const serve = async (request: FastifyRequest, reply: FastifyReply) => {
        if (!handler || !operation) throw notImplemented(operationId)
        const caller = await authenticate(deps, request, operation.access, operation.acceptsApiKey)
        await rateLimits.checkCaller(operation, caller, reply)
        const context = {
          deps,
          caller,
          downloads,
          proxyLog,
          publicCache,
          nodeCaches: caller === null ? anonymousNodeCaches : nodeCaches,
          metrics,
        }
        if (operation.publicCache && caller === null) {
          return sent(
            reply,
            await publicCache.answer(`${operationId} ${request.url}`, () =>
              handler(request, reply, context),
            ),
          )
        }
        const answer = await handler(request, reply, context)
        // A change made here: public answers are recomputed, orderings checked afresh.
        if (operation.changesState) {
          publicCache.forget()
          nodeCaches.orderings.changed()
        }
        return sent(reply, answer)
      }
      // Run as part of the request: a job it queues carries its id (system/logging.ts).
      return (request: FastifyRequest, reply: FastifyReply) =>
        withRequestId(request.id, () => serve(request, reply))
    },
  })

  return app
}
