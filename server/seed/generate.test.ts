import { diffArchives } from '../admin/files'
import { compareVersions } from '../db/semver'
import { checkArchive, DEFAULT_ARCHIVE_LIMITS, type CheckedArchive } from '../pipeline/archive'
import { scanArchive } from '../pipeline/scan'
import { decisionHistory } from '../versions/status-reason'
import { DEMO_ADMIN_ACCOUNT, DEMO_ADMIN_SEED_ID, DEMO_PUBLISHER_ACCOUNT } from './accounts'
import { buildDemoVersionArchive, EXAMPLE_WORKFLOW_PATH } from './archive'
import {
  DEFAULT_DEMO_OPTIONS,
  DEMO_BATCH_ID,
  DEMO_NODE_COUNT,
  generateDemoData,
  generateNodesInBatches,
  type DemoData,
  type DemoVersion,
} from './generate'

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
    // Deprecations carry their message, '' otherwise; the demo shows both kinds (issue 30).
    for (const v of data.versions) if (!v.deprecated) expect(v.deprecationMessage).toBe('')
    expect(
      data.versions
        .filter((v) => v.nodeId === 'comfyui-demo-upscaler' && v.deprecated)
        .map((v) => [v.version, Boolean(v.deprecationMessage)]),
    ).toEqual([
      ['1.8.0', true],
      ['1.9.0', true],
    ])
    const audioKit = data.nodes.find((n) => n.id === 'comfyui-demo-audio-kit')
    expect(audioKit).toMatchObject({ deprecated: true, deprecationMessage: expect.any(String) })
    expect(audioKit?.deprecationMessage).not.toBe('')
    expect(data.nodes.filter((n) => n.deprecated)).toHaveLength(1)
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

describe('the demo data of a fresh `npm start` (default options)', () => {
  const data: DemoData = generateDemoData(DEFAULT_DEMO_OPTIONS)
  const nodeById = new Map(data.nodes.map((n) => [n.id, n]))
  const publisherById = new Map(data.publishers.map((p) => [p.id, p]))
  const versionById = new Map(data.versions.map((v) => [v.id, v]))
  const allActions = [...data.publisherActions, ...data.adminActions]

  /** What the review queue lists: versions of Active nodes (of publishers that are not banned). */
  const inQueue = (v: DemoVersion) => {
    const node = nodeById.get(v.nodeId)
    return (
      node?.status === 'NodeStatusActive' &&
      publisherById.get(node.publisherId)?.status === 'PublisherStatusActive'
    )
  }

  function archiveOf(v: DemoVersion): CheckedArchive {
    const node = nodeById.get(v.nodeId)
    if (!node) throw new Error(`no node ${v.nodeId}`)
    const comfy = data.comfyNodes.filter((c) => c.nodeVersionId === v.id)
    const bytes = buildDemoVersionArchive(node, v, comfy)
    const checked = checkArchive(bytes, { ...DEFAULT_ARCHIVE_LIMITS, maxArchiveBytes: 1 << 20 })
    if (!checked.ok) throw new Error(`${v.nodeId}@${v.version}: ${JSON.stringify(checked)}`)
    return checked.archive
  }

  it('gives the review queue several Pending and several Flagged versions with findings', () => {
    const pending = data.versions.filter((v) => v.status === 'NodeVersionStatusPending')
    const flagged = data.versions.filter((v) => v.status === 'NodeVersionStatusFlagged')
    expect(pending.filter(inQueue).length).toBeGreaterThanOrEqual(5)
    expect(flagged.filter(inQueue).length).toBeGreaterThanOrEqual(5)
    for (const v of flagged) {
      expect(v.scanFindings).toHaveLength(1)
      expect(v.storageKey).not.toBeNull()
      expect(v.archiveExtras).toContain(v.scanFindings[0].file_path)
    }
    // Each kind of finding appears in the queue, the demo publisher's own flagged version too.
    const kinds = new Set(flagged.filter(inQueue).map((v) => v.scanFindings[0].issue_type))
    expect(kinds.size).toBe(4)
    const prompt = flagged.find((v) => v.nodeId === 'comfyui-demo-prompt-tools')
    expect(prompt?.version).toBe('0.3.0')
  })

  it('puts the code each finding points at in the archive, at its line, as the scan finds it', () => {
    const withFindings = data.versions.filter((v) => v.scanFindings.length > 0 && v.storageKey)
    // The flagged ones and the false positive the demo admin approved (face-restore 1.3.0).
    expect(withFindings.some((v) => v.status === 'NodeVersionStatusActive')).toBe(true)
    for (const v of withFindings) {
      const archive = archiveOf(v)
      const names = archive.entries.filter((e) => !e.isDirectory).map((e) => e.name)
      for (const finding of v.scanFindings) {
        // The review view opens file_path (a full name, as listAdminVersionFiles lists it).
        expect(names).toContain(finding.file_path)
        const text = archive.readText(finding.file_path, 1 << 20) ?? ''
        const line = text.split('\n')[finding.line_number - 1] ?? ''
        expect({ at: `${v.nodeId}@${v.version}`, line: line.trim() }).toEqual({
          at: `${v.nodeId}@${v.version}`,
          line: finding.code_snippet,
        })
      }
      // A rescan of the archive reports the same findings (rule, file, line, snippet, message).
      const scanned = scanArchive(archive, [...v.dependencies]).findings
      for (const finding of v.scanFindings) expect(scanned).toContainEqual(finding)
    }
  })

  it('gives a version with earlier ones a diff: files added, changed and removed', () => {
    const archive = (version: string) => {
      const v = data.versions.find(
        (x) => x.nodeId === 'comfyui-demo-face-restore' && x.version === version,
      )
      if (!v) throw new Error(`no demo version ${version}`)
      return archiveOf(v)
    }
    const changed = ['pyproject.toml', '__init__.py', 'README.md']
    expect(diffArchives(archive('1.3.0'), archive('1.2.0'))).toEqual({
      added: ['install.py'],
      removed: [],
      changed,
    })
    // The Pending 2.0.0 against 1.3.0: the example workflow is new, install.py is gone.
    expect(diffArchives(archive('2.0.0'), archive('1.3.0'))).toEqual({
      added: [EXAMPLE_WORKFLOW_PATH],
      removed: ['install.py'],
      changed,
    })
  })

  it('records the demo admin’s decisions as audit rows that match the versions’ histories', () => {
    expect(allActions.length).toBeGreaterThan(10)
    expect(new Set(allActions.map((a) => a.id)).size).toBe(allActions.length)
    for (const action of allActions) {
      expect(action.actorId).toBe(DEMO_ADMIN_SEED_ID)
      expect(action.actorEmail).toBe(DEMO_ADMIN_ACCOUNT.email)
    }
    // Every admin decision in a status_reason has its row, in order, and nothing else has.
    const byVersion = new Map<string, typeof allActions>()
    for (const a of allActions.filter((a) => a.action === 'version.status')) {
      byVersion.set(a.subjectId, [...(byVersion.get(a.subjectId) ?? []), a])
    }
    const decided = data.versions.filter((v) => decisionHistory(v.statusReason).length > 0)
    expect(decided.length).toBeGreaterThan(3)
    expect([...byVersion.keys()].sort()).toEqual(decided.map((v) => v.id).sort())
    for (const v of decided) {
      const rows = [...(byVersion.get(v.id) ?? [])].sort(
        (a, b) => a.createdAt.getTime() - b.createdAt.getTime(),
      )
      const history = decisionHistory(v.statusReason)
      expect(rows.map((r) => [r.toValue, r.reason])).toEqual(
        history.map((h) => [h.status, h.message]),
      )
      for (const h of history) expect(h.by).toBe(DEMO_ADMIN_ACCOUNT.email)
      expect(rows[rows.length - 1].toValue).toBe(v.status)
      for (let i = 1; i < rows.length; i++) expect(rows[i].fromValue).toBe(rows[i - 1].toValue)
      for (const r of rows) {
        expect(r.subjectLabel).toBe(`${v.nodeId}@${v.version}`)
        expect(r.createdAt.getTime()).toBeGreaterThan(v.createdAt.getTime())
      }
    }
    // The flag-then-ban of versions, the false positive and the batch are all there.
    const kinds = allActions.map((a) => `${a.action} ${a.fromValue} > ${a.toValue}`)
    expect(kinds).toContain('version.status NodeVersionStatusPending > NodeVersionStatusFlagged')
    expect(kinds).toContain('version.status NodeVersionStatusFlagged > NodeVersionStatusBanned')
    expect(kinds).toContain('version.status NodeVersionStatusFlagged > NodeVersionStatusActive')
    const batch = allActions.filter((a) => a.batchId === DEMO_BATCH_ID(DEFAULT_DEMO_OPTIONS.seed))
    expect(batch.map((a) => a.subjectLabel).sort()).toEqual([
      'comfyui-demo-face-restore@1.2.0',
      'comfyui-demo-prompt-tools@0.2.0',
      'comfyui-demo-upscaler@1.10.0',
    ])
    for (const a of batch) {
      expect(JSON.parse(versionById.get(a.subjectId)?.statusReason ?? '{}')).toMatchObject({
        batchId: a.batchId,
      })
    }
  })

  it('records the bans of nodes (one undone) consistently with the nodes', () => {
    const bans = data.adminActions.filter((a) => a.action === 'node.ban')
    const banned = data.nodes.filter((n) => n.status === 'NodeStatusBanned')
    expect(banned.length).toBeGreaterThan(0)
    for (const node of banned) {
      const ban = bans.find((a) => a.subjectId === node.id && a.undoneBy === null)
      expect(ban?.reason).toBe(node.statusDetail)
      expect(JSON.parse(ban?.toValue ?? '{}')).toEqual({
        status: 'NodeStatusBanned',
        status_detail: node.statusDetail,
      })
    }
    const undone = bans.filter((a) => a.undoneBy !== null)
    expect(undone).toHaveLength(1)
    const undo = data.adminActions.find((a) => a.id === undone[0].undoneBy)
    expect(undo).toMatchObject({
      action: 'undo',
      undoes: undone[0].id,
      subjectId: 'comfyui-demo-video-helper',
      fromValue: undone[0].toValue,
      toValue: undone[0].fromValue,
    })
    expect(nodeById.get('comfyui-demo-video-helper')).toMatchObject({
      status: 'NodeStatusActive',
      statusDetail: '',
    })
    for (const a of data.publisherActions) {
      expect(publisherById.get(a.subjectId)?.status).toBe('PublisherStatusBanned')
    }
  })

  it('does not depend on the batch size for the audit rows either', () => {
    const batched = [...generateNodesInBatches({ ...DEFAULT_DEMO_OPTIONS, batchSize: 3 })]
    expect(batched.flatMap((b) => b.adminActions)).toEqual(data.adminActions)
  })
})
