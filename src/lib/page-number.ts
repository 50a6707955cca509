// Page numbers in addresses (`?page=`), the same for every public listing: a whole number from 1;
// anything else (`-1`, `abc`, `1.5`) is page 1. A page beyond the last is shown as the last page,
// and the address is replaced to say so (server rendering redirects, the browser replaces).

/**
 * The largest page the API accepts (openapi.yml's `Page` parameter). Not imported from the
 * generated rules, which would bring zod into public pages' JavaScript; page-number.test.ts pins
 * it to them.
 */
export const MAX_PAGE = 100_000

const DIGITS = /^\d+$/

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

/** The page an address's `page` value asks for (beyond MAX_PAGE: MAX_PAGE). */
export function pageFromQuery(value: string | string[] | undefined): number {
  const text = single(value)
  if (text === undefined || !DIGITS.test(text)) return 1
  const page = Number(text)
  return page >= 1 ? Math.min(page, MAX_PAGE) : 1
}

/** The page to show of a list with `totalPages` pages: the last one when `page` is beyond it. */
export function pageWithin(page: number, totalPages: number): number {
  return Math.max(1, Math.min(page, totalPages))
}

/**
 * Whether an address with this `page` value must be replaced to tell the truth about the page
 * shown: the value is malformed, repeated, or names another page (one beyond the last).
 */
export function pageNeedsNewAddress(value: string | string[] | undefined, shown: number): boolean {
  if (value === undefined) return false
  if (Array.isArray(value) && value.length !== 1) return true
  const text = single(value) ?? ''
  return !DIGITS.test(text) || Number(text) !== shown
}
