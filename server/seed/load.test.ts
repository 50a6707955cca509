import { and, asc, count, eq, sql } from 'drizzle-orm'
import { strFromU8, unzipSync } from 'fflate'
import type { Db } from '../db/client'
import { refreshLatestVersion } from '../db/latest-version'
import { nodeOrderBy, versionSemverDesc } from '../db/ordering'
import {
  adminActions,
  comfyNodes,
  nodeDownloadsDaily,
  nodes,
  nodeVersionReadmes,
  nodeVersions,
  publisherMembers,
  publishers,
  users,
} from '../db/schema'
import { hasTestPostgres, createTestDatabase, type TestDatabase } from '../db/test-db'
import { MemoryArchiveStorage } from '../storage'
import {
  DEMO_ADMIN_ACCOUNT,
  DEMO_ADMIN_SEED_ID,
  DEMO_PUBLISHER_ACCOUNT,
  attachDemoAdmin,
  attachDemoMembership,
} from './accounts'
import { customerOfUser, listEvents, toApiBalance } from '../customers/accounts'
import { deleteApiKey, listApiKeys } from '../customers/api-keys'
import { attachDemoCustomer } from './customers'
import { generateDemoData } from './generate'
import { isDatabaseEmpty, loadDemoData } from './load'

jest.setTimeout(120_000)

const OPTIONS = { publishers: 8, nodes: 20, seed: 7 }

const kinds: ('pglite' | 'postgres')[] = hasTestPostgres() ? ['pglite', 'postgres'] : ['pglite']

describe.each(kinds)('loadDemoData on %s', (kind) => {
  let database: TestDatabase
  let db: Db
  const storage = new MemoryArchiveStorage()
  const expected = generateDemoData(OPTIONS)

  beforeAll(async () => {
    database = await createTestDatabase({ postgres: kind === 'postgres' })
    expect(database.kind).toBe(kind)
    db = database.db
    expect(await isDatabaseEmpty(db)).toBe(true)
    await loadDemoData(db, storage, OPTIONS)
  })

  afterAll(async () => {
    await database?.close()
  })

  it('inserts every generated row', async () => {
    expect(await isDatabaseEmpty(db)).toBe(false)
    const [n] = await db.select({ n: count() }).from(nodes)
    const [v] = await db.select({ n: count() }).from(nodeVersions)
    const [c] = await db.select({ n: count() }).from(comfyNodes)
    const [p] = await db.select({ n: count() }).from(publishers)
    expect(n.n).toBe(20)
    expect(v.n).toBe(expected.versions.length)
    expect(c.n).toBe(expected.comfyNodes.length)
    // 8 generated publishers and the reserved one of unclaimed nodes (migration 0004).
    expect(p.n).toBe(9)
    const row = await db.query.nodes.findFirst({ where: eq(nodes.id, expected.nodes[10].id) })
    expect(row).toMatchObject({
      name: expected.nodes[10].name,
      tags: expected.nodes[10].tags,
      downloads: expected.nodes[10].downloads,
      createdAt: expected.nodes[10].createdAt,
    })
  })

  it('moves the demo download history to end yesterday, every generated bucket kept', async () => {
    const rows = await db
      .select({
        nodeId: nodeDownloadsDaily.nodeId,
        day: sql<string>`to_char(${nodeDownloadsDaily.day}, 'YYYY-MM-DD')`,
        count: nodeDownloadsDaily.count,
      })
      .from(nodeDownloadsDaily)
    expect(rows).toHaveLength(expected.dailyDownloads.length)
    const days = rows.map((row) => row.day).sort()
    const now = new Date()
    const dayMs = 86_400_000
    const todayMs = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
    const yesterday = new Date(todayMs - dayMs).toISOString().slice(0, 10)
    expect(days.at(-1)).toBe(yesterday)
    expect(days[0] >= new Date(todayMs - 90 * dayMs).toISOString().slice(0, 10)).toBe(true)
    // The demo publisher's nodes have a history the chart can show.
    const demoNode = expected.nodes.find(
      (node) => node.publisherId === DEMO_PUBLISHER_ACCOUNT.publisherId,
    )
    if (demoNode) {
      expect(rows.filter((row) => row.nodeId === demoNode.id).length).toBeGreaterThan(30)
    }
  })

  it('points latest_version at the newest Active version by semver', async () => {
    const rows = await db
      .select({
        id: nodes.id,
        latest: nodeVersions.version,
        latestCreatedAt: nodes.latestVersionCreatedAt,
        versionCreatedAt: nodeVersions.createdAt,
      })
      .from(nodes)
      .leftJoin(nodeVersions, eq(nodeVersions.id, nodes.latestVersionId))
    const byId = new Map(rows.map((r) => [r.id, r]))
    expect(byId.get('comfyui-demo-upscaler')?.latest).toBe('1.10.0')
    expect(byId.get('comfyui-demo-face-restore')?.latest).toBe('1.3.0')
    for (const node of expected.nodes) {
      const version = expected.versions.find((v) => v.id === node.latestVersionId)
      expect(byId.get(node.id)?.latest ?? null).toBe(version?.version ?? null)
      if (version) expect(byId.get(node.id)?.latestCreatedAt).toEqual(version.createdAt)
    }
  })

  it('refreshLatestVersion follows status changes', async () => {
    const nodeId = 'comfyui-demo-face-restore'
    await db
      .update(nodeVersions)
      .set({ status: 'NodeVersionStatusActive' })
      .where(and(eq(nodeVersions.nodeId, nodeId), eq(nodeVersions.version, '2.0.0')))
    const latest = await refreshLatestVersion(db, nodeId)
    const [row] = await db
      .select({ version: nodeVersions.version })
      .from(nodes)
      .innerJoin(nodeVersions, eq(nodeVersions.id, nodes.latestVersionId))
      .where(eq(nodes.id, nodeId))
    expect(row.version).toBe('2.0.0')
    expect(latest?.id).toBeDefined()
    await db
      .update(nodeVersions)
      .set({ status: 'NodeVersionStatusFlagged' })
      .where(and(eq(nodeVersions.nodeId, nodeId), eq(nodeVersions.version, '2.0.0')))
    await db.transaction((tx) => refreshLatestVersion(tx, nodeId))
    const [again] = await db
      .select({ version: nodeVersions.version })
      .from(nodes)
      .innerJoin(nodeVersions, eq(nodeVersions.id, nodes.latestVersionId))
      .where(eq(nodes.id, nodeId))
    expect(again.version).toBe('1.3.0')
  })

  it('orders versions by semver in SQL', async () => {
    const rows = await db
      .select({ version: nodeVersions.version })
      .from(nodeVersions)
      .where(eq(nodeVersions.nodeId, 'comfyui-demo-upscaler'))
      .orderBy(...versionSemverDesc)
    expect(rows.map((r) => r.version)).toEqual(['1.10.0', '1.9.0', '1.8.0'])
  })

  it('sorts nodes by the indexed orderings', async () => {
    const byDownloads = await db
      .select({ id: nodes.id, downloads: nodes.downloads })
      .from(nodes)
      .orderBy(...nodeOrderBy.downloads)
    const sorted = [...expected.nodes].sort((a, b) =>
      b.downloads !== a.downloads ? b.downloads - a.downloads : a.id < b.id ? -1 : 1,
    )
    expect(byDownloads.map((r) => r.downloads)).toEqual(sorted.map((n) => n.downloads))
    const updated = await db
      .select({ at: nodes.latestVersionCreatedAt })
      .from(nodes)
      .orderBy(...nodeOrderBy.updated)
    const times = updated.map((r) => r.at?.getTime() ?? -Infinity)
    expect(times).toEqual([...times].sort((a, b) => b - a))
  })

  it('finds nodes with typos (trigram) and by full text, and comfy nodes by name', async () => {
    const typo = await db
      .select({ id: nodes.id })
      .from(nodes)
      .where(sql`lower(${nodes.name}) % ${'demo upscalr'}`)
      .orderBy(sql`similarity(lower(${nodes.name}), ${'demo upscalr'}) desc`)
    expect(typo[0]?.id).toBe('comfyui-demo-upscaler')

    const fts = await db
      .select({ id: nodes.id })
      .from(nodes)
      .where(sql`search_vector @@ websearch_to_tsquery('english', ${'upscaling'})`)
    expect(fts.map((r) => r.id)).toContain('comfyui-demo-upscaler')

    const name = expected.comfyNodes[0].comfyNodeName
    const found = await db
      .selectDistinct({ id: nodeVersions.nodeId })
      .from(comfyNodes)
      .innerJoin(nodeVersions, eq(nodeVersions.id, comfyNodes.nodeVersionId))
      .where(sql`lower(${comfyNodes.comfyNodeName}) like ${`%${name.slice(2, 9).toLowerCase()}%`}`)
    expect(found.length).toBeGreaterThan(0)
  })

  it('enforces case-insensitive node ids', async () => {
    await expect(
      db.insert(nodes).values({ id: 'COMFYUI-DEMO-UPSCALER', publisherId: 'comfy-demo' }),
    ).rejects.toThrow()
  })

  it('writes a real zip for every version with an archive', async () => {
    const withArchive = expected.versions.filter((v) => v.storageKey)
    // Besides the demo CI results' output images (server/seed/ci.ts), under ci/.
    const archives = storage.keys().filter((key) => !key.startsWith('ci/'))
    expect(archives).toEqual(withArchive.map((v) => v.storageKey).sort())
    expect(storage.keys().some((key) => /^ci\/.+\/output\.png$/.test(key))).toBe(true)
    const version = expected.versions.find(
      (v) => v.nodeId === 'comfyui-demo-upscaler' && v.version === '1.10.0',
    )
    expect(version?.storageKey).toBe('comfy-demo/comfyui-demo-upscaler/1.10.0/node.zip')
    const bytes = await storage.get(version?.storageKey ?? '')
    const files = unzipSync(bytes ?? new Uint8Array())
    // Its third version: the example workflow is in from then on.
    // With the screenshot its README shows and its licence file (server/seed/documents.ts).
    expect(Object.keys(files).sort()).toEqual([
      'LICENSE',
      'README.md',
      '__init__.py',
      'docs/screenshot.png',
      'examples/workflow.json',
      'pyproject.toml',
    ])
    // Kept with the version as the pipeline would: the README, its image and the licence file.
    const [readme] = await db
      .select()
      .from(nodeVersionReadmes)
      .where(eq(nodeVersionReadmes.nodeVersionId, version?.id ?? ''))
    expect(readme).toMatchObject({ path: 'README.md', format: 'markdown', truncated: false })
    expect(readme.images).toEqual(['docs/screenshot.png'])
    expect(readme.text).toContain('## Usage')
    const [stored] = await db
      .select({ file: nodeVersions.licenseFile, spdx: nodeVersions.licenseFileSpdx })
      .from(nodeVersions)
      .where(eq(nodeVersions.id, version?.id ?? ''))
    expect(stored.file).toBe('LICENSE')
    expect(stored.spdx).not.toBe('')
    const toml = strFromU8(files['pyproject.toml'])
    expect(toml).toContain('version = "1.10.0"')
    expect(toml).toContain('PublisherId = "comfy-demo"')
    expect(toml).toContain('Repository = "https://github.com/comfy-demo/comfyui-demo-upscaler"')
    const names = expected.comfyNodes
      .filter((c) => c.nodeVersionId === version?.id)
      .map((c) => c.comfyNodeName)
    expect(names.length).toBeGreaterThan(1)
    for (const name of names) expect(strFromU8(files['__init__.py'])).toContain(`"${name}": `)
  })

  it('writes the offending file of each flagged version into its archive', async () => {
    const flagged = expected.versions.filter((v) => v.status === 'NodeVersionStatusFlagged')
    expect(flagged.length).toBeGreaterThan(0)
    for (const v of flagged) {
      const files = unzipSync((await storage.get(v.storageKey ?? '')) ?? new Uint8Array())
      for (const finding of v.scanFindings) {
        const lines = strFromU8(files[finding.file_path]).split('\n')
        expect(lines[finding.line_number - 1].trim()).toBe(finding.code_snippet)
      }
    }
  })

  it('writes the demo admin’s audit rows, and points them at the account once it exists', async () => {
    const rows = await db.select().from(adminActions)
    const wanted = [...expected.publisherActions, ...expected.adminActions]
    expect(rows.map((row) => row.id).sort()).toEqual(wanted.map((row) => row.id).sort())
    const byId = new Map(rows.map((row) => [row.id, row]))
    for (const action of wanted) expect(byId.get(action.id)).toMatchObject(action)
    expect(new Set(rows.map((row) => row.actorId))).toEqual(new Set([DEMO_ADMIN_SEED_ID]))
    await attachDemoAdmin(db, 'uid-admin')
    await attachDemoAdmin(db, 'uid-admin')
    const attached = await db
      .select({ actorId: adminActions.actorId, email: adminActions.actorEmail })
      .from(adminActions)
    expect(new Set(attached.map((row) => `${row.actorId} ${row.email}`))).toEqual(
      new Set([`uid-admin ${DEMO_ADMIN_ACCOUNT.email}`]),
    )
    const [user] = await db.select().from(users).where(eq(users.id, 'uid-admin'))
    expect(user).toMatchObject({ email: DEMO_ADMIN_ACCOUNT.email, isAdmin: true })
  })

  it('attaches the demo publisher account as owner of comfy-demo (idempotent)', async () => {
    await attachDemoMembership(db, 'uid-demo', DEMO_PUBLISHER_ACCOUNT.email, 'Demo Publisher')
    await attachDemoMembership(db, 'uid-demo', DEMO_PUBLISHER_ACCOUNT.email, 'Demo Publisher')
    const members = await db
      .select({ userId: publisherMembers.userId, role: publisherMembers.role, email: users.email })
      .from(publisherMembers)
      .innerJoin(users, eq(users.id, publisherMembers.userId))
      .where(eq(publisherMembers.publisherId, DEMO_PUBLISHER_ACCOUNT.publisherId))
      .orderBy(asc(publisherMembers.userId))
    expect(members).toEqual([
      { userId: 'uid-demo', role: 'owner', email: DEMO_PUBLISHER_ACCOUNT.email },
    ])
  })

  it('makes the demo publisher account a customer with a ledger and a key, once', async () => {
    await attachDemoMembership(db, 'uid-demo', DEMO_PUBLISHER_ACCOUNT.email, 'Demo Publisher')
    await attachDemoCustomer(db, 'uid-demo')
    const account = await customerOfUser(db, 'uid-demo')
    if (!account) throw new Error('the demo publisher has no credit account')
    const { customer } = account
    const ledger = await listEvents(db, customer.id, {}, { page: 1, limit: 50 })
    const keys = await listApiKeys(db, customer.id)
    expect(keys.map((key) => key.name)).toEqual(['ComfyUI desktop'])
    expect(ledger.total).toBeGreaterThanOrEqual(5)
    expect(toApiBalance(customer).amount_micros).toBeGreaterThan(0)
    // A later start leaves what the person did alone: a deleted key stays deleted.
    await deleteApiKey(db, customer.id, keys[0].id)
    await attachDemoCustomer(db, 'uid-demo')
    expect(await listApiKeys(db, customer.id)).toEqual([])
    expect((await listEvents(db, customer.id, {}, { page: 1, limit: 50 })).total).toBe(
      ledger.total + 1,
    )
  })
})
