// Logs: one JSON line per API request (fastify's pino, configured here) and JSON lines for the
// worker's jobs (a small logger of the same shape), both carrying the request id: an upload's
// pipeline job is logged with the id of the request that queued it. Nothing logged holds a
// credential: request lines name the operation and its route template, never the URL (upload
// links carry their token in the path), headers or bodies; known secret fields are redacted in
// anything else logged. See docs/ARCHITECTURE.md, "Observability".
import { AsyncLocalStorage } from 'node:async_hooks'
import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { hostname } from 'node:os'
import type { FastifyServerOptions } from 'fastify'

export const LOG_LEVELS = ['silent', 'fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]
/** `json`: one JSON object a line (production); `pretty`: the same, readable (development). */
export const LOG_FORMATS = ['json', 'pretty'] as const
export type LogFormat = (typeof LOG_FORMATS)[number]

export interface LogSettings {
  level: LogLevel
  format: LogFormat
}

/** Where log lines go: stdout, or a test's buffer. */
export interface LogSink {
  write(line: string): void
}

/** The header a request id comes in and goes back out in. */
export const REQUEST_ID_HEADER = 'x-request-id'
/** The field every line of a request or of its job carries it in. */
export const REQUEST_ID_FIELD = 'request_id'
/** An id from a client or a proxy is kept when it is this plain; otherwise a new one is made. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

/** The request's id: a sane incoming `X-Request-Id` (a proxy's, a client's), or a new UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers[REQUEST_ID_HEADER]
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID()
}

const requestScope = new AsyncLocalStorage<{ requestId: string }>()

/** Runs `work` as part of request `requestId`: jobs it queues carry that id. */
export function withRequestId<T>(requestId: string, work: () => T): T {
  return requestScope.run({ requestId }, work)
}

/** The id of the request being served here, if any. */
export function currentRequestId(): string | undefined {
  return requestScope.getStore()?.requestId
}

/**
 * Fields that hold credentials wherever they appear in something logged (a body, headers, an
 * error's details), at any depth: redacted (redactSecrets). Request lines never include such
 * objects; this is the net under that rule.
 */
export const SECRET_FIELDS: ReadonlySet<string> = new Set([
  'authorization',
  'cookie',
  'password',
  'token',
  'secret',
  'personal_access_token',
  'GH_TOKEN',
  'api_key',
  'uploadToken',
  'x-api-key',
  'x-revalidate-secret',
  'x-ci-token',
  'x-hub-signature-256',
  'set-cookie',
])
export const REDACTED = '[redacted]'
/** How deep redactSecrets looks (a logged object is a few levels deep; this bounds a cycle). */
const REDACT_DEPTH = 8

const isPlain = (value: object) => {
  const prototype: unknown = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

/**
 * `fields` with every SECRET_FIELDS field, in it and in its plain objects and arrays, replaced
 * by REDACTED: copied where something was replaced, otherwise the same object (the caller's is
 * never changed). Other objects (errors, buffers) are left to their serializers: an error is
 * logged by `loggedError`'s fields only. Applied to each line's fields and to the logger's own
 * bindings (a request's child logger binds its id alone). pino's own `redact` option re-read its
 * paths for every field of every line (a tenth of a millisecond a request: docs/ARCHITECTURE.md,
 * "Observability").
 */
export function redactSecrets(fields: Record<string, unknown>): Record<string, unknown> {
  return redactObject(fields, 0) ?? fields
}

/** A copy of `value` with its secrets redacted, or undefined when it holds none. */
function redactObject(value: object, depth: number): Record<string, unknown> | undefined {
  let copy: Record<string, unknown> | undefined
  for (const [key, field] of Object.entries(value)) {
    const redacted = SECRET_FIELDS.has(key) ? REDACTED : redactValue(field, depth + 1)
    if (redacted !== field) (copy ??= { ...value })[key] = redacted
  }
  return copy
}

function redactValue(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null || depth >= REDACT_DEPTH) return value
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined
    value.forEach((item: unknown, i) => {
      const redacted = redactValue(item, depth + 1)
      if (redacted !== item) (copy ??= [...value])[i] = redacted
    })
    return copy ?? value
  }
  return isPlain(value) ? (redactObject(value, depth) ?? value) : value
}

const LEVEL_VALUES: Record<LogLevel, number> = {
  silent: Number.POSITIVE_INFINITY,
  fatal: 60,
  error: 50,
  warn: 40,
  info: 30,
  debug: 20,
  trace: 10,
}

/** stdout, as JSON lines or made readable. */
export function logSink(format: LogFormat, out: LogSink = process.stdout): LogSink {
  if (format === 'json') return out
  return { write: (line) => out.write(prettyLine(line)) }
}

/** `12:00:01.250 INFO  request getNodes GET 200 3.1ms request_id=…`: for people in a terminal. */
export function prettyLine(line: string): string {
  let entry: Record<string, unknown>
  try {
    entry = JSON.parse(line) as Record<string, unknown>
  } catch {
    return line
  }
  const { time, level, msg, pid: _pid, hostname: _host, ...rest } = entry
  const clock = typeof time === 'string' ? time.slice(11, 23) : ''
  const fields = Object.entries(rest)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ')
  return `${clock} ${String(level).toUpperCase().padEnd(5)} ${String(msg ?? '')} ${fields}\n`
}

/** The API's fastify logger: pino, JSON lines with an ISO time and the level's name. */
export function fastifyLoggerOptions(
  settings: LogSettings,
  sink: LogSink,
): NonNullable<FastifyServerOptions['logger']> {
  return {
    level: settings.level,
    stream: sink,
    formatters: {
      level: (label: string) => ({ level: label }),
      log: (fields: Record<string, unknown>) => redactSecrets(fields),
      bindings: (fields: Record<string, unknown>) => redactSecrets(fields),
    },
    timestamp: () => `,"time":"${new Date().toISOString()}"`,
    // Whatever logs a request or an answer gets its method and route only (never its URL).
    serializers: {
      req: (request: { method?: string; routeOptions?: { url?: string } }) => ({
        method: request.method,
        route: request.routeOptions?.url,
      }),
      res: (reply: { statusCode?: number }) => ({ status: reply.statusCode }),
      err: loggedError,
    },
  }
}

/**
 * An error as logged: its type, message, code and stack frames, and its cause's. Not its other
 * properties (PostgreSQL's `detail` quotes the values of a failed row), nor the parameters of a
 * failed query that drizzle puts in its message (an upload link's token is one).
 */
export interface LoggedError {
  [field: string]: unknown
  type: string
  message: string
  stack: string
}

export function loggedError(error: unknown): LoggedError {
  if (!(error instanceof Error)) {
    return { type: typeof error, message: String(error).split('\nparams:')[0], stack: '' }
  }
  const code = (error as { code?: unknown }).code
  return {
    type: error.name,
    message: error.message.split('\nparams:')[0],
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    stack: (error.stack ?? '')
      .split('\n')
      .filter((line) => /^\s+at /.test(line))
      .join('\n'),
    ...(error.cause !== undefined ? { cause: loggedError(error.cause) } : {}),
  }
}

export type LogFields = Record<string, unknown>

/** What the worker logs with: the shape of pino's `info(fields, message)`, which fits it. */
export interface StructuredLog {
  error(fields: LogFields, message: string): void
  warn(fields: LogFields, message: string): void
  info(fields: LogFields, message: string): void
  debug(fields: LogFields, message: string): void
}

export const SILENT_LOG: StructuredLog = {
  error: () => undefined,
  warn: () => undefined,
  info: () => undefined,
  debug: () => undefined,
}

/**
 * A logger of the same lines as the API's (pino's fields), for the worker's jobs. Its callers
 * log chosen fields (job ids, outcomes, error messages), never requests or bodies.
 */
export function jsonLog(
  settings: LogSettings,
  sink: LogSink,
  bindings: LogFields = {},
): StructuredLog {
  const threshold = LEVEL_VALUES[settings.level]
  const base = { pid: process.pid, hostname: hostname(), ...bindings }
  const at =
    (level: Exclude<LogLevel, 'silent'>) =>
    (fields: LogFields, message: string): void => {
      if (LEVEL_VALUES[level] < threshold) return
      const line = {
        level,
        time: new Date().toISOString(),
        ...base,
        ...redactSecrets(fields),
        msg: message,
      }
      sink.write(`${JSON.stringify(line)}\n`)
    }
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') }
}
