import { and, eq, sql } from 'drizzle-orm'
import type { Schemas } from '../http/operations'
import { nodes, nodeVersions } from '../db/schema'
import { bearer, signUpUser, signUpVerifiedUser, type TestUser } from '../test/auth'
import { addMember } from '../test/data'
import { BACKENDS, createTestApp, expectErrorBody, get, query, type TestApp } from '../test/harness'

type ComfyNode = Schemas['ComfyNode']
type ComfyNodeListResponse = Schemas['ComfyNodeListResponse']
type Node = Schemas['Node']
type NodeVersion = Schemas['NodeVersion']
type NodeVersionListResponse = Schemas['NodeVersionListResponse']

jest.setTimeout(60_000)

// Fixed demo nodes of the `comfy-demo` publisher (server/seed/generate.ts DEMO_NODES).
const UPSCALER = 'comfyui-demo-upscaler' // 1.8.0, 1.9.0, 1.10.0 — all Active
const FACE = 'comfyui-demo-face-restore' // 1.2.0, 1.3.0 Active; 2.0.0 Pending
const PROMPT = 'comfyui-demo-prompt-tools' // 0.1.0, 0.2.0 Active; 0.3.0 Flagged

const PENDING = 'NodeVersionStatusPending'
const ACTIVE = 'NodeVersionStatusActive'
const FLAGGED = 'NodeVersionStatusFlagged'

describe.each(BACKENDS)('versions and comfy nodes on %s', (backend) => {
  let h: TestApp
  let member: TestUser
  let stranger: TestUser
  let admin: TestUser

  beforeAll(async () => {
    h = await createTestApp({ postgres: backend === 'postgres' })
    ;[member, stranger, admin] = await Promise.all([
      signUpUser(),
      signUpUser(),
      signUpVerifiedUser(h.adminEmail),
    ])
    await addMember(h.db, member, 'comfy-demo', 'member')
  })

  afterAll(async () => {
    await h?.close()
  })

  const versionsOf = (list: NodeVersion[]) => list.map((v) => v.version)

  describe('GET /nodes/{nodeId}/versions', () => {
    it('lists Active versions newest first by semver', async () => {
      const reply = await get<NodeVersion[]>(h.app, `/nodes/${UPSCALER}/versions`)
      expect(reply.status).toBe(200)
      expect(versionsOf(reply.body)).toEqual(['1.10.0', '1.9.0', '1.8.0'])
      for (const version of reply.body) {
        expect(version).toMatchObject({ node_id: UPSCALER, status: ACTIVE })
        expect(version.status_reason).toBeUndefined()
      }
      const face = await get<NodeVersion[]>(h.app, `/nodes/${FACE.toUpperCase()}/versions`)
      expect(versionsOf(face.body)).toEqual(['1.3.0', '1.2.0'])
    })

    it('keeps the newest versions with `limit`, after the status filter', async () => {
      const two = await get<NodeVersion[]>(h.app, `/nodes/${UPSCALER}/versions?limit=2`)
      expect(two.status).toBe(200)
      expect(versionsOf(two.body)).toEqual(['1.10.0', '1.9.0'])
      const more = await get<NodeVersion[]>(h.app, `/nodes/${UPSCALER}/versions?limit=100`)
      expect(versionsOf(more.body)).toEqual(['1.10.0', '1.9.0', '1.8.0'])
      // The Pending 2.0.0 is not counted against the limit of an anonymous caller.
      const face = await get<NodeVersion[]>(
        h.app,
        `/nodes/${FACE}/versions?statuses=${ACTIVE}&statuses=${PENDING}&limit=1`,
      )
      expect(versionsOf(face.body)).toEqual(['1.3.0'])
      const asMember = await get<NodeVersion[]>(
        h.app,
        `/nodes/${FACE}/versions?statuses=${ACTIVE}&statuses=${PENDING}&limit=1`,
        bearer(member),
      )
      expect(versionsOf(asMember.body)).toEqual(['2.0.0'])
    })

    it.each(['0', '101', 'two'])('refuses limit=%s with a 400', async (limit) => {
      const reply = await get<unknown>(h.app, `/nodes/${UPSCALER}/versions?limit=${limit}`)
      expectErrorBody(reply, 400)
    })

    it('answers anonymous status filters with the visible versions, never 403', async () => {
      const active = await get<NodeVersion[]>(h.app, `/nodes/${FACE}/versions?statuses=${ACTIVE}`)
      expect(active.status).toBe(200)
      expect(versionsOf(active.body)).toEqual(['1.3.0', '1.2.0'])
      const pending = await get<NodeVersion[]>(h.app, `/nodes/${FACE}/versions?statuses=${PENDING}`)
      expect({ status: pending.status, body: pending.body }).toEqual({ status: 200, body: [] })
      // What ComfyUI-Manager sends when someone clicks Install or Switch version.
      const manager = await get<NodeVersion[]>(
        h.app,
        `/nodes/${FACE}/versions${query({ statuses: [ACTIVE, PENDING] })}`,
      )
      expect(manager.status).toBe(200)
      expect(versionsOf(manager.body)).toEqual(['1.3.0', '1.2.0'])
    })

    it('shows signed-in strangers the Active versions only', async () => {
      const reply = await get<NodeVersion[]>(
        h.app,
        `/nodes/${FACE}/versions${query({ statuses: [ACTIVE, PENDING] })}`,
        bearer(stranger),
      )
      expect(reply.status).toBe(200)
      expect(versionsOf(reply.body)).toEqual(['1.3.0', '1.2.0'])
    })

    it('shows every status to members and admins, with reasons on request', async () => {
      for (const caller of [member, admin]) {
        const reply = await get<NodeVersion[]>(
          h.app,
          `/nodes/${FACE}/versions${query({ statuses: [ACTIVE, PENDING] })}`,
          bearer(caller),
        )
        expect(reply.status).toBe(200)
        expect(versionsOf(reply.body)).toEqual(['2.0.0', '1.3.0', '1.2.0'])
        expect(reply.body[0].status).toBe(PENDING)

        const flagged = await get<NodeVersion[]>(
          h.app,
          `/nodes/${PROMPT}/versions${query({ statuses: FLAGGED, include_status_reason: true })}`,
          bearer(caller),
        )
        expect(flagged.status).toBe(200)
        expect(flagged.body).toHaveLength(1)
        expect(flagged.body[0]).toMatchObject({ version: '0.3.0', status: FLAGGED })
        expect(typeof flagged.body[0].status_reason).toBe('string')
        expect(flagged.body[0].status_reason).not.toBe('')
        expect(flagged.body[0].scan_findings).toEqual([
          expect.objectContaining({
            issue_type: expect.any(String),
            line_number: expect.any(Number),
          }),
        ])
        expect(JSON.parse(flagged.body[0].status_reason ?? '')).toEqual(
          flagged.body[0].scan_findings,
        )
      }
    })

    it('answers 404 for an unknown node', async () => {
      expectErrorBody(await get(h.app, '/nodes/no-such-node/versions'), 404)
    })
  })

  describe('GET /nodes/{nodeId}/versions/{version}', () => {
    it('returns one Active version, and `latest`', async () => {
      const exact = await get<NodeVersion>(h.app, `/nodes/${FACE}/versions/1.2.0`)
      expect(exact.status).toBe(200)
      expect(exact.body).toMatchObject({ version: '1.2.0', node_id: FACE, status: ACTIVE })
      expect(exact.body.downloadUrl).toMatch(/\/archives\/comfyui-demo-face-restore\/1\.2\.0\.zip$/)
      const latest = await get<NodeVersion>(h.app, `/nodes/${FACE}/versions/latest`)
      expect(latest.status).toBe(200)
      expect(latest.body.version).toBe('1.3.0')
      const node = await get<Node>(h.app, `/nodes/${FACE}`)
      expect(node.body.latest_version?.id).toBe(latest.body.id)
    })

    it('hides a Pending version from anonymous callers and strangers, not from members', async () => {
      expectErrorBody(await get(h.app, `/nodes/${FACE}/versions/2.0.0`), 404)
      expectErrorBody(await get(h.app, `/nodes/${FACE}/versions/2.0.0`, bearer(stranger)), 404)
      const asMember = await get<NodeVersion>(
        h.app,
        `/nodes/${FACE}/versions/2.0.0`,
        bearer(member),
      )
      expect(asMember.status).toBe(200)
      expect(asMember.body.status).toBe(PENDING)
    })

    it('answers 404 for an unknown version', async () => {
      expectErrorBody(await get(h.app, `/nodes/${FACE}/versions/9.9.9`), 404)
    })
  })

  describe('GET /versions', () => {
    async function activeVersionCount(nodeId?: string): Promise<number> {
      const [row] = await h.db
        .select({ n: sql<number>`count(*)::int` })
        .from(nodeVersions)
        .innerJoin(nodes, eq(nodes.id, nodeVersions.nodeId))
        .where(
          and(
            eq(nodeVersions.status, ACTIVE),
            eq(nodes.status, 'NodeStatusActive'),
            nodeId ? eq(nodes.id, nodeId) : undefined,
          ),
        )
      return row.n
    }

    it('pages through Active versions, newest first', async () => {
      const total = await activeVersionCount()
      const first = await get<NodeVersionListResponse>(h.app, '/versions?page=1&limit=5')
      expect(first.status).toBe(200)
      expect(first.body).toMatchObject({
        total,
        page: 1,
        limit: 5,
        totalPages: Math.ceil(total / 5),
      })
      expect(first.body.versions).toHaveLength(5)
      const second = await get<NodeVersionListResponse>(h.app, '/versions?page=2&limit=5')
      const ids = new Set([...first.body.versions, ...second.body.versions].map((v) => v.id))
      expect(ids.size).toBe(10)
      const all = await get<NodeVersionListResponse>(h.app, '/versions?limit=100')
      const times = all.body.versions.map((v) => Date.parse(v.createdAt))
      expect(times).toEqual([...times].sort((a, b) => b - a))
      for (const version of all.body.versions) expect(version.status).toBe(ACTIVE)
    })

    it('filters by nodeId (case-insensitively)', async () => {
      const reply = await get<NodeVersionListResponse>(
        h.app,
        `/versions?nodeId=${UPSCALER.toUpperCase()}`,
      )
      expect(reply.status).toBe(200)
      expect(reply.body.total).toBe(await activeVersionCount(UPSCALER))
      expect(reply.body.versions.map((v) => v.version).sort()).toEqual(['1.10.0', '1.8.0', '1.9.0'])
    })

    it('gives other statuses to admins only; others get no hidden versions, never 403', async () => {
      for (const headers of [{}, bearer(member)]) {
        const reply = await get<NodeVersionListResponse>(
          h.app,
          `/versions?statuses=${PENDING}`,
          headers,
        )
        expect(reply.status).toBe(200)
        expect(reply.body.versions).toEqual([])
      }
      const reply = await get<NodeVersionListResponse>(
        h.app,
        `/versions${query({ statuses: PENDING, limit: 100 })}`,
        bearer(admin),
      )
      expect(reply.status).toBe(200)
      expect(reply.body.total).toBeGreaterThan(0)
      for (const version of reply.body.versions) expect(version.status).toBe(PENDING)
      expect(reply.body.versions.map((v) => v.node_id)).toContain(FACE)
    })
  })

  describe('comfy nodes', () => {
    function latestComfyNodes(nodeId: string) {
      const node = h.demo.nodes.find((candidate) => candidate.id === nodeId)
      const version = h.demo.versions.find((v) => v.id === node?.latestVersionId)
      const classes = h.demo.comfyNodes
        .filter((c) => c.nodeVersionId === version?.id)
        .map((c) => c.comfyNodeName)
        .sort()
      return { version: version?.version ?? '', classes }
    }

    it('lists the comfy nodes of a version, paginated', async () => {
      const { version, classes } = latestComfyNodes(UPSCALER)
      expect(classes.length).toBeGreaterThan(2)
      const url = `/nodes/${UPSCALER}/versions/${version}/comfy-nodes`
      const all = await get<ComfyNodeListResponse>(h.app, `${url}?limit=100`)
      expect(all.status).toBe(200)
      expect(all.body).toMatchObject({ total: classes.length, page: 1, limit: 100, totalPages: 1 })
      expect(all.body.comfy_nodes.map((c) => c.comfy_node_name).sort()).toEqual(classes)
      const page = await get<ComfyNodeListResponse>(h.app, `${url}?page=2&limit=2`)
      expect(page.body).toMatchObject({
        page: 2,
        limit: 2,
        totalPages: Math.ceil(classes.length / 2),
      })
      expect(page.body.comfy_nodes).toHaveLength(Math.min(2, classes.length - 2))
      const latest = await get<ComfyNodeListResponse>(
        h.app,
        `/nodes/${UPSCALER}/versions/latest/comfy-nodes?limit=100`,
      )
      expect(latest.body.total).toBe(classes.length)
    })

    it('gets one comfy node by class name', async () => {
      const { version, classes } = latestComfyNodes(UPSCALER)
      const reply = await get<ComfyNode>(
        h.app,
        `/nodes/${UPSCALER}/versions/${version}/comfy-nodes/${classes[0]}`,
      )
      expect(reply.status).toBe(200)
      expect(reply.body.comfy_node_name).toBe(classes[0])
      expect(typeof reply.body.input_types).toBe('string')
      expect(Array.isArray(reply.body.output_is_list)).toBe(true)
      expectErrorBody(
        await get(h.app, `/nodes/${UPSCALER}/versions/${version}/comfy-nodes/NoSuchClass`),
        404,
      )
      expectErrorBody(await get(h.app, `/nodes/${UPSCALER}/versions/9.9.9/comfy-nodes`), 404)
    })

    it('GET /comfy-nodes/{name}/node finds the node providing a class', async () => {
      const { classes } = latestComfyNodes(UPSCALER)
      const reply = await get<Node>(h.app, `/comfy-nodes/${classes[0]}/node`)
      expect(reply.status).toBe(200)
      expect(reply.body.id).toBe(UPSCALER)
      expectErrorBody(await get(h.app, '/comfy-nodes/NoSuchComfyClass/node'), 404)
    })
  })

  describe('archives', () => {
    it('serves the archive of an Active version and 404s unknown ones', async () => {
      const ok = await h.app.inject({ method: 'GET', url: `/archives/${UPSCALER}/1.9.0.zip` })
      expect(ok.statusCode).toBe(200)
      expect(ok.headers['content-type']).toBe('application/zip')
      expectErrorBody(await get(h.app, `/archives/${UPSCALER}/9.9.9.zip`), 404)
      expectErrorBody(await get(h.app, '/archives/no-such-node/1.0.0.zip'), 404)
    })

    it('answers 404 for a version whose archive is gone (banned)', async () => {
      await h.db
        .update(nodeVersions)
        .set({ status: 'NodeVersionStatusBanned' })
        .where(and(eq(nodeVersions.nodeId, UPSCALER), eq(nodeVersions.version, '1.8.0')))
      expectErrorBody(await get(h.app, `/archives/${UPSCALER}/1.8.0.zip`), 404)
    })
  })
})
