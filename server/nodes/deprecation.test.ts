// Deprecating a version or a whole node with a message, and undoing it (updateNodeVersion,
// updateNode): who may, what the public sees, and that refused requests change nothing.
import type { Schemas } from '../http/operations'
import { signUpUser, signUpVerifiedUser, uniqueEmail, type TestUser } from '../test/auth'
import { addMember, insertNodeWithVersions, snapshotState } from '../test/data'
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
type NodeVersion = Schemas['NodeVersion']
type Publisher = Schemas['Publisher']

jest.setTimeout(60_000)

describe.each(BACKENDS)('deprecation on %s', (backend) => {
  let h: TestApp
  let owner: TestUser
  let member: TestUser
  let stranger: TestUser
  let admin: TestUser
  const publisherId = `dep-${backend}`
  let counter = 0

  beforeAll(async () => {
    h = await createTestApp({ postgres: backend === 'postgres' })
    ;[owner, member, stranger, admin] = await Promise.all([
      signUpUser(uniqueEmail('dep-owner')),
      signUpUser(uniqueEmail('dep-member')),
      signUpUser(uniqueEmail('dep-stranger')),
      signUpVerifiedUser(h.adminEmail),
    ])
    const created = await send<Publisher>(h.app, 'POST', '/publishers', {
      as: owner,
      body: { id: publisherId, name: 'Deprecations' },
    })
    expect(created.status).toBe(201)
    await addMember(h.db, member, publisherId, 'member')
  })

  afterAll(async () => {
    await h?.close()
  })

  /** A node with Active 1.0.0 and 1.1.0 (latest) and a Pending 2.0.0. */
  async function newNode(): Promise<string> {
    const id = `dep-node-${backend}-${++counter}`
    await insertNodeWithVersions(h.db, { id, publisherId }, [
      { version: '1.0.0', status: 'NodeVersionStatusActive' },
      { version: '1.1.0', status: 'NodeVersionStatusActive' },
      { version: '2.0.0', status: 'NodeVersionStatusPending' },
    ])
    return id
  }

  const versionUrl = (nodeId: string, version: string) =>
    `/publishers/${publisherId}/nodes/${nodeId}/versions/${version}`
  const nodeUrl = (nodeId: string) => `/publishers/${publisherId}/nodes/${nodeId}`

  async function publicVersion(nodeId: string, version: string) {
    const reply = await get<NodeVersion>(h.app, `/nodes/${nodeId}/versions/${version}`)
    expect(reply.status).toBe(200)
    return reply.body
  }

  async function expectUnchanged(call: () => Promise<JsonReply<unknown>>, status: number) {
    const before = await snapshotState(h.db)
    const body = expectErrorBody(await call(), status)
    expect(await snapshotState(h.db)).toBe(before)
    return body
  }

  describe('a version', () => {
    it('is deprecated with a message, shown publicly, and undone with the message cleared', async () => {
      const nodeId = await newNode()
      expect(await publicVersion(nodeId, '1.0.0')).toMatchObject({
        deprecated: false,
        deprecation_message: '',
      })

      const message = '  Corrupts masks on SDXL; use 1.1.0.  '
      const reply = await send<NodeVersion>(h.app, 'PUT', versionUrl(nodeId, '1.0.0'), {
        as: owner,
        body: { deprecated: true, deprecation_message: message },
      })
      expect(reply.status).toBe(200)
      expect(reply.body).toMatchObject({
        deprecated: true,
        deprecation_message: message.trim(),
      })
      expect(await publicVersion(nodeId, '1.0.0')).toMatchObject({
        deprecated: true,
        deprecation_message: message.trim(),
      })
      // The list the node page and ComfyUI-Manager read carries it too.
      const list = await get<NodeVersion[]>(h.app, `/nodes/${nodeId}/versions`)
      expect(list.body.find((v) => v.version === '1.0.0')).toMatchObject({
        deprecated: true,
        deprecation_message: message.trim(),
      })

      // The message alone edits it while deprecated.
      const edited = await send<NodeVersion>(h.app, 'PUT', versionUrl(nodeId, '1.0.0'), {
        as: owner,
        body: { deprecation_message: 'Use 1.1.0 instead.' },
      })
      expect(edited.status).toBe(200)
      expect(edited.body.deprecation_message).toBe('Use 1.1.0 instead.')

      const undone = await send<NodeVersion>(h.app, 'PUT', versionUrl(nodeId, '1.0.0'), {
        as: owner,
        body: { deprecated: false },
      })
      expect(undone.status).toBe(200)
      expect(undone.body).toMatchObject({ deprecated: false, deprecation_message: '' })
      expect(await publicVersion(nodeId, '1.0.0')).toMatchObject({
        deprecated: false,
        deprecation_message: '',
      })
    })

    it('keeps latest_version and its deprecated flag as clients read them today', async () => {
      const nodeId = await newNode()
      const reply = await send<NodeVersion>(h.app, 'PUT', versionUrl(nodeId, '1.1.0'), {
        as: admin,
        body: { deprecated: true, deprecation_message: 'Broken, use 1.0.0.' },
      })
      expect(reply.status).toBe(200)
      const node = await get<Node>(h.app, `/nodes/${nodeId}`)
      // Still the newest Active version by semver: comfy-cli and the Manager see the flag.
      expect(node.body.latest_version).toMatchObject({
        version: '1.1.0',
        deprecated: true,
        deprecation_message: 'Broken, use 1.0.0.',
      })
    })

    it('refuses bad input and strangers with a 4xx JSON and changes nothing', async () => {
      const nodeId = await newNode()
      await send(h.app, 'PUT', versionUrl(nodeId, '1.0.0'), {
        as: owner,
        body: { deprecated: true, deprecation_message: 'Old message' },
      })
      const url = versionUrl(nodeId, '1.0.0')
      const tooLong = await expectUnchanged(
        () =>
          send(h.app, 'PUT', url, {
            as: owner,
            body: { deprecated: true, deprecation_message: 'x'.repeat(501) },
          }),
        400,
      )
      expect(tooLong.message).toMatch(/deprecation_message/)
      await expectUnchanged(
        () => send(h.app, 'PUT', url, { as: owner, body: { deprecated: 'yes' } }),
        400,
      )
      await expectUnchanged(
        () => send(h.app, 'PUT', url, { as: owner, body: { deprecation_message: 42 } }),
        400,
      )
      const contradictory = await expectUnchanged(
        () =>
          send(h.app, 'PUT', url, {
            as: owner,
            body: { deprecated: false, deprecation_message: 'why' },
          }),
        400,
      )
      expect(contradictory.message).toMatch(/deprecation_message/)
      const notDeprecated = await expectUnchanged(
        () =>
          send(h.app, 'PUT', versionUrl(nodeId, '1.1.0'), {
            as: owner,
            body: { deprecation_message: 'no flag' },
          }),
        400,
      )
      expect(notDeprecated.message).toMatch(/not deprecated/)
      for (const caller of [stranger, member]) {
        await expectUnchanged(
          () => send(h.app, 'PUT', url, { as: caller, body: { deprecated: false } }),
          403,
        )
      }
      await expectUnchanged(() => send(h.app, 'PUT', url, { body: { deprecated: false } }), 401)
      expect(await publicVersion(nodeId, '1.0.0')).toMatchObject({
        deprecated: true,
        deprecation_message: 'Old message',
      })
    })
  })

  describe('a whole node', () => {
    it('is deprecated with a message by its owner and undone; the public sees both', async () => {
      const nodeId = await newNode()
      const before = await get<Node>(h.app, `/nodes/${nodeId}`)
      expect(before.body).toMatchObject({ deprecated: false, deprecation_message: '' })

      const reply = await send<Node>(h.app, 'PUT', nodeUrl(nodeId), {
        as: owner,
        body: { deprecated: true, deprecation_message: 'Moved into comfy-demo/better-node.' },
      })
      expect(reply.status).toBe(200)
      expect(reply.body).toMatchObject({
        deprecated: true,
        deprecation_message: 'Moved into comfy-demo/better-node.',
      })
      const shown = await get<Node>(h.app, `/nodes/${nodeId}`)
      expect(shown.body).toMatchObject({
        deprecated: true,
        deprecation_message: 'Moved into comfy-demo/better-node.',
        status: 'NodeStatusActive',
      })
      // Versions keep their own flags: the node's deprecation does not rewrite them.
      expect(shown.body.latest_version).toMatchObject({ version: '1.1.0', deprecated: false })
      const listed = await get<Node[]>(h.app, `/publishers/${publisherId}/nodes`)
      expect(listed.body.find((n) => n.id === nodeId)?.deprecated).toBe(true)

      // Other fields in the same request still apply; the deprecation is left alone.
      const renamed = await send<Node>(h.app, 'PUT', nodeUrl(nodeId), {
        as: owner,
        body: { name: 'Renamed' },
      })
      expect(renamed.body).toMatchObject({ name: 'Renamed', deprecated: true })

      const undone = await send<Node>(h.app, 'PUT', nodeUrl(nodeId), {
        as: admin,
        body: { deprecated: false },
      })
      expect(undone.status).toBe(200)
      const after = await get<Node>(h.app, `/nodes/${nodeId}`)
      expect(after.body).toMatchObject({ deprecated: false, deprecation_message: '' })
    })

    it('is never changed by a publish, whatever its node fields carry', async () => {
      const nodeId = await newNode()
      await send(h.app, 'PUT', nodeUrl(nodeId), {
        as: owner,
        body: { deprecated: true, deprecation_message: 'Kept.' },
      })
      const token = await send<{ token: string }>(
        h.app,
        'POST',
        `/publishers/${publisherId}/tokens`,
        {
          as: owner,
          body: { name: 'ci' },
        },
      )
      expect(token.status).toBe(201)
      const published = await send(h.app, 'POST', `${nodeUrl(nodeId)}/versions`, {
        body: {
          personal_access_token: token.body.token,
          node: { id: nodeId, name: 'Published', deprecated: false, deprecation_message: '' },
          node_version: { version: '3.0.0', dependencies: [] },
        },
      })
      expect(published.status).toBe(201)
      const node = await get<Node>(h.app, `/nodes/${nodeId}`)
      expect(node.body).toMatchObject({
        name: 'Published',
        deprecated: true,
        deprecation_message: 'Kept.',
      })
    })

    it('refuses bad input, members and strangers with a 4xx JSON and changes nothing', async () => {
      const nodeId = await newNode()
      const url = nodeUrl(nodeId)
      await expectUnchanged(
        () =>
          send(h.app, 'PUT', url, {
            as: owner,
            body: { deprecated: true, deprecation_message: 'y'.repeat(501) },
          }),
        400,
      )
      await expectUnchanged(
        () => send(h.app, 'PUT', url, { as: owner, body: { deprecated: 1 } }),
        400,
      )
      await expectUnchanged(
        () => send(h.app, 'PUT', url, { as: owner, body: { deprecation_message: 'alone' } }),
        400,
      )
      // A refused message leaves a valid name in the same request unwritten too.
      await expectUnchanged(
        () =>
          send(h.app, 'PUT', url, {
            as: owner,
            body: { name: 'Other', deprecated: false, deprecation_message: 'why' },
          }),
        400,
      )
      for (const caller of [stranger, member]) {
        await expectUnchanged(
          () => send(h.app, 'PUT', url, { as: caller, body: { deprecated: true } }),
          403,
        )
      }
      await expectUnchanged(() => send(h.app, 'PUT', url, { body: { deprecated: true } }), 401)
      const node = await get<Node>(h.app, `/nodes/${nodeId}`)
      expect(node.body).toMatchObject({ deprecated: false, deprecation_message: '' })
    })
  })
})
