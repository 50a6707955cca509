// The operator's `credit` command: credits typed as decimals land in the ledger exactly, a
// negative amount is an adjustment, and every refusal leaves the database as it was.
import { eq } from 'drizzle-orm'
import { customers, users } from '../db/schema'
import { snapshotState } from '../test/data'
import { BACKENDS, createTestApp, type TestApp } from '../test/harness'
import { creditByEmail } from './credit-command'

jest.setTimeout(60_000)

describe.each(BACKENDS)('npm run registry -- credit on %s', (backend) => {
  let h: TestApp

  beforeAll(async () => {
    h = await createTestApp({ postgres: backend === 'postgres', nodes: 1, publishers: 1 })
    await h.db.insert(users).values({ id: 'credit-user', email: 'Ada@Example.test', name: 'Ada' })
  })

  afterAll(async () => {
    await h?.close()
  })

  const balance = async () => {
    const [row] = await h.db.select().from(customers).where(eq(customers.userId, 'credit-user'))
    return row?.balanceMicros
  }

  it('tops up by email (any case), opening the account, and adjusts with a negative amount', async () => {
    const topUp = await creditByEmail(h.db, 'ada@example.test', '12.5', 'Conference voucher')
    expect(topUp).toMatchObject({
      type: 'credit_added',
      amountMicros: 12_500_000,
      balanceMicros: 12_500_000,
      description: 'Conference voucher',
    })
    const adjusted = await creditByEmail(h.db, 'ADA@example.test', '-0.000001', 'Rounding')
    expect(adjusted).toMatchObject({ type: 'adjustment', balanceMicros: 12_499_999 })
    expect(await balance()).toBe(12_499_999)
  })

  it('refuses bad amounts, unknown users, a missing reason and overdrafts, changing nothing', async () => {
    const before = await snapshotState(h.db)
    for (const [email, amount, reason, message] of [
      ['ada@example.test', '1.1234567', 'x', /not an amount/],
      ['ada@example.test', 'ten', 'x', /not an amount/],
      ['ada@example.test', '0', 'x', /not an amount/],
      ['ada@example.test', '5', '  ', /REASON/],
      ['nobody@example.test', '5', 'x', /No user/],
      ['ada@example.test', '-100', 'Too much', /below zero/],
    ] as const) {
      await expect(creditByEmail(h.db, email, amount, reason)).rejects.toThrow(message)
    }
    expect(await snapshotState(h.db)).toBe(before)
    expect(await balance()).toBe(12_499_999)
  })
})
