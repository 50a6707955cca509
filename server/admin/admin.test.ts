/**
 * The admin dashboard's API against real databases: decisions and their history, required
 * reasons, batches and undo, the audit log written with the change (or not at all), node and
 * publisher bans, the overview counts, the review queue's filters and the archive review view.
 */
import { and, eq, sql } from 'drizzle-orm'
import { strToU8, zipSync } from 'fflate'
import type { Schemas } from '../http/operations'
import { adminActions, nodes, nodeVersions, publishers } from '../db/schema'
import { bearer, signUpUser, signUpVerifiedUser, type TestUser } from '../test/auth'
import { addMember, insertNodeWithVersions, snapshotState, type VersionSpec } from '../test/data'
import { BACKENDS, createTestApp, expectErrorBody, get, send, type TestApp } from '../test/harness'

type AdminAction = Schemas['AdminAction']
type AdminActionListResponse = Schemas['AdminActionListResponse']
type AdminUndoResponse = Schemas['AdminUndoResponse']
type AdminVersionDecisionsResponse = Schemas['AdminVersionDecisionsResponse']
type AdminOverview = Schemas['AdminOverview']
type AdminVersionFiles = Schemas['AdminVersionFiles']
type AdminVersionFile = Schemas['AdminVersionFile']
type Node = Schemas['Node']
type NodeVersion = Schemas['NodeVersion']
type NodeVersionListResponse = Schemas['NodeVersionListResponse']
type Publisher = Schemas['Publisher']

jest.setTimeout(120_000)

const ACTIVE = 'NodeVersionStatusActive' as const
const PENDING = 'NodeVersionStatusPending' as const
const FLAGGED = 'NodeVersionStatusFlagged' as const
const BANNED = 'NodeVersionStatusBanned' as const

interface ReasonJson {
  message: string
  by: string
  statusHistory: { status: string; message: string; by: string }[]
  batchId?: string
}

function parseReason(text: string | undefined): ReasonJson {
  const value: unknown = JSON.parse(text ?? '')
  if (typeof value !== 'object' || value === null || !('statusHistory' in value)) {
    throw new Error(`not an admin decision: ${text}`)
  }
  return value as ReasonJson
}

describe.each(BACKENDS)('the admin dashboard API on %s', (backend) => {
  let h: TestApp
  let admin: TestUser
  let owner: TestUser
  let counter = 0

  beforeAll(async () => {
    h = await createTestApp({ postgres: backend === 'postgres', nodes: 8, publishers: 2 })
    ;[admin, owner] = await Promise.all([signUpVerifiedUser(h.adminEmail), signUpUser()])
  })

  afterAll(async () => {
    await h?.close()
  })

  /** A fresh publisher (owned by `owner`) with one node and the given versions. */
  async function fixture(versions: readonly VersionSpec[]) {
    const n = ++counter
    const publisherId = `adm-${backend}-${n}`
    await h.db.insert(publishers).values({ id: publisherId, name: `Admin test ${n}` })
    await addMember(h.db, owner, publisherId, 'owner')
    const nodeId = `adm-node-${backend}-${n}`
    await insertNodeWithVersions(
      h.db,
      { id: nodeId, publisherId, repository: `https://github.com/adm/${nodeId}` },
      versions,
    )
    return { publisherId, nodeId }
  }

  async function versionRow(nodeId: string, version: string) {
    const [row] = await h.db
      .select()
      .from(nodeVersions)
      .where(and(eq(nodeVersions.nodeId, nodeId), eq(nodeVersions.version, version)))
    return row
  }

  async function latestVersionOf(nodeId: string): Promise<string | undefined> {
    const reply = await get<Node>(h.app, `/nodes/${nodeId}`, bearer(admin))
    return reply.body.latest_version?.version
  }

  async function actionsOf(subjectId: string): Promise<AdminAction[]> {
    const reply = await get<AdminActionListResponse>(
      h.app,
      `/admin/actions?subject_id=${encodeURIComponent(subjectId)}&limit=100`,
      bearer(admin),
    )
    expect(reply.status).toBe(200)
    return reply.body.actions
  }

  describe('decisions on one version', () => {
    it('appends each decision to the status_reason history and writes an audit row', async () => {
      const { nodeId } = await fixture([
        { version: '1.0.0', status: ACTIVE },
        { version: '1.1.0', status: PENDING },
      ])
      const url = `/admin/nodes/${nodeId}/versions/1.1.0`
      const flagged = await send<NodeVersion>(h.app, 'PUT', url, {
        as: admin,
        body: { status: FLAGGED, status_reason: '  Looks like a miner  ' },
      })
      expect(flagged.status).toBe(200)
      expect(flagged.body.status).toBe(FLAGGED)
      const approved = await send<NodeVersion>(h.app, 'PUT', url, {
        as: admin,
        body: { status: ACTIVE },
      })
      expect(approved.status).toBe(200)
      const reason = parseReason(approved.body.status_reason)
      expect(reason.statusHistory).toEqual([
        { status: FLAGGED, message: 'Looks like a miner', by: admin.email },
        { status: ACTIVE, message: '', by: admin.email },
      ])
      expect(await latestVersionOf(nodeId)).toBe('1.1.0')
      const actions = await actionsOf(approved.body.id)
      expect(
        actions.map((a) => [a.action, a.from_value, a.to_value, a.reason, a.actor_email]),
      ).toEqual([
        ['version.status', FLAGGED, ACTIVE, '', admin.email],
        ['version.status', PENDING, FLAGGED, 'Looks like a miner', admin.email],
      ])
      expect(actions[0].subject_label).toBe(`${nodeId}@1.1.0`)
    })

    it('refuses to flag or ban without a reason (400) and changes nothing', async () => {
      const { nodeId, publisherId } = await fixture([{ version: '1.0.0', status: PENDING }])
      const before = await snapshotState(h.db, h.storage)
      for (const status of [FLAGGED, BANNED]) {
        for (const body of [{ status }, { status, status_reason: '   ' }]) {
          const reply = await send(h.app, 'PUT', `/admin/nodes/${nodeId}/versions/1.0.0`, {
            as: admin,
            body,
          })
          expect(expectErrorBody(reply, 400).message).toMatch(/reason is required/)
        }
        const batch = await send(h.app, 'POST', '/admin/versions/decisions', {
          as: admin,
          body: { versions: [{ node_id: nodeId, version: '1.0.0' }], status },
        })
        expect(expectErrorBody(batch, 400).message).toMatch(/'reason'/)
      }
      const nodeBan = await send(h.app, 'PUT', `/admin/nodes/${nodeId}`, {
        as: admin,
        body: { status: 'NodeStatusBanned', tags_admin: ['x'] },
      })
      expect(expectErrorBody(nodeBan, 400).message).toMatch(/ban a node/)
      const publisherBan = await send(h.app, 'PUT', `/admin/publishers/${publisherId}`, {
        as: admin,
        body: { status: 'PublisherStatusBanned', status_reason: '' },
      })
      expect(expectErrorBody(publisherBan, 400).message).toMatch(/ban a publisher/)
      expect(await snapshotState(h.db, h.storage)).toBe(before)
    })
  })

  describe('batch decisions and undo', () => {
    it('decides every version with one batch id, and the batch undo restores them all', async () => {
      const a = await fixture([
        { version: '1.0.0', status: ACTIVE },
        { version: '1.1.0', status: PENDING },
        { version: '1.2.0', status: FLAGGED },
      ])
      const b = await fixture([{ version: '2.0.0', status: PENDING }])
      const decided = await send<AdminVersionDecisionsResponse>(
        h.app,
        'POST',
        '/admin/versions/decisions',
        {
          as: admin,
          body: {
            versions: [
              { node_id: a.nodeId, version: '1.1.0' },
              { node_id: a.nodeId.toUpperCase(), version: '1.2.0' },
              { node_id: b.nodeId, version: '2.0.0' },
            ],
            status: ACTIVE,
            reason: 'Reviewed in bulk',
          },
        },
      )
      expect(decided.status).toBe(200)
      const batchId = decided.body.batch_id
      expect(decided.body.versions.map((v) => [v.node_id, v.version, v.status])).toEqual([
        [a.nodeId, '1.1.0', ACTIVE],
        [a.nodeId, '1.2.0', ACTIVE],
        [b.nodeId, '2.0.0', ACTIVE],
      ])
      for (const version of decided.body.versions) {
        expect(parseReason(version.status_reason)).toMatchObject({
          batchId,
          message: 'Reviewed in bulk',
        })
      }
      expect(await latestVersionOf(a.nodeId)).toBe('1.2.0')
      expect(await latestVersionOf(b.nodeId)).toBe('2.0.0')
      const batch = await get<AdminActionListResponse>(
        h.app,
        `/admin/actions?batch_id=${batchId}`,
        bearer(admin),
      )
      expect(batch.body.total).toBe(3)
      expect(batch.body.actions.every((action) => action.batch_id === batchId)).toBe(true)

      const undone = await send<AdminUndoResponse>(
        h.app,
        'POST',
        `/admin/batches/${batchId}/undo`,
        {
          as: admin,
        },
      )
      expect(undone.status).toBe(200)
      expect(undone.body.actions).toHaveLength(3)
      expect(undone.body.actions.every((action) => action.action === 'undo')).toBe(true)
      expect(undone.body.batch_id).toBeDefined()
      expect((await versionRow(a.nodeId, '1.1.0')).status).toBe(PENDING)
      expect((await versionRow(a.nodeId, '1.2.0')).status).toBe(FLAGGED)
      expect((await versionRow(b.nodeId, '2.0.0')).status).toBe(PENDING)
      expect(await latestVersionOf(a.nodeId)).toBe('1.0.0')
      expect(await latestVersionOf(b.nodeId)).toBeUndefined()
      const history = parseReason((await versionRow(a.nodeId, '1.2.0')).statusReason)
      expect(history.statusHistory.map((change) => change.status)).toEqual([ACTIVE, FLAGGED])
      const marked = await get<AdminActionListResponse>(
        h.app,
        `/admin/actions?batch_id=${batchId}`,
        bearer(admin),
      )
      const undoIds = new Set(undone.body.actions.map((action) => action.id))
      expect(marked.body.actions.every((action) => undoIds.has(action.undone_by ?? ''))).toBe(true)

      // Undoing twice is a 409, for the batch and for one of its actions, and changes nothing.
      const before = await snapshotState(h.db, h.storage)
      const again = await send(h.app, 'POST', `/admin/batches/${batchId}/undo`, { as: admin })
      expectErrorBody(again, 409)
      const one = await send(h.app, 'POST', `/admin/actions/${marked.body.actions[0].id}/undo`, {
        as: admin,
      })
      expectErrorBody(one, 409)
      // An undo cannot itself be undone.
      const undoOfUndo = await send(
        h.app,
        'POST',
        `/admin/actions/${undone.body.actions[0].id}/undo`,
        { as: admin },
      )
      expectErrorBody(undoOfUndo, 400)
      expect(await snapshotState(h.db, h.storage)).toBe(before)
    })

    it('changes nothing and writes no audit row when one version is unknown (404)', async () => {
      const { nodeId } = await fixture([
        { version: '1.0.0', status: PENDING },
        { version: '1.1.0', status: PENDING },
      ])
      const before = await snapshotState(h.db, h.storage)
      const reply = await send(h.app, 'POST', '/admin/versions/decisions', {
        as: admin,
        body: {
          versions: [
            { node_id: nodeId, version: '1.0.0' },
            { node_id: nodeId, version: '9.9.9' },
          ],
          status: BANNED,
          reason: 'Malware',
        },
      })
      expect(expectErrorBody(reply, 404).message).toContain(`${nodeId}@9.9.9`)
      expect(await snapshotState(h.db, h.storage)).toBe(before)
    })

    it('refuses to undo an action whose subject changed since (409)', async () => {
      const { nodeId } = await fixture([{ version: '1.0.0', status: PENDING }])
      const url = `/admin/nodes/${nodeId}/versions/1.0.0`
      const approved = await send<NodeVersion>(h.app, 'PUT', url, {
        as: admin,
        body: { status: ACTIVE },
      })
      await send(h.app, 'PUT', url, { as: admin, body: { status: BANNED, status_reason: 'Bad' } })
      const [ban, approval] = await actionsOf(approved.body.id)
      const before = await snapshotState(h.db, h.storage)
      const reply = await send(h.app, 'POST', `/admin/actions/${approval.id}/undo`, { as: admin })
      expect(expectErrorBody(reply, 409).message).toMatch(/changed since/)
      expect(await snapshotState(h.db, h.storage)).toBe(before)
      // The later action can be undone, then the earlier one.
      expect(
        (await send(h.app, 'POST', `/admin/actions/${ban.id}/undo`, { as: admin })).status,
      ).toBe(200)
      expect(
        (await send(h.app, 'POST', `/admin/actions/${approval.id}/undo`, { as: admin })).status,
      ).toBe(200)
      expect((await versionRow(nodeId, '1.0.0')).status).toBe(PENDING)
    })
  })

  describe('nodes and publishers', () => {
    it('bans a node (hidden from the public), unbans it, and undoes both', async () => {
      const { nodeId } = await fixture([{ version: '1.0.0', status: ACTIVE }])
      expect((await get(h.app, `/nodes/${nodeId}`)).status).toBe(200)
      const banned = await send<Node>(h.app, 'PUT', `/admin/nodes/${nodeId}`, {
        as: admin,
        body: { status: 'NodeStatusBanned', status_reason: 'Steals tokens' },
      })
      expect(banned.status).toBe(200)
      expect(banned.body).toMatchObject({
        status: 'NodeStatusBanned',
        status_detail: 'Steals tokens',
      })
      expect((await get(h.app, `/nodes/${nodeId}`)).status).toBe(404)
      const asOwner = await get<Node>(h.app, `/nodes/${nodeId}`, bearer(owner))
      expect(asOwner.body.status).toBe('NodeStatusBanned')

      const unbanned = await send<Node>(h.app, 'PUT', `/admin/nodes/${nodeId}`, {
        as: admin,
        body: { status: 'NodeStatusActive' },
      })
      expect(unbanned.body).toMatchObject({ status: 'NodeStatusActive', status_detail: '' })
      expect((await get(h.app, `/nodes/${nodeId}`)).status).toBe(200)

      const [unban, ban] = await actionsOf(nodeId)
      expect([unban.action, ban.action]).toEqual(['node.unban', 'node.ban'])
      expect(ban.reason).toBe('Steals tokens')
      // Undo the unban: banned again, with its reason.
      expect(
        (await send(h.app, 'POST', `/admin/actions/${unban.id}/undo`, { as: admin })).status,
      ).toBe(200)
      const again = await get<Node>(h.app, `/nodes/${nodeId}`, bearer(admin))
      expect(again.body).toMatchObject({
        status: 'NodeStatusBanned',
        status_detail: 'Steals tokens',
      })
      expect((await get(h.app, `/nodes/${nodeId}`)).status).toBe(404)
    })

    it('stores the admin fields, returns them on the node, and undoes them', async () => {
      const { nodeId } = await fixture([{ version: '1.0.0', status: ACTIVE }])
      const updated = await send<Node>(h.app, 'PUT', `/admin/nodes/${nodeId}`, {
        as: admin,
        body: {
          tags_admin: [' dev ', 'dev', 'unsafe'],
          search_ranking: 3,
          preempted_comfy_node_names: ['LoadImage'],
          category: 'image',
        },
      })
      expect(updated.status).toBe(200)
      const expected = {
        tags_admin: ['dev', 'unsafe'],
        search_ranking: 3,
        preempted_comfy_node_names: ['LoadImage'],
        category: 'image',
      }
      expect(updated.body).toMatchObject(expected)
      expect((await get<Node>(h.app, `/nodes/${nodeId}`)).body).toMatchObject(expected)
      const [update] = await actionsOf(nodeId)
      expect(update.action).toBe('node.update')
      const undone = await send(h.app, 'POST', `/admin/actions/${update.id}/undo`, { as: admin })
      expect(undone.status).toBe(200)
      const restored = (await get<Node>(h.app, `/nodes/${nodeId}`)).body
      expect(restored).toMatchObject({
        tags_admin: [],
        preempted_comfy_node_names: [],
        category: '',
      })
      expect(restored.search_ranking).toBeUndefined()
    })

    it('records adminCreateNode with its admin tags', async () => {
      const id = `adm-created-${backend}`
      const created = await send<Node>(h.app, 'POST', '/admin/nodes', {
        as: admin,
        body: {
          id,
          name: 'Created',
          repository: `https://github.com/adm/${id}`,
          tags_admin: ['x'],
        },
      })
      expect(created.status).toBe(201)
      expect(created.body.tags_admin).toEqual(['x'])
      const [action] = await actionsOf(id)
      expect(action).toMatchObject({ action: 'node.create', subject_type: 'node' })
      expect(JSON.parse(action.to_value)).toMatchObject({ tags_admin: ['x'] })
      expectErrorBody(
        await send(h.app, 'POST', `/admin/actions/${action.id}/undo`, { as: admin }),
        400,
      )
    })

    it('bans and unbans a publisher, and undoes the ban', async () => {
      const { publisherId, nodeId } = await fixture([{ version: '1.0.0', status: ACTIVE }])
      const banned = await send<Publisher>(h.app, 'PUT', `/admin/publishers/${publisherId}`, {
        as: admin,
        body: { status: 'PublisherStatusBanned', status_reason: 'Spam' },
      })
      expect(banned.body.status).toBe('PublisherStatusBanned')
      expect((await get(h.app, `/publishers/${publisherId}`)).status).toBe(404)
      expect((await get(h.app, `/nodes/${nodeId}`)).status).toBe(404)
      // Its owner is frozen.
      const edit = await send(h.app, 'PUT', `/publishers/${publisherId}`, {
        as: owner,
        body: { name: 'Renamed' },
      })
      expectErrorBody(edit, 403)
      const unbanned = await send<Publisher>(h.app, 'PUT', `/admin/publishers/${publisherId}`, {
        as: admin,
        body: { status: 'PublisherStatusActive' },
      })
      expect(unbanned.body.status).toBe('PublisherStatusActive')
      expect((await get(h.app, `/nodes/${nodeId}`)).status).toBe(200)
      const [unban, ban] = await actionsOf(publisherId)
      expect([unban.action, ban.action, ban.reason]).toEqual([
        'publisher.unban',
        'publisher.ban',
        'Spam',
      ])
      expect(
        (await send(h.app, 'POST', `/admin/actions/${unban.id}/undo`, { as: admin })).status,
      ).toBe(200)
      expect((await get(h.app, `/publishers/${publisherId}`)).status).toBe(404)
    })
  })

  describe('overview and review queue', () => {
    it('counts what the queue shows and what is banned', async () => {
      const reply = await get<AdminOverview>(h.app, '/admin/overview', bearer(admin))
      expect(reply.status).toBe(200)
      const queue = async (status: string) => {
        const [row] = await h.db
          .select({ count: sql<number>`count(*)::int` })
          .from(nodeVersions)
          .innerJoin(nodes, eq(nodes.id, nodeVersions.nodeId))
          .where(and(sql`${nodeVersions.status} = ${status}`, eq(nodes.status, 'NodeStatusActive')))
        return row.count
      }
      const [bannedNodes] = await h.db
        .select({ count: sql<number>`count(*)::int` })
        .from(nodes)
        .where(eq(nodes.status, 'NodeStatusBanned'))
      const [bannedPublishers] = await h.db
        .select({ count: sql<number>`count(*)::int` })
        .from(publishers)
        .where(eq(publishers.status, 'PublisherStatusBanned'))
      const [recent] = await h.db
        .select({ count: sql<number>`count(*)::int` })
        .from(nodeVersions)
        .where(sql`${nodeVersions.createdAt} >= now() - interval '1 day'`)
      expect(reply.body).toEqual({
        pending: await queue(PENDING),
        flagged: await queue(FLAGGED),
        published_last_24h: recent.count,
        banned_nodes: bannedNodes.count,
        banned_publishers: bannedPublishers.count,
      })
      expect(reply.body.pending + reply.body.flagged).toBeGreaterThan(0)
    })

    it('filters the queue by publisher and time, oldest first, with archive sizes', async () => {
      const { publisherId, nodeId } = await fixture([
        { version: '1.0.0', status: PENDING, day: 1 },
        { version: '1.1.0', status: FLAGGED, day: 5 },
        { version: '1.2.0', status: PENDING, day: 9 },
      ])
      await h.db
        .update(nodeVersions)
        .set({ storageKey: `${publisherId}/${nodeId}/1.1.0/node.zip`, archiveSize: 1234 })
        .where(and(eq(nodeVersions.nodeId, nodeId), eq(nodeVersions.version, '1.1.0')))
      const url = (extra: string) =>
        `/versions?statuses=${PENDING}&statuses=${FLAGGED}&include_status_reason=true&publisher_id=${publisherId}${extra}`
      const oldest = await get<NodeVersionListResponse>(h.app, url('&sort=oldest'), bearer(admin))
      expect(oldest.body.versions.map((v) => v.version)).toEqual(['1.0.0', '1.1.0', '1.2.0'])
      expect(oldest.body.versions[1].archive_size).toBe(1234)
      const newest = await get<NodeVersionListResponse>(h.app, url(''), bearer(admin))
      expect(newest.body.versions.map((v) => v.version)).toEqual(['1.2.0', '1.1.0', '1.0.0'])
      const window = await get<NodeVersionListResponse>(
        h.app,
        url('&created_after=2026-01-03T00:00:00Z&created_before=2026-01-08T00:00:00Z'),
        bearer(admin),
      )
      expect(window.body.versions.map((v) => v.version)).toEqual(['1.1.0'])
      expect(window.body.total).toBe(1)
      // Without include_status_reason (or not an admin) the size is not shown.
      const plain = await get<NodeVersionListResponse>(
        h.app,
        `/versions?statuses=${FLAGGED}&publisher_id=${publisherId}`,
        bearer(admin),
      )
      expect(plain.body.versions[0].archive_size).toBeUndefined()
    })
  })

  describe('the review view of an archive', () => {
    const mtime = new Date('2026-01-01T00:00:00Z')
    const zip = (files: Record<string, Uint8Array>) =>
      zipSync(
        Object.fromEntries(Object.entries(files).map(([name, data]) => [name, [data, { mtime }]])),
      )
    const BINARY = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00, 0x01, 0xc3, 0x28])

    it('lists the files, diffs against the previous version, and shows text files', async () => {
      const { publisherId, nodeId } = await fixture([
        { version: '1.0.0', status: ACTIVE },
        { version: '1.0.1', status: ACTIVE },
        { version: '1.1.0', status: PENDING },
      ])
      const archives: Record<string, Uint8Array> = {
        '1.0.0': zip({
          'pack/__init__.py': strToU8('# one\n'),
          'pack/pyproject.toml': strToU8('[project]\nversion = "1.0.0"\n'),
          'pack/old.py': strToU8('print("old")\n'),
          'pack/same.txt': strToU8('same\n'),
        }),
        // 1.0.1 has no archive: the diff of 1.1.0 is against 1.0.0 (its folder name differs).
        '1.1.0': zip({
          'pack-1.1.0/__init__.py': strToU8('# one\n'),
          'pack-1.1.0/pyproject.toml': strToU8('[project]\nversion = "1.1.0"\n'),
          'pack-1.1.0/new.py': strToU8('print("new") # é\n'),
          'pack-1.1.0/same.txt': strToU8('same\n'),
          'pack-1.1.0/logo.png': BINARY,
        }),
      }
      for (const [version, bytes] of Object.entries(archives)) {
        const key = `${publisherId}/${nodeId}/${version}/node.zip`
        await h.storage.put(key, bytes)
        await h.db
          .update(nodeVersions)
          .set({ storageKey: key })
          .where(and(eq(nodeVersions.nodeId, nodeId), eq(nodeVersions.version, version)))
      }
      const base = `/admin/nodes/${nodeId}/versions/1.1.0`
      const listed = await get<AdminVersionFiles>(h.app, `${base}/files`, bearer(admin))
      expect(listed.status).toBe(200)
      expect(listed.body.archive_size).toBe(archives['1.1.0'].length)
      expect(listed.body.files.map((file) => file.path).sort()).toEqual([
        'pack-1.1.0/__init__.py',
        'pack-1.1.0/logo.png',
        'pack-1.1.0/new.py',
        'pack-1.1.0/pyproject.toml',
        'pack-1.1.0/same.txt',
      ])
      expect(listed.body.previous_version).toBe('1.0.0')
      expect(listed.body.diff).toEqual({
        added: expect.arrayContaining(['pack-1.1.0/new.py', 'pack-1.1.0/logo.png']),
        removed: ['pack/old.py'],
        changed: ['pack-1.1.0/pyproject.toml'],
      })
      expect(listed.body.diff?.added).toHaveLength(2)
      // The first version has nothing to compare with.
      const first = await get<AdminVersionFiles>(
        h.app,
        `/admin/nodes/${nodeId}/versions/1.0.0/files`,
        bearer(admin),
      )
      expect(first.body.diff).toBeUndefined()
      expect(first.body.previous_version).toBeUndefined()

      const file = (path: string) =>
        get<AdminVersionFile>(h.app, `${base}/file?path=${encodeURIComponent(path)}`, bearer(admin))
      const text = await file('pack-1.1.0/new.py')
      expect(text.status).toBe(200)
      expect(text.body).toEqual({
        path: 'pack-1.1.0/new.py',
        size: strToU8('print("new") # é\n').length,
        text: 'print("new") # é\n',
        truncated: false,
      })
      expect(expectErrorBody(await file('pack-1.1.0/logo.png'), 415).message).toMatch(/not a UTF-8/)
      for (const missing of ['pack/old.py', '../../etc/passwd', 'pack-1.1.0/', 'pack-1.1.0']) {
        expectErrorBody(await file(missing), 404)
      }
      // A version without an archive, and non-admins.
      expectErrorBody(
        await get(h.app, `/admin/nodes/${nodeId}/versions/1.0.1/files`, bearer(admin)),
        404,
      )
      expectErrorBody(await get(h.app, `${base}/files`, bearer(owner)), 403)
      expectErrorBody(await get(h.app, `${base}/files`), 401)
    })
  })

  describe('on the demo data', () => {
    const DEMO_ADMIN = 'admin@demo.comfy.test'

    it('fills the queue; each finding opens its archive file at the offending line', async () => {
      const queue = (status: string) =>
        get<NodeVersionListResponse>(
          h.app,
          `/versions?statuses=${status}&include_status_reason=true&limit=100`,
          bearer(admin),
        )
      const demoNodes = new Set(h.demo.nodes.map((node) => node.id))
      const pending = (await queue(PENDING)).body.versions.filter((v) => demoNodes.has(v.node_id))
      const flagged = (await queue(FLAGGED)).body.versions.filter((v) => demoNodes.has(v.node_id))
      expect(pending.length).toBeGreaterThan(0)
      expect(flagged.map((v) => `${v.node_id}@${v.version}`)).toContain(
        'comfyui-demo-prompt-tools@0.3.0',
      )
      for (const version of flagged) {
        const findings = version.scan_findings ?? []
        expect(findings.length).toBeGreaterThan(0)
        const base = `/admin/nodes/${version.node_id}/versions/${version.version}`
        const files = await get<AdminVersionFiles>(h.app, `${base}/files`, bearer(admin))
        expect(files.status).toBe(200)
        for (const finding of findings) {
          expect(files.body.files.map((file) => file.path)).toContain(finding.file_path)
          const file = await get<AdminVersionFile>(
            h.app,
            `${base}/file?path=${encodeURIComponent(finding.file_path)}`,
            bearer(admin),
          )
          expect(file.status).toBe(200)
          const line = file.body.text.split('\n')[finding.line_number - 1]
          expect(line.trim()).toBe(finding.code_snippet)
        }
      }
    })

    it('diffs a demo version in the queue against the one before it', async () => {
      const files = await get<AdminVersionFiles>(
        h.app,
        '/admin/nodes/comfyui-demo-face-restore/versions/2.0.0/files',
        bearer(admin),
      )
      expect(files.body.previous_version).toBe('1.3.0')
      expect(files.body.diff).toEqual({
        added: ['examples/workflow.json'],
        removed: ['install.py'],
        changed: ['pyproject.toml', '__init__.py', 'README.md'],
      })
    })

    it('lists the demo admin’s actions, the batch among them', async () => {
      const list = await get<AdminActionListResponse>(
        h.app,
        `/admin/actions?actor=${encodeURIComponent(DEMO_ADMIN)}&limit=100`,
        bearer(admin),
      )
      expect(list.status).toBe(200)
      expect(list.body.total).toBe(h.demo.adminActions.length + h.demo.publisherActions.length)
      const batch = list.body.actions.find((action) => action.batch_id)
      const inBatch = await get<AdminActionListResponse>(
        h.app,
        `/admin/actions?batch_id=${batch?.batch_id}`,
        bearer(admin),
      )
      expect(inBatch.body.actions.map((action) => action.subject_label).sort()).toEqual([
        'comfyui-demo-face-restore@1.2.0',
        'comfyui-demo-prompt-tools@0.2.0',
        'comfyui-demo-upscaler@1.10.0',
      ])
      // The history in the version's status_reason names the same decision.
      const versions = await get<NodeVersion[]>(
        h.app,
        `/nodes/comfyui-demo-upscaler/versions?statuses=${ACTIVE}&include_status_reason=true`,
        bearer(admin),
      )
      const latest = versions.body.find((v) => v.version === '1.10.0')
      expect(parseReason(latest?.status_reason)).toMatchObject({
        batchId: batch?.batch_id,
        by: DEMO_ADMIN,
      })
    })
  })

  it('keeps the audit rows of refused calls out of the log', async () => {
    const [{ total }] = await h.db.select({ total: sql<number>`count(*)::int` }).from(adminActions)
    const { nodeId } = await fixture([{ version: '1.0.0', status: PENDING }])
    await send(h.app, 'PUT', `/admin/nodes/${nodeId}/versions/1.0.0`, {
      as: owner,
      body: { status: ACTIVE },
    })
    const [after] = await h.db.select({ total: sql<number>`count(*)::int` }).from(adminActions)
    expect(after.total).toBe(total)
  })
})
