import { createHash } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Schemas } from '../http/operations'
import { personalAccessTokens } from '../db/schema'
import { TOKEN_PREFIX, verifyPersonalAccessToken } from './tokens'
import { signUpUser, signUpVerifiedUser, uniqueEmail, type TestUser } from '../test/auth'
import { addMember, snapshotState } from '../test/data'
import {
  BACKENDS,
  createTestApp,
  expectErrorBody,
  get,
  send,
  type JsonReply,
  type TestApp,
} from '../test/harness'

type PersonalAccessToken = Schemas['PersonalAccessToken']
type Publisher = Schemas['Publisher']

jest.setTimeout(60_000)

const DAY = 24 * 60 * 60 * 1000

describe.each(BACKENDS)('personal access tokens on %s', (backend) => {
  let h: TestApp
  let owner: TestUser
  let member: TestUser
  let admin: TestUser
  let publisherId: string
  let otherPublisherId: string

  beforeAll(async () => {
    h = await createTestApp({ postgres: backend === 'postgres' })
    ;[owner, member, admin] = await Promise.all([
      signUpUser(uniqueEmail('owner')),
      signUpUser(uniqueEmail('member')),
      signUpVerifiedUser(h.adminEmail),
    ])
    publisherId = `tok-${backend}`
    otherPublisherId = `tok-other-${backend}`
    for (const id of [publisherId, otherPublisherId]) {
      const reply = await send<Publisher>(h.app, 'POST', '/publishers', {
        as: owner,
        body: { id, name: id },
      })
      expect(reply.status).toBe(201)
    }
    await addMember(h.db, member, publisherId, 'member')
  })

  afterAll(async () => {
    await h?.close()
  })

  const tokensUrl = () => `/publishers/${publisherId}/tokens`

  async function createToken(body: Record<string, unknown>, id = publisherId) {
    const reply = await send<PersonalAccessToken>(h.app, 'POST', `/publishers/${id}/tokens`, {
      as: owner,
      body,
    })
    expect(reply.status).toBe(201)
    return reply.body
  }

  async function expectUnchanged(call: () => Promise<JsonReply<unknown>>, status: number) {
    const before = await snapshotState(h.db)
    const body = expectErrorBody(await call(), status)
    expect(await snapshotState(h.db)).toBe(before)
    return body
  }

  it('shows the secret once; lists tokens by public id, newest first; stores only a hash', async () => {
    const started = Date.now()
    const first = await createToken({
      name: 'laptop',
      description: 'My laptop',
      expires_in_days: 30,
    })
    expect(first.token).toMatch(/^cr_pat_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/)
    expect(first).toMatchObject({ name: 'laptop', description: 'My laptop', lastUsedAt: null })
    const expires = Date.parse(first.expiresAt ?? '')
    expect(expires - started).toBeGreaterThanOrEqual(30 * DAY - 60_000)
    expect(expires - started).toBeLessThanOrEqual(30 * DAY + 60_000)
    const second = await createToken({ name: 'ci' })
    expect(second.expiresAt).toBeNull()

    const listed = await get<PersonalAccessToken[]>(h.app, tokensUrl(), {
      authorization: `Bearer ${owner.idToken}`,
    })
    expect(listed.status).toBe(200)
    expect(listed.body.map((token) => token.id)).toEqual([second.id, first.id])
    for (const [token, secret] of [
      [listed.body[0], second.token],
      [listed.body[1], first.token],
    ] as const) {
      // The public id, and not one character of the secret after it.
      const [publicId, secretPart] = [secret.slice(7, 19), secret.slice(20)]
      expect(token.token).toBe(`${TOKEN_PREFIX}${publicId}_…`)
      for (const piece of [secretPart.slice(0, 4), secretPart.slice(-4)]) {
        expect(token.token).not.toContain(piece)
      }
      expect(Object.keys(token)).toEqual(
        expect.arrayContaining(['name', 'description', 'createdAt', 'expiresAt', 'lastUsedAt']),
      )
    }

    const [stored] = await h.db
      .select()
      .from(personalAccessTokens)
      .where(eq(personalAccessTokens.id, first.id))
    expect(stored.tokenHash).toBe(createHash('sha256').update(first.token).digest('hex'))
    // Nothing of the secret part is stored: no 4-character piece of it appears in the row.
    const row = JSON.stringify({ ...stored, tokenHash: '' })
    const secretPart = first.token.slice(20)
    for (let i = 0; i + 4 <= secretPart.length; i++) {
      expect(row).not.toContain(secretPart.slice(i, i + 4))
    }
  })

  it('refuses bad input, members and other people, changing nothing', async () => {
    const post = (as: TestUser | undefined, body: unknown) => () =>
      send(h.app, 'POST', tokensUrl(), { as, body })
    expect((await expectUnchanged(post(owner, { name: '   ' }), 400)).message).toContain("'name'")
    expect((await expectUnchanged(post(owner, {}), 400)).message).toContain('name')
    expect(
      (await expectUnchanged(post(owner, { name: 'x', expires_in_days: 7 }), 400)).message,
    ).toContain('expires_in_days')
    expect((await expectUnchanged(post(owner, { name: 'x'.repeat(101) }), 400)).message).toContain(
      'name',
    )
    await expectUnchanged(post(member, { name: 'x' }), 403)
    await expectUnchanged(post(undefined, { name: 'x' }), 401)
    expectErrorBody(
      await get(h.app, tokensUrl(), { authorization: `Bearer ${member.idToken}` }),
      403,
    )
    const admins = await get<PersonalAccessToken[]>(h.app, tokensUrl(), {
      authorization: `Bearer ${admin.idToken}`,
    })
    expect(admins.status).toBe(200)
  })

  it('deletes a token of this publisher only', async () => {
    const token = await createToken({ name: 'doomed' })
    await expectUnchanged(
      () =>
        send(h.app, 'DELETE', `/publishers/${otherPublisherId}/tokens/${token.id}`, { as: owner }),
      404,
    )
    await expectUnchanged(
      () => send(h.app, 'DELETE', `${tokensUrl()}/${token.id}`, { as: member }),
      403,
    )
    await expectUnchanged(
      () => send(h.app, 'DELETE', `${tokensUrl()}/not-a-uuid`, { as: owner }),
      400,
    )
    expect((await send(h.app, 'DELETE', `${tokensUrl()}/${token.id}`, { as: owner })).status).toBe(
      204,
    )
    await expectUnchanged(
      () => send(h.app, 'DELETE', `${tokensUrl()}/${token.id}`, { as: owner }),
      404,
    )
  })

  describe('verifyPersonalAccessToken', () => {
    it('accepts a token for its own publisher and records its use', async () => {
      const token = await createToken({ name: 'verify' })
      const result = await verifyPersonalAccessToken(h.db, publisherId, token.token)
      expect(result.ok).toBe(true)
      const listed = await get<PersonalAccessToken[]>(h.app, tokensUrl(), {
        authorization: `Bearer ${owner.idToken}`,
      })
      const used = listed.body.find((t) => t.id === token.id)
      expect(Date.now() - Date.parse(used?.lastUsedAt ?? '')).toBeLessThan(60_000)
    })

    it('refuses other publishers, deleted, expired and malformed tokens without recording use', async () => {
      const token = await createToken({ name: 'limits', expires_in_days: 30 })
      expect(await verifyPersonalAccessToken(h.db, otherPublisherId, token.token)).toEqual({
        ok: false,
        reason: 'otherPublisher',
      })
      const later = new Date(Date.now() + 31 * DAY)
      expect(await verifyPersonalAccessToken(h.db, publisherId, token.token, later)).toEqual({
        ok: false,
        reason: 'expired',
      })
      const [row] = await h.db
        .select()
        .from(personalAccessTokens)
        .where(eq(personalAccessTokens.id, token.id))
      expect(row.lastUsedAt).toBeNull()
      for (const wrong of [
        '',
        'not-a-token',
        `${token.token}x`,
        token.token.slice(0, -1),
        token.token.replace(TOKEN_PREFIX, 'xx_pat_'),
      ]) {
        expect(await verifyPersonalAccessToken(h.db, publisherId, wrong)).toEqual({
          ok: false,
          reason: 'invalid',
        })
      }
      await send(h.app, 'DELETE', `${tokensUrl()}/${token.id}`, { as: owner })
      expect(await verifyPersonalAccessToken(h.db, publisherId, token.token)).toEqual({
        ok: false,
        reason: 'invalid',
      })
    })
  })
})
