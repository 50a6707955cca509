import {
  recordCustomerEventBodyAmountMicrosMax,
  recordCustomerEventBodyAmountMicrosMin,
} from '@/src/api/generated/rules.zod'
import {
  formatCredits,
  MAX_AMOUNT_MICROS,
  microsToCredits,
  parseCredits,
  usesDecimalComma,
} from '@/src/lib/credits'

describe('parseCredits', () => {
  it.each([
    ['12.5', 12_500_000],
    ['12.50', 12_500_000],
    ['1', 1_000_000],
    ['0.000001', 1],
    ['0.1', 100_000],
    ['0.3', 300_000],
    ['1.1', 1_100_000],
    ['.5', 500_000],
    ['7.', 7_000_000],
    ['  3.25  ', 3_250_000],
    ['+4', 4_000_000],
    ['0012.000100', 12_000_100],
    ['1.1000000', 1_100_000],
    ['123456.789012', 123_456_789_012],
    ['1000000000', MAX_AMOUNT_MICROS],
    ['999999999.999999', MAX_AMOUNT_MICROS - 1],
  ])('converts %p exactly to %p micros', (text, micros) => {
    expect(parseCredits(text)).toEqual({ ok: true, micros })
  })

  it('reads a sign only for adjustments', () => {
    expect(parseCredits('-5')).toEqual({ ok: false, problem: 'negative' })
    expect(parseCredits('-5', { signed: true })).toEqual({ ok: true, micros: -5_000_000 })
    expect(parseCredits('-0.000001', { signed: true })).toEqual({ ok: true, micros: -1 })
    expect(parseCredits('-1000000000', { signed: true })).toEqual({
      ok: true,
      micros: -MAX_AMOUNT_MICROS,
    })
  })

  it.each([
    ['', 'required'],
    ['   ', 'required'],
    ['abc', 'format'],
    ['12a', 'format'],
    ['1e6', 'format'],
    ['1,000.5', 'format'],
    ['12,5', 'format'],
    ['1 000', 'format'],
    ['--1', 'format'],
    ['.', 'format'],
    ['-', 'format'],
    ['0x10', 'format'],
    ['Infinity', 'format'],
    ['NaN', 'format'],
    ['١٢', 'format'],
    ['1.1234567', 'precision'],
    ['0.0000001', 'precision'],
    ['0', 'zero'],
    ['0.000', 'zero'],
    ['-0', 'zero'],
    ['1000000000.000001', 'tooLarge'],
    ['1000000001', 'tooLarge'],
    ['99999999999999999999999999', 'tooLarge'],
  ])('refuses %p (%s)', (text, problem) => {
    expect(parseCredits(text)).toEqual({ ok: false, problem })
  })

  it('refuses amounts beyond the limit either way', () => {
    expect(parseCredits('-1000000000.000001', { signed: true })).toEqual({
      ok: false,
      problem: 'tooLarge',
    })
  })

  it('reads a decimal comma only when asked', () => {
    expect(parseCredits('12,5', { decimalComma: true })).toEqual({ ok: true, micros: 12_500_000 })
    expect(parseCredits('12.5', { decimalComma: true })).toEqual({ ok: true, micros: 12_500_000 })
    expect(parseCredits('1,000.5', { decimalComma: true })).toEqual({
      ok: false,
      problem: 'format',
    })
  })

  it("keeps to the contract's limits", () => {
    expect(MAX_AMOUNT_MICROS).toBe(recordCustomerEventBodyAmountMicrosMax)
    expect(-MAX_AMOUNT_MICROS).toBe(recordCustomerEventBodyAmountMicrosMin)
  })
})

describe('usesDecimalComma', () => {
  it.each([
    ['en', false],
    ['ja', false],
    ['zh', false],
    ['ko', false],
    ['fr', true],
    ['es', true],
    ['ru', true],
  ])('%s: %p', (locale, comma) => {
    expect(usesDecimalComma(locale)).toBe(comma)
  })
})

describe('microsToCredits', () => {
  it.each([
    [12_500_000, '12.5'],
    [1, '0.000001'],
    [-1, '-0.000001'],
    [0, '0'],
    [MAX_AMOUNT_MICROS, '1000000000'],
    [9_007_199_254_740_991, '9007199254.740991'],
  ])('%p → %p', (micros, credits) => {
    expect(microsToCredits(micros)).toBe(credits)
  })

  it('has no exact form for a value that is not a safe integer', () => {
    expect(microsToCredits(1.5)).toBeUndefined()
    expect(microsToCredits(Number.MAX_SAFE_INTEGER + 2)).toBeUndefined()
  })
})

describe('formatCredits', () => {
  // Intl puts narrow no-break spaces in some languages; compare with plain spaces.
  const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ')

  it('shows credits in the currency, two decimals at least, six at most', () => {
    expect(formatCredits(12_500_000, 'en')).toBe('$12.50')
    expect(formatCredits(0, 'en')).toBe('$0.00')
    expect(formatCredits(1, 'en')).toBe('$0.000001')
    expect(formatCredits(1_234_567_891_234, 'en')).toBe('$1,234,567.891234')
    expect(formatCredits(9_007_199_254_740_991, 'en')).toBe('$9,007,199,254.740991')
    expect(formatCredits(-3_000_000, 'en')).toBe('-$3.00')
  })

  it('follows the language', () => {
    expect(plain(formatCredits(12_500_000, 'fr'))).toBe('12,50 $US')
    expect(plain(formatCredits(12_500_000, 'ru'))).toBe('12,50 $')
    expect(formatCredits(12_500_000, 'zh')).toBe('US$12.50')
  })

  it('signs ledger movements', () => {
    expect(formatCredits(12_500_000, 'en', { signed: true })).toBe('+$12.50')
    expect(formatCredits(-1, 'en', { signed: true })).toBe('-$0.000001')
    expect(formatCredits(0, 'en', { signed: true })).toBe('$0.00')
  })

  it('uses the balance currency, and a bare number for a malformed code', () => {
    expect(formatCredits(1_000_000, 'en', { currency: 'EUR' })).toBe('€1.00')
    expect(formatCredits(1_000_000, 'en', { currency: 'not a code' })).toBe('1.00')
  })
})
