// `npm run registry -- credit EMAIL AMOUNT REASON`: an operator's top-up (a positive amount) or
// adjustment (a negative one), in credits, recorded in the user's ledger like an admin's.
import { eq, sql } from 'drizzle-orm'
import { parseCredits } from '@/src/lib/credits'
import type { Db } from '../db/client'
import { users, type CustomerEvent } from '../db/schema'
import { HttpError } from '../http/errors'
import { openAccount, recordEvent } from './accounts'

export const CREDIT_USAGE =
  'Usage: npm run registry -- credit EMAIL AMOUNT REASON (AMOUNT in credits, e.g. 12.50 or -3)'

/** Why the command refused; nothing was written. */
export class CreditRefused extends Error {}

export async function creditByEmail(
  db: Db,
  email: string,
  amount: string,
  reason: string,
): Promise<CustomerEvent> {
  const parsed = parseCredits(amount, { signed: true })
  if (!parsed.ok) {
    throw new CreditRefused(
      `AMOUNT '${amount}' is not an amount of credits (${parsed.problem}): a number such as 12.50 or -3, at most 6 decimals, not 0.`,
    )
  }
  if (!reason.trim()) throw new CreditRefused('REASON is required: say why, for the ledger.')
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
  if (!user) throw new CreditRefused(`No user with email ${email}: they must sign in once first.`)
  const { customer } = await openAccount(db, user.id)
  try {
    return await recordEvent(db, customer.id, {
      type: parsed.micros > 0 ? 'credit_added' : 'adjustment',
      amountMicros: parsed.micros,
      description: reason.trim(),
    })
  } catch (error) {
    // The balance would go below zero: the API's 409, said to the operator.
    if (error instanceof HttpError) throw new CreditRefused(error.message)
    throw error
  }
}
