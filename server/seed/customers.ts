/**
 * Demo credit accounts: a few demo users with a ledger each (top-ups, usage, a refund, an
 * adjustment) and an API key, written through the same functions the API uses, so the balance is
 * the sum of each ledger. Amounts follow from the user's position: the same data every time.
 * The demo publisher account is a customer too, so signing in as it shows the account page filled.
 */
import type { Db } from '../db/client'
import { customerOfUser, openAccount, recordEvent, type NewEvent } from '../customers/accounts'
import { createApiKey } from '../customers/api-keys'
import { MICROS_PER_CREDIT } from '@/src/lib/constants'

/** How many demo users get a credit account. */
export const DEMO_CUSTOMERS = 5

export async function loadDemoCustomers(db: Db, userIds: readonly string[]): Promise<number> {
  const chosen = userIds.slice(0, DEMO_CUSTOMERS)
  for (const [i, userId] of chosen.entries()) {
    const { customer } = await openAccount(db, userId)
    const credit = (n: number) => Math.round(n * MICROS_PER_CREDIT)
    const events: NewEvent[] = [
      { type: 'credit_added', amountMicros: credit(10 * (i + 1)), description: 'Top-up' },
      { type: 'api_usage', amountMicros: -credit(1.25 + i), description: 'Kling video' },
      { type: 'api_usage', amountMicros: -credit(0.08), description: 'Stability image' },
      { type: 'refund', amountMicros: credit(0.08), description: 'Failed generation' },
    ]
    if (i % 2 === 1) {
      events.push({ type: 'adjustment', amountMicros: credit(2.5), description: 'Goodwill credit' })
    }
    for (const event of events) await recordEvent(db, customer.id, event)
    await createApiKey(db, customer.id, { name: 'ComfyUI desktop', description: 'Demo key' })
  }
  return chosen.length
}

/**
 * Opens the demo publisher account's credit account with a short ledger and a key, the first time
 * only: on later starts whatever the person did with it (a deleted key, a top-up) stays.
 */
export async function attachDemoCustomer(db: Db, userId: string): Promise<void> {
  if (await customerOfUser(db, userId)) return
  const { customer } = await openAccount(db, userId)
  const credit = (n: number) => Math.round(n * MICROS_PER_CREDIT)
  const events: NewEvent[] = [
    { type: 'credit_added', amountMicros: credit(20), description: 'Top-up' },
    { type: 'api_usage', amountMicros: -credit(1.5), description: 'Kling video' },
    { type: 'api_usage', amountMicros: -credit(0.08), description: 'Stability image' },
    { type: 'refund', amountMicros: credit(0.08), description: 'Failed generation' },
  ]
  for (const event of events) await recordEvent(db, customer.id, event)
  await createApiKey(db, customer.id, { name: 'ComfyUI desktop', description: 'Demo key' })
}
