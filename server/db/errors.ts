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
