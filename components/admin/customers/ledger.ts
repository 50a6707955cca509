// Reading a ledger event's `params` (an open object in the contract): each value is checked for
// its type, never assumed. Pure functions, no UI.
import {
  CustomerEventType,
  type CustomerEvent,
  type CustomerEventParams,
} from '@/src/api/generated/model'
import type { Translate } from '@/src/lib/api-error'

function numberParam(params: CustomerEventParams | undefined, key: string): number | undefined {
  const value = params?.[key]
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

function stringParam(params: CustomerEventParams | undefined, key: string): string | undefined {
  const value = params?.[key]
  return typeof value === 'string' && value.trim() ? value : undefined
}

export interface LedgerEntry {
  /** What the event added to the balance (negative when it took some away). */
  amountMicros?: number
  /** The balance it left. */
  balanceMicros?: number
  description?: string
  apiKeyName?: string
}

export function ledgerEntry(event: CustomerEvent): LedgerEntry {
  return {
    amountMicros: numberParam(event.params, 'amount_micros'),
    balanceMicros: numberParam(event.params, 'balance_micros'),
    description: stringParam(event.params, 'description'),
    apiKeyName: stringParam(event.params, 'api_key_name'),
  }
}

const EVENT_TYPES: readonly string[] = Object.values(CustomerEventType)

/** The name of an event type in the reader's language (an unknown one as it is). */
export function eventTypeLabel(type: string, t: Translate): string {
  return EVENT_TYPES.includes(type) ? t(`admin.customers.types.${type}`) : type
}
