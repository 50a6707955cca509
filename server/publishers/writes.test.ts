import { eq } from 'drizzle-orm'
import type { Schemas } from '../http/operations'
import { UNCLAIMED_PUBLISHER } from '@/src/lib/constants'
import { nodes, personalAccessTokens, publisherMembers, publishers } from '../db/schema'
import { createToken } from '../tokens/tokens'
import { signUpUser, signUpVerifiedUser, uniqueEmail, type TestUser } from '../test/auth'
import { addMember, insertNodeWithVersions, setPublisherStatus, snapshotState } from '../test/data'
import {
  BACKENDS,
  createTestApp,
  expectErrorBody,
  get,
  send,
  type JsonReply,
  type TestApp,
} from '../test/harness'

type Node = Schemas['Node']
type PermissionResponse = Schemas['PermissionResponse']
type Publisher = Schemas['Publisher']

jest.setTimeout(60_000)

const DEMO = 'comfy-demo'

describe.each(BACKENDS)('publisher writes on %s', (backend) => {
  let h: TestApp
  let owner: TestUser
  let member: TestUser
  let stranger: TestUser
  let admin: TestUser
  let counter = 0

  beforeAll(async () => {
    h = await createTestApp({ postgres: backend === 'postgres' })
    ;[owner, member, stranger, admin] = await Promise.all([
      signUpUser(uniqueEmail('owner')),
      signUpUser(uniqueEmail('member')),
      signUpUser(uniqueEmail('stranger')),
      signUpVerifiedUser(h.adminEmail),
    ])
    // Signing in once creates the users rows (members are added by the email of a known user).
    for (const user of [owner, member, stranger, admin]) {
      expect((await get(h.app, '/users', { authorization: `Bearer ${user.idToken}` })).status).toBe(
        200,
      )
    }
  })

  afterAll(async () => {
    await h?.close()
  })

  /** A new publisher owned by `owner`, with `member` as a member. */
  async function ownedPublisher(): Promise<string> {
    const id = `pw-${backend}-${++counter}`
    const reply = await send<Publisher>(h.app, 'POST', '/publishers', {
      as: owner,
      body: { id, name: `Publisher ${counter}` },
    })
    expect(reply.status).toBe(201)
    await addMember(h.db, member, id, 'member')
    return id
  }

  async function expectUnchanged(call: () => Promise<JsonReply<unknown>>, status: number) {
    const before = await snapshotState(h.db)
    const body = expectErrorBody(await call(), status)
    expect(await snapshotState(h.db)).toBe(before)
    return body
  }

  describe('POST /publishers', () => {
    it('creates the publisher with the caller as owner', async () => {
      const reply = await send<Publisher>(h.app, 'POST', '/publishers', {
        as: stranger,
        body: {
          id: `fresh-${backend}`,
          name: '  Fresh Nodes  ',
          description: 'Nodes that are fresh.',
          website: 'https://fresh.example.com',
          support: 'help@fresh.example.com',
          source_code_repo: 'https://github.com/fresh',
          logo: 'https://fresh.example.com/logo.png',
        },
      })
      expect(reply.status).toBe(201)
      expect(reply.body).toMatchObject({
        id: `fresh-${backend}`,
        name: 'Fresh Nodes',
        website: 'https://fresh.example.com',
        support: 'help@fresh.example.com',
        status: 'PublisherStatusActive',
        members: [{ role: 'owner', user: { id: stranger.uid, email: stranger.email } }],
      })
      const mine = await get<Publisher[]>(h.app, '/users/publishers', {
        authorization: `Bearer ${stranger.idToken}`,
      })
      expect(mine.body.map((p) => p.id)).toContain(`fresh-${backend}`)
    })

    it('answers 409 for a taken id and 400 naming the field for bad input, creating nothing', async () => {
      const create = (body: unknown) => () =>
        send(h.app, 'POST', '/publishers', { as: owner, body })
      expect((await expectUnchanged(create({ id: DEMO, name: 'X' }), 409)).message).toMatch(/taken/)
      expect((await expectUnchanged(create({ id: 'admin', name: 'X' }), 400)).message).toMatch(
        /'id'.*reserved/,
      )
      expect((await expectUnchanged(create({ id: 'Bad_Id', name: 'X' }), 400)).message).toContain(
        "'id'",
      )
      expect((await expectUnchanged(create({ id: 'ends-', name: 'X' }), 400)).message).toContain(
        "'id'",
      )
      expect((await expectUnchanged(create({ id: 'no-name' }), 400)).message).toContain('name')
      expect(
        (await expectUnchanged(create({ id: 'blank-name', name: '   ' }), 400)).message,
      ).toContain("'name'")
      expect(
        (await expectUnchanged(create({ id: 'bad-site', name: 'X', website: 'not a url' }), 400))
          .message,
      ).toContain("'website'")
      expect(
        (await expectUnchanged(create({ id: 'bad-support', name: 'X', support: 'nope' }), 400))
          .message,
      ).toContain("'support'")
      expectErrorBody(
        await send(h.app, 'POST', '/publishers', { body: { id: 'x', name: 'X' } }),
        401,
      )
    })
  })

  describe('PUT /publishers/{id}', () => {
    it('lets owners and admins edit the fields, leaving omitted ones alone', async () => {
      const id = await ownedPublisher()
      const reply = await send<Publisher>(h.app, 'PUT', `/publishers/${id}`, {
        as: owner,
        body: { description: 'Now with a description', logo: '/icons/node-1.svg' },
      })
      expect(reply.status).toBe(200)
      expect(reply.body).toMatchObject({
        id,
        name: `Publisher ${counter}`,
        description: 'Now with a description',
        logo: '/icons/node-1.svg',
      })
      const byAdmin = await send<Publisher>(h.app, 'PUT', `/publishers/${id}`, {
        as: admin,
        body: { name: 'Renamed by admin', website: '' },
      })
      expect(byAdmin.body).toMatchObject({ name: 'Renamed by admin', website: '' })
      expect((await get<Publisher>(h.app, `/publishers/${id}`)).body.name).toBe('Renamed by admin')
    })

    it('refuses a changed id, bad values, members and strangers without changing anything', async () => {
      const id = await ownedPublisher()
      const put = (as: TestUser, body: unknown) => () =>
        send(h.app, 'PUT', `/publishers/${id}`, { as, body })
      expect((await expectUnchanged(put(owner, { id: 'other-id' }), 400)).message).toContain("'id'")
      expect(
        (await expectUnchanged(put(owner, { logo: 'javascript:alert(1)' }), 400)).message,
      ).toContain("'logo'")
      expect((await expectUnchanged(put(member, { name: 'X' }), 403)).message).toMatch(/member/)
      await expectUnchanged(put(stranger, { name: 'X' }), 403)
      await expectUnchanged(
        () => send(h.app, 'PUT', '/publishers/no-such-publisher', { as: admin, body: {} }),
        404,
      )
    })
  })

  describe('DELETE /publishers/{id}', () => {
    it('refuses while nodes remain, then deletes; deleted nodes stay for admins', async () => {
      const id = await ownedPublisher()
      const nodeId = `pw-node-${backend}-${counter}`
      await insertNodeWithVersions(h.db, { id: nodeId, publisherId: id }, [
        { version: '1.0.0', status: 'NodeVersionStatusActive' },
      ])
      await createToken(h.db, id, { name: 't', description: '', expiresInDays: null })
      const body = await expectUnchanged(
        () => send(h.app, 'DELETE', `/publishers/${id}`, { as: owner }),
        409,
      )
      expect(body.message).toMatch(/1 node/)

      expect(
        (await send(h.app, 'DELETE', `/publishers/${id}/nodes/${nodeId}`, { as: owner })).status,
      ).toBe(204)
      expect((await send(h.app, 'DELETE', `/publishers/${id}`, { as: owner })).status).toBe(204)
      expect(await h.db.select().from(publishers).where(eq(publishers.id, id))).toEqual([])
      expect(
        await h.db.select().from(publisherMembers).where(eq(publisherMembers.publisherId, id)),
      ).toEqual([])
      expect(
        await h.db
          .select()
          .from(personalAccessTokens)
          .where(eq(personalAccessTokens.publisherId, id)),
      ).toEqual([])
      const [node] = await h.db.select().from(nodes).where(eq(nodes.id, nodeId))
      expect(node).toMatchObject({
        status: 'NodeStatusDeleted',
        publisherId: UNCLAIMED_PUBLISHER.id,
      })
      expectErrorBody(await get(h.app, `/nodes/${nodeId}`), 404)
      const asAdmin = await get<Node>(h.app, `/nodes/${nodeId}`, {
        authorization: `Bearer ${admin.idToken}`,
      })
      expect(asAdmin.body.status).toBe('NodeStatusDeleted')
    })
  })

  describe('permissions', () => {
    const can = async (user: TestUser | null, url: string) => {
      const reply = await get<PermissionResponse>(
        h.app,
        url,
        user ? { authorization: `Bearer ${user.idToken}` } : {},
      )
      return reply.status === 200 ? reply.body.canEdit : reply.status
    }

    it('GET /publishers/{id}/permissions: owners and admins can edit', async () => {
      const id = await ownedPublisher()
      const url = `/publishers/${id}/permissions`
      expect(await can(owner, url)).toBe(true)
      expect(await can(admin, url)).toBe(true)
      expect(await can(member, url)).toBe(false)
      expect(await can(stranger, url)).toBe(false)
      expect(await can(null, url)).toBe(401)
      expect(await can(owner, '/publishers/no-such-publisher/permissions')).toBe(404)
      await setPublisherStatus(h.db, id, 'PublisherStatusBanned')
      try {
        expect(await can(owner, url)).toBe(false)
        expect(await can(admin, url)).toBe(true)
        expect(await can(stranger, url)).toBe(404)
      } finally {
        await setPublisherStatus(h.db, id, 'PublisherStatusActive')
      }
    })

    it('GET /publishers/{id}/nodes/{nodeId}/permissions: for the publisher’s own nodes', async () => {
      const id = await ownedPublisher()
      const nodeId = `pw-perm-${backend}-${counter}`
      await insertNodeWithVersions(h.db, { id: nodeId, publisherId: id }, [])
      const url = `/publishers/${id}/nodes/${nodeId}/permissions`
      expect(await can(owner, url)).toBe(true)
      expect(await can(owner, url.replace(nodeId, nodeId.toUpperCase()))).toBe(true)
      expect(await can(admin, url)).toBe(true)
      expect(await can(member, url)).toBe(false)
      expect(await can(stranger, url)).toBe(false)
      expect(await can(null, url)).toBe(401)
      // A node of another publisher is not this publisher's node.
      expect(await can(owner, `/publishers/${id}/nodes/comfyui-demo-upscaler/permissions`)).toBe(
        404,
      )
      await h.db.update(nodes).set({ status: 'NodeStatusBanned' }).where(eq(nodes.id, nodeId))
      expect(await can(owner, url)).toBe(false)
      expect(await can(admin, url)).toBe(true)
      expect(await can(stranger, url)).toBe(404)
    })
  })

  describe('members', () => {
    const members = async (id: string) =>
      (
        await get<Publisher>(h.app, `/publishers/${id}`, {
          authorization: `Bearer ${admin.idToken}`,
        })
      ).body.members ?? []

    it('refuses bad addresses and roles, and inviting a member (invitations.test.ts has the rest)', async () => {
      const id = await ownedPublisher()
      await addMember(h.db, stranger, id, 'member')
      const again = () =>
        send(h.app, 'POST', `/publishers/${id}/members`, {
          as: owner,
          body: { email: stranger.email.toUpperCase(), role: 'owner' },
        })
      expect((await expectUnchanged(again, 409)).message).toMatch(/already a member/)
      const badEmail = () =>
        send(h.app, 'POST', `/publishers/${id}/members`, {
          as: owner,
          body: { email: 'not-an-email', role: 'member' },
        })
      expect((await expectUnchanged(badEmail, 400)).message).toContain('email')
      const badRole = () =>
        send(h.app, 'POST', `/publishers/${id}/members`, {
          as: owner,
          body: { email: 'someone@test.comfy.test', role: 'boss' },
        })
      expect((await expectUnchanged(badRole, 400)).message).toContain('role')
    })

    it('changes roles but always keeps one owner', async () => {
      const id = await ownedPublisher()
      const demoteSelf = () =>
        send(h.app, 'PUT', `/publishers/${id}/members/${owner.uid}`, {
          as: owner,
          body: { role: 'member' },
        })
      expect((await expectUnchanged(demoteSelf, 409)).message).toMatch(/at least one owner/)
      const promote = await send<Publisher>(
        h.app,
        'PUT',
        `/publishers/${id}/members/${member.uid}`,
        {
          as: owner,
          body: { role: 'owner' },
        },
      )
      expect(promote.status).toBe(200)
      expect(promote.body.members?.filter((m) => m.role === 'owner')).toHaveLength(2)
      expect((await demoteSelf()).status).toBe(200)
      expect((await members(id)).find((m) => m.user?.id === owner.uid)?.role).toBe('member')
      await expectUnchanged(
        () =>
          send(h.app, 'PUT', `/publishers/${id}/members/unknown-user`, {
            as: admin,
            body: { role: 'owner' },
          }),
        404,
      )
    })

    it('removes members: owners anyone but the last owner, members only themselves', async () => {
      const id = await ownedPublisher()
      await addMember(h.db, stranger, id, 'member')
      const memberRemovesOther = () =>
        send(h.app, 'DELETE', `/publishers/${id}/members/${stranger.uid}`, { as: member })
      expect((await expectUnchanged(memberRemovesOther, 403)).message).toMatch(/leave/)
      expect(
        (await send(h.app, 'DELETE', `/publishers/${id}/members/${member.uid}`, { as: member }))
          .status,
      ).toBe(204)
      expect(
        (await send(h.app, 'DELETE', `/publishers/${id}/members/${stranger.uid}`, { as: owner }))
          .status,
      ).toBe(204)
      const lastOwner = () =>
        send(h.app, 'DELETE', `/publishers/${id}/members/${owner.uid}`, { as: owner })
      expect((await expectUnchanged(lastOwner, 409)).message).toMatch(/at least one owner/)
      expect((await members(id)).map((m) => m.user?.id)).toEqual([owner.uid])
      await expectUnchanged(
        () => send(h.app, 'DELETE', `/publishers/${id}/members/${stranger.uid}`, { as: owner }),
        404,
      )
    })
  })

  describe('a banned publisher', () => {
    it('is frozen for its owners (403 saying so) but not for admins', async () => {
      const id = await ownedPublisher()
      await setPublisherStatus(h.db, id, 'PublisherStatusBanned')
      try {
        const body = await expectUnchanged(
          () => send(h.app, 'PUT', `/publishers/${id}`, { as: owner, body: { name: 'X' } }),
          403,
        )
        expect(body.message).toMatch(/banned/)
        // Nor can its owner start over under a new publisher.
        const fresh = await expectUnchanged(
          () =>
            send(h.app, 'POST', '/publishers', {
              as: owner,
              body: { id: `evade-${backend}`, name: 'Evade' },
            }),
          403,
        )
        expect(fresh.message).toMatch(/banned/)
        // Outsiders do not learn it exists.
        await expectUnchanged(
          () => send(h.app, 'PUT', `/publishers/${id}`, { as: stranger, body: { name: 'X' } }),
          404,
        )
        const byAdmin = await send<Publisher>(h.app, 'PUT', `/publishers/${id}`, {
          as: admin,
          body: { description: 'Reviewed by an admin' },
        })
        expect(byAdmin.status).toBe(200)
      } finally {
        await setPublisherStatus(h.db, id, 'PublisherStatusActive')
      }
    })
  })
})
