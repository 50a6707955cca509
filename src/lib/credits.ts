// Credit amounts. The API counts in integer micro-credits (1 credit = 1,000,000 micros); people
// type and read credits. Typed amounts are converted by their digits, never by multiplying a
// float (12.5 × 1e6 happens to be exact, 0.000001 × 3 is not), and shown through Intl in the
// reader's language ("$12.50"). Pure functions, no UI.

import { MICROS_PER_CREDIT } from './constants'

/** Decimals a typed amount may have: one micro-credit is the smallest amount. */
export const CREDIT_DECIMALS = 6
/**
 * The largest amount of one ledger event, in micros (openapi.yml's `NewCustomerEvent.amount_micros`,
 * ±1e15). Not imported from the generated rules so this module stays free of zod;
 * credits.test.ts pins it to them.
 */
export const MAX_AMOUNT_MICROS = 1_000_000_000_000_000

const MAX_AMOUNT_DIGITS = String(MAX_AMOUNT_MICROS)

/** Why a typed amount is refused. */
export type AmountProblem = 'required' | 'format' | 'precision' | 'zero' | 'negative' | 'tooLarge'

export type ParsedAmount = { ok: true; micros: number } | { ok: false; problem: AmountProblem }

export interface ParseCreditsOptions {
  /** A negative amount is allowed (an adjustment); otherwise only positive ones. */
  signed?: boolean
  /** A comma is read as the decimal point too (languages that write 12,5). */
  decimalComma?: boolean
}

const WITH_POINT = /^([+-]?)(\d*)(?:\.(\d*))?$/
const WITH_POINT_OR_COMMA = /^([+-]?)(\d*)(?:[.,](\d*))?$/

/**
 * The micro-credits of an amount typed in credits: digits with an optional sign and at most
 * CREDIT_DECIMALS decimals, not zero, positive unless `signed`, at most MAX_AMOUNT_MICROS.
 * No thousands separators, exponents or spaces inside: a money field takes no guesses.
 */
export function parseCredits(text: string, options: ParseCreditsOptions = {}): ParsedAmount {
  const value = text.trim()
  if (!value) return { ok: false, problem: 'required' }
  const match = (options.decimalComma ? WITH_POINT_OR_COMMA : WITH_POINT).exec(value)
  if (!match) return { ok: false, problem: 'format' }
  const [, sign, whole, fraction = ''] = match
  if (!whole && !fraction) return { ok: false, problem: 'format' }
  const decimals = fraction.replace(/0+$/, '')
  if (decimals.length > CREDIT_DECIMALS) return { ok: false, problem: 'precision' }
  const digits = `${whole}${decimals.padEnd(CREDIT_DECIMALS, '0')}`.replace(/^0+/, '')
  if (!digits) return { ok: false, problem: 'zero' }
  if (sign === '-' && !options.signed) return { ok: false, problem: 'negative' }
  // Compared as digit strings, so a thousand-digit amount is refused without losing precision.
  if (
    digits.length > MAX_AMOUNT_DIGITS.length ||
    (digits.length === MAX_AMOUNT_DIGITS.length && digits > MAX_AMOUNT_DIGITS)
  ) {
    return { ok: false, problem: 'tooLarge' }
  }
  // At most 16 digits (≤ 1e15 < 2^53): the number is exact.
  const micros = Number(digits)
  return { ok: true, micros: sign === '-' ? -micros : micros }
}

/** Whether `locale` writes decimals with a comma (fr, es, ru: "12,5"). */
export function usesDecimalComma(locale: string): boolean {
  try {
    const parts = new Intl.NumberFormat(locale).formatToParts(1.5)
    return parts.find((part) => part.type === 'decimal')?.value === ','
  } catch {
    return false
  }
}

/** A plain decimal numeral (what Intl formats exactly, digit by digit). */
function isDecimalNumeral(value: string): value is `${number}` {
  return /^-?\d+(\.\d+)?$/.test(value)
}

/**
 * An amount of micros as an exact decimal numeral of credits: 12500000 → "12.5",
 * -1 → "-0.000001". Undefined for a value that is not a safe integer.
 */
export function microsToCredits(micros: number): string | undefined {
  if (!Number.isSafeInteger(micros)) return undefined
  const digits = String(Math.abs(micros)).padStart(CREDIT_DECIMALS + 1, '0')
  const whole = digits.slice(0, -CREDIT_DECIMALS)
  const decimals = digits.slice(-CREDIT_DECIMALS).replace(/0+$/, '')
  const sign = micros < 0 ? '-' : ''
  return decimals ? `${sign}${whole}.${decimals}` : `${sign}${whole}`
}

export interface FormatCreditsOptions {
  /** The balance's currency (ISO code, any case); `usd` when absent. */
  currency?: string
  /** Show the sign of a non-zero amount ("+$12.50", "-$3.00"), as ledger movements are. */
  signed?: boolean
}

const currencyFormats = new Map<string, Intl.NumberFormat>()

function currencyFormat(locale: string, currency: string, signed: boolean): Intl.NumberFormat {
  const key = `${locale}:${currency}:${signed}`
  let format = currencyFormats.get(key)
  if (!format) {
    const shared: Intl.NumberFormatOptions = {
      minimumFractionDigits: 2,
      maximumFractionDigits: CREDIT_DECIMALS,
      signDisplay: signed ? 'exceptZero' : 'auto',
    }
    try {
      format = new Intl.NumberFormat(locale, { ...shared, style: 'currency', currency })
    } catch {
      // Not a well-formed currency code: the number alone.
      format = new Intl.NumberFormat(locale, shared)
    }
    currencyFormats.set(key, format)
  }
  return format
}

/**
 * Micros shown as credits in the reader's language: 12500000 → "$12.50" (en), "12,50 $US" (fr);
 * two decimals at least, six at most, so no micro-credit is rounded away.
 */
export function formatCredits(
  micros: number,
  locale: string,
  { currency = 'usd', signed = false }: FormatCreditsOptions = {},
): string {
  const format = currencyFormat(locale, currency.toUpperCase(), signed)
  const exact = microsToCredits(micros)
  return format.format(exact && isDecimalNumeral(exact) ? exact : micros / MICROS_PER_CREDIT)
}
