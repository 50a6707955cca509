/**
 * The Auth emulator's ID tokens are unsigned (`alg: none`), so anyone can write one with any
 * claims. In emulator mode the API reads the email and its verification from the emulator's own
 * user record: a forged `email_verified` admin email grants nothing, and a uid the emulator does
 * not know is refused. (That emulator mode is reachable from loopback only is emulator-guard's.)
 */
import type { Schemas } from '../http/operations'
import { signUpUser, signUpVerifiedUser, TEST_PROJECT_ID, type TestUser } from '../test/auth'
import { snapshotState } from '../test/data'
import { createTestApp, expectErrorBody, get, send, type TestApp } from '../test/harness'

type Publisher = Schemas['Publisher']
type User = Schemas['User']

jest.setTimeout(60_000)

/** An unsigned token as the emulator makes them, with whatever claims a forger wants. */
function forgedToken(uid: string, claims: Record<string, unknown>): string {
  const now = Math.floor(Date.now() / 1000)
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const header = { alg: 'none', typ: 'JWT' }
  const payload = {
    iss: `https://securetoken.google.com/${TEST_PROJECT_ID}`,
    aud: TEST_PROJECT_ID,
    auth_time: now,
    user_id: uid,
    sub: uid,
    iat: now,
    exp: now + 3600,
    firebase: { identities: {}, sign_in_provider: 'password' },
    ...claims,
  }
  return `${encode(header)}.${encode(payload)}.`
}

describe('forged emulator tokens', () => {
  let h: TestApp
  let victim: TestUser
  let admin: TestUser

  beforeAll(async () => {
    h = await createTestApp({ nodes: 0, publishers: 1 })
    ;[victim, admin] = await Promise.all([signUpUser(), signUpVerifiedUser(h.adminEmail)])
  })

  afterAll(async () => {
    await h?.close()
  })

  it('a copied email_verified admin email on an existing uid does not make an admin', async () => {
    const token = forgedToken(victim.uid, { email: h.adminEmail, email_verified: true })
    const me = await get<User>(h.app, '/users', { authorization: `Bearer ${token}` })
    expect(me.status).toBe(200)
    // The emulator's record wins: the victim's own, unverified email, and no admin rights.
    expect(me.body).toMatchObject({ id: victim.uid, email: victim.email, isAdmin: false })
    const before = await snapshotState(h.db)
    expectErrorBody(
      await send<Publisher>(h.app, 'PUT', '/publishers/comfy-demo', {
        as: token,
        body: { name: 'Taken over' },
      }),
      403,
    )
    expect(await snapshotState(h.db)).toBe(before)
  })

  it('a token for a uid the emulator does not know is refused', async () => {
    const token = forgedToken('no-such-user-uid', { email: h.adminEmail, email_verified: true })
    expectErrorBody(await get(h.app, '/users', { authorization: `Bearer ${token}` }), 401)
  })

  it('a genuinely verified admin from the emulator is still an admin', async () => {
    const me = await get<User>(h.app, '/users', { authorization: `Bearer ${admin.idToken}` })
    expect(me.body).toMatchObject({ email: h.adminEmail, isAdmin: true })
  })
})
