import { and, eq } from 'drizzle-orm'
import { strFromU8, unzipSync } from 'fflate'
import semver from 'semver'
import type { Schemas } from '../http/operations'
import { refreshLatestVersion } from '../db/latest-version'
import { nodes, nodeVersions } from '../db/schema'
import { bearer, signUpUser, signUpVerifiedUser, type TestUser } from '../test/auth'
import {
  insertNodeWithVersions,
  isPublic,
  nodeFacts,
  setNodeStatus,
  setPublisherStatus,
  type NodeFacts,
} from '../test/data'
import {
  BACKENDS,
  createTestApp,
  expectErrorBody,
  get,
  query,
  TEST_PUBLIC_URL,
  type TestApp,
} from '../test/harness'

type Node = Schemas['Node']
type NodeListResponse = Schemas['NodeListResponse']
type NodeVersion = Schemas['NodeVersion']

jest.setTimeout(60_000)

const SORTS = ['downloads', 'stars', 'recent', 'newest', 'name'] as const

/** Sort keys compared the way PostgreSQL may: byte order (C) or ignoring punctuation (glibc/ICU). */
function nameInOrder(a: string, b: string): boolean {
  const x = a.toLowerCase()
  const y = b.toLowerCase()
  const strip = (s: string) => s.replace(/[^a-z0-9]/g, '')
  return x <= y || strip(x) <= strip(y)
}

function expectOrdered(list: Node[], sort: (typeof SORTS)[number]): void {
  for (let i = 1; i < list.length; i++) {
    const prev = list[i - 1]
    const next = list[i]
    const where = `${sort}: ${prev.id} before ${next.id}`
    switch (sort) {
      case 'downloads':
        expect({ where, ok: (prev.downloads ?? 0) >= (next.downloads ?? 0) }).toEqual({
          where,
          ok: true,
        })
        break
      case 'stars':
        expect({ where, ok: (prev.github_stars ?? 0) >= (next.github_stars ?? 0) }).toEqual({
          where,
          ok: true,
        })
        break
      case 'recent': {
        const p = prev.latest_version?.createdAt
        const n = next.latest_version?.createdAt
        // Newest latest version first; nodes without one last.
        const ok = n === undefined || (p !== undefined && Date.parse(p) >= Date.parse(n))
        expect({ where, ok }).toEqual({ where, ok: true })
        break
      }
      case 'newest':
        expect({
          where,
          ok: Date.parse(prev.created_at ?? '') >= Date.parse(next.created_at ?? ''),
        }).toEqual({ where, ok: true })
        break
      case 'name':
        expect({ where, ok: nameInOrder(prev.name, next.name) }).toEqual({ where, ok: true })
        break
    }
  }
}

const ids = (list: { id?: string }[]) => list.map((item) => item.id ?? '')

describe.each(BACKENDS)('GET /nodes on %s', (backend) => {
  let h: TestApp
  let facts: NodeFacts[]
  let publicIds: string[]
  let bannedNodeId: string
  let deletedNodeId: string
  let bannedPublisherId: string
  let bannedPublisherNodeIds: string[]
  let admin: TestUser
  let user: TestUser

  beforeAll(async () => {
    h = await createTestApp({ postgres: backend === 'postgres' })
    const seeded = await nodeFacts(h.db)
    // Deterministic moderation state, whatever the generator chose: one banned node, one deleted
    // node and a banned publisher (not the demo publisher, which the other suites rely on).
    const candidates = seeded.filter(
      (node) => isPublic(node) && node.publisherId && node.publisherId !== 'comfy-demo',
    )
    bannedPublisherId = candidates[0].publisherId ?? ''
    const others = candidates.filter((node) => node.publisherId !== bannedPublisherId)
    bannedNodeId = others[0].id
    deletedNodeId = others[1].id
    await setNodeStatus(h.db, bannedNodeId, 'NodeStatusBanned')
    await setNodeStatus(h.db, deletedNodeId, 'NodeStatusDeleted')
    await setPublisherStatus(h.db, bannedPublisherId, 'PublisherStatusBanned')
    facts = await nodeFacts(h.db)
    publicIds = facts.filter(isPublic).map((node) => node.id)
    bannedPublisherNodeIds = facts
      .filter((node) => node.publisherId === bannedPublisherId)
      .map((node) => node.id)
    expect(bannedPublisherNodeIds.length).toBeGreaterThan(0)
  })

  afterAll(async () => {
    await h?.close()
  })

  async function signedIn() {
    admin ??= await signUpVerifiedUser(h.adminEmail, 'Test Admin')
    user ??= await signUpUser()
    return { admin, user }
  }

  async function listAll(params: Parameters<typeof query>[0] = {}, headers = {}) {
    const reply = await get<NodeListResponse>(
      h.app,
      `/nodes${query({ limit: 100, ...params })}`,
      headers,
    )
    expect(reply.status).toBe(200)
    return reply.body
  }

  describe('pagination', () => {
    it('answers the {nodes, total, page, limit, totalPages} envelope', async () => {
      const reply = await get<NodeListResponse>(h.app, '/nodes?page=1&limit=10')
      expect(reply.status).toBe(200)
      expect(Object.keys(reply.body).sort()).toEqual(
        ['limit', 'nodes', 'page', 'total', 'totalPages'].sort(),
      )
      expect(reply.body).toMatchObject({
        total: publicIds.length,
        page: 1,
        limit: 10,
        totalPages: Math.ceil(publicIds.length / 10),
      })
      expect(reply.body.nodes).toHaveLength(Math.min(10, publicIds.length))
    })

    it('defaults to page 1 and limit 10', async () => {
      const reply = await get<NodeListResponse>(h.app, '/nodes')
      expect(reply.body).toMatchObject({ page: 1, limit: 10, total: publicIds.length })
      expect(reply.body.nodes).toHaveLength(10)
    })

    it('walks every public node exactly once across pages', async () => {
      const seen: string[] = []
      const limit = 7
      const pages = Math.ceil(publicIds.length / limit)
      for (let page = 1; page <= pages; page++) {
        const reply = await get<NodeListResponse>(h.app, `/nodes${query({ page, limit })}`)
        expect(reply.body).toMatchObject({ page, limit, totalPages: pages })
        expect(reply.body.nodes.length).toBe(page < pages ? limit : publicIds.length - seen.length)
        seen.push(...ids(reply.body.nodes))
      }
      expect([...seen].sort()).toEqual([...publicIds].sort())
      const beyond = await get<NodeListResponse>(
        h.app,
        `/nodes${query({ page: pages + 1, limit })}`,
      )
      expect(beyond.body.nodes).toEqual([])
      expect(beyond.body.total).toBe(publicIds.length)
    })
  })

  describe('sorting', () => {
    it.each(SORTS)('sort=%s orders the whole list', async (sort) => {
      const body = await listAll({ sort })
      expect(body.nodes).toHaveLength(publicIds.length)
      expectOrdered(body.nodes, sort)
    })

    it('sorts by downloads by default', async () => {
      const byDefault = await listAll()
      const byDownloads = await listAll({ sort: 'downloads' })
      expect(ids(byDefault.nodes)).toEqual(ids(byDownloads.nodes))
    })

    it('orders differently for different sorts (the sort is not ignored)', async () => {
      const orders = await Promise.all(
        SORTS.map(async (sort) => ids((await listAll({ sort })).nodes).join()),
      )
      expect(new Set(orders).size).toBe(SORTS.length)
    })
  })

  describe('filters', () => {
    const count = (predicate: (node: NodeFacts) => boolean) =>
      facts.filter((node) => isPublic(node) && predicate(node)).length

    function commonValues(pick: (node: NodeFacts) => string[]): string[] {
      const counts = new Map<string, number>()
      for (const node of facts.filter(isPublic)) {
        for (const value of pick(node)) counts.set(value, (counts.get(value) ?? 0) + 1)
      }
      return [...counts.entries()]
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .map(([v]) => v)
    }

    it('tags: a single tag', async () => {
      const [tag] = commonValues((node) => node.tags)
      const body = await listAll({ tags: tag })
      expect(body.total).toBe(count((node) => node.tags.includes(tag)))
      expect(body.total).toBeGreaterThan(0)
      for (const node of body.nodes) expect(node.tags).toContain(tag)
    })

    it('tags: repeated keys mean all of them', async () => {
      const [first] = commonValues((node) => node.tags)
      const second = commonValues((node) => (node.tags.includes(first) ? node.tags : [])).find(
        (tag) => tag !== first,
      )
      if (!second) throw new Error('the seed has no two co-occurring tags')
      const body = await listAll({ tags: [first, second] })
      expect(body.total).toBe(
        count((node) => node.tags.includes(first) && node.tags.includes(second)),
      )
      expect(body.total).toBeGreaterThan(0)
      expect(body.total).toBeLessThan(count((node) => node.tags.includes(first)))
      for (const node of body.nodes)
        expect(node.tags).toEqual(expect.arrayContaining([first, second]))
    })

    it('supported_os: any of them', async () => {
      const [a, b] = commonValues((node) => node.supportedOs)
      const body = await listAll({ supported_os: [a, b] })
      expect(body.total).toBe(count((node) => node.supportedOs.some((os) => os === a || os === b)))
      expect(body.total).toBeGreaterThanOrEqual(count((node) => node.supportedOs.includes(a)))
      for (const node of body.nodes) {
        expect(node.supported_os?.some((os) => os === a || os === b)).toBe(true)
      }
    })

    it('supported_accelerators: any of them', async () => {
      const [a, b] = commonValues((node) => node.supportedAccelerators)
      const single = await listAll({ supported_accelerators: a })
      expect(single.total).toBe(count((node) => node.supportedAccelerators.includes(a)))
      const body = await listAll({ supported_accelerators: [a, b] })
      expect(body.total).toBe(
        count((node) => node.supportedAccelerators.some((acc) => acc === a || acc === b)),
      )
      expect(body.total).toBeGreaterThan(single.total)
    })

    it('publisher_id', async () => {
      const [publisherId] = commonValues((node) => (node.publisherId ? [node.publisherId] : []))
      const body = await listAll({ publisher_id: publisherId })
      expect(body.total).toBe(count((node) => node.publisherId === publisherId))
      for (const node of body.nodes) expect(node.publisher?.id).toBe(publisherId)
    })

    it('a filter that matches nothing gives an empty page', async () => {
      const body = await listAll({ tags: 'no-such-tag' })
      expect(body).toMatchObject({ nodes: [], total: 0, totalPages: 0 })
    })

    it('accepts the extra params real clients send', async () => {
      const body = await listAll({
        comfyui_version: '0.3.40',
        form_factor: 'desktop',
        timestamp: '2026-01-01T00:00:00Z',
        latest: 'true',
        some_future_param: 'x',
      })
      expect(body.total).toBe(publicIds.length)
    })
  })

  describe('visibility', () => {
    it('hides banned and deleted nodes and nodes of banned publishers from anonymous lists', async () => {
      const listed = ids((await listAll()).nodes)
      expect([...listed].sort()).toEqual([...publicIds].sort())
      expect(listed).not.toContain(bannedNodeId)
      expect(listed).not.toContain(deletedNodeId)
      for (const id of bannedPublisherNodeIds) expect(listed).not.toContain(id)
    })

    it('answers 404 for hidden nodes to anonymous callers', async () => {
      for (const id of [bannedNodeId, deletedNodeId, bannedPublisherNodeIds[0]]) {
        expectErrorBody(await get(h.app, `/nodes/${id}`), 404)
      }
      expectErrorBody(await get(h.app, `/nodes/${bannedNodeId}/install`), 404)
    })

    it('ignores include_banned from anonymous callers', async () => {
      const listed = ids((await listAll({ include_banned: true })).nodes)
      expect(listed).not.toContain(bannedNodeId)
      expect(listed).toHaveLength(publicIds.length)
    })

    it('ignores include_banned from signed-in non-admins', async () => {
      const { user } = await signedIn()
      const body = await listAll({ include_banned: true }, bearer(user))
      expect(body.total).toBe(publicIds.length)
      expect(ids(body.nodes)).not.toContain(bannedNodeId)
      expectErrorBody(await get(h.app, `/nodes/${bannedNodeId}`, bearer(user)), 404)
    })

    it('shows banned and deleted nodes to an admin asking with include_banned', async () => {
      const { admin } = await signedIn()
      const body = await listAll({ include_banned: true }, bearer(admin))
      expect(body.total).toBe(facts.length)
      const listed = ids(body.nodes)
      expect(listed).toEqual(
        expect.arrayContaining([bannedNodeId, deletedNodeId, ...bannedPublisherNodeIds]),
      )
      const banned = body.nodes.find((node) => node.id === bannedNodeId)
      expect(banned?.status).toBe('NodeStatusBanned')
      // Without include_banned an admin gets the public list.
      expect((await listAll({}, bearer(admin))).total).toBe(publicIds.length)
      const single = await get<Node>(h.app, `/nodes/${bannedNodeId}`, bearer(admin))
      expect(single.status).toBe(200)
      expect(single.body).toMatchObject({ id: bannedNodeId, status: 'NodeStatusBanned' })
    })

    it('narrows an admin list to node_statuses; others asking get the public list', async () => {
      const { admin, user } = await signedIn()
      const banned = await listAll(
        { include_banned: true, node_statuses: ['NodeStatusBanned'] },
        bearer(admin),
      )
      expect(banned.nodes.length).toBeGreaterThan(0)
      expect(ids(banned.nodes)).toContain(bannedNodeId)
      for (const node of banned.nodes) expect(node.status).toBe('NodeStatusBanned')
      const twoKinds = await listAll(
        { include_banned: true, node_statuses: ['NodeStatusBanned', 'NodeStatusDeleted'] },
        bearer(admin),
      )
      expect(ids(twoKinds.nodes)).toEqual(expect.arrayContaining([bannedNodeId, deletedNodeId]))
      // Status filters never refuse: a non-admin (or an admin without include_banned) is ignored.
      const asUser = await listAll({ node_statuses: ['NodeStatusBanned'] }, bearer(user))
      expect(asUser.total).toBe(publicIds.length)
      const withoutInclude = await listAll({ node_statuses: ['NodeStatusBanned'] }, bearer(admin))
      expect(withoutInclude.total).toBe(publicIds.length)
    })
  })

  describe('GET /nodes/{nodeId}', () => {
    it('looks ids up case-insensitively', async () => {
      const id = publicIds.find((candidate) => /[a-z]/.test(candidate)) ?? publicIds[0]
      for (const variant of [id, id.toUpperCase(), id.toLowerCase()]) {
        const reply = await get<Node>(h.app, `/nodes/${variant}`)
        expect(reply.status).toBe(200)
        expect(reply.body.id).toBe(id)
      }
    })

    it('answers 404 JSON for an unknown node', async () => {
      const body = expectErrorBody(await get(h.app, '/nodes/no-such-node'), 404)
      expect(body.message).toContain('no-such-node')
    })

    it('returns latest_version as the newest Active version by semver for every node', async () => {
      const versions = await h.db
        .select({
          nodeId: nodeVersions.nodeId,
          version: nodeVersions.version,
          status: nodeVersions.status,
        })
        .from(nodeVersions)
      for (const node of (await listAll()).nodes) {
        const active = versions
          .filter((v) => v.nodeId === node.id && v.status === 'NodeVersionStatusActive')
          .map((v) => v.version)
          .sort(semver.rcompare)
        expect({ id: node.id, latest: node.latest_version?.version ?? null }).toEqual({
          id: node.id,
          latest: active[0] ?? null,
        })
      }
    })

    it('never makes a Pending or Flagged version latest, and compares 1.10.0 > 1.9.0', async () => {
      await insertNodeWithVersions(h.db, { id: 'semver-latest-check', publisherId: 'comfy-demo' }, [
        { version: '1.10.0', status: 'NodeVersionStatusActive' },
        { version: '1.9.0', status: 'NodeVersionStatusActive' },
        { version: '2.0.0', status: 'NodeVersionStatusPending' },
        { version: '2.1.0', status: 'NodeVersionStatusFlagged' },
        { version: '1.11.0-rc.1', status: 'NodeVersionStatusActive' },
      ])
      const reply = await get<Node>(h.app, '/nodes/semver-latest-check')
      expect(reply.status).toBe(200)
      expect(reply.body.latest_version).toMatchObject({
        version: '1.11.0-rc.1',
        status: 'NodeVersionStatusActive',
        node_id: 'semver-latest-check',
      })
      // The prerelease goes away: 1.10.0 (not 1.9.0 by string order) is latest.
      await h.db
        .update(nodeVersions)
        .set({ status: 'NodeVersionStatusDeleted' })
        .where(
          and(
            eq(nodeVersions.nodeId, 'semver-latest-check'),
            eq(nodeVersions.version, '1.11.0-rc.1'),
          ),
        )
      await refreshLatestVersion(h.db, 'semver-latest-check')
      const after = await get<Node>(h.app, '/nodes/semver-latest-check')
      expect(after.body.latest_version?.version).toBe('1.10.0')
    })

    it('omits latest_version (never null) when there is no Active version', async () => {
      await insertNodeWithVersions(h.db, { id: 'only-pending-node', publisherId: 'comfy-demo' }, [
        { version: '1.0.0', status: 'NodeVersionStatusPending' },
      ])
      const reply = await get<Node>(h.app, '/nodes/only-pending-node')
      expect(reply.status).toBe(200)
      expect(reply.body).not.toHaveProperty('latest_version')
      expectErrorBody(await get(h.app, '/nodes/only-pending-node/install'), 404)
    })
  })

  describe('GET /nodes/{nodeId}/install', () => {
    /** A public node with an archive and at least two Active versions. */
    function installable() {
      const node = h.demo.nodes.find((candidate) => {
        if (!publicIds.includes(candidate.id)) return false
        const active = h.demo.versions.filter(
          (v) =>
            v.nodeId === candidate.id && v.status === 'NodeVersionStatusActive' && v.storageKey,
        )
        const pending = h.demo.versions.some(
          (v) => v.nodeId === candidate.id && v.status === 'NodeVersionStatusPending',
        )
        return active.length >= 2 && pending
      })
      if (!node) throw new Error('the seed has no node with two active versions and a pending one')
      const versions = h.demo.versions.filter((v) => v.nodeId === node.id)
      return { node, versions }
    }

    async function downloadsOf(id: string): Promise<number> {
      const reply = await get<Node>(h.app, `/nodes/${id}`)
      return reply.body.downloads ?? -1
    }

    it('returns the latest version with a downloadUrl and counts the download', async () => {
      const { node } = installable()
      const before = await downloadsOf(node.id)
      const reply = await get<NodeVersion>(h.app, `/nodes/${node.id}/install`)
      expect(reply.status).toBe(200)
      const latest = h.demo.versions.find((v) => v.id === node.latestVersionId)
      expect(reply.body).toMatchObject({
        id: latest?.id,
        version: latest?.version,
        node_id: node.id,
        status: 'NodeVersionStatusActive',
        downloadUrl: `${TEST_PUBLIC_URL}/archives/${node.id}/${latest?.version}.zip`,
      })
      expect(await downloadsOf(node.id)).toBe(before + 1)
      const [row] = await h.db
        .select({ downloads: nodes.downloads })
        .from(nodes)
        .where(eq(nodes.id, node.id))
      expect(row.downloads).toBe(before + 1)
    })

    it('installs an exact ?version=', async () => {
      const { node, versions } = installable()
      const older = versions.find(
        (v) =>
          v.status === 'NodeVersionStatusActive' && v.id !== node.latestVersionId && v.storageKey,
      )
      const before = await downloadsOf(node.id)
      const reply = await get<NodeVersion>(
        h.app,
        `/nodes/${node.id}/install?version=${older?.version}`,
      )
      expect(reply.status).toBe(200)
      expect(reply.body).toMatchObject({ id: older?.id, version: older?.version })
      expect(await downloadsOf(node.id)).toBe(before + 1)
    })

    it('answers 404 for a Pending or unknown version and does not count it', async () => {
      const { node, versions } = installable()
      const pending = versions.find((v) => v.status === 'NodeVersionStatusPending')
      const before = await downloadsOf(node.id)
      expectErrorBody(
        await get(h.app, `/nodes/${node.id}/install?version=${pending?.version}`),
        404,
      )
      expectErrorBody(await get(h.app, `/nodes/${node.id}/install?version=99.0.0`), 404)
      expectErrorBody(await get(h.app, '/nodes/no-such-node/install'), 404)
      expect(await downloadsOf(node.id)).toBe(before)
    })

    it('serves a real zip at the downloadUrl', async () => {
      const { node } = installable()
      const reply = await get<NodeVersion>(h.app, `/nodes/${node.id}/install`)
      const url = new URL(reply.body.downloadUrl ?? '')
      const archive = await h.app.inject({ method: 'GET', url: url.pathname })
      expect(archive.statusCode).toBe(200)
      expect(archive.headers['content-type']).toBe('application/zip')
      const bytes = archive.rawPayload
      expect([...bytes.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04])
      const files = unzipSync(new Uint8Array(bytes))
      expect(Object.keys(files)).toContain('pyproject.toml')
      const pyproject = strFromU8(files['pyproject.toml'])
      expect(pyproject).toContain(`version = "${reply.body.version}"`)
      expect(pyproject).toContain(`name = "${node.id.toLowerCase()}"`)
    })
  })
})
