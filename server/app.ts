// The registry API: every route comes from openapi.yml (fastify-openapi-glue), so requests are
// validated and responses serialised by the contract's schemas. Handlers live in routes/<tag>.ts.
import cors from '@fastify/cors'
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify'
import openapiGlue from 'fastify-openapi-glue'
import { authenticate } from './auth/authenticate'
import type { AppDeps, HandlerMap } from './context'
import { listOperations, loadContract, type OpenApiDocument } from './contract'
import { HttpError, notImplemented } from './errors'
import { handlers as defaultHandlers } from './routes'

/** JSON bodies are small (the largest field is a 10 000-character changelog). */
const JSON_BODY_LIMIT = 1024 * 1024

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${+(bytes / (1024 * 1024)).toFixed(1)} MB` : `${bytes} bytes`
}

export interface BuildAppOptions {
  logger?: boolean
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
  const detail = allowed ? `must be one of: ${allowed.join(', ')}` : first.message
  if (missing) return `Missing ${where} '${field}'.`
  return field ? `Invalid ${where} '${field}': ${detail}.` : `Invalid ${where}: ${detail}.`
}

export async function buildApp(
  deps: AppDeps,
  options: BuildAppOptions = {},
): Promise<FastifyInstance> {
  const contract = options.contract ?? loadContract()
  const handlers = options.handlers ?? defaultHandlers
  const operations = new Map(listOperations(contract).map((op) => [op.operationId, op]))

  const app = Fastify({
    logger: options.logger ?? false,
    // Zip archives (publish → signedUrl PUT) have their own, larger limit below.
    bodyLimit: JSON_BODY_LIMIT,
    // Path parameters are bounded by the contract's own maxLength (up to 300 for class names);
    // the router's default limit (100) would answer 414 before validation for valid values.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1000 },
    ajv: { customOptions: { strict: false, coerceTypes: 'array', removeAdditional: false } },
  })

  // The website calls every method of the contract from the browser; preflights are cached 10 min.
  await app.register(cors, {
    origin: deps.config.corsOrigins,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    credentials: false,
    maxAge: 600,
  })

  // Archive uploads arrive as raw bytes (a Buffer); the contract's `format: binary` string schema
  // describes that for clients, but Ajv would reject a Buffer, so binary bodies skip validation.
  // fastify-openapi-glue passes such a body as `{ content: { 'application/zip': { schema } } }`.
  app.addHook('onRoute', (route) => {
    const body = route.schema?.body as
      { format?: string; content?: Record<string, { schema?: { format?: string } }> } | undefined
    const binary =
      body?.format === 'binary' ||
      (body?.content !== undefined &&
        Object.values(body.content).every((media) => media.schema?.format === 'binary'))
    if (binary && route.schema) delete route.schema.body
  })

  app.addContentTypeParser(
    ['application/zip', 'application/octet-stream'],
    { parseAs: 'buffer', bodyLimit: deps.config.maxArchiveBytes },
    (_request, body, done) => done(null, body),
  )

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({ error: error.error, message: error.message })
    }
    if (error.validation) {
      return reply.status(400).send({ error: 'Bad Request', message: validationMessage(error) })
    }
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500
    if (status >= 500) request.log.error(error)
    if (status === 413) {
      const isArchive = /zip|octet-stream/.test(String(request.headers['content-type']))
      const limit = isArchive ? deps.config.maxArchiveBytes : JSON_BODY_LIMIT
      return reply.status(413).send({
        error: 'Payload Too Large',
        message: `The ${isArchive ? 'archive' : 'request body'} is too large: at most ${formatBytes(limit)} are accepted.`,
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

  await app.register(openapiGlue, {
    specification: contract,
    operationResolver: (operationId: string) => {
      const operation = operations.get(operationId)
      const handler = handlers[operationId]
      return async (request, reply) => {
        if (!handler || !operation) throw notImplemented(operationId)
        const caller = await authenticate(deps, request, operation.access)
        return handler(request, reply, { deps, caller })
      }
    },
  })

  return app
}
