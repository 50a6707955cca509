import { compareVersions } from '../db/semver'
import { DEMO_PUBLISHER_ACCOUNT } from './accounts'
import { DEMO_NODE_COUNT, generateDemoData, generateNodesInBatches } from './generate'

const NODE_ID = /^[A-Za-z0-9](?:[A-Za-z0-9_.-]{0,98}[A-Za-z0-9])?$/
const PUBLISHER_ID = /^[a-z][a-z0-9-]*$/

describe('generateDemoData', () => {
  const data = generateDemoData({ publishers: 40, nodes: 300, seed: 1 })

  it('is deterministic: same seed → same data; another seed → other data', () => {
    expect(generateDemoData({ publishers: 40, nodes: 300, seed: 1 })).toEqual(data)
    const other = generateDemoData({ publishers: 40, nodes: 300, seed: 2 })
    expect(other.nodes.map((n) => n.id)).not.toEqual(data.nodes.map((n) => n.id))
  })

  it('does not depend on the batch size, and a smaller set is a prefix of a larger one', () => {
    const batched = [
      ...generateNodesInBatches({ publishers: 40, nodes: 300, seed: 1, batchSize: 7 }),
    ]
    expect(batched.length).toBe(Math.ceil(300 / 7))
    expect(batched.flatMap((b) => b.versions)).toEqual(data.versions)
    const small = generateDemoData({ publishers: 40, nodes: 50, seed: 1 })
    expect(small.nodes).toEqual(data.nodes.slice(0, 50))
  })

  it('produces valid, unique ids and the demo publisher with its nodes', () => {
    expect(data.publishers).toHaveLength(40)
    expect(data.nodes).toHaveLength(300)
    for (const p of data.publishers) expect(p.id).toMatch(PUBLISHER_ID)
    expect(new Set(data.publishers.map((p) => p.id)).size).toBe(40)
    for (const n of data.nodes) {
      expect(n.id).toMatch(NODE_ID)
      expect(n.description.length).toBeLessThanOrEqual(1000)
    }
    expect(new Set(data.nodes.map((n) => n.id.toLowerCase())).size).toBe(300)
    const demo = data.nodes.filter((n) => n.publisherId === DEMO_PUBLISHER_ACCOUNT.publisherId)
    expect(demo).toHaveLength(DEMO_NODE_COUNT)
    expect(data.publishers[0].id).toBe(DEMO_PUBLISHER_ACCOUNT.publisherId)
    const versionIds = new Set(data.versions.map((v) => v.id))
    expect(versionIds.size).toBe(data.versions.length)
    for (const c of data.comfyNodes) expect(versionIds.has(c.nodeVersionId)).toBe(true)
  })

  it('sets latest_version to the newest Active version by semver', () => {
    const byNode = new Map<string, typeof data.versions>()
    for (const v of data.versions) byNode.set(v.nodeId, [...(byNode.get(v.nodeId) ?? []), v])
    for (const n of data.nodes) {
      const active = (byNode.get(n.id) ?? []).filter((v) => v.status === 'NodeVersionStatusActive')
      const best = active.sort((a, b) => compareVersions(b.version, a.version))[0]
      expect(n.latestVersionId).toBe(best?.id ?? null)
    }
    const upscaler = data.nodes.find((n) => n.id === 'comfyui-demo-upscaler')
    const latest = data.versions.find((v) => v.id === upscaler?.latestVersionId)
    expect(latest?.version).toBe('1.10.0')
    const faceRestore = data.nodes.find((n) => n.id === 'comfyui-demo-face-restore')
    expect(data.versions.find((v) => v.id === faceRestore?.latestVersionId)?.version).toBe('1.3.0')
  })

  it('has a realistic mix of statuses, semver edge cases and content', () => {
    const statuses = new Set(data.versions.map((v) => v.status))
    for (const s of ['Active', 'Pending', 'Flagged', 'Banned'] as const) {
      expect(statuses.has(`NodeVersionStatus${s}`)).toBe(true)
    }
    const flagged = data.versions.filter((v) => v.status === 'NodeVersionStatusFlagged')
    for (const v of flagged) {
      // status_reason is the JSON array of findings that today's registry's admin tools read.
      expect(v.scanFindings).toEqual([
        expect.objectContaining({ file_path: expect.any(String), severity: expect.any(String) }),
      ])
      expect(JSON.parse(v.statusReason)).toEqual(v.scanFindings)
    }
    expect(data.nodes.some((n) => n.status === 'NodeStatusBanned')).toBe(true)
    expect(data.versions.some((v) => v.deprecated)).toBe(true)
    expect(data.versions.some((v) => v.version.includes('-rc.'))).toBe(true)
    const nodeVersions = (nodeId: string) =>
      data.versions.filter((v) => v.nodeId === nodeId).map((v) => v.version)
    expect(
      data.nodes.filter(
        (n) => nodeVersions(n.id).includes('1.10.0') && nodeVersions(n.id).includes('1.9.0'),
      ).length,
    ).toBeGreaterThan(1)
    expect(data.nodes[0].description).toContain('```bash')
    expect(data.reviews.length).toBeGreaterThan(0)
    for (const n of data.nodes) {
      expect(n.createdAt.getTime()).toBeLessThan(Date.parse('2026-01-01T00:00:00Z'))
    }
  })
})
