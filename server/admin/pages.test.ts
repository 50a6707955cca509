/**
 * Admins' changes regenerate the public pages they touch, as the pipeline and the owners' edits
 * do: the API posts to a (fake, loopback) website's revalidation route with the shared secret,
 * for the nodes whose versions were decided, the node banned or unbanned, every Active node of a
 * banned or unbanned publisher, and whatever an undo restored. A refused call refreshes nothing.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { publishers } from '../db/schema'
import { REVALIDATE_SECRET_HEADER } from '../pipeline/page-refresh'
import type { Schemas } from '../http/operations'
import { signUpUser, signUpVerifiedUser, type TestUser } from '../test/auth'
import { addMember, insertNodeWithVersions, setNodeStatus, type VersionSpec } from '../test/data'
import { BACKENDS, createTestApp, send, type TestApp } from '../test/harness'

type AdminVersionDecisionsResponse = Schemas['AdminVersionDecisionsResponse']
type AdminActionListResponse = Schemas['AdminActionListResponse']

jest.setTimeout(120_000)

const SECRET = 'page-refresh-secret'
const ACTIVE = 'NodeVersionStatusActive' as const
const PENDING = 'NodeVersionStatusPending' as const

describe.each(BACKENDS)('admin changes refresh public pages on %s', (backend) => {
  let web: http.Server
  /** Node ids the website was asked to regenerate, in order. */
  const refreshed: string[] = []
  const refused: string[] = []
  let h: TestApp
  let admin: TestUser
  let owner: TestUser
  let counter = 0

  beforeAll(async () => {
    web = http.createServer((request, response) => {
      const match = /^\/api\/revalidate\/nodes\/([^/?]+)$/.exec(request.url ?? '')
      const secretOk = request.headers[REVALIDATE_SECRET_HEADER] === SECRET
      if (request.method === 'POST' && match && secretOk) {
        refreshed.push(decodeURIComponent(match[1]))
        response.writeHead(204).end()
      } else {
        refused.push(`${request.method} ${request.url}`)
        response.writeHead(403).end()
      }
    })
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve))
    const { port } = web.address() as AddressInfo
    h = await createTestApp({
      postgres: backend === 'postgres',
      nodes: 6,
      publishers: 2,
      env: { WEB_INTERNAL_URL: `http://127.0.0.1:${port}`, REVALIDATE_SECRET: SECRET },
    })
    ;[admin, owner] = await Promise.all([signUpVerifiedUser(h.adminEmail), signUpUser()])
  })

  afterAll(async () => {
    await h?.close()
    await new Promise((resolve) => web.close(resolve))
  })

  beforeEach(() => {
    refreshed.length = 0
  })

  afterEach(() => {
    expect(refused).toEqual([])
  })

  /** A publisher owned by `owner` with nodes (each with the given versions). */
  async function fixture(nodeCount: number, versions: readonly VersionSpec[]) {
    const n = ++counter
    const publisherId = `pr-${backend}-${n}`
    await h.db.insert(publishers).values({ id: publisherId, name: `Page refresh ${n}` })
    await addMember(h.db, owner, publisherId, 'owner')
    const nodeIds: string[] = []
    for (let i = 0; i < nodeCount; i++) {
      const nodeId = `pr-node-${backend}-${n}-${i}`
      await insertNodeWithVersions(
        h.db,
        { id: nodeId, publisherId, repository: `https://github.com/pr/${nodeId}` },
        versions,
      )
      nodeIds.push(nodeId)
    }
    return { publisherId, nodeIds }
  }

  /** Waits until the website was asked for exactly these pages (in any order). */
  async function expectRefreshed(nodeIds: string[]) {
    const deadline = Date.now() + 10_000
    while (refreshed.length < nodeIds.length && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    // Anything more would arrive about as fast as what was awaited.
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect([...refreshed].sort()).toEqual([...nodeIds].sort())
    refreshed.length = 0
  }

  it('after a decision on one version, and not after a refused one', async () => {
    const { nodeIds } = await fixture(1, [
      { version: '1.0.0', status: ACTIVE },
      { version: '1.1.0', status: PENDING },
    ])
    const url = `/admin/nodes/${nodeIds[0]}/versions/1.1.0`
    const denied = await send(h.app, 'PUT', url, { as: owner, body: { status: ACTIVE } })
    expect(denied.status).toBe(403)
    const approved = await send(h.app, 'PUT', url, { as: admin, body: { status: ACTIVE } })
    expect(approved.status).toBe(200)
    await expectRefreshed([nodeIds[0]])
  })

  it('after a batch decision: each node once', async () => {
    const a = await fixture(2, [
      { version: '1.0.0', status: PENDING },
      { version: '1.1.0', status: PENDING },
    ])
    const reply = await send<AdminVersionDecisionsResponse>(
      h.app,
      'POST',
      '/admin/versions/decisions',
      {
        as: admin,
        body: {
          versions: [
            { node_id: a.nodeIds[0], version: '1.0.0' },
            { node_id: a.nodeIds[0], version: '1.1.0' },
            { node_id: a.nodeIds[1], version: '1.1.0' },
          ],
          status: ACTIVE,
          reason: 'Reviewed',
        },
      },
    )
    expect(reply.status).toBe(200)
    await expectRefreshed(a.nodeIds)
    // Undoing the batch changes the same pages back.
    const undo = await send(h.app, 'POST', `/admin/batches/${reply.body.batch_id}/undo`, {
      as: admin,
    })
    expect(undo.status).toBe(200)
    await expectRefreshed(a.nodeIds)
  })

  it('after a node is banned, unbanned, and a ban is undone; not when nothing changed', async () => {
    const { nodeIds } = await fixture(1, [{ version: '1.0.0', status: ACTIVE }])
    const url = `/admin/nodes/${nodeIds[0]}`
    const ban = { status: 'NodeStatusBanned', status_reason: 'Malware' }
    expect((await send(h.app, 'PUT', url, { as: admin, body: ban })).status).toBe(200)
    await expectRefreshed([nodeIds[0]])
    // Banned already: nothing changes, nothing is refreshed.
    expect((await send(h.app, 'PUT', url, { as: admin, body: ban })).status).toBe(200)
    await expectRefreshed([])
    const unban = { status: 'NodeStatusActive' }
    expect((await send(h.app, 'PUT', url, { as: admin, body: unban })).status).toBe(200)
    await expectRefreshed([nodeIds[0]])
    const actions = await send<AdminActionListResponse>(
      h.app,
      'GET',
      `/admin/actions?subject_id=${nodeIds[0]}&action=node.unban`,
      { as: admin },
    )
    const [unbanned] = actions.body.actions
    const undo = await send(h.app, 'POST', `/admin/actions/${unbanned.id}/undo`, { as: admin })
    expect(undo.status).toBe(200)
    await expectRefreshed([nodeIds[0]])
  })

  it('after a publisher is banned or unbanned: its Active nodes’ pages', async () => {
    const { publisherId, nodeIds } = await fixture(3, [{ version: '1.0.0', status: ACTIVE }])
    // A banned node's page stays gone either way.
    await setNodeStatus(h.db, nodeIds[2], 'NodeStatusBanned')
    const url = `/admin/publishers/${publisherId}`
    const denied = await send(h.app, 'PUT', url, {
      as: owner,
      body: { status: 'PublisherStatusBanned', status_reason: 'Spam' },
    })
    expect(denied.status).toBe(403)
    const banned = await send(h.app, 'PUT', url, {
      as: admin,
      body: { status: 'PublisherStatusBanned', status_reason: 'Spam' },
    })
    expect(banned.status).toBe(200)
    await expectRefreshed(nodeIds.slice(0, 2))
    const unbanned = await send(h.app, 'PUT', url, {
      as: admin,
      body: { status: 'PublisherStatusActive' },
    })
    expect(unbanned.status).toBe(200)
    await expectRefreshed(nodeIds.slice(0, 2))
  })

  it('after an admin creates a node', async () => {
    const id = `pr-created-${backend}`
    const created = await send(h.app, 'POST', '/admin/nodes', {
      as: admin,
      body: { id, name: 'Created', repository: `https://github.com/pr/${id}` },
    })
    expect(created.status).toBe(201)
    await expectRefreshed([id])
  })
})
