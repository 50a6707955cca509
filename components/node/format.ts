// Locale-aware formatting shared by the node and publisher pages. Dates use UTC so the server's
// HTML and the browser's render agree.
export function formatDate(value: string | undefined, locale: string): string | undefined {
  if (!value) return undefined
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return undefined
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(date)
}

export function formatNumber(value: number | undefined, locale: string): string {
  return new Intl.NumberFormat(locale).format(value ?? 0)
}
