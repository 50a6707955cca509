// Whole numbers and dates in the site's seven languages, written exactly as Intl writes them
// (`new Intl.NumberFormat(locale)`, `dateStyle: 'medium'` in UTC) but without Intl: a browser's
// first Intl formatter loads its locale data, which cost 110–200 ms of a mobile page's hydration
// (docs/ARCHITECTURE.md, "Page weight"). locale-format.test.ts compares every rule here
// with Intl. Other locales, and numbers that are not whole, are left to Intl (undefined here).

interface LocaleRules {
  /** The digit group separator. */
  group: string
  /** Fewest digits a number needs before it is grouped (Spanish writes 1234 but 12.345). */
  minDigitsToGroup: number
  /** The medium date of a UTC year, month (0–11) and day. */
  date: (year: number, month: number, day: number) => string
}

const pad2 = (value: number) => String(value).padStart(2, '0')

// prettier-ignore
const MONTHS = {
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  fr: ['janv.', 'févr.', 'mars', 'avr.', 'mai', 'juin', 'juil.', 'août', 'sept.', 'oct.', 'nov.', 'déc.'],
  es: ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sept', 'oct', 'nov', 'dic'],
  ru: ['янв.', 'февр.', 'мар.', 'апр.', 'мая', 'июн.', 'июл.', 'авг.', 'сент.', 'окт.', 'нояб.', 'дек.'],
} as const

const RULES: Record<string, LocaleRules> = {
  en: {
    group: ',',
    minDigitsToGroup: 4,
    date: (year, month, day) => `${MONTHS.en[month]} ${day}, ${year}`,
  },
  zh: {
    group: ',',
    minDigitsToGroup: 4,
    date: (year, month, day) => `${year}年${month + 1}月${day}日`,
  },
  ja: {
    group: ',',
    minDigitsToGroup: 4,
    date: (year, month, day) => `${year}/${pad2(month + 1)}/${pad2(day)}`,
  },
  fr: {
    group: '\u202f',
    minDigitsToGroup: 4,
    date: (year, month, day) => `${day} ${MONTHS.fr[month]} ${year}`,
  },
  es: {
    group: '.',
    minDigitsToGroup: 5,
    date: (year, month, day) => `${day} ${MONTHS.es[month]} ${year}`,
  },
  ko: {
    group: ',',
    minDigitsToGroup: 4,
    date: (year, month, day) => `${year}. ${month + 1}. ${day}.`,
  },
  ru: {
    group: '\u00a0',
    minDigitsToGroup: 4,
    date: (year, month, day) => `${day} ${MONTHS.ru[month]} ${year} г.`,
  },
}

/** A whole number from 0 up as Intl writes it in `locale`; undefined when Intl must do it. */
export function formatWholeNumber(value: number, locale: string): string | undefined {
  const rules = RULES[locale]
  if (!rules || !Number.isSafeInteger(value) || value < 0) return undefined
  const digits = String(value)
  if (digits.length < rules.minDigitsToGroup) return digits
  return digits.replace(/\B(?=(\d{3})+$)/g, rules.group)
}

/** A date (its UTC day) as Intl's medium date style writes it; undefined when Intl must do it. */
export function formatMediumDate(date: Date, locale: string): string | undefined {
  const rules = RULES[locale]
  const year = date.getUTCFullYear()
  // Intl writes years before 1000 or after 9999 differently in some languages.
  if (!rules || year < 1000 || year > 9999) return undefined
  return rules.date(year, date.getUTCMonth(), date.getUTCDate())
}
