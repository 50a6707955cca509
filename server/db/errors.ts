// PostgreSQL errors as both drivers report them (node-postgres and PGlite set `code` and
// `constraint`; drizzle wraps them in a DrizzleQueryError whose `cause` is the original).

interface DatabaseErrorFields {
  code?: unknown
  constraint?: unknown
}

/** The driver's error behind `error`, if it is one (has a SQLSTATE `code`). */
export function databaseError(error: unknown): DatabaseErrorFields | null {
  for (let current = error, depth = 0; depth < 5; depth++) {
    if (typeof current !== 'object' || current === null) return null
    const fields = current as DatabaseErrorFields & { cause?: unknown }
    if (typeof fields.code === 'string' && /^[0-9A-Z]{5}$/.test(fields.code)) return fields
    current = fields.cause
  }
  return null
}

/** True when `error` is a unique violation (SQLSTATE 23505) of the index or constraint `name`. */
export function isUniqueViolation(error: unknown, name: string): boolean {
  const found = databaseError(error)
  return found?.code === '23505' && found.constraint === name
}

/**
 * True when a time limit of the session stopped the query (statement or lock timeout, an idle
 * transaction ended) or no pooled connection became free in time (node-postgres says so only in
 * its message).
 */
export function isDatabaseBusy(error: unknown): boolean {
  const code = databaseError(error)?.code
  if (code === '57014' || code === '55P03' || code === '25P03') return true
  for (let current = error, depth = 0; depth < 5; depth++) {
    if (!(current instanceof Error)) return false
    if (/timeout exceeded when trying to connect/i.test(current.message)) return true
    current = current.cause
  }
  return false
}

/** Socket errors of a connection to the database server that cannot be reached or went away. */
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])

/** node-postgres reports a lost connection only in its messages. */
const CONNECTION_LOST_MESSAGE =
  /^Connection terminated|not queryable|Connection ended unexpectedly|timeout exceeded when trying to connect/i

/**
 * True when the database could not be reached or the connection was lost: refused or reset
 * sockets, a connection ended by the server (restart, `pg_terminate_backend`: 57P01, 57P02),
 * the server starting or shutting down (57P03), too many connections (53300), any connection
 * exception (class 08), or no connection in time (node-postgres' time-outs). The pool opens new
 * connections for later requests, so these pass once PostgreSQL is back.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = databaseError(error)?.code
  if (typeof code === 'string') {
    if (code.startsWith('08') || code === '53300' || /^57P0[123]$/.test(code)) return true
  }
  for (let current = error, depth = 0; depth < 5; depth++) {
    if (typeof current !== 'object' || current === null) return false
    const fields = current as { code?: unknown; message?: unknown; cause?: unknown }
    if (typeof fields.code === 'string' && CONNECTION_ERROR_CODES.has(fields.code)) return true
    if (typeof fields.message === 'string' && CONNECTION_LOST_MESSAGE.test(fields.message))
      return true
    current = fields.cause
  }
  return false
}
