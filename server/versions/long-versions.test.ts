/**
 * Versions with long numeric parts (issue 28, point 1): date-stamped packs publish versions such
 * as `1.0.2608210019`. Numbers up to 2^64 − 1 are accepted through the real publish path and
 * compared as numbers in the listings, `latest_version`, install and the SQL order; 2^64 is
 * refused with a clear message and writes nothing.
 */
import { eq } from 'drizzle-orm'
import { nodeVersions } from '../db/schema'
import { versionSemverDesc } from '../db/ordering'
import { compareVersions } from '../db/semver'
import type { Schemas } from '../http/operations'
import { buildNodeArchive } from '../seed/archive'
import { signUpUser, signUpVerifiedUser, uniqueEmail, type TestUser } from '../test/auth'
import { insertNodeWithVersions, snapshotState } from '../test/data'
import {
  BACKENDS,
  createTestApp,
  expectErrorBody,
  get,
  request,
  send,
  TEST_PUBLIC_URL,
  type TestApp,
} from '../test/harness'

type Node = Schemas['Node']
type NodeVersion = Schemas['NodeVersion']
type PersonalAccessToken = Schemas['PersonalAccessToken']
type PublishNodeVersionResponse = Schemas['PublishNodeVersionResponse']

jest.setTimeout(60_000)

const MAX = '18446744073709551615' // 2^64 − 1
const OVER = '18446744073709551616' // 2^64

describe.each(BACKENDS)('versions with long numbers on %s', (backend) => {
  let h: TestApp
  let owner: TestUser
  let admin: TestUser
  let secret: string
  const publisherId = `long-${backend}`

  beforeAll(async () => {
    h = await createTestApp({ postgres: backend === 'postgres', nodes: 4, publishers: 2 })
    ;[owner, admin] = await Promise.all([
      signUpUser(uniqueEmail('owner')),
      signUpVerifiedUser(h.adminEmail),
    ])
    const created = await send(h.app, 'POST', '/publishers', {
      as: owner,
      body: { id: publisherId, name: publisherId },
    })
    expect(created.status).toBe(201)
    const token = await send<PersonalAccessToken>(
      h.app,
      'POST',
      `/publishers/${publisherId}/tokens`,
      { as: owner, body: { name: 'cli' } },
    )
    secret = token.body.token ?? ''
    // The first test database after a migration change builds its template (slow on a busy machine).
  }, 180_000)

  afterAll(async () => {
    await h?.close()
  })

  function publish(nodeId: string, version: string) {
    return send<PublishNodeVersionResponse>(
      h.app,
      'POST',
      `/publishers/${publisherId}/nodes/${nodeId}/versions`,
      {
        body: {
          personal_access_token: secret,
          node: { repository: `https://github.com/test/${nodeId}` },
          node_version: { version },
        },
      },
    )
  }

  /** Publishes as comfy-cli does (the call, then the zip) and has an admin approve it. */
  async function publishActive(nodeId: string, version: string): Promise<void> {
    const reply = await publish(nodeId, version)
    expect([version, reply.status]).toEqual([version, 201])
    expect(reply.body.node_version.version).toBe(version)
    const zip = buildNodeArchive({
      publisherId,
      node: {
        id: nodeId,
        name: nodeId,
        description: 'Date-stamped versions',
        license: 'MIT',
        repository: `https://github.com/test/${nodeId}`,
        icon: '',
      },
      version,
      dependencies: [],
      comfyNodes: [],
    })
    const stored = await request(h.app, {
      method: 'PUT',
      url: reply.body.signedUrl.replace(TEST_PUBLIC_URL, ''),
      headers: { 'content-type': 'application/zip' },
      payload: Buffer.from(zip),
    })
    expect(stored.status).toBe(200)
    const approved = await send<NodeVersion>(
      h.app,
      'PUT',
      `/admin/nodes/${nodeId}/versions/${version}`,
      { as: admin, body: { status: 'NodeVersionStatusActive', status_reason: 'ok' } },
    )
    expect([version, approved.status]).toEqual([version, 200])
  }

  const listed = async (nodeId: string) =>
    (await get<NodeVersion[]>(h.app, `/nodes/${nodeId}/versions`)).body.map((v) => v.version)

  it('publishes 1.0.2608210019 and orders it by number against 1.0.99 and 1.0.10000000000', async () => {
    const nodeId = `dated-pack-${backend}`
    // Published out of order, so that neither creation time nor string order gives the answer.
    for (const version of ['1.0.10000000000', '1.0.99', '1.0.2608210019']) {
      await publishActive(nodeId, version)
    }
    expect(await listed(nodeId)).toEqual(['1.0.10000000000', '1.0.2608210019', '1.0.99'])
    expect((await get<Node>(h.app, `/nodes/${nodeId}`)).body.latest_version?.version).toBe(
      '1.0.10000000000',
    )
    expect((await get<NodeVersion>(h.app, `/nodes/${nodeId}/install`)).body.version).toBe(
      '1.0.10000000000',
    )

    // Without the longest one, the date-stamped version is the latest.
    const banned = await send(h.app, 'PUT', `/admin/nodes/${nodeId}/versions/1.0.10000000000`, {
      as: admin,
      body: { status: 'NodeVersionStatusBanned', status_reason: 'test' },
    })
    expect(banned.status).toBe(200)
    expect((await get<Node>(h.app, `/nodes/${nodeId}`)).body.latest_version?.version).toBe(
      '1.0.2608210019',
    )
    expect(await listed(nodeId)).toEqual(['1.0.2608210019', '1.0.99'])
    for (const url of [
      `/nodes/${nodeId}/install?version=1.0.2608210019`,
      `/nodes/${nodeId}/versions/1.0.2608210019`,
      `/nodes/${nodeId}/install`,
    ]) {
      const reply = await get<NodeVersion>(h.app, url)
      expect([url, reply.status, reply.body.version]).toEqual([url, 200, '1.0.2608210019'])
    }
    // In the node lists too.
    const search = await get<{ nodes: Node[] }>(h.app, `/nodes/search?search=${nodeId}`)
    expect(search.body.nodes.find((n) => n.id === nodeId)?.latest_version?.version).toBe(
      '1.0.2608210019',
    )
  })

  it('accepts 2^64 − 1 in every part and ranks it highest', async () => {
    const nodeId = `max-pack-${backend}`
    for (const version of [`1.0.${MAX}`, `${MAX}.${MAX}.${MAX}`, '1.0.99']) {
      await publishActive(nodeId, version)
    }
    expect(await listed(nodeId)).toEqual([`${MAX}.${MAX}.${MAX}`, `1.0.${MAX}`, '1.0.99'])
    expect((await get<Node>(h.app, `/nodes/${nodeId}`)).body.latest_version?.version).toBe(
      `${MAX}.${MAX}.${MAX}`,
    )
    // The same number is the same version.
    const again = await publish(nodeId, `1.0.${MAX}+build.1`)
    expect(expectErrorBody(again, 400).message).toMatch(/already published/)
  })

  it('refuses 2^64 with a 400 that says the limit, and writes nothing', async () => {
    const before = await snapshotState(h.db, h.storage)
    for (const [nodeId, version] of [
      // A new node (the first publish would create it) and an existing one.
      [`over-pack-${backend}`, `1.0.${OVER}`],
      [`dated-pack-${backend}`, `1.0.${OVER}`],
      [`dated-pack-${backend}`, `${OVER}.0.0`],
      [`dated-pack-${backend}`, `1.${OVER}.0`],
      [`dated-pack-${backend}`, `1.0.0-rc.${OVER}`],
      [`dated-pack-${backend}`, '1.0.123456789012345678901'],
    ]) {
      const body = expectErrorBody(await publish(nodeId, version), 400)
      expect({ version, message: body.message }).toEqual({
        version,
        message: expect.stringMatching(
          /'node_version\.version'.*semantic version.*at most 18446744073709551615/,
        ),
      })
    }
    expect(await snapshotState(h.db, h.storage)).toBe(before)
    expectErrorBody(await get(h.app, `/nodes/over-pack-${backend}`), 404)

    // Reading with such a version is refused the same way (a query and a path parameter).
    for (const url of [
      `/nodes/dated-pack-${backend}/install?version=1.0.${OVER}`,
      `/nodes/dated-pack-${backend}/versions/1.0.${OVER}`,
    ]) {
      const body = expectErrorBody(await get(h.app, url), 400)
      expect([url, body.message]).toEqual([url, expect.stringContaining('18446744073709551615')])
    }
    expect(await snapshotState(h.db, h.storage)).toBe(before)
  })

  it('orders prereleases by semver §11 through publishing (numbers by value, below text)', async () => {
    const nodeId = `pre-pack-${backend}`
    const newestFirst = [
      '2.0.0',
      '2.0.0-beta.a',
      `2.0.0-beta.${MAX}`,
      '2.0.0-beta.2608210019',
      '2.0.0-beta.10',
      '2.0.0-beta.2',
      '2.0.0-beta',
      '2.0.0-alpha-x',
      '2.0.0-alpha.beta',
      '2.0.0-alpha.1',
      '2.0.0-Z',
      '2.0.0-10',
      '2.0.0-9',
      '1.0.2608210019',
    ]
    for (const version of [...newestFirst].sort()) await publishActive(nodeId, version)
    expect(await listed(nodeId)).toEqual(newestFirst)
    expect((await get<Node>(h.app, `/nodes/${nodeId}`)).body.latest_version?.version).toBe('2.0.0')
  })

  it('orders versions in SQL exactly as compareVersions does', async () => {
    const nodeId = `sql-order-${backend}`
    const versions = [
      '0.0.1',
      '1.0.99',
      '1.0.999999999',
      '1.0.1000000000',
      '1.0.2608210019',
      '1.0.10000000000',
      '1.0.9007199254740993',
      `1.0.${MAX}`,
      `1.${MAX}.0`,
      `${MAX}.0.0`,
      '10.0.0',
      '9.0.0',
      '1.0.0-0',
      '1.0.0-1',
      '1.0.0-11',
      '1.0.0-2',
      `1.0.0-${MAX}`,
      '1.0.0-a',
      '1.0.0-a.1',
      '1.0.0-a.1.a',
      '1.0.0-a.1.1',
      '1.0.0-a.b',
      '1.0.0-a-b',
      '1.0.0-ab',
      '1.0.0-B',
      '1.0.0-b.11',
      '1.0.0-b.9',
      '1.0.0',
    ]
    await insertNodeWithVersions(
      h.db,
      { id: nodeId, publisherId },
      versions.map((version) => ({ version, status: 'NodeVersionStatusActive' as const })),
    )
    const rows = await h.db
      .select({ version: nodeVersions.version })
      .from(nodeVersions)
      .where(eq(nodeVersions.nodeId, nodeId))
      .orderBy(...versionSemverDesc)
    expect(rows.map((row) => row.version)).toEqual(
      [...versions].sort((a, b) => compareVersions(b, a)),
    )
  })
})
