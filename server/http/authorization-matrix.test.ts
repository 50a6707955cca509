/**
 * The authorization matrix: every write operation of openapi.yml (POST, PUT, PATCH, DELETE, and
 * GETs marked `x-changes-state`) and every admin operation (tag `admin`, reads included),
 * called as anonymous, another signed-in user, a member (role `member`), an owner, an admin and
 * the owner of a banned publisher. Each call gets fresh fixtures (its own publisher, node,
 * versions, token, upload link and unclaimed node); the status must match the row, a refusal
 * must leave the database and the archives exactly as they were, and a successful write must
 * change them (a read never does). A write or admin operation added to the contract without a
 * row here fails the first tests.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { listOperations, loadContract } from './contract'
import {
  adminActions,
  customers,
  nodes,
  nodeVersionReadmes,
  nodeVersions,
  publisherInvitations,
  publisherMembers,
  publishers,
  releases,
  trustedPublishers,
  users,
} from '../db/schema'
import { buildNodeArchive } from '../seed/archive'
import { createToken } from '../tokens/tokens'
import { openAccount } from '../customers/accounts'
import { createApiKey } from '../customers/api-keys'
import { signUpUser, signUpVerifiedUser, uniqueEmail, type TestUser } from '../test/auth'
import { insertNodeWithVersions, insertUploadLink, snapshotState } from '../test/data'
import { startFakeGithub, type FakeGithub } from '../test/fake-github'
import { startFakeProvider, type FakeProvider } from '../test/fake-provider'
import { startFakeOidcIssuer, type FakeOidcIssuer } from '../test/fake-oidc-issuer'
import { keyVariable, PROVIDERS, urlVariable } from '../proxy/providers'
import { BACKENDS, createTestApp, request, type TestApp } from '../test/harness'
import { UNCLAIMED_PUBLISHER } from '@/src/lib/constants'

jest.setTimeout(120_000)

const ROLES = ['anonymous', 'stranger', 'member', 'owner', 'admin', 'banned'] as const
type Role = (typeof ROLES)[number]

/** What one call works on: made fresh for every (operation, role) pair. */
interface Fixture {
  n: number
  /** The target publisher: active (owned by `owner`) or, for the `banned` role, banned. */
  publisherId: string
  nodeId: string
  tokenId: string
  tokenSecret: string
  uploadToken: string
  unclaimedNodeId: string
  memberUid: string
  /** A pending invitation to the publisher, sent to the stranger's (verified) address. */
  invitationId: string
  /** An admin action to undo (set by the undo rows' `prepare`). */
  actionId?: string
  batchId?: string
  /** A publisher without members (set by adminUpdatePublisher's `prepare`). */
  lonePublisherId?: string
  /** The publisher's owner (the banned one for the `banned` role). */
  ownerUid: string
  /** The owner's credit account and one of its API keys (set by the customer rows' `prepare`). */
  customerId?: string
  apiKeyId?: string
  /** A release note to edit (set by updateRelease's `prepare`). */
  releaseId?: number
  /** A trusted publisher of the node, and an OIDC token from its workflow (trusted publishing). */
  trustedPublisherId?: string
  oidcToken?: string
}

interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  url: string
  body?: unknown
  zip?: Uint8Array
  /** Send the role's bearer token (default true; anonymous never has one). */
  bearer?: boolean
  /** Other headers (e.g. a webhook's signature). */
  headers?: Record<string, string>
  /** The client's address (default loopback, as `inject` sends). */
  remoteAddress?: string
}

interface Row {
  operationId: string
  call(f: Fixture, role: Role): Call
  expect: Record<Role, number>
  /** Adjusts the fixture before the snapshot (e.g. deleting nodes before deletePublisher). */
  prepare?(f: Fixture): Promise<void>
  /** A read: it changes nothing, even when it succeeds. */
  read?: boolean
}

/** The usual answer of a write that needs an owner of the publisher (or an admin). */
const OWNER_WRITE = (ok: number): Record<Role, number> => ({
  anonymous: 401,
  stranger: 403,
  member: 403,
  owner: ok,
  admin: ok,
  banned: 403,
})

/** Anyone signed in (their own things). */
const SIGNED_IN = (ok: number): Record<Role, number> => ({
  anonymous: 401,
  stranger: ok,
  member: ok,
  owner: ok,
  admin: ok,
  banned: ok,
})

/** A read of a version that is not public: the publisher's members and admins only. */
const HIDDEN_READ: Record<Role, number> = {
  anonymous: 404,
  stranger: 404,
  member: 200,
  owner: 200,
  admin: 200,
  banned: 200,
}

/** Anyone, signed in or not. */
const ANYONE = (ok: number): Record<Role, number> => ({
  anonymous: ok,
  stranger: ok,
  member: ok,
  owner: ok,
  admin: ok,
  banned: ok,
})

const ADMIN_ONLY = (ok: number): Record<Role, number> => ({
  anonymous: 401,
  stranger: 403,
  member: 403,
  owner: 403,
  admin: ok,
  banned: 403,
})

const GH_TOKEN = 'gh-matrix-token'
/** The GitHub account whose workflows the matrix's trusted publishers trust. */
const TRUSTED_OWNER = { login: 'matrix-org', id: 4242 }
const ZIP = buildNodeArchive({
  publisherId: 'matrix',
  node: {
    id: 'matrix-node',
    name: 'Matrix',
    description: 'Matrix test node',
    license: 'MIT',
    repository: 'https://github.com/matrix/matrix-node',
    icon: '',
  },
  version: '1.1.0',
  dependencies: [],
  comfyNodes: [],
})

describe.each(BACKENDS)('authorization matrix on %s', (backend) => {
  let h: TestApp
  let github: FakeGithub
  let issuer: FakeOidcIssuer
  let provider: FakeProvider
  const users_: Partial<Record<Exclude<Role, 'anonymous'>, TestUser>> = {}
  let spareEmail: string
  let strangerTokenSecret: string
  let counter = 0

  const user = (role: Exclude<Role, 'anonymous'>): TestUser => {
    const found = users_[role]
    if (!found) throw new Error(`no user for ${role}`)
    return found
  }

  async function ensureUserRow(test: TestUser) {
    await h.db
      .insert(users)
      .values({ id: test.uid, email: test.email, name: test.email.split('@')[0] })
      .onConflictDoNothing()
  }

  async function makeFixture(role: Role): Promise<Fixture> {
    const n = ++counter
    const publisherId = `mx-${backend}-${n}`
    const owner = role === 'banned' ? user('banned') : user('owner')
    await h.db.insert(publishers).values({
      id: publisherId,
      name: `Matrix ${n}`,
      status: role === 'banned' ? 'PublisherStatusBanned' : 'PublisherStatusActive',
    })
    await h.db.insert(publisherMembers).values([
      { publisherId, userId: owner.uid, role: 'owner' },
      { publisherId, userId: user('member').uid, role: 'member' },
    ])
    const nodeId = `mx-node-${backend}-${n}`
    await insertNodeWithVersions(
      h.db,
      { id: nodeId, publisherId, repository: `https://github.com/matrix/${nodeId}` },
      [
        { version: '1.0.0', status: 'NodeVersionStatusActive' },
        { version: '1.1.0', status: 'NodeVersionStatusPending' },
      ],
    )
    const { row: token, secret } = await createToken(h.db, publisherId, {
      name: 'fixture',
      description: '',
      expiresInDays: null,
    })
    const uploadToken = await insertUploadLink(h.db, publisherId, nodeId, '1.1.0')
    const unclaimedNodeId = `mx-free-${backend}-${n}`
    await insertNodeWithVersions(
      h.db,
      {
        id: unclaimedNodeId,
        publisherId: UNCLAIMED_PUBLISHER.id,
        repository: `https://github.com/matrix-org/${unclaimedNodeId}`,
      },
      [],
    )
    github.addRepository(`matrix-org/${unclaimedNodeId}`)
    github.grant(GH_TOKEN, `matrix-org/${unclaimedNodeId}`, 'admin')
    const [invitation] = await h.db
      .insert(publisherInvitations)
      .values({
        publisherId,
        email: user('stranger').email.toLowerCase(),
        role: 'member',
        expiresAt: new Date(Date.now() + 60 * 60 * 1000),
      })
      .returning()
    return {
      invitationId: invitation.id,
      n,
      publisherId,
      nodeId,
      tokenId: token.id,
      tokenSecret: secret,
      uploadToken,
      unclaimedNodeId,
      memberUid: user('member').uid,
      ownerUid: owner.uid,
    }
  }

  /** Opens the fixture owner's credit account with one API key. */
  async function withCustomer(f: Fixture) {
    const account = await openAccount(h.db, f.ownerUid)
    f.customerId = account.customer.id
    f.apiKeyId = (
      await createApiKey(h.db, f.customerId, { name: 'matrix', description: '' })
    ).row.id
  }

  /** The node trusts its repository's publish.yml; the fixture gets a fresh token from it. */
  async function withTrustedPublisher(f: Fixture) {
    const [row] = await h.db
      .insert(trustedPublishers)
      .values({
        nodeId: f.nodeId,
        repositoryOwner: TRUSTED_OWNER.login,
        repositoryOwnerId: String(TRUSTED_OWNER.id),
        repositoryName: f.nodeId,
        workflowFilename: 'publish.yml',
      })
      .returning()
    f.trustedPublisherId = row.id
    f.oidcToken = await issuer.sign({
      repository: `${TRUSTED_OWNER.login}/${f.nodeId}`,
      ownerId: TRUSTED_OWNER.id,
    })
  }

  /** Every matrix user has a credit account (so self reads answer 200). */
  async function everyoneACustomer() {
    for (const role of ROLES) if (role !== 'anonymous') await openAccount(h.db, user(role).uid)
  }

  /** Approves the fixture's Pending version as an admin would (status and audit row). */
  async function adminDecision(f: Fixture, batchId: string | null): Promise<string> {
    const [version] = await h.db
      .update(nodeVersions)
      .set({ status: 'NodeVersionStatusActive' })
      .where(and(eq(nodeVersions.nodeId, f.nodeId), eq(nodeVersions.version, '1.1.0')))
      .returning()
    const [action] = await h.db
      .insert(adminActions)
      .values({
        actorId: 'matrix-admin',
        actorEmail: 'matrix-admin@example.com',
        action: 'version.status',
        subjectType: 'node_version',
        subjectId: version.id,
        subjectLabel: `${f.nodeId}@1.1.0`,
        fromValue: 'NodeVersionStatusPending',
        toValue: 'NodeVersionStatusActive',
        batchId,
      })
      .returning()
    return action.id
  }

  const rows: Row[] = [
    {
      operationId: 'createPublisher',
      call: (f) => ({
        method: 'POST',
        url: '/publishers',
        body: { id: `mx-new-${backend}-${f.n}`, name: 'New publisher' },
      }),
      expect: { ...OWNER_WRITE(201), stranger: 201, member: 201 },
    },
    {
      operationId: 'updatePublisher',
      call: (f) => ({ method: 'PUT', url: `/publishers/${f.publisherId}`, body: { name: 'New' } }),
      expect: OWNER_WRITE(200),
    },
    {
      operationId: 'deletePublisher',
      prepare: async (f) => {
        await h.db
          .update(nodes)
          .set({ status: 'NodeStatusDeleted' })
          .where(eq(nodes.publisherId, f.publisherId))
      },
      call: (f) => ({ method: 'DELETE', url: `/publishers/${f.publisherId}` }),
      expect: OWNER_WRITE(204),
    },
    {
      operationId: 'addPublisherMember',
      call: (f) => ({
        method: 'POST',
        url: `/publishers/${f.publisherId}/members`,
        body: { email: spareEmail, role: 'member' },
      }),
      expect: OWNER_WRITE(201),
    },
    {
      operationId: 'updatePublisherMember',
      call: (f) => ({
        method: 'PUT',
        url: `/publishers/${f.publisherId}/members/${f.memberUid}`,
        body: { role: 'owner' },
      }),
      expect: OWNER_WRITE(200),
    },
    {
      operationId: 'removePublisherMember',
      call: (f) => ({
        method: 'DELETE',
        url: `/publishers/${f.publisherId}/members/${f.memberUid}`,
      }),
      // A member may leave (remove themselves).
      expect: { ...OWNER_WRITE(204), member: 204 },
    },
    {
      operationId: 'cancelPublisherInvitation',
      call: (f) => ({
        method: 'DELETE',
        url: `/publishers/${f.publisherId}/invitations/${f.invitationId}`,
      }),
      expect: OWNER_WRITE(204),
    },
    {
      operationId: 'acceptPublisherInvitation',
      // Only the person invited (here the stranger, with that address verified) may accept; for
      // everyone else the invitation does not exist. (A banned publisher's: invitations.test.ts.)
      call: (f) => ({ method: 'POST', url: `/users/invitations/${f.invitationId}` }),
      expect: { anonymous: 401, stranger: 200, member: 404, owner: 404, admin: 404, banned: 404 },
    },
    {
      operationId: 'declinePublisherInvitation',
      call: (f) => ({ method: 'DELETE', url: `/users/invitations/${f.invitationId}` }),
      expect: { anonymous: 401, stranger: 204, member: 404, owner: 404, admin: 404, banned: 404 },
    },
    {
      operationId: 'createNode',
      call: (f) => ({
        method: 'POST',
        url: `/publishers/${f.publisherId}/nodes`,
        body: { id: `mx-created-${backend}-${f.n}`, name: 'Created' },
      }),
      expect: OWNER_WRITE(201),
    },
    {
      operationId: 'updateNode',
      call: (f) => ({
        method: 'PUT',
        url: `/publishers/${f.publisherId}/nodes/${f.nodeId}`,
        // Deprecating the whole node goes through updateNode too (issue 30).
        body: {
          description: 'Changed by the matrix',
          deprecated: true,
          deprecation_message: 'Deprecated by the matrix',
        },
      }),
      expect: OWNER_WRITE(200),
    },
    {
      operationId: 'deleteNode',
      call: (f) => ({ method: 'DELETE', url: `/publishers/${f.publisherId}/nodes/${f.nodeId}` }),
      expect: OWNER_WRITE(204),
    },
    {
      operationId: 'claimMyNode',
      call: (f) => ({
        method: 'POST',
        url: `/publishers/${f.publisherId}/nodes/${f.unclaimedNodeId}/claim-my-node`,
        body: { GH_TOKEN },
      }),
      expect: OWNER_WRITE(204),
    },
    {
      operationId: 'publishNodeVersion',
      // The personal access token in the body is the credential; a bearer token changes nothing.
      // Owners send their publisher's token, the stranger a token of their own publisher, the
      // others (admin included) hold none.
      call: (f, role) => ({
        method: 'POST',
        url: `/publishers/${f.publisherId}/nodes/${f.nodeId}/versions`,
        body: {
          personal_access_token:
            role === 'owner' || role === 'banned'
              ? f.tokenSecret
              : role === 'stranger'
                ? strangerTokenSecret
                : `cr_pat_${randomBytes(32).toString('base64url')}`,
          node: { name: 'Published name' },
          node_version: { version: '2.0.0', changelog: 'Matrix' },
        },
      }),
      expect: {
        anonymous: 401,
        stranger: 403,
        member: 401,
        owner: 201,
        admin: 401,
        banned: 403,
      },
    },
    {
      operationId: 'uploadNodeVersionArchive',
      // The upload link is the credential: only its holder (the publisher) can use it.
      call: (f, role) => ({
        method: 'PUT',
        url: `/uploads/${role === 'owner' || role === 'banned' ? f.uploadToken : randomBytes(24).toString('base64url')}`,
        zip: ZIP,
      }),
      expect: {
        anonymous: 404,
        stranger: 404,
        member: 404,
        owner: 200,
        admin: 404,
        banned: 403,
      },
    },
    {
      operationId: 'updateNodeVersion',
      call: (f) => ({
        method: 'PUT',
        url: `/publishers/${f.publisherId}/nodes/${f.nodeId}/versions/1.0.0`,
        body: { deprecated: true, deprecation_message: 'Deprecated by the matrix' },
      }),
      expect: OWNER_WRITE(200),
    },
    {
      operationId: 'deleteNodeVersion',
      call: (f) => ({
        method: 'DELETE',
        url: `/publishers/${f.publisherId}/nodes/${f.nodeId}/versions/1.0.0`,
      }),
      expect: OWNER_WRITE(204),
    },
    {
      operationId: 'createPersonalAccessToken',
      call: (f) => ({
        method: 'POST',
        url: `/publishers/${f.publisherId}/tokens`,
        body: { name: 'ci', expires_in_days: 30 },
      }),
      expect: OWNER_WRITE(201),
    },
    {
      operationId: 'deletePersonalAccessToken',
      call: (f) => ({ method: 'DELETE', url: `/publishers/${f.publisherId}/tokens/${f.tokenId}` }),
      expect: OWNER_WRITE(204),
    },
    {
      operationId: 'createTrustedPublisher',
      call: (f) => ({
        method: 'POST',
        url: `/publishers/${f.publisherId}/nodes/${f.nodeId}/trusted-publishers`,
        body: {
          repository_owner: TRUSTED_OWNER.login,
          repository_name: f.nodeId,
          workflow_filename: 'publish.yml',
        },
      }),
      expect: OWNER_WRITE(201),
    },
    {
      operationId: 'deleteTrustedPublisher',
      prepare: withTrustedPublisher,
      call: (f) => ({
        method: 'DELETE',
        url: `/publishers/${f.publisherId}/nodes/${f.nodeId}/trusted-publishers/${f.trustedPublisherId}`,
      }),
      expect: OWNER_WRITE(204),
    },
    {
      operationId: 'exchangeTrustedPublishingToken',
      // The OIDC token is the credential; a bearer token changes nothing. The banned publisher's
      // node cannot be published.
      prepare: withTrustedPublisher,
      call: (f) => ({
        method: 'POST',
        url: '/trusted-publishing/exchange',
        body: { token: f.oidcToken, node_id: f.nodeId },
      }),
      expect: { ...ANYONE(200), banned: 403 },
    },
    {
      operationId: 'adminCreateNode',
      call: (f) => ({
        method: 'POST',
        url: '/admin/nodes',
        body: {
          id: `mx-admin-${backend}-${f.n}`,
          name: 'Admin node',
          repository: `https://github.com/mx-admin/mx-admin-${backend}-${f.n}`,
        },
      }),
      expect: ADMIN_ONLY(201),
    },
    {
      operationId: 'adminUpdateNodeVersion',
      call: (f) => ({
        method: 'PUT',
        url: `/admin/nodes/${f.nodeId}/versions/1.1.0`,
        body: { status: 'NodeVersionStatusActive', status_reason: 'Reviewed' },
      }),
      expect: ADMIN_ONLY(200),
    },
    {
      operationId: 'adminUpdateNode',
      call: (f) => ({
        method: 'PUT',
        url: `/admin/nodes/${f.nodeId}`,
        body: { tags_admin: ['dev'], status: 'NodeStatusBanned', status_reason: 'Malware' },
      }),
      expect: ADMIN_ONLY(200),
    },
    {
      operationId: 'adminUpdatePublisher',
      // A publisher of its own, without members: banning the fixture's publisher would make
      // the owner the owner of a banned publisher for the rows that follow.
      prepare: async (f) => {
        f.lonePublisherId = `mx-lone-${backend}-${f.n}`
        await h.db.insert(publishers).values({ id: f.lonePublisherId, name: 'Lone' })
      },
      call: (f) => ({
        method: 'PUT',
        url: `/admin/publishers/${f.lonePublisherId}`,
        body: { status: 'PublisherStatusBanned', status_reason: 'Spam' },
      }),
      expect: ADMIN_ONLY(200),
    },
    {
      operationId: 'adminDecideVersions',
      call: (f) => ({
        method: 'POST',
        url: '/admin/versions/decisions',
        body: {
          versions: [
            { node_id: f.nodeId, version: '1.0.0' },
            { node_id: f.nodeId, version: '1.1.0' },
          ],
          status: 'NodeVersionStatusFlagged',
          reason: 'Matrix review',
        },
      }),
      expect: ADMIN_ONLY(200),
    },
    {
      operationId: 'undoAdminAction',
      // The fixture's version was approved by an admin (an audit row) before the call.
      prepare: async (f) => {
        f.actionId = await adminDecision(f, null)
      },
      call: (f) => ({ method: 'POST', url: `/admin/actions/${f.actionId}/undo` }),
      expect: ADMIN_ONLY(200),
    },
    {
      operationId: 'undoAdminBatch',
      prepare: async (f) => {
        f.batchId = randomUUID()
        await adminDecision(f, f.batchId)
      },
      call: (f) => ({ method: 'POST', url: `/admin/batches/${f.batchId}/undo` }),
      expect: ADMIN_ONLY(200),
    },
    {
      operationId: 'securityScan',
      // Queues the checks of the fixture's Pending version again (it has its archive).
      call: () => ({ method: 'GET', url: '/security-scan?maxNodes=1000' }),
      prepare: async (f) => {
        await h.db
          .update(nodeVersions)
          .set({ storageKey: `${f.publisherId}/${f.nodeId}/1.1.0/node.zip` })
          .where(and(eq(nodeVersions.nodeId, f.nodeId), eq(nodeVersions.version, '1.1.0')))
      },
      expect: ADMIN_ONLY(200),
    },
    {
      operationId: 'postNodeReview',
      // Any signed-in user may rate; the owner of a banned publisher may not write anything.
      call: (f) => ({ method: 'POST', url: `/nodes/${f.nodeId}/reviews?star=4` }),
      expect: { ...OWNER_WRITE(200), stranger: 200, member: 200 },
    },
    {
      operationId: 'getAuthenticatedCustomer',
      // Opening the account is the change: nobody has one before.
      prepare: async () => {
        await h.db.delete(customers)
      },
      call: () => ({ method: 'GET', url: '/customers/me' }),
      expect: SIGNED_IN(200),
    },
    {
      operationId: 'createCustomerApiKey',
      call: () => ({ method: 'POST', url: '/customers/api-keys', body: { name: 'Matrix key' } }),
      expect: SIGNED_IN(201),
    },
    {
      operationId: 'deleteCustomerApiKey',
      prepare: withCustomer,
      call: (f) => ({ method: 'DELETE', url: `/customers/api-keys/${f.apiKeyId}` }),
      // Only the key's customer: the fixture's owner (the banned owner for `banned`).
      expect: {
        anonymous: 401,
        stranger: 404,
        member: 404,
        owner: 204,
        admin: 404,
        banned: 204,
      },
    },
    {
      operationId: 'recordCustomerEvent',
      prepare: withCustomer,
      call: (f) => ({
        method: 'POST',
        url: `/customers/${f.customerId}/events`,
        body: { event_type: 'credit_added', amount_micros: 1_000_000, reason: 'Matrix top-up' },
      }),
      expect: ADMIN_ONLY(201),
    },
    {
      operationId: 'createRelease',
      call: (f) => ({
        method: 'POST',
        url: '/admin/releases',
        body: { project: 'comfyui', version: `1.${f.n}.0`, content: '- Matrix' },
      }),
      expect: ADMIN_ONLY(201),
    },
    {
      operationId: 'updateRelease',
      prepare: async (f) => {
        const [row] = await h.db
          .insert(releases)
          .values({ project: 'desktop', version: `1.${f.n}.0`, content: 'Before' })
          .returning()
        f.releaseId = row.id
      },
      call: (f) => ({
        method: 'PATCH',
        url: `/admin/releases/${f.releaseId}`,
        body: { content: 'After' },
      }),
      expect: ADMIN_ONLY(200),
    },
    {
      operationId: 'receiveReleaseWebhook',
      // GitHub's signature is the credential (RELEASES_WEBHOOK_SECRET); a bearer token is not.
      call: (f) => ({
        method: 'POST',
        url: '/releases',
        headers: {
          'x-github-event': 'release',
          'x-hub-signature-256': `sha256=${'0'.repeat(64)}`,
        },
        body: {
          action: 'published',
          release: { tag_name: `v1.${f.n}.0`, name: 'Matrix', body: '', draft: false },
          repository: { full_name: 'comfyanonymous/ComfyUI' },
        },
      }),
      expect: {
        anonymous: 401,
        stranger: 401,
        member: 401,
        owner: 401,
        admin: 401,
        banned: 401,
      },
    },
    {
      operationId: 'uploadCiArtifact',
      // A CI token of CI_UPLOAD_TOKENS is the credential; no user, admins included, has one.
      call: (f) => ({
        method: 'POST',
        url: '/upload-artifact',
        headers: { 'x-ci-token': 'not-a-ci-token' },
        body: {
          repo: 'comfyanonymous/ComfyUI',
          branch_name: 'master',
          commit_hash: 'abcdef1234567',
          job_id: `matrix-${f.n}`,
          workflow_name: 'matrix',
          os: 'linux',
          status: 'completed',
        },
      }),
      expect: {
        anonymous: 401,
        stranger: 401,
        member: 401,
        owner: 401,
        admin: 401,
        banned: 401,
      },
    },
  ]

  /** Reads with an access rule: the admins' (admin-only) and hidden versions' files. */
  const readRows: Row[] = [
    {
      operationId: 'listCustomers',
      prepare: withCustomer,
      call: () => ({ method: 'GET', url: '/customers?email=owner' }),
      expect: ADMIN_ONLY(200),
      read: true,
    },
    ...(['', '/balance', '/events'] as const).map((suffix): Row => ({
      operationId: {
        '': 'getCustomerById',
        '/balance': 'getCustomerBalanceById',
        '/events': 'getCustomerEventsById',
      }[suffix],
      prepare: withCustomer,
      call: (f) => ({ method: 'GET', url: `/customers/${f.customerId}${suffix}` }),
      expect: ADMIN_ONLY(200),
      read: true,
    })),
    {
      operationId: 'listProxyLookups',
      call: () => ({ method: 'GET', url: '/admin/proxy-lookups' }),
      expect: ADMIN_ONLY(200),
      read: true,
    },
    // Provider lookups: anyone signed in (or a customer's API key, server/proxy/routes.test.ts);
    // each is recorded in proxy_lookups, a log that snapshotState leaves out.
    ...listOperations(loadContract())
      .filter((op) => op.tag === 'proxy')
      .map((op): Row => ({
        operationId: op.operationId,
        call: () => {
          const url = op.path.replace('{id}', 'task-1')
          return {
            method: 'GET',
            url: op.operationId.startsWith('minimax') ? `${url}?task_id=t1` : url,
          }
        },
        expect: SIGNED_IN(200),
        read: true,
      })),
    // A signed-in user's own credit: anyone signed in, about themselves only.
    ...(
      [
        ['getCustomerBalance', '/customers/balance'],
        ['getCustomerEvents', '/customers/events'],
        ['listCustomerApiKeys', '/customers/api-keys'],
      ] as const
    ).map(([operationId, url]): Row => ({
      operationId,
      prepare: everyoneACustomer,
      call: () => ({ method: 'GET', url }),
      expect: SIGNED_IN(200),
      read: true,
    })),
    {
      operationId: 'listAdminActions',
      prepare: async (f) => {
        f.actionId = await adminDecision(f, null)
      },
      call: (f) => ({ method: 'GET', url: `/admin/actions?subject_id=${f.nodeId}` }),
      expect: ADMIN_ONLY(200),
      read: true,
    },
    // Metrics: the machine itself, or a scraper with METRICS_TOKEN; a sign-in token is not it
    // (server/system/observability.test.ts has the allowed cases).
    {
      operationId: 'getMetrics',
      call: () => ({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9' }),
      expect: { anonymous: 403, stranger: 401, member: 401, owner: 401, admin: 401, banned: 401 },
      read: true,
    },
    {
      operationId: 'getAdminOverview',
      call: () => ({ method: 'GET', url: '/admin/overview' }),
      expect: ADMIN_ONLY(200),
      read: true,
    },
    {
      operationId: 'listAdminVersionFiles',
      prepare: (f) => withArchive(f),
      call: (f) => ({ method: 'GET', url: `/admin/nodes/${f.nodeId}/versions/1.1.0/files` }),
      expect: ADMIN_ONLY(200),
      read: true,
    },
    {
      operationId: 'getAdminVersionFile',
      prepare: (f) => withArchive(f),
      call: (f) => ({
        method: 'GET',
        url: `/admin/nodes/${f.nodeId}/versions/1.1.0/file?path=pyproject.toml`,
      }),
      expect: ADMIN_ONLY(200),
      read: true,
    },
    // A Pending version's README and files: its publisher's members (the banned publisher's
    // too) and admins; 404 to everyone else, as its other reads.
    {
      operationId: 'getNodeVersionReadme',
      prepare: (f) => withDocuments(f),
      call: (f) => ({ method: 'GET', url: `/nodes/${f.nodeId}/versions/1.1.0/readme` }),
      expect: HIDDEN_READ,
      read: true,
    },
    {
      operationId: 'getNodeVersionFile',
      prepare: (f) => withDocuments(f),
      call: (f) => ({
        method: 'GET',
        url: `/nodes/${f.nodeId}/versions/1.1.0/file?path=pyproject.toml`,
      }),
      expect: HIDDEN_READ,
      read: true,
    },
    {
      operationId: 'listTrustedPublishers',
      prepare: withTrustedPublisher,
      call: (f) => ({
        method: 'GET',
        url: `/publishers/${f.publisherId}/nodes/${f.nodeId}/trusted-publishers`,
      }),
      expect: OWNER_WRITE(200),
      read: true,
    },
    {
      operationId: 'listPublisherEvents',
      call: (f) => ({ method: 'GET', url: `/publishers/${f.publisherId}/events` }),
      expect: OWNER_WRITE(200),
      read: true,
    },
    // Downloads per day: anyone who may see the node (the banned publisher's owner sees its own).
    {
      operationId: 'getNodeDailyDownloads',
      call: (f) => ({ method: 'GET', url: `/nodes/${f.nodeId}/downloads/daily?days=90` }),
      expect: ANYONE(200),
      read: true,
    },
    // Badges: anyone, credentials or not; the banned publisher's node shows a `banned` badge.
    ...(['getNodeVersionBadge', 'getNodeDownloadsBadge'] as const).map((operationId): Row => ({
      operationId,
      call: (f) => ({
        method: 'GET',
        url: `/badges/${f.nodeId}/${operationId === 'getNodeVersionBadge' ? 'version' : 'downloads'}.svg`,
      }),
      expect: ANYONE(200),
      read: true,
    })),
  ]

  /** Gives the fixture's Pending version its archive, README and licence file, as the pipeline does. */
  async function withDocuments(f: Fixture) {
    await withArchive(f)
    const [version] = await h.db
      .update(nodeVersions)
      .set({ licenseFile: 'pyproject.toml' })
      .where(and(eq(nodeVersions.nodeId, f.nodeId), eq(nodeVersions.version, '1.1.0')))
      .returning()
    await h.db
      .insert(nodeVersionReadmes)
      .values({ nodeVersionId: version.id, path: 'README.md', format: 'markdown', text: '# Hi' })
  }

  /** Gives the fixture's Pending version its archive (in storage, before the snapshot). */
  async function withArchive(f: Fixture) {
    const key = `${f.publisherId}/${f.nodeId}/1.1.0/node.zip`
    await h.storage.put(key, ZIP)
    await h.db
      .update(nodeVersions)
      .set({ storageKey: key })
      .where(and(eq(nodeVersions.nodeId, f.nodeId), eq(nodeVersions.version, '1.1.0')))
  }

  it('has a row for every write operation of openapi.yml, and none for others', () => {
    const writes = listOperations(loadContract())
      .filter((op) => op.changesState)
      .map((op) => op.operationId)
      .sort()
    const covered = rows.map((row) => row.operationId).sort()
    expect({ missingRows: writes.filter((id) => !covered.includes(id)) }).toEqual({
      missingRows: [],
    })
    expect(covered).toEqual(writes)
  })

  it('has a row for every admin operation, its reads included', () => {
    const admin = listOperations(loadContract())
      .filter((op) => op.tag === 'admin')
      .map((op) => op.operationId)
    const covered = [...rows, ...readRows].map((row) => row.operationId)
    expect(admin.filter((id) => !covered.includes(id))).toEqual([])
    // Reads only here, writes only above.
    const reads = listOperations(loadContract()).filter((op) => !op.changesState)
    expect(readRows.map((row) => reads.some((op) => op.operationId === row.operationId))).toEqual(
      readRows.map(() => true),
    )
  })

  beforeAll(async () => {
    github = await startFakeGithub()
    github.addUser(TRUSTED_OWNER.login, TRUSTED_OWNER.id)
    issuer = await startFakeOidcIssuer()
    provider = await startFakeProvider()
    h = await createTestApp({
      postgres: backend === 'postgres',
      nodes: 8,
      publishers: 2,
      env: {
        GITHUB_API_URL: github.url,
        TRUSTED_PUBLISHING_ISSUER: issuer.url,
        RELEASES_WEBHOOK_SECRET: 'matrix-secret',
        CI_UPLOAD_TOKENS: 'matrix-ci-token',
        ...Object.fromEntries(
          PROVIDERS.flatMap((name) => [
            [urlVariable(name), provider.url],
            [keyVariable(name), name === 'kling' ? 'access:secret' : `${name}-key`],
          ]),
        ),
      },
    })
    const [stranger, member, owner, admin, banned, spare] = await Promise.all([
      signUpVerifiedUser(uniqueEmail('stranger')),
      signUpUser(uniqueEmail('member')),
      signUpUser(uniqueEmail('owner')),
      signUpVerifiedUser(h.adminEmail),
      signUpUser(uniqueEmail('banned-owner')),
      signUpUser(uniqueEmail('spare')),
    ])
    Object.assign(users_, { stranger, member, owner, admin, banned })
    for (const test of [stranger, member, owner, banned, spare]) await ensureUserRow(test)
    spareEmail = spare.email
    // The stranger publishes under a publisher of their own.
    const strangerPublisher = `mx-stranger-${backend}`
    await h.db.insert(publishers).values({ id: strangerPublisher, name: 'Stranger' })
    await h.db
      .insert(publisherMembers)
      .values({ publisherId: strangerPublisher, userId: stranger.uid, role: 'owner' })
    strangerTokenSecret = (
      await createToken(h.db, strangerPublisher, {
        name: 'own',
        description: '',
        expiresInDays: null,
      })
    ).secret
  })

  afterAll(async () => {
    await h?.close()
    await github?.close()
    await issuer?.close()
    await provider?.close()
  })

  const allRows = [...rows, ...readRows]

  it.each(allRows.map((row) => [row.operationId, row] as const))('%s', async (_id, row) => {
    const outcomes: string[] = []
    const expected: string[] = []
    for (const role of ROLES) {
      const fixture = await makeFixture(role)
      await row.prepare?.(fixture)
      const call = row.call(fixture, role)
      const before = await snapshotState(h.db, h.storage)
      const headers: Record<string, string> = {}
      if (role !== 'anonymous' && call.bearer !== false) {
        headers.authorization = `Bearer ${user(role).idToken}`
      }
      Object.assign(headers, call.headers)
      if (call.zip) headers['content-type'] = 'application/zip'
      else if (call.body !== undefined) headers['content-type'] = 'application/json'
      const reply = await request<{ message?: string }>(h.app, {
        method: call.method,
        url: call.url,
        headers,
        ...(call.remoteAddress ? { remoteAddress: call.remoteAddress } : {}),
        ...(call.zip
          ? { payload: Buffer.from(call.zip) }
          : call.body !== undefined
            ? { payload: JSON.stringify(call.body) }
            : {}),
      })
      const after = await snapshotState(h.db, h.storage)
      const state = after === before ? 'unchanged' : 'changed'
      const refused = reply.status >= 400
      outcomes.push(`${role}: ${reply.status} ${state}${refused ? ` (${reply.body.message})` : ''}`)
      const wanted = row.expect[role]
      const changes = wanted < 300 && !row.read
      expected.push(
        `${role}: ${wanted} ${changes ? 'changed' : 'unchanged'}${refused ? ` (${reply.body.message})` : ''}`,
      )
    }
    expect(outcomes).toEqual(expected)
  })
})
