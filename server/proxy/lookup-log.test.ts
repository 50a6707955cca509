// Provider lookups recorded in batches: nothing is written until the flush, one flush writes
// them all, and a failed write keeps them for the next.
import { eq } from 'drizzle-orm'
import { proxyLookups, users } from '../db/schema'
import { openAccount } from '../customers/accounts'
import { signUpUser, uniqueEmail } from '../test/auth'
import { createTestApp, type TestApp } from '../test/harness'
import { ProxyLookupLog, type NewProxyLookup } from './lookup-log'

jest.setTimeout(60_000)

describe('ProxyLookupLog', () => {
  let h: TestApp
  let customerId: string

  beforeAll(async () => {
    h = await createTestApp({ nodes: 1, publishers: 1 })
    const user = await signUpUser(uniqueEmail('log'))
    await h.db.insert(users).values({ id: user.uid, email: user.email })
    customerId = (await openAccount(h.db, user.uid)).customer.id
  })

  afterAll(async () => {
    await h?.close()
  })

  const lookup = (path: string, customer = customerId): NewProxyLookup => ({
    customerId: customer,
    provider: 'luma',
    path,
    status: 200,
    outcome: 'answered',
    latencyMs: 1.5,
  })
  const written = async () =>
    (
      await h.db
        .select({ path: proxyLookups.path })
        .from(proxyLookups)
        .where(eq(proxyLookups.customerId, customerId))
    )
      .map((row) => row.path)
      .sort()

  it('writes nothing until the flush, then every lookup at once', async () => {
    const log = new ProxyLookupLog(h.db, 60_000)
    await log.record(lookup('/a'))
    await log.record(lookup('/b'))
    expect(await written()).toEqual([])
    await log.flush()
    expect(await written()).toEqual(['/a', '/b'])
  })

  it('keeps a batch whose write failed for the next flush', async () => {
    const errors: unknown[] = []
    const log = new ProxyLookupLog(h.db, 60_000, (error) => errors.push(error))
    // An account that does not exist: the batch is refused as a whole.
    await log.record(lookup('/c', '00000000-0000-4000-8000-000000000000'))
    await log.flush()
    expect(errors).toHaveLength(1)
    // Kept, not dropped: the next flush tries it again.
    await log.flush()
    expect(errors).toHaveLength(2)
    expect(await written()).toEqual(['/a', '/b'])
  })
})
