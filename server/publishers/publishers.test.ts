import { eq } from 'drizzle-orm'
import type { Schemas } from '../http/operations'
import { buildApp } from '../http/app'
import { firebaseTokenVerifier } from '../auth/verifier'
import { loadConfig } from '../config'
import { users } from '../db/schema'
import { attachDemoMembership } from '../seed/accounts'
import {
  bearer,
  signUpUser,
  signUpVerifiedUser,
  TEST_PROJECT_ID,
  uniqueEmail,
  type TestUser,
} from '../test/auth'
import { addMember, isPublic, nodeFacts, setNodeStatus, setPublisherStatus } from '../test/data'
import { BACKENDS, createTestApp, expectErrorBody, get, query, type TestApp } from '../test/harness'

type Node = Schemas['Node']
type NodeListResponse = Schemas['NodeListResponse']
type Publisher = Schemas['Publisher']
type User = Schemas['User']
type ValidatePublisherResponse = Schemas['ValidatePublisherResponse']

jest.setTimeout(60_000)

const DEMO = 'comfy-demo'

describe.each(BACKENDS)('publishers and users on %s', (backend) => {
  let h: TestApp
  let owner: TestUser
  let stranger: TestUser
  let admin: TestUser
  let bannedPublisherId: string
  let publisherIds: string[]

  beforeAll(async () => {
    h = await createTestApp({ postgres: backend === 'postgres' })
    ;[owner, stranger, admin] = await Promise.all([
      signUpUser(uniqueEmail('owner'), undefined, 'Test Owner'),
      signUpUser(),
      signUpVerifiedUser(h.adminEmail, 'Test Admin'),
    ])
    await attachDemoMembership(h.db, owner.uid, owner.email, 'Test Owner')
    publisherIds = h.demo.publishers.map((publisher) => publisher.id).sort()
    bannedPublisherId = publisherIds.filter((id) => id !== DEMO)[0]
    await setPublisherStatus(h.db, bannedPublisherId, 'PublisherStatusBanned')
  })

  afterAll(async () => {
    await h?.close()
  })

  describe('GET /publishers', () => {
    it('lists active publishers, hiding banned ones from anonymous callers', async () => {
      const reply = await get<Publisher[]>(h.app, '/publishers')
      expect(reply.status).toBe(200)
      const ids = reply.body.map((publisher) => publisher.id)
      expect(ids).toEqual(publisherIds.filter((id) => id !== bannedPublisherId))
      for (const publisher of reply.body) expect(publisher.status).toBe('PublisherStatusActive')
      const asStranger = await get<Publisher[]>(h.app, '/publishers', bearer(stranger))
      expect(asStranger.body.map((p) => p.id)).not.toContain(bannedPublisherId)
    })

    it('shows banned publishers to admins asking with include_banned, and only to them', async () => {
      const reply = await get<Publisher[]>(h.app, '/publishers?include_banned=true', bearer(admin))
      expect(reply.body.map((publisher) => publisher.id)).toContain(bannedPublisherId)
      // The public list for an admin who does not ask, and for a stranger who does.
      for (const [path, headers] of [
        ['/publishers', bearer(admin)],
        ['/publishers?include_banned=true', bearer(stranger)],
        ['/publishers?include_banned=true', {}],
      ] as const) {
        const listed = await get<Publisher[]>(h.app, path, headers)
        expect(listed.status).toBe(200)
        expect(listed.body.map((publisher) => publisher.id)).not.toContain(bannedPublisherId)
      }
    })
  })

  describe('GET /publishers/{publisherId}', () => {
    it('shows members without emails to anonymous callers and strangers', async () => {
      for (const headers of [{}, bearer(stranger)]) {
        const reply = await get<Publisher>(h.app, `/publishers/${DEMO}`, headers)
        expect(reply.status).toBe(200)
        expect(reply.body).toMatchObject({ id: DEMO, status: 'PublisherStatusActive' })
        expect(typeof reply.body.createdAt).toBe('string')
        const members = reply.body.members ?? []
        expect(members.map((m) => m.user?.id)).toContain(owner.uid)
        for (const m of members) expect(m.user?.email).toBeUndefined()
      }
    })

    it('shows member emails to members and admins', async () => {
      for (const caller of [owner, admin]) {
        const reply = await get<Publisher>(h.app, `/publishers/${DEMO}`, bearer(caller))
        const me = reply.body.members?.find((m) => m.user?.id === owner.uid)
        expect(me).toMatchObject({
          role: 'owner',
          user: { email: owner.email, name: 'Test Owner' },
        })
      }
    })

    it('answers 404 for banned publishers to anonymous callers, not to admins', async () => {
      expectErrorBody(await get(h.app, `/publishers/${bannedPublisherId}`), 404)
      expectErrorBody(await get(h.app, `/publishers/${bannedPublisherId}`, bearer(stranger)), 404)
      const reply = await get<Publisher>(h.app, `/publishers/${bannedPublisherId}`, bearer(admin))
      expect(reply.status).toBe(200)
      expect(reply.body.status).toBe('PublisherStatusBanned')
      expectErrorBody(await get(h.app, `/publishers/${bannedPublisherId}/nodes`), 404)
      expectErrorBody(await get(h.app, '/publishers/no-such-publisher'), 404)
    })
  })

  describe('nodes of a publisher', () => {
    it('GET /publishers/{id}/nodes lists its public nodes', async () => {
      const facts = (await nodeFacts(h.db)).filter((node) => node.publisherId === DEMO)
      const reply = await get<Node[]>(h.app, `/publishers/${DEMO}/nodes`)
      expect(reply.status).toBe(200)
      expect(reply.body.map((node) => node.id).sort()).toEqual(
        facts
          .filter(isPublic)
          .map((node) => node.id)
          .sort(),
      )
      for (const node of reply.body) expect(node.publisher?.id).toBe(DEMO)
    })

    it('GET /publishers/{id}/nodes/v2 paginates', async () => {
      const total = (await nodeFacts(h.db)).filter(
        (n) => n.publisherId === DEMO && isPublic(n),
      ).length
      const first = await get<NodeListResponse>(
        h.app,
        `/publishers/${DEMO}/nodes/v2?page=1&limit=4`,
      )
      expect(first.status).toBe(200)
      expect(first.body).toMatchObject({
        total,
        page: 1,
        limit: 4,
        totalPages: Math.ceil(total / 4),
      })
      const second = await get<NodeListResponse>(
        h.app,
        `/publishers/${DEMO}/nodes/v2?page=2&limit=4`,
      )
      const ids = [...first.body.nodes, ...second.body.nodes].map((node) => node.id)
      expect(new Set(ids).size).toBe(Math.min(total, 8))
    })

    it('shows banned nodes to owners asking with include_banned, never to others', async () => {
      await setNodeStatus(h.db, 'comfyui-demo-audio-kit', 'NodeStatusBanned')
      try {
        const anon = await get<Node[]>(h.app, `/publishers/${DEMO}/nodes?include_banned=true`)
        expect(anon.body.map((n) => n.id)).not.toContain('comfyui-demo-audio-kit')
        const stray = await get<Node[]>(
          h.app,
          `/publishers/${DEMO}/nodes?include_banned=true`,
          bearer(stranger),
        )
        expect(stray.body.map((n) => n.id)).not.toContain('comfyui-demo-audio-kit')
        const own = await get<Node[]>(
          h.app,
          `/publishers/${DEMO}/nodes?include_banned=true`,
          bearer(owner),
        )
        expect(own.body.map((n) => n.id)).toContain('comfyui-demo-audio-kit')
        const ownV2 = await get<NodeListResponse>(
          h.app,
          `/publishers/${DEMO}/nodes/v2?include_banned=true&limit=100`,
          bearer(owner),
        )
        expect(ownV2.body.nodes.map((n) => n.id)).toContain('comfyui-demo-audio-kit')
      } finally {
        await setNodeStatus(h.db, 'comfyui-demo-audio-kit', 'NodeStatusActive')
      }
    })
  })

  describe('GET /publishers/validate', () => {
    async function validate(username: string) {
      const reply = await get<ValidatePublisherResponse>(
        h.app,
        `/publishers/validate${query({ username })}`,
      )
      expect(reply.status).toBe(200)
      return reply.body
    }

    it('accepts a free, well-formed id', async () => {
      expect(await validate('brand-new-publisher')).toEqual({ isAvailable: true })
    })

    it('rejects taken, reserved and malformed ids with a message', async () => {
      for (const username of [
        DEMO,
        bannedPublisherId,
        'admin',
        'comfy-org',
        'Has-Caps',
        '1abc',
        'under_score',
        'ends-',
        '',
      ]) {
        const body = await validate(username)
        expect({ username, isAvailable: body.isAvailable }).toEqual({
          username,
          isAvailable: false,
        })
        expect(body.message).toEqual(expect.any(String))
      }
      expect((await validate(DEMO)).message).toMatch(/taken/)
      expect((await validate('admin')).message).toMatch(/reserved/)
    })

    it('answers 400 naming `username` when it is missing', async () => {
      const body = expectErrorBody(await get(h.app, '/publishers/validate'), 400)
      expect(body.message).toContain('username')
    })
  })

  describe('GET /users', () => {
    it('answers 401 to anonymous callers and to invalid tokens', async () => {
      expectErrorBody(await get(h.app, '/users'), 401)
      expectErrorBody(await get(h.app, '/users', bearer('not-a-real-token')), 401)
      expectErrorBody(await get(h.app, '/users', { authorization: 'Basic abc' }), 401)
      expectErrorBody(await get(h.app, '/users/publishers/'), 401)
    })

    it('returns the caller and creates their users row', async () => {
      const name = 'Fresh Person'
      const user = await signUpUser(uniqueEmail('fresh'), undefined, name)
      expect(await h.db.select().from(users).where(eq(users.id, user.uid))).toHaveLength(0)
      const reply = await get<User>(h.app, '/users', bearer(user))
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual({
        id: user.uid,
        email: user.email,
        name,
        isAdmin: false,
        isApproved: false,
      })
      const [row] = await h.db.select().from(users).where(eq(users.id, user.uid))
      expect(row).toMatchObject({ id: user.uid, email: user.email, name })
      // The row follows the sign-in provider: a changed email is stored on the next call.
      await h.db.update(users).set({ email: 'stale@example.test' }).where(eq(users.id, user.uid))
      await get<User>(h.app, '/users', bearer(user))
      const [updated] = await h.db.select().from(users).where(eq(users.id, user.uid))
      expect(updated.email).toBe(user.email)
    })

    it('reports isAdmin for an admin by ADMIN_EMAILS with a verified email', async () => {
      const reply = await get<User>(h.app, '/users', bearer(admin))
      expect(reply.status).toBe(200)
      expect(reply.body).toMatchObject({ id: admin.uid, email: h.adminEmail, isAdmin: true })
    })

    it('does not make an unverified ADMIN_EMAILS address an admin', async () => {
      const other = await createTestAppWithUnverifiedAdmin()
      expect(other.isAdmin).toBe(false)
    })

    it('GET /users/publishers/ lists the caller’s publishers', async () => {
      const mine = await get<Publisher[]>(h.app, '/users/publishers/', bearer(owner))
      expect(mine.status).toBe(200)
      expect(mine.body.map((p) => p.id)).toEqual([DEMO])
      await addMember(h.db, owner, publisherIds.filter((id) => id !== DEMO)[1], 'member')
      const two = await get<Publisher[]>(h.app, '/users/publishers', bearer(owner))
      expect(two.body).toHaveLength(2)
      const none = await get<Publisher[]>(h.app, '/users/publishers/', bearer(stranger))
      expect(none.body).toEqual([])
    })

    it('treats an invalid token on a public read as anonymous', async () => {
      for (const url of [
        '/nodes',
        `/publishers/${DEMO}`,
        '/publishers',
        `/nodes/comfyui-demo-upscaler`,
      ]) {
        const reply = await get(h.app, url, bearer('garbage.token.value'))
        expect({ url, status: reply.status }).toEqual({ url, status: 200 })
      }
      const reply = await get<Publisher>(h.app, `/publishers/${DEMO}`, bearer('garbage'))
      for (const m of reply.body.members ?? []) expect(m.user?.email).toBeUndefined()
    })
  })

  /** An ADMIN_EMAILS user whose email is not verified: signs up in this app's admin email. */
  async function createTestAppWithUnverifiedAdmin(): Promise<User> {
    // h.adminEmail is taken by the verified admin; make a second app listing a fresh address.
    const email = uniqueEmail('unverified-admin')
    const app = await buildApp({
      db: h.db,
      storage: h.storage,
      verifier: firebaseTokenVerifier(TEST_PROJECT_ID),
      config: loadConfig({ ADMIN_EMAILS: email }),
    })
    try {
      const user = await signUpUser(email)
      const reply = await get<User>(app, '/users', bearer(user))
      expect(reply.status).toBe(200)
      return reply.body
    } finally {
      await app.close()
    }
  }
})
