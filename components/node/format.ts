// Locale-aware formatting shared by the node, publisher and admin pages. Dates use UTC so the
// server's HTML and the browser's render agree. The public pages' dates and counts in the site's
// languages are written without Intl (src/lib/locale-format.ts): a browser's first Intl formatter
// costs more than the rest of hydration's formatting together. Intl formatters are built once per
// locale: constructing one costs far more than using it.
import { formatMediumDate, formatWholeNumber } from '@/src/lib/locale-format'

const dateFormats = new Map<string, Intl.DateTimeFormat>()
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>()
const numberFormats = new Map<string, Intl.NumberFormat>()
const byteFormats = new Map<string, Intl.NumberFormat>()

function cached<T>(formats: Map<string, T>, key: string, make: () => T): T {
  let format = formats.get(key)
  if (!format) {
    format = make()
    formats.set(key, format)
  }
  return format
}

export function formatDate(value: string | undefined, locale: string): string | undefined {
  if (!value) return undefined
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return undefined
  const written = formatMediumDate(date, locale)
  if (written !== undefined) return written
  return cached(
    dateFormats,
    locale,
    () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }),
  ).format(date)
}

export function formatNumber(value: number | undefined, locale: string): string {
  const written = formatWholeNumber(value ?? 0, locale)
  if (written !== undefined) return written
  return cached(numberFormats, locale, () => new Intl.NumberFormat(locale)).format(value ?? 0)
}

const DATE_TIME_OPTIONS: Record<'local' | 'utc', Intl.DateTimeFormatOptions> = {
  local: { dateStyle: 'medium', timeStyle: 'short' },
  utc: {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
    timeZoneName: 'short',
  },
}

/**
 * Date and time, for pages rendered in the browser only: in the reader's own zone (`local`), or
 * in UTC with the zone named (`utc`), so every reader sees the same moment. An unreadable value is
 * shown as it is.
 */
export function formatDateTime(value: string, locale: string, zone: 'local' | 'utc'): string {
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return value
  return cached(
    dateTimeFormats,
    `${zone}:${locale}`,
    () => new Intl.DateTimeFormat(locale, DATE_TIME_OPTIONS[zone]),
  ).format(date)
}

const BYTE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const

/** Bytes in the largest unit that keeps the number at least 1 ("1.4 MB"); Intl names the unit. */
export function formatBytes(bytes: number | undefined, locale: string): string {
  let value = Math.max(0, bytes ?? 0)
  let unit = 0
  while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000
    unit += 1
  }
  return cached(
    byteFormats,
    `${locale}:${unit}`,
    () =>
      new Intl.NumberFormat(locale, {
        style: 'unit',
        unit: BYTE_UNITS[unit],
        // "120 bytes" in full; the larger units short ("1.4 MB").
        unitDisplay: unit === 0 ? 'long' : 'short',
        maximumFractionDigits: unit === 0 ? 0 : 1,
      }),
  ).format(value)
}
