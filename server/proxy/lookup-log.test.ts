// Provider lookups recorded in batches: nothing is written until the flush, one flush writes
// them all, and a failed write keeps them for the next.
import { eq } from 'drizzle-orm'
import { proxyLookups, users } from '../db/schema'
import { signUpUser, uniqueEmail } from '../test/auth'
import { createTestApp, type TestApp } from '../test/harness'
import { ProxyLookupLog, type NewProxyLookup } from './lookup-log'

jest.setTimeout(60_000)

describe('ProxyLookupLog', () => {
  let h: TestApp
  let userId: string

  beforeAll(async () => {
    h = await createTestApp({ nodes: 1, publishers: 1 })
    const user = await signUpUser(uniqueEmail('log'))
    await h.db.insert(users).values({ id: user.uid, email: user.email })
    userId = user.uid
  })

  afterAll(async () => {
    await h?.close()
  })

  const lookup = (path: string, user = userId): NewProxyLookup => ({
    userId: user,
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
        .where(eq(proxyLookups.userId, userId))
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
    // A user who does not exist: the batch is refused as a whole.
    await log.record(lookup('/c', 'nobody-at-all'))
    await log.flush()
    expect(errors).toHaveLength(1)
    // Kept, not dropped: the next flush tries it again.
    await log.flush()
    expect(errors).toHaveLength(2)
    expect(await written()).toEqual(['/a', '/b'])
  })
})
