/**
 * Wire compatibility with the real clients, written from their own behaviour (design.md §5):
 * - comfy-cli maps `latest_version` whenever the key is present and crashes on `null`;
 *   ComfyUI-Manager substitutes "nightly" only when the key is absent;
 * - the Manager builds its list with `node['publisher']['name']`;
 * - the Manager asks anonymously for `statuses=Active&statuses=Pending` versions before it
 *   installs, and shows "Failed to fetch versions" on anything but 200 with an array;
 * - today's registry serves `GET /comfy-nodes` and `GET /features`.
 */
import type { Schemas } from './operations'
import { UNCLAIMED_PUBLISHER } from '@/src/lib/constants'
import { signUpUser, signUpVerifiedUser, type TestUser } from '../test/auth'
import { insertNodeWithVersions, snapshotState } from '../test/data'
import {
  BACKENDS,
  createTestApp,
  expectErrorBody,
  get,
  query,
  send,
  type JsonReply,
  type TestApp,
} from '../test/harness'

type ComfyNodeListResponse = Schemas['ComfyNodeListResponse']
type FeaturesResponse = Schemas['FeaturesResponse']
type Node = Schemas['Node']
type NodeListResponse = Schemas['NodeListResponse']
type NodeVersion = Schemas['NodeVersion']
type Publisher = Schemas['Publisher']
type ValidatePublisherResponse = Schemas['ValidatePublisherResponse']

jest.setTimeout(60_000)

const UPSCALER = 'comfyui-demo-upscaler' // 1.8.0, 1.9.0, 1.10.0: all Active
const FACE = 'comfyui-demo-face-restore' // 1.2.0, 1.3.0 Active; 2.0.0 Pending

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** What comfy-cli and the Manager need of one node; returns the problems found. */
function clientProblems(node: unknown, where: string): string[] {
  if (!isObject(node)) return [`${where}: not an object`]
  const problems: string[] = []
  const id = String(node.id)
  if ('latest_version' in node) {
    const latest = node.latest_version
    if (!isObject(latest) || typeof latest.version !== 'string') {
      problems.push(`${where} ${id}: latest_version is ${JSON.stringify(latest)}`)
    }
  }
  const publisher = node.publisher
  if (
    !isObject(publisher) ||
    typeof publisher.id !== 'string' ||
    typeof publisher.name !== 'string'
  ) {
    problems.push(`${where} ${id}: publisher is ${JSON.stringify(publisher)}`)
  }
  return problems
}

/** The nodes of an answer, and the raw text checked for a `null` latest_version. */
function nodesOf(reply: JsonReply<unknown>): unknown[] {
  expect(reply.response.body).not.toMatch(/"latest_version"\s*:\s*null/)
  const body = reply.body
  if (Array.isArray(body)) return body
  if (isObject(body) && Array.isArray(body.nodes)) return body.nodes
  return [body]
}

describe.each(BACKENDS)(
  'wire compatibility with comfy-cli and ComfyUI-Manager on %s',
  (backend) => {
    let h: TestApp
    let admin: TestUser
    let user: TestUser
    const unclaimedId = `wire-unclaimed-${backend}`
    const pendingOnlyId = `wire-pending-only-${backend}`

    beforeAll(async () => {
      h = await createTestApp({ postgres: backend === 'postgres' })
      ;[admin, user] = await Promise.all([signUpVerifiedUser(h.adminEmail), signUpUser()])
      // A node no publisher has claimed, and one whose only version is still Pending (as every
      // fresh publish is until it is approved).
      const created = await send(h.app, 'POST', '/admin/nodes', {
        as: admin,
        body: {
          id: unclaimedId,
          name: 'Wire Unclaimed',
          repository: `https://github.com/x/${unclaimedId}`,
        },
      })
      expect(created.status).toBe(201)
      await insertNodeWithVersions(h.db, { id: pendingOnlyId, publisherId: 'comfy-demo' }, [
        { version: '0.1.0', status: 'NodeVersionStatusPending' },
      ])
    })

    afterAll(async () => {
      await h?.close()
    })

    it('every node of every list, search and detail answer has a publisher and no null latest_version', async () => {
      const problems: string[] = []
      const seen = new Set<string>()
      const first = await get<NodeListResponse>(h.app, `/nodes${query({ limit: 100 })}`)
      expect(first.status).toBe(200)
      const answers: [string, JsonReply<unknown>][] = [['GET /nodes', first]]
      for (let page = 2; page <= first.body.totalPages; page++) {
        answers.push(['GET /nodes', await get(h.app, `/nodes${query({ limit: 100, page })}`)])
      }
      for (const search of ['demo', 'wire', 'upscale', 'face']) {
        answers.push([
          `search ${search}`,
          await get(h.app, `/nodes/search${query({ search, limit: 100 })}`),
        ])
      }
      answers.push(['search (no text)', await get(h.app, `/nodes/search${query({ limit: 100 })}`)])
      answers.push(['v1 list', await get(h.app, '/publishers/comfy-demo/nodes')])
      answers.push(['v2 list', await get(h.app, '/publishers/comfy-demo/nodes/v2?limit=100')])
      answers.push([
        'unclaimed list',
        await get(h.app, `/publishers/${UNCLAIMED_PUBLISHER.id}/nodes/v2?limit=100`),
      ])
      for (const [where, reply] of answers) {
        expect({ where, status: reply.status }).toEqual({ where, status: 200 })
        for (const node of nodesOf(reply)) {
          problems.push(...clientProblems(node, where))
          if (isObject(node)) seen.add(String(node.id))
        }
      }
      expect(seen).toContain(unclaimedId)
      expect(seen).toContain(pendingOnlyId)
      for (const id of seen) {
        const detail = await get(h.app, `/nodes/${id}`)
        expect(detail.status).toBe(200)
        problems.push(...nodesOf(detail).flatMap((node) => clientProblems(node, 'GET /nodes/{id}')))
      }
      expect(problems).toEqual([])
    })

    it('omits latest_version without an Active version, and carries it otherwise', async () => {
      const pendingOnly = await get<Node>(h.app, `/nodes/${pendingOnlyId}`)
      expect(pendingOnly.body).not.toHaveProperty('latest_version')
      const upscaler = await get<Node>(h.app, `/nodes/${UPSCALER}`)
      expect(upscaler.body.latest_version?.version).toBe('1.10.0')
    })

    it('unclaimed nodes carry the reserved publisher', async () => {
      const node = await get<Node>(h.app, `/nodes/${unclaimedId}`)
      expect(node.body.publisher).toMatchObject({
        id: UNCLAIMED_PUBLISHER.id,
        name: UNCLAIMED_PUBLISHER.name,
      })
      const publisher = await get<Publisher>(h.app, `/publishers/${UNCLAIMED_PUBLISHER.id}`)
      expect(publisher.status).toBe(200)
      expect(publisher.body.members).toEqual([])
      // It is not a publisher anyone registered: not in the list of publishers.
      const all = await get<Publisher[]>(h.app, '/publishers')
      expect(all.body.map((p) => p.id)).not.toContain(UNCLAIMED_PUBLISHER.id)
    })

    it('the reserved publisher can never be registered, changed or given tokens', async () => {
      const before = await snapshotState(h.db)
      const validate = await get<ValidatePublisherResponse>(
        h.app,
        `/publishers/validate${query({ username: UNCLAIMED_PUBLISHER.id })}`,
      )
      expect(validate.body.isAvailable).toBe(false)
      expectErrorBody(
        await send(h.app, 'POST', '/publishers', {
          as: user,
          body: { id: UNCLAIMED_PUBLISHER.id, name: 'Mine now' },
        }),
        400,
      )
      expectErrorBody(
        await send(h.app, 'POST', '/publishers', {
          as: user,
          body: { id: 'admin-lookalike', name: 'Looks official' },
        }),
        400,
      )
      for (const caller of [user, admin]) {
        expectErrorBody(
          await send(h.app, 'PUT', `/publishers/${UNCLAIMED_PUBLISHER.id}`, {
            as: caller,
            body: { name: 'Renamed' },
          }),
          403,
        )
        expectErrorBody(
          await send(h.app, 'POST', `/publishers/${UNCLAIMED_PUBLISHER.id}/tokens`, {
            as: caller,
            body: { name: 'sneaky' },
          }),
          403,
        )
        expectErrorBody(
          await send(h.app, 'DELETE', `/publishers/${UNCLAIMED_PUBLISHER.id}`, { as: caller }),
          403,
        )
      }
      expect(await snapshotState(h.db)).toEqual(before)
    })

    it("answers the Manager's anonymous Active+Pending version query with a bare array", async () => {
      for (const nodeId of [FACE, pendingOnlyId, UPSCALER]) {
        const reply = await get<NodeVersion[]>(
          h.app,
          `/nodes/${nodeId}/versions${query({
            statuses: ['NodeVersionStatusActive', 'NodeVersionStatusPending'],
          })}`,
        )
        expect({ nodeId, status: reply.status }).toEqual({ nodeId, status: 200 })
        expect(Array.isArray(reply.body)).toBe(true)
        for (const version of reply.body) expect(version.status).toBe('NodeVersionStatusActive')
      }
    })

    it('GET /comfy-nodes answers the index shape, filtered by node, version and class name', async () => {
      const all = await get<ComfyNodeListResponse>(h.app, `/comfy-nodes${query({ limit: 5 })}`)
      expect(all.status).toBe(200)
      expect(all.body).toMatchObject({ page: 1, limit: 5 })
      expect(all.body.total).toBeGreaterThan(5)
      expect(all.body.totalNumberOfPages).toBe(all.body.totalPages)
      expect(all.body.comfy_nodes).toHaveLength(5)
      for (const entry of all.body.comfy_nodes) {
        expect(typeof entry.comfy_node_name).toBe('string')
        expect(typeof entry.node_id).toBe('string')
        expect(typeof entry.node_version).toBe('string')
      }

      // A node's index is its latest version's classes, as the version's own list has them.
      const latest = await get<ComfyNodeListResponse>(
        h.app,
        `/nodes/${UPSCALER}/versions/latest/comfy-nodes?limit=100`,
      )
      const ofNode = await get<ComfyNodeListResponse>(
        h.app,
        `/comfy-nodes${query({ node_id: UPSCALER.toUpperCase(), limit: 100 })}`,
      )
      expect(ofNode.body.comfy_nodes.map((c) => c.comfy_node_name)).toEqual(
        latest.body.comfy_nodes.map((c) => c.comfy_node_name),
      )
      expect(new Set(ofNode.body.comfy_nodes.map((c) => c.node_version))).toEqual(
        new Set(['1.10.0']),
      )

      const older = await get<ComfyNodeListResponse>(
        h.app,
        `/comfy-nodes${query({ node_id: UPSCALER, node_version: '1.8.0', limit: 100 })}`,
      )
      expect(older.status).toBe(200)
      for (const entry of older.body.comfy_nodes) expect(entry.node_version).toBe('1.8.0')

      const name = latest.body.comfy_nodes[0].comfy_node_name
      const byName = await get<ComfyNodeListResponse>(
        h.app,
        `/comfy-nodes${query({ comfy_node_name: name })}`,
      )
      expect(byName.body.total).toBeGreaterThanOrEqual(1)
      for (const entry of byName.body.comfy_nodes) expect(entry.comfy_node_name).toBe(name)

      const none = await get<ComfyNodeListResponse>(
        h.app,
        `/comfy-nodes${query({ comfy_node_name: 'NoSuchNodeClass' })}`,
      )
      expect(none.body).toMatchObject({ comfy_nodes: [], total: 0, totalNumberOfPages: 0 })
      expectErrorBody(await get(h.app, `/comfy-nodes${query({ node_version: '1.8.0' })}`), 400)
    })

    it('GET /features answers its shape', async () => {
      const reply = await get<FeaturesResponse>(h.app, '/features')
      expect(reply.status).toBe(200)
      expect(typeof reply.body.partner_node_conversion_rate).toBe('number')
      expect(reply.body.featureFlags).toEqual({
        comfy_node_search: true,
        node_claiming: true,
        download_statistics: true,
      })
    })
  },
)
