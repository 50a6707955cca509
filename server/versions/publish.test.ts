/**
 * Publishing as comfy-cli does it (token in the body, then the zip to the signedUrl), and the
 * owners' and admins' changes to versions afterwards.
 */
import { eq } from 'drizzle-orm'
import type { Schemas } from '../http/operations'
import { pendingUploads } from '../db/schema'
import { runMaintenance } from '../system/maintenance'
import { attachDemoMembership } from '../seed/accounts'
import { buildNodeArchive } from '../seed/archive'
import { createToken } from '../tokens/tokens'
import { signUpUser, signUpVerifiedUser, uniqueEmail, type TestUser } from '../test/auth'
import { snapshotState } from '../test/data'
import {
  BACKENDS,
  createTestApp,
  expectErrorBody,
  get,
  request,
  send,
  TEST_PUBLIC_URL,
  type JsonReply,
  type TestApp,
} from '../test/harness'

type Node = Schemas['Node']
type NodeVersion = Schemas['NodeVersion']
type PersonalAccessToken = Schemas['PersonalAccessToken']
type Publisher = Schemas['Publisher']
type PublishNodeVersionResponse = Schemas['PublishNodeVersionResponse']
type UploadResult = Schemas['UploadResult']

jest.setTimeout(60_000)

/** A small limit, so the size check can be tested with small bodies. */
const MAX_ARCHIVE_MB = '0.05'

function zipOf(nodeId: string, version: string, description = 'Test node'): Buffer {
  return Buffer.from(
    buildNodeArchive({
      publisherId: 'test',
      node: {
        id: nodeId,
        name: nodeId,
        description,
        license: 'MIT',
        repository: `https://github.com/test/${nodeId}`,
        icon: '',
      },
      version,
      dependencies: ['numpy'],
      comfyNodes: [],
    }),
  )
}

describe.each(BACKENDS)('publishing on %s', (backend) => {
  let h: TestApp
  let owner: TestUser
  let other: TestUser
  let admin: TestUser
  let publisherId: string
  let secret: string
  let otherSecret: string

  beforeAll(async () => {
    h = await createTestApp({
      postgres: backend === 'postgres',
      env: { MAX_ARCHIVE_MB },
    })
    ;[owner, other, admin] = await Promise.all([
      signUpUser(uniqueEmail('owner')),
      signUpUser(uniqueEmail('other')),
      signUpVerifiedUser(h.adminEmail),
    ])
    publisherId = `pub-${backend}`
    const setUp = async (user: TestUser, id: string) => {
      expect(
        (
          await send<Publisher>(h.app, 'POST', '/publishers', {
            as: user,
            body: { id, name: id },
          })
        ).status,
      ).toBe(201)
      const token = await send<PersonalAccessToken>(h.app, 'POST', `/publishers/${id}/tokens`, {
        as: user,
        body: { name: 'cli' },
      })
      return token.body.token
    }
    secret = await setUp(owner, publisherId)
    otherSecret = await setUp(other, `pub-other-${backend}`)
  })

  afterAll(async () => {
    await h?.close()
  })

  const auth = (user: TestUser) => ({ authorization: `Bearer ${user.idToken}` })

  function publish(nodeId: string, body: Record<string, unknown>, token = secret) {
    return send<PublishNodeVersionResponse>(
      h.app,
      'POST',
      `/publishers/${publisherId}/nodes/${nodeId}/versions`,
      { body: { personal_access_token: token, ...body } },
    )
  }

  function upload(signedUrl: string, payload: Buffer | string, contentType = 'application/zip') {
    return request<UploadResult>(h.app, {
      method: 'PUT',
      url: signedUrl.replace(TEST_PUBLIC_URL, ''),
      headers: { 'content-type': contentType },
      payload,
    })
  }

  async function expectUnchanged(call: () => Promise<JsonReply<unknown>>, status: number) {
    const before = await snapshotState(h.db, h.storage)
    const body = expectErrorBody(await call(), status)
    expect(await snapshotState(h.db, h.storage)).toBe(before)
    return body
  }

  it('creates the node on first publish, a Pending version and its upload link', async () => {
    const nodeId = `fresh-node-${backend}`
    const reply = await publish(nodeId, {
      node: {
        id: nodeId,
        name: 'Fresh Node',
        description: 'Published from the CLI',
        repository: `https://github.com/test/${nodeId}`,
        license: 'MIT',
        tags: ['image'],
      },
      node_version: { version: '1.0.0', changelog: 'First', dependencies: ['numpy'] },
    })
    expect(reply.status).toBe(201)
    expect(reply.body.node_version).toMatchObject({
      version: '1.0.0',
      status: 'NodeVersionStatusPending',
      changelog: 'First',
      dependencies: ['numpy'],
      node_id: nodeId,
    })
    expect(reply.body.signedUrl).toMatch(new RegExp(`^${TEST_PUBLIC_URL}/uploads/[A-Za-z0-9_-]+$`))
    const node = (await get<Node>(h.app, `/nodes/${nodeId}`)).body
    expect(node).toMatchObject({
      name: 'Fresh Node',
      license: 'MIT',
      tags: ['image'],
      publisher: { id: publisherId },
    })
    expect(node).not.toHaveProperty('latest_version')

    // Pending versions are for the publisher's eyes only.
    expect((await get<NodeVersion[]>(h.app, `/nodes/${nodeId}/versions`)).body).toEqual([])
    const pendingQuery = `/nodes/${nodeId}/versions?statuses=NodeVersionStatusPending`
    expect((await get(h.app, pendingQuery)).body).toEqual([])
    expect((await get(h.app, pendingQuery, auth(other))).body).toEqual([])
    const own = await get<NodeVersion[]>(h.app, pendingQuery, auth(owner))
    expect(own.body.map((v) => v.version)).toEqual(['1.0.0'])

    const zip = zipOf(nodeId, '1.0.0')
    const stored = await upload(reply.body.signedUrl, zip)
    expect(stored.status).toBe(200)
    expect(stored.body).toEqual({
      node_id: nodeId,
      version: '1.0.0',
      size: zip.byteLength,
      status: 'NodeVersionStatusPending',
      // Queued for the pipeline's checks (server/pipeline/pipeline.test.ts follows it on).
      pipeline_state: 'queued',
    })
    expect(h.storage.keys()).toContain(`${publisherId}/${nodeId}/1.0.0/node.zip`)
    // Not reviewed yet: the archive is not public, but its publisher and admins can fetch it.
    const archiveUrl = `/archives/${nodeId}/1.0.0.zip`
    expectErrorBody(await get(h.app, archiveUrl), 404)
    expectErrorBody(await get(h.app, archiveUrl, auth(other)), 404)
    for (const caller of [owner, admin]) {
      const fetched = await h.app.inject({ method: 'GET', url: archiveUrl, headers: auth(caller) })
      expect(fetched.statusCode).toBe(200)
      expect(fetched.headers['cache-control']).toBe('private, no-store')
      expect(fetched.rawPayload.equals(zip)).toBe(true)
    }
    const ownView = await get<NodeVersion[]>(
      h.app,
      `/nodes/${nodeId}/versions?statuses=NodeVersionStatusPending&include_status_reason=true`,
      auth(owner),
    )
    expect(ownView.body[0].downloadUrl).toBe(`${TEST_PUBLIC_URL}${archiveUrl}`)
    const publicView = await get<NodeVersion>(h.app, `/nodes/${nodeId}/versions/1.0.0`, auth(other))
    expect(publicView.status).toBe(404)
    // A client that missed the answer retries: the same bytes get the same answer, others a 409.
    const before = await snapshotState(h.db, h.storage)
    const retry = await upload(reply.body.signedUrl, zip)
    expect({ status: retry.status, body: retry.body }).toEqual({
      status: 200,
      body: stored.body,
    })
    expect(await snapshotState(h.db, h.storage)).toBe(before)
    const different = await expectUnchanged(
      () => upload(reply.body.signedUrl, zipOf(nodeId, '1.0.0', 'other bytes')),
      409,
    )
    expect(different.message).toMatch(/already has its archive/)
    expect((await h.storage.get(`${publisherId}/${nodeId}/1.0.0/node.zip`))?.byteLength).toBe(
      zip.byteLength,
    )

    // An admin approves it: now it is the latest version and installable.
    const approved = await send<NodeVersion>(
      h.app,
      'PUT',
      `/admin/nodes/${nodeId}/versions/1.0.0`,
      { as: admin, body: { status: 'NodeVersionStatusActive', status_reason: 'Looks good' } },
    )
    expect(approved.body.status).toBe('NodeVersionStatusActive')
    // An admin's decision, in the shape today's registry's admin tools read.
    expect(JSON.parse(approved.body.status_reason ?? '')).toEqual({
      message: 'Looks good',
      by: admin.email,
      statusHistory: [
        { status: 'NodeVersionStatusActive', message: 'Looks good', by: admin.email },
      ],
    })
    expect((await get<Node>(h.app, `/nodes/${nodeId}`)).body.latest_version?.version).toBe('1.0.0')
    const install = await get<NodeVersion>(h.app, `/nodes/${nodeId}/install`)
    expect(install.status).toBe(200)
    const download = await h.app.inject({
      method: 'GET',
      url: (install.body.downloadUrl ?? '').replace(TEST_PUBLIC_URL, ''),
    })
    expect(download.rawPayload.equals(zip)).toBe(true)
  })

  it('updates the node on later publishes and refuses a version twice', async () => {
    const nodeId = `second-node-${backend}`
    expect((await publish(nodeId, { node: {}, node_version: { version: '0.1.0' } })).status).toBe(
      201,
    )
    const node = (await get<Node>(h.app, `/nodes/${nodeId}`)).body
    expect(node.name).toBe(nodeId)
    const next = await publish(nodeId.toUpperCase(), {
      node: { name: '', description: 'Now described' },
      node_version: { version: '0.2.0' },
    })
    expect(next.status).toBe(201)
    expect(next.body.node_version.node_id).toBe(nodeId)
    const updated = (await get<Node>(h.app, `/nodes/${nodeId}`)).body
    expect(updated).toMatchObject({ name: nodeId, description: 'Now described' })

    for (const version of ['0.2.0', '0.2.0+build.5']) {
      const body = await expectUnchanged(
        () => publish(nodeId, { node: {}, node_version: { version } }),
        400,
      )
      expect(body.message).toMatch(/already published/)
    }
  })

  it('refuses bad tokens, other publishers’ nodes and bad input, changing nothing', async () => {
    const nodeId = `refused-${backend}`
    const base = { node: {}, node_version: { version: '1.0.0' } }
    expect(
      (await expectUnchanged(() => publish(nodeId, base, 'cr_pat_nope'), 401)).message,
    ).toMatch(/personal_access_token/)
    expect((await expectUnchanged(() => publish(nodeId, base, otherSecret), 403)).message).toMatch(
      /another publisher/,
    )
    expect(
      (await expectUnchanged(() => publish('comfyui-demo-upscaler', base), 403)).message,
    ).toMatch(/another publisher/)
    expect(
      (await expectUnchanged(() => publish(nodeId, { ...base, node: { id: 'other-id' } }), 400))
        .message,
    ).toContain("'node.id'")
    expect(
      (
        await expectUnchanged(
          () => publish(nodeId, { node: {}, node_version: { version: 'v1' } }),
          400,
        )
      ).message,
    ).toContain('version')
    expect(
      (
        await expectUnchanged(
          () =>
            publish(nodeId, {
              node: { repository: 'not a url' },
              node_version: { version: '1.0.0' },
            }),
          400,
        )
      ).message,
    ).toContain("'repository'")
    const upscaler = (await get<Node>(h.app, '/nodes/comfyui-demo-upscaler')).body
    expect(
      (
        await expectUnchanged(
          () =>
            publish(nodeId, {
              node: { repository: upscaler.repository },
              node_version: { version: '1.0.0' },
            }),
          400,
        )
      ).message,
    ).toMatch(/already belongs/)
    await expectUnchanged(
      () =>
        send(h.app, 'POST', `/publishers/${publisherId}/nodes/${nodeId}/versions`, {
          body: base,
          as: owner,
        }),
      400,
    )
  })

  it('checks the upload: zip content type, a real zip, the size limit, expiry', async () => {
    const nodeId = `upload-${backend}`
    const link = (await publish(nodeId, { node: {}, node_version: { version: '1.0.0' } })).body
      .signedUrl
    expect(
      (await expectUnchanged(() => upload(link, '{"a":1}', 'application/json'), 415)).message,
    ).toMatch(/application\/zip/)
    expect(
      (await expectUnchanged(() => upload(link, Buffer.from('not a zip at all')), 400)).message,
    ).toMatch(/not a valid zip/)
    const tooBig = Buffer.alloc(Math.ceil(Number(MAX_ARCHIVE_MB) * 1024 * 1024) + 1, 1)
    expect((await expectUnchanged(() => upload(link, tooBig), 413)).message).toMatch(/too large/)
    expectErrorBody(await upload(`${TEST_PUBLIC_URL}/uploads/short`, zipOf(nodeId, '1.0.0')), 400)
    // After refusals the link still works once.
    expect((await upload(link, zipOf(nodeId, '1.0.0'))).status).toBe(200)

    const late = (await publish(nodeId, { node: {}, node_version: { version: '1.0.1' } })).body
      .signedUrl
    await h.db.update(pendingUploads).set({ expiresAt: new Date(Date.now() - 1000) })
    expect(
      (await expectUnchanged(() => upload(late, zipOf(nodeId, '1.0.1')), 404)).message,
    ).toMatch(/expired/)
    // Links expired for more than a day are removed by the API's maintenance.
    const rows = () =>
      h.db
        .select()
        .from(pendingUploads)
        .where(eq(pendingUploads.storageKey, `${publisherId}/${nodeId}/1.0.1/node.zip`))
    expect(await rows()).toHaveLength(1)
    await runMaintenance(h, Date.now() + 2 * 24 * 60 * 60 * 1000)
    expect(await rows()).toEqual([])
  })

  it('takes comfy-cli’s null for a missing pyproject.toml entry as not sent', async () => {
    const nodeId = `nulls-${backend}`
    const reply = await publish(nodeId, {
      node: {
        id: nodeId,
        name: null,
        description: null,
        icon: null,
        license: null,
        repository: null,
      },
      node_version: { version: '1.0.0', dependencies: null, changelog: null },
    })
    expect(reply.status).toBe(201)
    expect((await get<Node>(h.app, `/nodes/${nodeId}`)).body).toMatchObject({
      name: nodeId,
      description: '',
    })
    // Elsewhere null is not a string: strict validation.
    expectErrorBody(
      await send(h.app, 'PUT', `/publishers/${publisherId}/nodes/${nodeId}`, {
        as: owner,
        body: { description: null },
      }),
      400,
    )
  })

  it('deleting the personal access token revokes the upload links it made', async () => {
    const nodeId = `revoked-${backend}`
    const extra = await send<PersonalAccessToken>(
      h.app,
      'POST',
      `/publishers/${publisherId}/tokens`,
      {
        as: owner,
        body: { name: 'short-lived' },
      },
    )
    const link = (
      await publish(nodeId, { node: {}, node_version: { version: '1.0.0' } }, extra.body.token)
    ).body.signedUrl
    const deleted = await send(
      h.app,
      'DELETE',
      `/publishers/${publisherId}/tokens/${extra.body.id}`,
      {
        as: owner,
      },
    )
    expect(deleted.status).toBe(204)
    expect(
      (await expectUnchanged(() => upload(link, zipOf(nodeId, '1.0.0')), 404)).message,
    ).toMatch(/token was deleted/)
  })

  describe('changing versions', () => {
    const nodeId = 'comfyui-demo-upscaler'
    const versionsUrl = `/publishers/comfy-demo/nodes/${nodeId}/versions`
    let demoOwner: TestUser

    beforeAll(async () => {
      demoOwner = await signUpUser(uniqueEmail('demo-owner'))
      await attachDemoMembership(h.db, demoOwner.uid, demoOwner.email, 'Demo Owner')
    })

    it('edits the changelog and deprecation, by version string or id', async () => {
      const changed = await send<NodeVersion>(h.app, 'PUT', `${versionsUrl}/1.9.0`, {
        as: demoOwner,
        body: { changelog: 'Fixed things', deprecated: true },
      })
      expect(changed.status).toBe(200)
      expect(changed.body).toMatchObject({ changelog: 'Fixed things', deprecated: true })
      const back = await send<NodeVersion>(h.app, 'PUT', `${versionsUrl}/${changed.body.id}`, {
        as: demoOwner,
        body: { deprecated: false },
      })
      expect(back.body).toMatchObject({ changelog: 'Fixed things', deprecated: false })
      const publicView = await get<NodeVersion>(h.app, `/nodes/${nodeId}/versions/1.9.0`)
      expect(publicView.body.changelog).toBe('Fixed things')
      await expectUnchanged(
        () =>
          send(h.app, 'PUT', `${versionsUrl}/9.9.9`, { as: demoOwner, body: { deprecated: true } }),
        404,
      )
      await expectUnchanged(
        () =>
          send(h.app, 'PUT', `${versionsUrl}/1.9.0`, {
            as: demoOwner,
            body: { changelog: 'x'.repeat(10_001) },
          }),
        400,
      )
      await expectUnchanged(
        () => send(h.app, 'PUT', `${versionsUrl}/1.9.0`, { as: other, body: { deprecated: true } }),
        403,
      )
    })

    it('deletes a version: hidden, its archive deleted, latest recomputed, number never reused', async () => {
      expect((await get<Node>(h.app, `/nodes/${nodeId}`)).body.latest_version?.version).toBe(
        '1.10.0',
      )
      const archive = h.storage.keys().find((key) => key.endsWith(`/${nodeId}/1.10.0/node.zip`))
      expect(archive).toBeDefined()
      expect((await send(h.app, 'DELETE', `${versionsUrl}/1.10.0`, { as: demoOwner })).status).toBe(
        204,
      )
      expect((await get<Node>(h.app, `/nodes/${nodeId}`)).body.latest_version?.version).toBe(
        '1.9.0',
      )
      expectErrorBody(await get(h.app, `/nodes/${nodeId}/versions/1.10.0`), 404)
      const asAdmin = await get<NodeVersion[]>(
        h.app,
        `/nodes/${nodeId}/versions?statuses=NodeVersionStatusDeleted`,
        auth(admin),
      )
      expect(asAdmin.body.map((v) => v.version)).toEqual(['1.10.0'])
      // Deleting a version deletes its archive: even admins cannot bring it back.
      expect(h.storage.keys()).not.toContain(archive)
      const restore = () =>
        send(h.app, 'PUT', `/admin/nodes/${nodeId}/versions/1.10.0`, {
          as: admin,
          body: { status: 'NodeVersionStatusActive', status_reason: 'Undo' },
        })
      expect((await expectUnchanged(restore, 409)).message).toMatch(/deleted with its archive/)
      await expectUnchanged(
        () => send(h.app, 'DELETE', `${versionsUrl}/1.10.0`, { as: demoOwner }),
        404,
      )
      const demoToken = await createToken(h.db, 'comfy-demo', {
        name: 'demo',
        description: '',
        expiresInDays: null,
      })
      const republish = await send(h.app, 'POST', `${versionsUrl}`, {
        body: {
          personal_access_token: demoToken.secret,
          node: {},
          node_version: { version: '1.10.0' },
        },
      })
      expect(expectErrorBody(republish, 400).message).toMatch(/already published/)
    })

    it('lets admins set any status with a reason the owner can read', async () => {
      const flagged = await send<NodeVersion>(
        h.app,
        'PUT',
        `/admin/nodes/${nodeId}/versions/1.9.0`,
        {
          as: admin,
          body: { status: 'NodeVersionStatusFlagged', status_reason: 'Suspicious download' },
        },
      )
      expect(flagged.status).toBe(200)
      expect((await get<Node>(h.app, `/nodes/${nodeId}`)).body.latest_version?.version).toBe(
        '1.8.0',
      )
      const own = await get<NodeVersion[]>(
        h.app,
        `/nodes/${nodeId}/versions?statuses=NodeVersionStatusFlagged&include_status_reason=true`,
        auth(demoOwner),
      )
      expect(own.body[0].version).toBe('1.9.0')
      expect(JSON.parse(own.body[0].status_reason ?? '')).toMatchObject({
        message: 'Suspicious download',
        statusHistory: [{ status: 'NodeVersionStatusFlagged', message: 'Suspicious download' }],
      })
      await expectUnchanged(
        () =>
          send(h.app, 'PUT', `/admin/nodes/${nodeId}/versions/1.9.0`, {
            as: admin,
            body: { status: 'Whatever' },
          }),
        400,
      )
      await expectUnchanged(
        () =>
          send(h.app, 'PUT', `/admin/nodes/${nodeId}/versions/7.7.7`, {
            as: admin,
            body: { status: 'NodeVersionStatusActive' },
          }),
        404,
      )
      expect(
        (
          await send(h.app, 'PUT', `/admin/nodes/${nodeId}/versions/1.9.0`, {
            as: admin,
            body: { status: 'NodeVersionStatusActive' },
          })
        ).status,
      ).toBe(200)
    })
  })
})
