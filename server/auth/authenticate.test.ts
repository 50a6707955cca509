// The users row follows the sign-in provider, but an ordinary call only reads it.
import { eq } from 'drizzle-orm'
import { users } from '../db/schema'
import { createTestDatabase, type TestDatabase } from '../db/test-db'
import { loadConfig } from '../config'
import { upsertCaller } from './authenticate'

jest.setTimeout(60_000)

describe('upsertCaller', () => {
  let database: TestDatabase
  const deps = () => ({ db: database.db, config: loadConfig({ ADMIN_EMAILS: 'boss@example.com' }) })
  const row = async (id: string) =>
    (await database.db.select().from(users).where(eq(users.id, id)))[0]

  beforeAll(async () => {
    database = await createTestDatabase()
  })

  afterAll(async () => {
    await database?.close()
  })

  it('creates the row on the first call and writes nothing while the profile is the same', async () => {
    const identity = { uid: 'u-1', email: 'ada@example.com', name: 'Ada', emailVerified: true }
    const first = await upsertCaller(deps(), identity)
    expect(first).toMatchObject({
      id: 'u-1',
      email: 'ada@example.com',
      name: 'Ada',
      isAdmin: false,
    })
    const written = (await row('u-1')).updatedAt
    await upsertCaller(deps(), identity)
    expect((await row('u-1')).updatedAt).toEqual(written)
  })

  it('follows a changed email or name from the provider', async () => {
    await upsertCaller(deps(), {
      uid: 'u-2',
      email: 'old@example.com',
      name: 'Old',
      emailVerified: true,
    })
    const renamed = await upsertCaller(deps(), {
      uid: 'u-2',
      email: 'new@example.com',
      name: 'New',
      emailVerified: true,
    })
    expect(renamed).toMatchObject({ email: 'new@example.com', name: 'New' })
    expect(await row('u-2')).toMatchObject({ email: 'new@example.com', name: 'New' })
  })

  it('makes admins of verified ADMIN_EMAILS only', async () => {
    const unverified = await upsertCaller(deps(), {
      uid: 'u-3',
      email: 'boss@example.com',
      name: 'Boss',
      emailVerified: false,
    })
    expect(unverified.isAdmin).toBe(false)
    const verified = await upsertCaller(deps(), {
      uid: 'u-3',
      email: 'boss@example.com',
      name: 'Boss',
      emailVerified: true,
    })
    expect(verified.isAdmin).toBe(true)
  })
})
