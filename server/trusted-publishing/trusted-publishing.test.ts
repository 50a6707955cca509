/**
 * Trusted publishing end to end, against a fake OIDC issuer (server/test/fake-oidc-issuer.ts) and
 * a fake GitHub (server/test/fake-github.ts) on loopback: an owner adds a trusted publisher, a
 * "workflow" exchanges its OIDC token for a publish token, publishes with it as comfy-cli does,
 * and the version records where it came from. Every refusal names what failed and leaves every
 * table (and the archives) exactly as it was.
 */
import { eq } from 'drizzle-orm'
import type { Schemas } from '../http/operations'
import { trustedPublishingTokens } from '../db/schema'
import { buildNodeArchive } from '../seed/archive'
import { signUpUser, uniqueEmail, type TestUser } from '../test/auth'
import { addMember, snapshotState } from '../test/data'
import { startFakeGithub, type FakeGithub } from '../test/fake-github'
import {
  startFakeOidcIssuer,
  type ActionsTokenOptions,
  type FakeOidcIssuer,
} from '../test/fake-oidc-issuer'
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
import { PUBLISH_TOKEN_TTL_MS } from './publish-tokens'

type TrustedPublisher = Schemas['TrustedPublisher']
type ExchangeResponse = Schemas['TrustedPublishingExchangeResponse']
type PublishNodeVersionResponse = Schemas['PublishNodeVersionResponse']
type NodeVersion = Schemas['NodeVersion']
type PersonalAccessToken = Schemas['PersonalAccessToken']
type PublisherEventListResponse = Schemas['PublisherEventListResponse']
type UploadResult = Schemas['UploadResult']

jest.setTimeout(120_000)

const OWNER_LOGIN = 'Octo-Org'
const OWNER_ID = 1001
/** The id of a different account that took the same name later. */
const RECREATED_OWNER_ID = 2002

describe.each(BACKENDS)('trusted publishing on %s', (backend) => {
  let h: TestApp
  let github: FakeGithub
  let issuer: FakeOidcIssuer
  let owner: TestUser
  let member: TestUser
  let stranger: TestUser
  let patSecret: string
  const publisherId = `tp-${backend}`
  let counter = 0

  beforeAll(async () => {
    ;[github, issuer] = await Promise.all([startFakeGithub(), startFakeOidcIssuer()])
    github.addUser(OWNER_LOGIN, OWNER_ID)
    h = await createTestApp({
      postgres: backend === 'postgres',
      env: { GITHUB_API_URL: github.url, TRUSTED_PUBLISHING_ISSUER: issuer.url },
    })
    ;[owner, member, stranger] = await Promise.all([
      signUpUser(uniqueEmail('tp-owner')),
      signUpUser(uniqueEmail('tp-member')),
      signUpUser(uniqueEmail('tp-stranger')),
    ])
    expect(
      (
        await send(h.app, 'POST', '/publishers', {
          as: owner,
          body: { id: publisherId, name: 'TP' },
        })
      ).status,
    ).toBe(201)
    await addMember(h.db, member, publisherId, 'member')
    const token = await send<PersonalAccessToken>(
      h.app,
      'POST',
      `/publishers/${publisherId}/tokens`,
      {
        as: owner,
        body: { name: 'cli' },
      },
    )
    patSecret = token.body.token
  })

  afterAll(async () => {
    await h?.close()
    await github?.close()
    await issuer?.close()
  })

  function zipOf(nodeId: string, version: string): Buffer {
    return Buffer.from(
      buildNodeArchive({
        publisherId,
        node: {
          id: nodeId,
          name: nodeId,
          description: 'Trusted',
          license: 'MIT',
          repository: `https://github.com/${OWNER_LOGIN}/${nodeId}`,
          icon: '',
        },
        version,
        dependencies: [],
        comfyNodes: [],
      }),
    )
  }

  const publish = (nodeId: string, version: string, token: string, publisher = publisherId) =>
    send<PublishNodeVersionResponse>(
      h.app,
      'POST',
      `/publishers/${publisher}/nodes/${nodeId}/versions`,
      {
        body: {
          personal_access_token: token,
          node: {
            id: nodeId,
            name: nodeId,
            repository: `https://github.com/${OWNER_LOGIN}/${nodeId}`,
          },
          node_version: { version },
        },
      },
    )

  const addTrusted = (nodeId: string, body: Record<string, unknown>, as: TestUser = owner) =>
    send<TrustedPublisher>(
      h.app,
      'POST',
      `/publishers/${publisherId}/nodes/${nodeId}/trusted-publishers`,
      {
        as,
        body,
      },
    )

  const exchange = (token: string, nodeId: string) =>
    send<ExchangeResponse>(h.app, 'POST', '/trusted-publishing/exchange', {
      body: { token, node_id: nodeId },
    })

  async function expectUnchanged(call: () => Promise<JsonReply<unknown>>, status: number) {
    const before = await snapshotState(h.db, h.storage)
    const body = expectErrorBody(await call(), status)
    expect(await snapshotState(h.db, h.storage)).toBe(before)
    return body.message
  }

  /** A node published once with the personal access token, trusting `repo` workflow publish.yml. */
  async function trustedNode(options: { environment?: string } = {}) {
    const nodeId = `tp-node-${backend}-${++counter}`
    expect((await publish(nodeId, '0.1.0', patSecret)).status).toBe(201)
    const added = await addTrusted(nodeId, {
      repository_owner: OWNER_LOGIN,
      repository_name: nodeId,
      workflow_filename: 'publish.yml',
      ...(options.environment ? { environment: options.environment } : {}),
    })
    expect(added.status).toBe(201)
    return { nodeId, repository: `${OWNER_LOGIN}/${nodeId}`, trusted: added.body }
  }

  const tokenFor = (repository: string, options: Partial<ActionsTokenOptions> = {}) =>
    issuer.sign({ repository, ownerId: OWNER_ID, ...options })

  it('publishes from a trusted workflow end to end, with provenance and an audit trail', async () => {
    const { nodeId, repository, trusted } = await trustedNode()
    expect(trusted).toMatchObject({
      node_id: nodeId,
      repository_owner: OWNER_LOGIN,
      repository_owner_id: String(OWNER_ID),
      repository_name: nodeId,
      workflow_filename: 'publish.yml',
      environment: '',
      created_by: owner.email,
      last_used_at: null,
    })
    const listed = await get<TrustedPublisher[]>(
      h.app,
      `/publishers/${publisherId}/nodes/${nodeId}/trusted-publishers`,
      { authorization: `Bearer ${owner.idToken}` },
    )
    expect(listed.body.map((row) => row.id)).toEqual([trusted.id])

    const before = Date.now()
    const exchanged = await exchange(
      await tokenFor(repository, {
        sha: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
        runId: '42',
        runAttempt: '2',
      }),
      nodeId,
    )
    expect(exchanged.status).toBe(200)
    expect(exchanged.body).toMatchObject({ node_id: nodeId, publisher_id: publisherId })
    expect(exchanged.body.token).toMatch(/^cr_tp_/)
    const expiresIn = new Date(exchanged.body.expires_at).getTime() - before
    expect(expiresIn).toBeGreaterThan(PUBLISH_TOKEN_TTL_MS - 60_000)
    expect(expiresIn).toBeLessThanOrEqual(PUBLISH_TOKEN_TTL_MS + 1000)
    // Only the hash is stored.
    const stored = await h.db.select().from(trustedPublishingTokens)
    expect(JSON.stringify(stored)).not.toContain(exchanged.body.token)

    const published = await publish(nodeId, '1.0.0', exchanged.body.token)
    expect(published.status).toBe(201)
    const provenance = {
      method: 'workflow',
      repository,
      commit_sha: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
      workflow_filename: 'publish.yml',
      workflow_ref: `${repository}/.github/workflows/publish.yml@refs/tags/v1.0.0`,
      run_url: `https://github.com/${repository}/actions/runs/42/attempts/2`,
    }
    expect(published.body.node_version.provenance).toEqual(provenance)
    const zip = zipOf(nodeId, '1.0.0')
    const uploaded = await request<UploadResult>(h.app, {
      method: 'PUT',
      url: published.body.signedUrl.replace(TEST_PUBLIC_URL, ''),
      headers: { 'content-type': 'application/zip' },
      payload: zip,
    })
    expect(uploaded.status).toBe(200)
    expect(h.storage.keys()).toContain(`${publisherId}/${nodeId}/1.0.0/node.zip`)
    const version = await get<NodeVersion>(h.app, `/nodes/${nodeId}/versions/1.0.0`, {
      authorization: `Bearer ${owner.idToken}`,
    })
    expect(version.body.provenance).toEqual(provenance)
    // The earlier publish with the personal access token says so.
    const first = await get<NodeVersion>(h.app, `/nodes/${nodeId}/versions/0.1.0`, {
      authorization: `Bearer ${owner.idToken}`,
    })
    expect(first.body.provenance).toEqual({ method: 'token', token_name: 'cli' })

    const after = await get<TrustedPublisher[]>(
      h.app,
      `/publishers/${publisherId}/nodes/${nodeId}/trusted-publishers`,
      { authorization: `Bearer ${owner.idToken}` },
    )
    expect(after.body[0].last_used_at).not.toBeNull()

    // The audit trail, newest first, for this node.
    const events = await get<PublisherEventListResponse>(
      h.app,
      `/publishers/${publisherId}/events?limit=100`,
      { authorization: `Bearer ${owner.idToken}` },
    )
    expect(events.status).toBe(200)
    const mine = events.body.events.filter((event) => event.node_id === nodeId)
    expect(mine.map((event) => [event.kind, event.actor, event.detail])).toEqual([
      [
        'version.publish',
        `workflow ${repository}`,
        `Published version 1.0.0 of node '${nodeId}' from ${repository}@a1b2c3d by workflow publish.yml.`,
      ],
      [
        'trusted_publisher.add',
        owner.email,
        `Trusted ${repository}, workflow publish.yml to publish node '${nodeId}'.`,
      ],
      [
        'version.publish',
        'token cli',
        `Published version 0.1.0 of node '${nodeId}' with token 'cli'.`,
      ],
    ])
    const all = events.body.events
    const times = all.map((event) => event.created_at)
    expect([...times].sort().reverse()).toEqual(times)
    // Paging: the second event alone on page 2 of 1.
    const page2 = await get<PublisherEventListResponse>(
      h.app,
      `/publishers/${publisherId}/events?limit=1&page=2`,
      { authorization: `Bearer ${owner.idToken}` },
    )
    expect(page2.body).toMatchObject({
      total: all.length,
      page: 2,
      limit: 1,
      totalPages: all.length,
    })
    expect(page2.body.events.map((event) => event.id)).toEqual([all[1].id])
    // Token creation is in the trail too (publisher-wide: no node).
    expect(all.at(-1)).toMatchObject({ kind: 'token.create', actor: owner.email, node_id: '' })
  })

  it('refuses the audit trail and the trusted publishers to all but owners and admins', async () => {
    const { nodeId } = await trustedNode()
    for (const user of [member, stranger]) {
      const headers = { authorization: `Bearer ${user.idToken}` }
      expectErrorBody(await get(h.app, `/publishers/${publisherId}/events`, headers), 403)
      expectErrorBody(
        await get(h.app, `/publishers/${publisherId}/nodes/${nodeId}/trusted-publishers`, headers),
        403,
      )
      await expectUnchanged(
        () =>
          addTrusted(
            nodeId,
            { repository_owner: OWNER_LOGIN, repository_name: 'x', workflow_filename: 'a.yml' },
            user,
          ),
        403,
      )
    }
    expectErrorBody(await get(h.app, `/publishers/${publisherId}/events`), 401)
  })

  it('records token creation and deletion in the audit trail', async () => {
    const auth = { authorization: `Bearer ${owner.idToken}` }
    const created = await send<PersonalAccessToken>(
      h.app,
      'POST',
      `/publishers/${publisherId}/tokens`,
      {
        as: owner,
        body: { name: 'short-lived' },
      },
    )
    expect(
      (
        await send(h.app, 'DELETE', `/publishers/${publisherId}/tokens/${created.body.id}`, {
          as: owner,
        })
      ).status,
    ).toBe(204)
    const events = await get<PublisherEventListResponse>(
      h.app,
      `/publishers/${publisherId}/events?limit=2`,
      auth,
    )
    expect(events.body.events.map((event) => [event.kind, event.detail])).toEqual([
      ['token.delete', "Deleted token 'short-lived'."],
      ['token.create', "Created token 'short-lived'."],
    ])
  })

  it('pins the owner id from GitHub; refuses unknown owners, duplicates, and GitHub down', async () => {
    const { nodeId } = await trustedNode()
    const missing = await expectUnchanged(
      () =>
        addTrusted(nodeId, {
          repository_owner: 'nobody-here',
          repository_name: 'repo',
          workflow_filename: 'publish.yml',
        }),
      400,
    )
    expect(missing).toBe(
      "Invalid field 'repository_owner': GitHub has no user or organisation 'nobody-here'.",
    )
    // The same repository, workflow and environment in other letter cases is the same one.
    const duplicate = await expectUnchanged(
      () =>
        addTrusted(nodeId, {
          repository_owner: OWNER_LOGIN.toLowerCase(),
          repository_name: nodeId.toUpperCase(),
          workflow_filename: 'PUBLISH.yml',
        }),
      409,
    )
    expect(duplicate).toContain('already trusts')
    // Another environment of the same workflow is another trusted publisher.
    const withEnvironment = await addTrusted(nodeId, {
      repository_owner: OWNER_LOGIN,
      repository_name: nodeId,
      workflow_filename: 'publish.yml',
      environment: 'release',
    })
    expect(withEnvironment.status).toBe(201)
    github.setDown(true)
    try {
      const down = await expectUnchanged(
        () =>
          addTrusted(nodeId, {
            repository_owner: OWNER_LOGIN,
            repository_name: 'other',
            workflow_filename: 'publish.yml',
          }),
        502,
      )
      expect(down).toBe(`GitHub could not be reached to look up '${OWNER_LOGIN}'. Try again later.`)
    } finally {
      github.setDown(false)
    }
  })

  it('refuses OIDC tokens that do not verify, each by name, writing nothing', async () => {
    const { nodeId, repository } = await trustedNode()
    const cases: [string, () => Promise<string>, string][] = [
      [
        'wrong audience',
        () => tokenFor(repository, { audience: 'other-registry' }),
        "The OIDC token's audience is 'other-registry'; this registry expects 'comfy-registry'.",
      ],
      [
        'wrong issuer',
        () => tokenFor(repository, { issuer: 'https://token.example.test' }),
        `The OIDC token's issuer is 'https://token.example.test'; this registry trusts '${issuer.url}'.`,
      ],
      [
        'expired',
        () => tokenFor(repository, { issuedAt: 1_700_000_000, lifetime: 300 }),
        `The OIDC token expired at ${new Date((1_700_000_000 + 300) * 1000).toISOString()}; request a new one.`,
      ],
      [
        'not yet valid',
        () =>
          tokenFor(repository, {
            issuedAt: Math.floor(Date.now() / 1000),
            notBefore: 3600,
            lifetime: 7200,
          }),
        'The OIDC token is not valid before',
      ],
      [
        'key not in the JWKS',
        () => tokenFor(repository, { key: 'unpublished' }),
        `The OIDC token is signed with a key that ${issuer.url} does not publish.`,
      ],
      ['not a JWT', async () => 'not-a-jwt', 'The OIDC token is not a JWT'],
      [
        'no repository_owner_id',
        () => tokenFor(repository, { omit: ['repository_owner_id'] }),
        "The OIDC token has no 'repository_owner_id' claim.",
      ],
    ]
    for (const [name, make, message] of cases) {
      const token = await make()
      const refused = await expectUnchanged(() => exchange(token, nodeId), 401)
      expect({ name, refused: refused.slice(0, message.length) }).toEqual({
        name,
        refused: message,
      })
    }
  })

  it('refuses tokens of other repositories, owners, workflows and environments', async () => {
    const { nodeId, repository } = await trustedNode()
    const { nodeId: guarded, repository: guardedRepository } = await trustedNode({
      environment: 'release',
    })
    const cases: [string, string, () => Promise<string>, string][] = [
      [
        'another repository',
        nodeId,
        () => tokenFor(`${OWNER_LOGIN}/something-else`),
        `No trusted publisher of node '${nodeId}' matches repository '${OWNER_LOGIN}/something-else'.`,
      ],
      [
        'a re-created owner account',
        nodeId,
        () => issuer.sign({ repository, ownerId: RECREATED_OWNER_ID }),
        `The owner of repository '${repository}' has GitHub id ${RECREATED_OWNER_ID}, but node '${nodeId}' trusts the owner with id ${OWNER_ID}`,
      ],
      [
        'another workflow',
        nodeId,
        () => tokenFor(repository, { workflow: 'release.yml' }),
        `No trusted publisher of node '${nodeId}' matches repository '${repository}' workflow 'release.yml'.`,
      ],
      [
        'no environment',
        guarded,
        () => tokenFor(guardedRepository),
        `The trusted publisher of node '${guarded}' for '${guardedRepository}' workflow 'publish.yml' requires environment 'release'; this job ran in no environment.`,
      ],
      [
        'another environment',
        guarded,
        () => tokenFor(guardedRepository, { environment: 'staging' }),
        `The trusted publisher of node '${guarded}' for '${guardedRepository}' workflow 'publish.yml' requires environment 'release'; this job ran in environment 'staging'.`,
      ],
    ]
    for (const [name, node, make, message] of cases) {
      const token = await make()
      const refused = await expectUnchanged(() => exchange(token, node), 403)
      expect({ name, refused: refused.slice(0, message.length) }).toEqual({
        name,
        refused: message,
      })
    }
    // The right environment (in any letter case) passes.
    expect(
      (await exchange(await tokenFor(guardedRepository, { environment: 'Release' }), guarded))
        .status,
    ).toBe(200)
    // A node that does not exist.
    const unknown = await expectUnchanged(
      async () => exchange(await tokenFor(repository), `no-such-node-${backend}`),
      404,
    )
    expect(unknown).toBe(`Node 'no-such-node-${backend}' does not exist.`)
  })

  it('refuses a replayed OIDC token', async () => {
    const { nodeId, repository } = await trustedNode()
    const token = await tokenFor(repository, { jti: `replayed-${backend}` })
    expect((await exchange(token, nodeId)).status).toBe(200)
    const replay = await expectUnchanged(() => exchange(token, nodeId), 401)
    expect(replay).toBe(
      `The OIDC token 'replayed-${backend}' was already exchanged; request a new OIDC token for each publish.`,
    )
  })

  it('stops at once when the trusted publisher is removed, before or after the exchange', async () => {
    const { nodeId, repository, trusted } = await trustedNode()
    const exchanged = await exchange(await tokenFor(repository), nodeId)
    expect(exchanged.status).toBe(200)
    const removed = await send(
      h.app,
      'DELETE',
      `/publishers/${publisherId}/nodes/${nodeId}/trusted-publishers/${trusted.id}`,
      { as: owner },
    )
    expect(removed.status).toBe(204)
    // Between exchange and publish.
    const refused = await expectUnchanged(() => publish(nodeId, '1.0.0', exchanged.body.token), 403)
    expect(refused).toBe(
      `Invalid field 'personal_access_token': the trusted publisher that minted this publish token was removed from node '${nodeId}'.`,
    )
    // Before the exchange.
    const noLonger = await expectUnchanged(
      async () => exchange(await tokenFor(repository), nodeId),
      403,
    )
    expect(noLonger).toBe(
      `Node '${nodeId}' has no trusted publishers. Add one in the node's settings first.`,
    )
    const events = await get<PublisherEventListResponse>(
      h.app,
      `/publishers/${publisherId}/events?limit=1`,
      {
        authorization: `Bearer ${owner.idToken}`,
      },
    )
    expect(events.body.events[0]).toMatchObject({
      kind: 'trusted_publisher.remove',
      actor: owner.email,
      node_id: nodeId,
      detail: `Stopped trusting ${repository}, workflow publish.yml to publish node '${nodeId}'.`,
    })
    // Removing it again: nothing to remove.
    await expectUnchanged(
      () =>
        send(
          h.app,
          'DELETE',
          `/publishers/${publisherId}/nodes/${nodeId}/trusted-publishers/${trusted.id}`,
          {
            as: owner,
          },
        ),
      404,
    )
  })

  it('publishes once, one node, until it expires; a refused publish leaves it unused', async () => {
    const a = await trustedNode()
    const b = await trustedNode()
    const exchanged = await exchange(await tokenFor(a.repository), a.nodeId)
    const token = exchanged.body.token
    const otherNode = await expectUnchanged(() => publish(b.nodeId, '1.0.0', token), 403)
    expect(otherNode).toBe(
      `Invalid field 'personal_access_token': this publish token is for node '${a.nodeId}'; a publish token only publishes the node it was minted for.`,
    )
    // A refused publish (the version exists already) does not spend it.
    expectErrorBody(await publish(a.nodeId, '0.1.0', token), 400)
    expect((await publish(a.nodeId, '1.0.0', token)).status).toBe(201)
    const twice = await expectUnchanged(() => publish(a.nodeId, '1.0.1', token), 401)
    expect(twice).toBe(
      "Invalid field 'personal_access_token': this publish token was already used; each one publishes once. Exchange a new OIDC token for the next publish.",
    )
    const late = await exchange(await tokenFor(a.repository), a.nodeId)
    const past = new Date(Date.now() - 1000)
    // Expire the latest minted token of node A.
    const rows = await h.db
      .select()
      .from(trustedPublishingTokens)
      .where(eq(trustedPublishingTokens.nodeId, a.nodeId))
    const newest = rows.reduce((x, y) => (new Date(x.createdAt) > new Date(y.createdAt) ? x : y))
    await h.db
      .update(trustedPublishingTokens)
      .set({ expiresAt: past })
      .where(eq(trustedPublishingTokens.id, newest.id))
    const expired = await expectUnchanged(() => publish(a.nodeId, '1.0.1', late.body.token), 401)
    expect(expired).toBe(
      `Invalid field 'personal_access_token': this publish token expired at ${past.toISOString()} (they last 15 minutes). Exchange a new OIDC token.`,
    )
    const forged = await expectUnchanged(() => publish(a.nodeId, '1.0.1', 'cr_tp_0000_forged'), 401)
    expect(forged).toContain('the publish token is not valid')
  })
})
