/**
 * Claiming an unclaimed node: ownership of its GitHub repository is proven through the GitHub
 * API, here a local fake (server/test/fake-github.ts) at GITHUB_API_URL.
 */
import { eq } from 'drizzle-orm'
import type { Schemas } from '../http/operations'
import { nodes } from '../db/schema'
import { parseGithubRepository } from './github'
import { signUpUser, signUpVerifiedUser, uniqueEmail, type TestUser } from '../test/auth'
import { addMember, insertNodeWithVersions, snapshotState } from '../test/data'
import { startFakeGithub, type FakeGithub } from '../test/fake-github'
import { UNCLAIMED_PUBLISHER } from '@/src/lib/constants'
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
type Publisher = Schemas['Publisher']

jest.setTimeout(60_000)

describe('parseGithubRepository', () => {
  it('reads owner and repository from the usual URL forms only', () => {
    for (const url of [
      'https://github.com/octo/repo',
      'https://github.com/octo/repo/',
      'https://github.com/octo/repo.git',
      'http://www.github.com/octo/repo',
      'github.com/octo/repo',
    ]) {
      expect({ url, ref: parseGithubRepository(url) }).toEqual({
        url,
        ref: { owner: 'octo', repo: 'repo' },
      })
    }
    for (const url of [
      '',
      'https://gitlab.com/octo/repo',
      'https://github.com/octo',
      'https://github.com/octo/repo/tree/main',
      'https://github.com.evil.test/octo/repo',
    ]) {
      expect({ url, ref: parseGithubRepository(url) }).toEqual({ url, ref: null })
    }
  })
})

describe.each(BACKENDS)('claim my node on %s', (backend) => {
  let h: TestApp
  let github: FakeGithub
  let owner: TestUser
  let member: TestUser
  let publisherId: string
  let counter = 0

  beforeAll(async () => {
    github = await startFakeGithub()
    h = await createTestApp({
      postgres: backend === 'postgres',
      env: { GITHUB_API_URL: github.url },
    })
    ;[owner, member] = await Promise.all([
      signUpUser(uniqueEmail('owner')),
      signUpUser(uniqueEmail('member')),
      signUpVerifiedUser(h.adminEmail),
    ])
    publisherId = `claimer-${backend}`
    const created = await send<Publisher>(h.app, 'POST', '/publishers', {
      as: owner,
      body: { id: publisherId, name: 'Claimer' },
    })
    expect(created.status).toBe(201)
  })

  afterAll(async () => {
    await h?.close()
    await github?.close()
  })

  /** An unclaimed node (as an admin creates it) for a repository known to the fake GitHub. */
  async function unclaimedNode(options: { private?: boolean; repository?: string } = {}) {
    const n = ++counter
    const nodeId = `unclaimed-${backend}-${n}`
    const fullName = `octo-${backend}/${nodeId}`
    github.addRepository(fullName, { private: options.private })
    await insertNodeWithVersions(
      h.db,
      {
        id: nodeId,
        publisherId: UNCLAIMED_PUBLISHER.id,
        repository: options.repository ?? `https://github.com/${fullName}`,
      },
      [{ version: '1.0.0', status: 'NodeVersionStatusActive' }],
    )
    return { nodeId, fullName }
  }

  const claim = (nodeId: string, token: string, as: TestUser = owner, publisher = publisherId) =>
    send(h.app, 'POST', `/publishers/${publisher}/nodes/${nodeId}/claim-my-node`, {
      as,
      body: { GH_TOKEN: token },
    })

  async function expectUnchanged(call: () => Promise<JsonReply<unknown>>, status: number) {
    const before = await snapshotState(h.db)
    const body = expectErrorBody(await call(), status)
    expect(await snapshotState(h.db)).toBe(before)
    return body
  }

  it('moves the node into the publisher when the token’s user maintains the repository', async () => {
    const { nodeId, fullName } = await unclaimedNode()
    github.grant('gh-maintainer', fullName, 'maintain')
    const seen = github.authorizations.length
    const reply = await claim(nodeId, 'gh-maintainer')
    expect(reply.status).toBe(204)
    expect(github.authorizations.slice(seen)).toEqual(['Bearer gh-maintainer'])
    const node = (await get<Node>(h.app, `/nodes/${nodeId}`)).body
    expect(node.publisher?.id).toBe(publisherId)
    const listed = await get<Node[]>(h.app, `/publishers/${publisherId}/nodes`)
    expect(listed.body.map((n) => n.id)).toContain(nodeId)
    // Claimed nodes cannot be claimed again.
    github.grant('gh-maintainer-2', fullName, 'admin')
    expect((await expectUnchanged(() => claim(nodeId, 'gh-maintainer-2'), 409)).message).toMatch(
      /already belongs/,
    )
  })

  it('also accepts admin rights', async () => {
    const { nodeId, fullName } = await unclaimedNode()
    github.grant('gh-admin', fullName, 'admin')
    expect((await claim(nodeId, 'gh-admin')).status).toBe(204)
  })

  it('refuses a token whose user has no admin or maintain rights', async () => {
    const { nodeId, fullName } = await unclaimedNode()
    github.grant('gh-writer', fullName, 'write')
    const body = await expectUnchanged(() => claim(nodeId, 'gh-writer'), 403)
    expect(body.message).toMatch(/admin or maintain/)
    expect(body.message).toContain(fullName)
  })

  it('refuses a token for another repository (public or private)', async () => {
    const { fullName: mine } = await unclaimedNode()
    github.grant('gh-elsewhere', mine, 'admin')
    const publicOther = await unclaimedNode()
    expect(
      (await expectUnchanged(() => claim(publicOther.nodeId, 'gh-elsewhere'), 403)).message,
    ).toMatch(/admin or maintain/)
    const privateOther = await unclaimedNode({ private: true })
    expect(
      (await expectUnchanged(() => claim(privateOther.nodeId, 'gh-elsewhere'), 403)).message,
    ).toMatch(/cannot access/)
  })

  it('refuses a revoked token with a clear message', async () => {
    const { nodeId, fullName } = await unclaimedNode()
    github.grant('gh-revoked', fullName, 'admin')
    github.revoke('gh-revoked')
    const body = await expectUnchanged(() => claim(nodeId, 'gh-revoked'), 400)
    expect(body.message).toMatch(/GH_TOKEN.*revoked/)
  })

  it('needs an owner of the publisher, an unclaimed node and a GitHub repository', async () => {
    const { nodeId, fullName } = await unclaimedNode()
    github.grant('gh-ok', fullName, 'admin')
    await addMember(h.db, member, publisherId, 'member')
    expect((await expectUnchanged(() => claim(nodeId, 'gh-ok', member), 403)).message).toMatch(
      /owners/,
    )
    await expectUnchanged(() => claim(nodeId, 'gh-ok', owner, 'comfy-demo'), 403)
    await expectUnchanged(() => claim('no-such-node', 'gh-ok'), 404)
    await expectUnchanged(() => claim('comfyui-demo-upscaler', 'gh-ok'), 409)
    await expectUnchanged(
      () =>
        send(h.app, 'POST', `/publishers/${publisherId}/nodes/${nodeId}/claim-my-node`, {
          as: owner,
          body: {},
        }),
      400,
    )
    const notGithub = await unclaimedNode({ repository: 'https://gitlab.com/octo/thing' })
    expect((await expectUnchanged(() => claim(notGithub.nodeId, 'gh-ok'), 400)).message).toMatch(
      /GitHub repository/,
    )
    await h.db.update(nodes).set({ status: 'NodeStatusDeleted' }).where(eq(nodes.id, nodeId))
    await expectUnchanged(() => claim(nodeId, 'gh-ok'), 404)
  })

  it('answers 502 when GitHub cannot be reached', async () => {
    const { nodeId } = await unclaimedNode()
    // The last test: the fake goes away for good.
    await github.close()
    const body = await expectUnchanged(() => claim(nodeId, 'gh-any'), 502)
    expect(body.message).toMatch(/GitHub/)
  })
})
