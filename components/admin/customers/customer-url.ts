// The addresses of the Customers section and the state they carry, so reload, back and links keep
// it: the list `/admin/customers?email=&page=`, a customer `/admin/customers/<id>?type=&page=`
// (the ledger's event type and page). Defaults are left out. Pure functions, no UI.
import { EventFilterParameter } from '@/src/api/generated/model'
import { pageFromQuery } from '@/src/lib/page-number'
import { ADMIN_PATHS } from '@/src/lib/paths'
import { paramOf } from '@/src/lib/route-params'
import type { UrlQuery } from '@/src/lib/search-state'

/** Customers a page of the list. */
export const CUSTOMERS_PAGE_SIZE = 25
/** Ledger events a page. */
export const LEDGER_PAGE_SIZE = 20
/** Provider lookups shown on a customer's page (the newest). */
export const RECENT_LOOKUPS = 10
/** The longest email searched for (an address is at most 320 characters). */
export const EMAIL_SEARCH_MAX_LENGTH = 320

export interface CustomerListState {
  /** Part of an email address (trimmed). */
  email: string
  page: number
}

export function readCustomerListState(query: UrlQuery): CustomerListState {
  return {
    email: paramOf(query.email).trim().slice(0, EMAIL_SEARCH_MAX_LENGTH),
    page: pageFromQuery(query.page),
  }
}

export function customerListHref({ email, page }: CustomerListState): string {
  const params = new URLSearchParams()
  if (email) params.set('email', email)
  if (page > 1) params.set('page', String(page))
  const search = params.toString()
  return search ? `${ADMIN_PATHS.customers}?${search}` : ADMIN_PATHS.customers
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Whether `value` can be a customer id (the contract's ids are uuids). */
export function isCustomerId(value: string): boolean {
  return UUID.test(value)
}

const EVENT_TYPES: readonly string[] = Object.values(EventFilterParameter)

export function isEventType(value: string): value is EventFilterParameter {
  return EVENT_TYPES.includes(value)
}

export interface LedgerState {
  /** Only events of this type. */
  type?: EventFilterParameter
  page: number
}

export function readLedgerState(query: UrlQuery): LedgerState {
  const type = paramOf(query.type)
  return { type: isEventType(type) ? type : undefined, page: pageFromQuery(query.page) }
}

/** `path` with the ledger's filter and page when they are not the defaults. */
export function ledgerHref(path: string, ledger: LedgerState = { page: 1 }): string {
  const params = new URLSearchParams()
  if (ledger.type) params.set('type', ledger.type)
  if (ledger.page > 1) params.set('page', String(ledger.page))
  const search = params.toString()
  return search ? `${path}?${search}` : path
}

/** A customer's page, with the ledger's filter and page when they are not the defaults. */
export function customerHref(customerId: string, ledger: LedgerState = { page: 1 }): string {
  return ledgerHref(`${ADMIN_PATHS.customers}/${encodeURIComponent(customerId)}`, ledger)
}
