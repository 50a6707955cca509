/**
 * Schema fuzzing: at least 10,000 requests generated from openapi.yml (server/test/fuzz.ts) for
 * every operation, as anonymous, a signed-in user, a publisher owner and an admin. No answer may be
 * a 5xx (but the 501 of an operation without a handler), every 4xx is JSON `{error, message}`,
 * and a refused request changes nothing: the state (row count and a hash of the rows of every
 * table, and the stored archives) is taken before each write expected to succeed and after each
 * one that did, so every run of refused requests between two such points is verified. No table
 * is left out: each caller's users row is created before the first check.
 *
 * Reproducible: the seed is fixed and printed; FUZZ_SEED and FUZZ_RUNS vary it. PGlite only (on
 * PostgreSQL it would double the server suite's longest test for the same request handling); set
 * FUZZ_POSTGRES=1 with TEST_DATABASE_URL to run it there too.
 */
import { eq } from 'drizzle-orm'
import { listOperations, loadContract } from './contract'
import { handlers } from './handlers'
import { handlerFor } from './operations'
import {
  adminActions,
  comfyNodes,
  nodes,
  publisherInvitations,
  publisherMembers,
  publishers,
} from '../db/schema'
import { createToken } from '../tokens/tokens'
import { signUpUser, signUpVerifiedUser, type TestUser } from '../test/auth'
import { addMember, insertNodeWithVersions, insertUploadLink, tableChecksums } from '../test/data'
import { startFakeGithub, type FakeGithub } from '../test/fake-github'
import { generateRequests, publicTables, type FuzzRequest, type Role } from '../test/fuzz'
import { createTestApp, type TestApp } from '../test/harness'
import { startFakeProvider, type FakeProvider } from '../test/fake-provider'
import { keyVariable, PROVIDERS, urlVariable } from '../proxy/providers'
import { hasTestPostgres } from '../db/test-db'

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123)
const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000)
const BACKENDS = ['pglite', ...(process.env.FUZZ_POSTGRES && hasTestPostgres() ? ['postgres'] : [])]

jest.setTimeout(900_000)

/** Besides writes (and GETs marked `x-changes-state`), these reads count downloads. */
const COUNTING_READS = new Set(['installNode', 'downloadNodeVersionArchive'])
/** Operations whose 404 is an SVG badge saying `not found`, not a JSON error. */
const SVG_NOT_FOUND = new Set(['getNodeVersionBadge', 'getNodeDownloadsBadge'])

interface Failure {
  request: FuzzRequest
  problem: string
}

function describeRequest(request: FuzzRequest): string {
  const payload =
    request.payload === undefined
      ? ''
      : ` body(${request.payload.length}): ${String(request.payload).slice(0, 120)}`
  return `[${request.mutation} as ${request.role}] ${request.method} ${request.url.slice(0, 200)} ${JSON.stringify(request.headers).slice(0, 200)}${payload}`
}

describe.each(BACKENDS)('schema fuzzing on %s', (backend) => {
  let h: TestApp
  let github: FakeGithub
  let provider: FakeProvider
  const users: Partial<Record<Role, TestUser>> = {}

  beforeAll(async () => {
    github = await startFakeGithub()
    provider = await startFakeProvider()
    h = await createTestApp({
      postgres: backend === 'postgres',
      // Fewer seeded rows than other suites: cheaper reads, so more requests per second.
      nodes: 10,
      publishers: 3,
      env: {
        GITHUB_API_URL: github.url,
        // Every provider answers (a fake on loopback): a lookup's 503 "not configured" is not
        // what is fuzzed here (server/proxy/routes.test.ts has it).
        ...Object.fromEntries(
          PROVIDERS.flatMap((name) => [
            [urlVariable(name), provider.url],
            [keyVariable(name), name === 'kling' ? 'access:secret' : `${name}-key`],
          ]),
        ),
      },
    })
    users.user = await signUpUser()
    users.owner = await signUpUser()
    users.admin = await signUpVerifiedUser(h.adminEmail)
  })

  afterAll(async () => {
    await h?.close()
    await github?.close()
    await provider?.close()
  })

  /** Publishers, nodes, versions, tokens and links the generated requests aim at. */
  async function makeTargets() {
    const owner = users.owner as TestUser
    const user = users.user as TestUser
    const publisherIds: string[] = []
    const nodeIds: string[] = []
    const tokenIds: string[] = []
    const tokenSecrets: string[] = []
    const uploadTokens: string[] = []
    const invitationIds: string[] = []
    for (let n = 1; n <= 3; n++) {
      const publisherId = `fuzz-pub-${n}`
      await h.db.insert(publishers).values({ id: publisherId, name: `Fuzz ${n}` })
      await addMember(h.db, owner, publisherId, 'owner')
      await addMember(h.db, user, publisherId, 'member')
      publisherIds.push(publisherId)
      for (let m = 1; m <= 2; m++) {
        const nodeId = `fuzz-node-${n}-${m}`
        await insertNodeWithVersions(
          h.db,
          { id: nodeId, publisherId, repository: `https://github.com/fuzz/${nodeId}` },
          [
            { version: '1.0.0', status: 'NodeVersionStatusActive' },
            { version: '1.1.0', status: 'NodeVersionStatusPending' },
          ],
        )
        nodeIds.push(nodeId)
        uploadTokens.push(await insertUploadLink(h.db, publisherId, nodeId, '1.1.0'))
      }
      const { row, secret } = await createToken(h.db, publisherId, {
        name: 'fuzz',
        description: '',
        expiresInDays: null,
      })
      tokenIds.push(row.id)
      tokenSecrets.push(secret)
      const [invitation] = await h.db
        .insert(publisherInvitations)
        .values({
          publisherId,
          email: user.email.toLowerCase(),
          role: 'member',
          expiresAt: new Date(Date.now() + 60 * 60 * 1000),
        })
        .returning()
      invitationIds.push(invitation.id)
    }
    const seededNodes = await h.db.select({ id: nodes.id }).from(nodes).limit(4)
    const seededPublishers = await h.db.select({ id: publishers.id }).from(publishers).limit(3)
    const names = await h.db.select({ name: comfyNodes.comfyNodeName }).from(comfyNodes).limit(3)
    const actions = await h.db
      .select({ id: adminActions.id, batchId: adminActions.batchId })
      .from(adminActions)
      .limit(5)
    const memberIds = await h.db
      .select({ id: publisherMembers.userId })
      .from(publisherMembers)
      .limit(3)
    const versions = ['1.0.0', '1.1.0', 'latest']
    return {
      path: {
        publisherId: [...publisherIds, ...seededPublishers.map((row) => row.id)],
        nodeId: [...nodeIds, ...seededNodes.map((row) => row.id)],
        versionId: versions,
        versionNumber: versions,
        fileName: ['1.0.0.zip', '1.1.0.zip'],
        comfyNodeName: names.map((row) => row.name),
        tokenId: tokenIds,
        userId: [user.uid, ...memberIds.map((row) => row.id)],
        invitationId: invitationIds,
        actionId: actions.map((row) => row.id),
        batchId: actions.flatMap((row) => (row.batchId ? [row.batchId] : [])),
        uploadToken: uploadTokens,
      },
      body: {
        publishNodeVersion: { personal_access_token: tokenSecrets[0] },
        addPublisherMember: { email: user.email },
      },
    }
  }

  it('notices a change of one field of one row in any table (the check can fail)', async () => {
    // The catalogue generation counts changes, and the node row change log lists them: both move
    // with the change and again with its undo.
    const tables = (await publicTables(h.db)).filter(
      (table) => table !== 'catalogue_generation' && table !== 'node_row_changes',
    )
    const before = await tableChecksums(h.db, tables)
    const [node] = await h.db
      .select({ id: nodes.id, description: nodes.description })
      .from(nodes)
      .limit(1)
    await h.db
      .update(nodes)
      .set({ description: `${node.description}.` })
      .where(eq(nodes.id, node.id))
    expect(await tableChecksums(h.db, tables)).not.toBe(before)
    await h.db.update(nodes).set({ description: node.description }).where(eq(nodes.id, node.id))
    expect(await tableChecksums(h.db, tables)).toBe(before)
  })

  it(`answers ${RUNS} generated requests without a 5xx, and refusals change nothing`, async () => {
    const contract = loadContract()
    const operations = listOperations(contract)
    const implemented = new Set(
      operations.filter((op) => handlerFor(handlers, op.operationId)).map((op) => op.operationId),
    )
    const mayWrite = new Set(
      operations
        .filter((op) => op.changesState || COUNTING_READS.has(op.operationId))
        .map((op) => op.operationId),
    )
    const targets = await makeTargets()
    const requests = generateRequests(contract, {
      seed: SEED,
      count: RUNS,
      tokens: {
        anonymous: undefined,
        user: users.user?.idToken,
        owner: users.owner?.idToken,
        admin: users.admin?.idToken,
      },
      targets,
      // Operations without a handler only reach validation: fuzz them less.
      weight: (op) => (implemented.has(op.operationId) ? 3 : 1),
    })
    console.log(
      `schema fuzzing on ${backend}: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} (${requests.length} requests over ${operations.length} operations)`,
    )

    // Each caller's first request creates or refreshes their users row (authenticate.ts); after
    // that, requests of the same caller read it only. Done before the first checksum.
    for (const role of ['user', 'owner', 'admin'] as const) {
      const reply = await h.app.inject({
        method: 'GET',
        url: '/users',
        headers: { authorization: `Bearer ${users[role]?.idToken}` },
      })
      expect(reply.statusCode).toBe(200)
    }
    // proxy_lookups is an access log: reads (provider lookups) write to it by design; node_json
    // and listing_pages are caches of nodes' JSON and of pages that listings write
    // (server/nodes/shared-json.ts, shared-pages.ts).
    const tables = (await publicTables(h.db)).filter(
      (table) => !['proxy_lookups', 'node_json', 'listing_pages'].includes(table),
    )
    expect(tables.length).toBeGreaterThan(5)
    // CPU time of this process (PGlite included): wall time depends on the machine's load.
    let checksumMs = 0
    let injectMs = 0
    const timed = async <T>(work: () => Promise<T>, add: (ms: number) => void): Promise<T> => {
      const started = process.cpuUsage()
      try {
        return await work()
      } finally {
        const used = process.cpuUsage(started)
        add((used.user + used.system) / 1000)
      }
    }
    /** The tables' checksums and the stored archives' keys (a refused upload stores nothing). */
    const state = async () =>
      `${await tableChecksums(h.db, tables)}\narchives:${h.storage.keys().join(',')}`
    let checksum = await state()
    let checksums = 1
    /** Refused requests (and successful pure reads) since `checksum` was taken. */
    let sinceChecksum: FuzzRequest[] = []
    /**
     * A checksum is taken before each write expected to succeed (a baseline, or an operation and
     * mutation seen succeeding before). When another write succeeds, the refusals sent since the
     * last checksum cannot be told apart from it: they are sent again right after it.
     */
    const succeeded = new Set<string>()
    const expectSuccess = (request: FuzzRequest) =>
      request.mutation === 'baseline' || succeeded.has(`${request.operationId} ${request.mutation}`)
    const resends = new Map<FuzzRequest, number>()
    const queue: FuzzRequest[] = [...requests].reverse()
    let unverified = 0
    const failures: Failure[] = []
    const statuses = new Map<number, number>()
    let sent = 0
    let refused = 0

    const verifyUnchanged = async () => {
      const now = await timed(
        () => state(),
        (ms) => (checksumMs += ms),
      )
      checksums++
      if (now !== checksum) {
        const before = new Set(checksum.split('\n'))
        const changed = now
          .split('\n')
          .filter((line) => !before.has(line))
          .map((line) => line.split(':')[0])
        const suspects = sinceChecksum.map(describeRequest).join('\n  ')
        failures.push({
          request: sinceChecksum[sinceChecksum.length - 1] ?? requests[0],
          problem: `table(s) ${changed.join(', ')} changed after refused requests (or reads):\n  ${suspects}`,
        })
        checksum = now
      }
      sinceChecksum = []
    }

    for (let request = queue.pop(); request; request = queue.pop()) {
      const writes = mayWrite.has(request.operationId)
      if (writes && expectSuccess(request) && sinceChecksum.length > 0) await verifyUnchanged()
      const answer = timed(
        () =>
          h.app.inject({
            method: request.method as 'GET',
            url: request.url,
            headers: request.headers,
            ...(request.payload !== undefined ? { payload: request.payload } : {}),
          }),
        (ms) => (injectMs += ms),
      )
      let timer: NodeJS.Timeout | undefined
      const response = await Promise.race([
        answer,
        new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), 30_000))),
      ])
      clearTimeout(timer)
      if (!response) {
        failures.push({ request, problem: 'no answer within 30 s' })
        break
      }
      sent++
      const status = response.statusCode
      statuses.set(status, (statuses.get(status) ?? 0) + 1)

      // An operation of the contract without a handler answers 501 by design (app.ts).
      const notImplemented = status === 501 && !implemented.has(request.operationId)
      if (status >= 500 && !notImplemented) {
        failures.push({ request, problem: `${status}: ${response.body.slice(0, 300)}` })
      }
      // A badge's 404 is its `not found` image (openapi.yml), still shown where it is embedded.
      const notFoundBadge =
        status === 404 &&
        SVG_NOT_FOUND.has(request.operationId) &&
        String(response.headers['content-type'] ?? '').startsWith('image/svg+xml')
      if (status >= 400 && !notFoundBadge) {
        let body: unknown
        try {
          body = response.json()
        } catch {
          body = undefined
        }
        const shaped =
          String(response.headers['content-type'] ?? '').includes('application/json') &&
          typeof body === 'object' &&
          body !== null &&
          'error' in body &&
          'message' in body &&
          typeof body.error === 'string' &&
          typeof body.message === 'string' &&
          body.message !== ''
        if (!shaped) {
          failures.push({
            request,
            problem: `${status} without {error, message}: ${response.body.slice(0, 200)}`,
          })
        }
      }
      if (status >= 400 || !writes) {
        if (status >= 400) refused++
        sinceChecksum.push(request)
      } else {
        if (!expectSuccess(request)) {
          succeeded.add(`${request.operationId} ${request.mutation}`)
          for (const earlier of sinceChecksum.reverse()) {
            const times = resends.get(earlier) ?? 0
            if (times >= 3) unverified++
            else {
              resends.set(earlier, times + 1)
              queue.push(earlier)
            }
          }
        }
        // A write that succeeded: its changes are the new reference.
        checksum = await timed(
          () => state(),
          (ms) => (checksumMs += ms),
        )
        checksums++
        sinceChecksum = []
      }
      if (sinceChecksum.length >= 500) await verifyUnchanged()
    }
    await verifyUnchanged()

    const summary = [...statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ')
    console.log(
      `schema fuzzing on ${backend}: ${requests.length} requests (${sent} sent with ${sent - requests.length} repeated after an unforeseen write), ${refused} refused, ${checksums} checksums; ${summary}; CPU time: requests ${Math.round(injectMs)} ms, checksums ${Math.round(checksumMs)} ms`,
    )
    const report = failures
      .slice(0, 30)
      .map((failure) => `${failure.problem}\n  ${describeRequest(failure.request)}`)
      .join('\n')
    expect(report).toBe('')
    expect(failures).toHaveLength(0)
    expect(unverified).toBe(0)
    expect(sent).toBeGreaterThanOrEqual(requests.length)
    expect(requests.length).toBeGreaterThanOrEqual(RUNS)
    // Every operation was called, and most were reached past validation at least once.
    expect(new Set(requests.map((request) => request.operationId)).size).toBe(operations.length)
  })
})
