// Locale-aware formatting shared by the node and publisher pages. Dates use UTC so the server's
// HTML and the browser's render agree. Formatters are built once per locale: constructing an
// Intl formatter costs far more than using one, and a page formats dozens of values.

const dateFormats = new Map<string, Intl.DateTimeFormat>()
const numberFormats = new Map<string, Intl.NumberFormat>()

function cached<T>(formats: Map<string, T>, locale: string, make: () => T): T {
  let format = formats.get(locale)
  if (!format) {
    format = make()
    formats.set(locale, format)
  }
  return format
}

export function formatDate(value: string | undefined, locale: string): string | undefined {
  if (!value) return undefined
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return undefined
  return cached(
    dateFormats,
    locale,
    () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }),
  ).format(date)
}

export function formatNumber(value: number | undefined, locale: string): string {
  return cached(numberFormats, locale, () => new Intl.NumberFormat(locale)).format(value ?? 0)
}
