// The site's languages are written without Intl on public pages: every rule must give exactly
// what Intl gives (the server renders with the same functions, the browser hydrates with them).
import { formatDate, formatNumber } from '@/components/node/format'
import { LANGUAGES } from '@/src/lib/constants'
import { formatMediumDate, formatWholeNumber } from '@/src/lib/locale-format'

const LOCALES = LANGUAGES.map((language) => language.code)

const NUMBERS = [
  0,
  7,
  42,
  999,
  1000,
  1234,
  9999,
  10_000,
  12_345,
  99_999,
  100_000,
  123_456,
  1_000_000,
  1_234_567,
  98_765_432,
  3_000_000_000,
  Number.MAX_SAFE_INTEGER,
]

describe('formatWholeNumber', () => {
  it.each(LOCALES)('writes whole numbers as Intl does in %s', (locale) => {
    const intl = new Intl.NumberFormat(locale)
    for (const value of NUMBERS) expect(formatWholeNumber(value, locale)).toBe(intl.format(value))
  })

  it('leaves fractions, negative numbers and other languages to Intl', () => {
    expect(formatWholeNumber(1.5, 'en')).toBeUndefined()
    expect(formatWholeNumber(-3, 'en')).toBeUndefined()
    expect(formatWholeNumber(Number.NaN, 'en')).toBeUndefined()
    expect(formatWholeNumber(1234, 'de')).toBeUndefined()
    expect(formatNumber(1.5, 'en')).toBe('1.5')
    expect(formatNumber(1234, 'de')).toBe('1.234')
  })
})

describe('formatMediumDate', () => {
  // Every month, single- and double-digit days, the first and last moments of a UTC day.
  const dates = Array.from({ length: 12 }, (_, month) => [
    new Date(Date.UTC(2026, month, 5)),
    new Date(Date.UTC(1999, month, 28, 23, 59, 59)),
    new Date(Date.UTC(2031, month, 1, 0, 0, 0)),
  ]).flat()

  it.each(LOCALES)('writes every month as Intl’s medium UTC date in %s', (locale) => {
    const intl = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' })
    for (const date of dates) expect(formatMediumDate(date, locale)).toBe(intl.format(date))
  })

  it('leaves other languages and far years to Intl', () => {
    expect(formatMediumDate(new Date(Date.UTC(2026, 0, 5)), 'de')).toBeUndefined()
    expect(formatMediumDate(new Date(Date.UTC(12_000, 0, 5)), 'en')).toBeUndefined()
    expect(formatDate('2026-01-05T00:00:00Z', 'de')).toBe('05.01.2026')
  })
})
