import * as rules from '@/src/api/generated/rules.zod'
import { MAX_PAGE, pageFromQuery, pageNeedsNewAddress, pageWithin } from '@/src/lib/page-number'

describe('pageFromQuery', () => {
  it('reads a whole number from 1', () => {
    expect(pageFromQuery(undefined)).toBe(1)
    expect(pageFromQuery('1')).toBe(1)
    expect(pageFromQuery('42')).toBe(42)
    expect(pageFromQuery(['3', '5'])).toBe(3)
  })

  it.each(['-1', 'abc', '1.5', '0', '', ' 2', '2e3', '0x10', '+2'])(
    'treats %j as page 1',
    (value) => {
      expect(pageFromQuery(value)).toBe(1)
    },
  )

  it('caps a page beyond the API’s maximum at that maximum', () => {
    expect(pageFromQuery(String(MAX_PAGE))).toBe(MAX_PAGE)
    expect(pageFromQuery(String(MAX_PAGE + 1))).toBe(MAX_PAGE)
    expect(pageFromQuery('9'.repeat(15))).toBe(MAX_PAGE)
    expect(pageFromQuery('9'.repeat(400))).toBe(MAX_PAGE)
  })

  it('uses the contract’s maximum page (openapi.yml, every list operation)', () => {
    const maxima = Object.entries(rules)
      .filter(([name]) => name.endsWith('QueryPageMax'))
      .map(([, value]) => value)
    expect(maxima.length).toBeGreaterThan(3)
    expect(new Set(maxima)).toEqual(new Set([MAX_PAGE]))
  })
})

describe('pageWithin', () => {
  it('keeps a page within the list, else the last page, and page 1 of an empty list', () => {
    expect(pageWithin(2, 5)).toBe(2)
    expect(pageWithin(5, 5)).toBe(5)
    expect(pageWithin(99999, 5)).toBe(5)
    expect(pageWithin(3, 0)).toBe(1)
  })
})

describe('pageNeedsNewAddress', () => {
  it('is false when the address names the page shown, or no page', () => {
    expect(pageNeedsNewAddress(undefined, 1)).toBe(false)
    expect(pageNeedsNewAddress('1', 1)).toBe(false)
    expect(pageNeedsNewAddress('4', 4)).toBe(false)
    expect(pageNeedsNewAddress(['4'], 4)).toBe(false)
  })

  it('is true for another page, a malformed value or a repeated key', () => {
    expect(pageNeedsNewAddress('99999', 5)).toBe(true)
    expect(pageNeedsNewAddress('abc', 1)).toBe(true)
    expect(pageNeedsNewAddress('-1', 1)).toBe(true)
    expect(pageNeedsNewAddress('1.5', 1)).toBe(true)
    expect(pageNeedsNewAddress('0', 1)).toBe(true)
    expect(pageNeedsNewAddress(['2', '3'], 2)).toBe(true)
  })
})
