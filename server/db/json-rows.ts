// A table's row read as one JSON object instead of one column per field. The driver then parses
// one JSON text per row (JSON.parse builds the object whole) where it would parse and map every
// column apart: for the node rows pages show (75 columns), a whole-catalogue walk's parsing and
// mapping went from 1.9 to 1.3 s of the API's CPU, its garbage collection from 2.6 to 2.2 s
// (docs/ARCHITECTURE.md, "Node row cache"). The fields are the schema's (schema.ts), with the
// values drizzle would give them.
import { sql, type Column, type SQL } from 'drizzle-orm'

type Columns = Record<string, Column>

/** A row of `columns` as drizzle selects it: each property's mapped type. */
type RowOf<T extends Columns> = { [K in keyof T]: T[K]['_']['data'] }

/**
 * Per column type: how its value is written in the JSON object, and how the parsed value becomes
 * drizzle's (undefined: as parsed). A type not listed is refused when the module loads.
 */
const JSON_FIELDS: Record<string, { cast?: string; decode?: (value: unknown) => unknown }> = {
  PgText: {},
  PgUUID: {},
  PgEnumColumn: {},
  PgBoolean: {},
  PgInteger: {},
  PgBigInt53: {},
  // NaN and the infinities are written as strings.
  PgDoublePrecision: { decode: Number },
  PgArray: {},
  PgJsonb: {},
  // Drizzle gives numerics as text (exact); JSON would give a number.
  PgNumeric: { cast: '::text' },
  PgTimestamp: { decode: (value) => new Date(value as string) },
}
/** Without a time zone, written with none: read as UTC, as drizzle does. */
const timestampWithoutZone = (value: unknown) => new Date(`${value as string}Z`)

/**
 * `columns`' row as one JSON object, decoded to what drizzle would select; null when
 * `presentWhen` is null (the row of a left join that found none, or a row not wanted).
 */
export function jsonRow<T extends Columns>(columns: T): SQL<RowOf<T>>
export function jsonRow<T extends Columns>(
  columns: T,
  presentWhen: Column | SQL,
): SQL<RowOf<T> | null>
export function jsonRow<T extends Columns>(
  columns: T,
  presentWhen?: Column | SQL,
): SQL<RowOf<T> | null> {
  const decoders: [string, (value: unknown) => unknown][] = []
  const pairs = Object.entries(columns).map(([key, column]) => {
    const field = JSON_FIELDS[column.columnType]
    if (!field) throw new Error(`jsonRow: no JSON form for ${column.columnType} (${key})`)
    const withoutZone =
      column.columnType === 'PgTimestamp' && !('withTimezone' in column && column.withTimezone)
    const decode = withoutZone ? timestampWithoutZone : field.decode
    if (decode) decoders.push([key, decode])
    // Property names are the schema's identifiers: written into the statement, not parameters.
    return sql`${sql.raw(`'${key.replace(/'/g, "''")}'`)}, ${column}${sql.raw(field.cast ?? '')}`
  })
  const object = sql`json_build_object(${sql.join(pairs, sql`, `)})`
  const selected = presentWhen
    ? sql`case when ${presentWhen} is null then null else ${object} end`
    : object
  return sql<RowOf<T> | null>`${selected}`.mapWith((value: unknown) => {
    if (value === null) return null
    const row = (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>
    for (const [key, decode] of decoders) if (row[key] !== null) row[key] = decode(row[key])
    return row as RowOf<T>
  })
}
