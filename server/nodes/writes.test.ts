import { sql } from 'drizzle-orm'
import type { Schemas } from '../http/operations'
import { UNCLAIMED_PUBLISHER } from '@/src/lib/constants'
import { nodes } from '../db/schema'
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

type Node = Schemas['Node']
type NodeListResponse = Schemas['NodeListResponse']
type Publisher = Schemas['Publisher']

jest.setTimeout(60_000)

describe.each(BACKENDS)('node writes on %s', (backend) => {
  let h: TestApp
  let owner: TestUser
  let member: TestUser
  let stranger: TestUser
  let admin: TestUser
  let publisherId: string
  let counter = 0

  beforeAll(async () => {
    h = await createTestApp({ postgres: backend === 'postgres' })
    ;[owner, member, stranger, admin] = await Promise.all([
      signUpUser(uniqueEmail('owner')),
      signUpUser(uniqueEmail('member')),
      signUpUser(uniqueEmail('stranger')),
      signUpVerifiedUser(h.adminEmail),
    ])
    publisherId = `nw-${backend}`
    const created = await send<Publisher>(h.app, 'POST', '/publishers', {
      as: owner,
      body: { id: publisherId, name: 'Node writer' },
    })
    expect(created.status).toBe(201)
    await addMember(h.db, member, publisherId, 'member')
  })

  afterAll(async () => {
    await h?.close()
  })

  const auth = (user: TestUser) => ({ authorization: `Bearer ${user.idToken}` })

  async function expectUnchanged(call: () => Promise<JsonReply<unknown>>, status: number) {
    const before = await snapshotState(h.db)
    const body = expectErrorBody(await call(), status)
    expect(await snapshotState(h.db)).toBe(before)
    return body
  }

  async function newNode(): Promise<string> {
    const id = `nw-node-${backend}-${++counter}`
    const reply = await send<Node>(h.app, 'POST', `/publishers/${publisherId}/nodes`, {
      as: owner,
      body: { id, name: `Node ${counter}`, repository: `https://github.com/nw/${id}` },
    })
    expect(reply.status).toBe(201)
    return id
  }

  describe('POST /publishers/{id}/nodes', () => {
    it('creates a node with its metadata under the publisher', async () => {
      const id = `Mixed.Case_${backend}`
      const reply = await send<Node>(h.app, 'POST', `/publishers/${publisherId}/nodes`, {
        as: owner,
        body: {
          id,
          name: 'Mixed Case',
          description: 'A node',
          repository: 'https://github.com/nw/mixed-case',
          tags: ['image', ' image ', 'video'],
          license: 'MIT',
          supported_os: ['linux'],
        },
      })
      expect(reply.status).toBe(201)
      expect(reply.body).toMatchObject({
        id,
        name: 'Mixed Case',
        tags: ['image', 'video'],
        license: 'MIT',
        supported_os: ['linux'],
        status: 'NodeStatusActive',
        publisher: { id: publisherId },
      })
      expect(reply.body).not.toHaveProperty('latest_version')
      const listed = await get<Node[]>(h.app, `/publishers/${publisherId}/nodes`)
      expect(listed.body.map((node) => node.id)).toContain(id)
    })

    it('refuses taken ids (any case), used repositories and bad fields, creating nothing', async () => {
      const create = (body: unknown) => () =>
        send(h.app, 'POST', `/publishers/${publisherId}/nodes`, { as: owner, body })
      expect(
        (await expectUnchanged(create({ id: 'COMFYUI-DEMO-UPSCALER', name: 'X' }), 409)).message,
      ).toMatch(/already taken/)
      const upscaler = (await get<Node>(h.app, '/nodes/comfyui-demo-upscaler')).body
      const sameRepository = `${upscaler.repository?.toUpperCase()}.git/`
      expect(
        (
          await expectUnchanged(
            create({ id: 'copycat', name: 'X', repository: sameRepository }),
            409,
          )
        ).message,
      ).toMatch(/comfyui-demo-upscaler/)
      expect((await expectUnchanged(create({ id: '-bad', name: 'X' }), 400)).message).toContain(
        "'id'",
      )
      expect(
        (await expectUnchanged(create({ id: 'ok-id', name: 'X', repository: 'ftp://x' }), 400))
          .message,
      ).toContain("'repository'")
      expect(
        (await expectUnchanged(create({ id: 'ok-id', name: 'X', icon: 'not a url' }), 400)).message,
      ).toContain("'icon'")
      expect(
        (
          await expectUnchanged(
            create({ id: 'ok-id', name: 'X', tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }),
            400,
          )
        ).message,
      ).toContain('tags')
      expect(
        (
          await expectUnchanged(
            create({ id: 'ok-id', name: 'X', description: 'x'.repeat(1001) }),
            400,
          )
        ).message,
      ).toContain('description')
    })
  })

  describe('one live node per repository', () => {
    it('holds when six creates with one repository race (exactly one 201)', async () => {
      const repository = `https://github.com/race/${backend}-repo`
      const replies = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          send<Node>(h.app, 'POST', `/publishers/${publisherId}/nodes`, {
            as: owner,
            // The same repository written six ways that all mean the same one.
            body: {
              id: `race-${backend}-${i}`,
              name: `Race ${i}`,
              repository: i % 2 ? `${repository.toUpperCase()}.git` : `${repository}/`,
            },
          }),
        ),
      )
      expect(replies.map((reply) => reply.status).sort()).toEqual([201, 409, 409, 409, 409, 409])
      for (const reply of replies.filter((r) => r.status === 409)) {
        expect(expectErrorBody(reply, 409).message).toMatch(/registered/)
      }
      const [{ holders }] = await h.db
        .select({ holders: sql<number>`count(*)::int` })
        .from(nodes)
        .where(
          sql`registry_repository_key(${nodes.repository}) = registry_repository_key(${repository})`,
        )
      expect(holders).toBe(1)
    })

    it('a deleted node frees its repository', async () => {
      const id = await newNode()
      const repository = `https://github.com/nw/${id}`
      expect(
        (await send(h.app, 'DELETE', `/publishers/${publisherId}/nodes/${id}`, { as: owner }))
          .status,
      ).toBe(204)
      const again = await send<Node>(h.app, 'POST', `/publishers/${publisherId}/nodes`, {
        as: owner,
        body: { id: `${id}-again`, name: 'Again', repository },
      })
      expect(again.status).toBe(201)
    })
  })

  describe('PUT /publishers/{id}/nodes/{nodeId}', () => {
    it('updates every metadata field, leaving omitted ones alone', async () => {
      const id = await newNode()
      const reply = await send<Node>(h.app, 'PUT', `/publishers/${publisherId}/nodes/${id}`, {
        as: owner,
        body: {
          name: 'Renamed',
          description: 'New description',
          repository: `https://github.com/nw/${id}-renamed`,
          icon: 'https://example.com/icon.png',
          tags: ['audio'],
          license: 'Apache-2.0',
          supported_os: ['windows', 'linux'],
          supported_accelerators: ['cuda'],
          supported_comfyui_version: '>=0.3.0',
        },
      })
      expect(reply.status).toBe(200)
      expect(reply.body).toMatchObject({
        id,
        name: 'Renamed',
        description: 'New description',
        icon: 'https://example.com/icon.png',
        tags: ['audio'],
        license: 'Apache-2.0',
        supported_os: ['windows', 'linux'],
        supported_accelerators: ['cuda'],
        supported_comfyui_version: '>=0.3.0',
      })
      const partial = await send<Node>(h.app, 'PUT', `/publishers/${publisherId}/nodes/${id}`, {
        as: admin,
        body: { description: 'Only this' },
      })
      expect(partial.body).toMatchObject({ name: 'Renamed', description: 'Only this' })
      expect((await get<Node>(h.app, `/nodes/${id}`)).body.description).toBe('Only this')
    })

    it('refuses other publishers’ nodes, id changes, bad fields and non-owners', async () => {
      const id = await newNode()
      const put = (as: TestUser, url: string, body: unknown) => () =>
        send(h.app, 'PUT', url, { as, body })
      const own = `/publishers/${publisherId}/nodes/${id}`
      await expectUnchanged(
        put(owner, `/publishers/${publisherId}/nodes/comfyui-demo-upscaler`, { name: 'Mine' }),
        404,
      )
      expect((await expectUnchanged(put(owner, own, { id: 'other' }), 400)).message).toContain(
        "'id'",
      )
      expect((await expectUnchanged(put(owner, own, { name: '' }), 400)).message).toContain('name')
      expect(
        (await expectUnchanged(put(owner, own, { banner_url: 'nope' }), 400)).message,
      ).toContain("'banner_url'")
      await expectUnchanged(put(member, own, { name: 'X' }), 403)
      await expectUnchanged(put(stranger, own, { name: 'X' }), 403)
      expectErrorBody(await send(h.app, 'PUT', own, { body: { name: 'X' } }), 401)
    })
  })

  describe('images', () => {
    it('take a path on this site (as seeded) but not one a browser reads as another host', async () => {
      const id = await newNode()
      const url = `/publishers/${publisherId}/nodes/${id}`
      const seeded = await send<Node>(h.app, 'PUT', url, {
        as: owner,
        body: { icon: '/icons/node-0.svg', banner_url: '/icons/node-1.svg' },
      })
      expect(seeded.body).toMatchObject({ icon: '/icons/node-0.svg' })
      for (const icon of ['/\\evil.example/x.png', '//evil.example/x.png', 'javascript:alert(1)']) {
        const body = await expectUnchanged(
          () => send(h.app, 'PUT', url, { as: owner, body: { icon } }),
          400,
        )
        expect(body.message).toContain("'icon'")
      }
      expect((await get<Node>(h.app, `/nodes/${id}`)).body.icon).toBe('/icons/node-0.svg')
    })
  })

  describe('DELETE /publishers/{id}/nodes/{nodeId}', () => {
    it('hides the node from the public, keeps it for admins and keeps its id reserved', async () => {
      const id = await newNode()
      const url = `/publishers/${publisherId}/nodes/${id}`
      await expectUnchanged(() => send(h.app, 'DELETE', url, { as: member }), 403)
      expect((await send(h.app, 'DELETE', url, { as: owner })).status).toBe(204)
      expectErrorBody(await get(h.app, `/nodes/${id}`), 404)
      expectErrorBody(await get(h.app, `/nodes/${id}`, auth(stranger)), 404)
      expect((await get<Node>(h.app, `/nodes/${id}`, auth(admin))).body.status).toBe(
        'NodeStatusDeleted',
      )
      const listed = await get<NodeListResponse>(
        h.app,
        `/publishers/${publisherId}/nodes/v2?include_banned=true&limit=100`,
        auth(owner),
      )
      expect(listed.body.nodes.map((node) => node.id)).not.toContain(id)
      const admins = await get<NodeListResponse>(
        h.app,
        `/nodes?include_banned=true&limit=100&publisher_id=${publisherId}`,
        auth(admin),
      )
      expect(admins.body.nodes.map((node) => node.id)).toContain(id)
      // Gone for its owners: no more edits, and the id cannot be reused.
      await expectUnchanged(() => send(h.app, 'PUT', url, { as: owner, body: { name: 'X' } }), 404)
      await expectUnchanged(
        () =>
          send(h.app, 'POST', `/publishers/${publisherId}/nodes`, {
            as: owner,
            body: { id, name: 'Again' },
          }),
        409,
      )
    })
  })

  describe('POST /nodes/{nodeId}/reviews', () => {
    it('keeps one rating per user and averages them', async () => {
      const id = await newNode()
      const rate = (as: TestUser, star: number) =>
        send<Node>(h.app, 'POST', `/nodes/${id}/reviews?star=${star}`, { as })
      expect((await rate(stranger, 5)).body.rating).toBe(5)
      expect((await rate(member, 2)).body.rating).toBe(3.5)
      expect((await rate(stranger, 3)).body.rating).toBe(2.5)
      await expectUnchanged(() => rate(stranger, 6), 400)
      await expectUnchanged(
        () => send(h.app, 'POST', `/nodes/${id}/reviews`, { as: stranger }),
        400,
      )
      await expectUnchanged(() => send(h.app, 'POST', `/nodes/${id}/reviews?star=3`), 401)
      await expectUnchanged(
        () => send(h.app, 'POST', '/nodes/no-such-node/reviews?star=3', { as: stranger }),
        404,
      )
    })
  })

  describe('POST /admin/nodes', () => {
    it('creates unclaimed nodes, or nodes of a given publisher', async () => {
      const unclaimed = await send<Node>(h.app, 'POST', '/admin/nodes', {
        as: admin,
        body: {
          id: `admin-made-${backend}`,
          name: 'Admin made',
          repository: `https://github.com/someone/admin-made-${backend}`,
        },
      })
      expect(unclaimed.status).toBe(201)
      expect(unclaimed.body.publisher).toMatchObject(UNCLAIMED_PUBLISHER)
      expect((await get<Node>(h.app, `/nodes/admin-made-${backend}`)).status).toBe(200)
      const placed = await send<Node>(h.app, 'POST', '/admin/nodes', {
        as: admin,
        body: {
          id: `admin-placed-${backend}`,
          name: 'Placed',
          repository: `https://github.com/someone/admin-placed-${backend}`,
          publisher_id: publisherId,
        },
      })
      expect(placed.body.publisher?.id).toBe(publisherId)
      await expectUnchanged(
        () =>
          send(h.app, 'POST', '/admin/nodes', {
            as: admin,
            body: {
              id: 'x-y',
              name: 'X',
              repository: 'https://github.com/a/b',
              publisher_id: 'nope',
            },
          }),
        404,
      )
      await expectUnchanged(
        () =>
          send(h.app, 'POST', '/admin/nodes', {
            as: admin,
            body: { id: 'x-y', name: 'X' },
          }),
        400,
      )
      // A blank or non-URL repository is refused, as publishing refuses one: nothing is created.
      for (const repository of ['', '   ', '\t\n', 'not a url']) {
        const refused = await expectUnchanged(
          () =>
            send(h.app, 'POST', '/admin/nodes', {
              as: admin,
              body: { id: `blank-repo-${backend}`, name: 'Blank', repository },
            }),
          400,
        )
        expect(refused.message).toContain("'repository'")
        expect((await get(h.app, `/nodes/blank-repo-${backend}`)).status).toBe(404)
      }
      await expectUnchanged(
        () =>
          send(h.app, 'POST', '/admin/nodes', {
            as: owner,
            body: { id: 'x-y', name: 'X', repository: 'https://github.com/a/b' },
          }),
        403,
      )
    })
  })
})
