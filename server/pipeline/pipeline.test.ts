/**
 * The publishing pipeline end to end through the API, on PGlite and PostgreSQL: publish as
 * comfy-cli does, upload the zip, run the queued job, and read what the owner, the public and
 * ComfyUI-Manager see. Also retries, a worker that died, giving up, manual review and
 * GET /security-scan. The checks, scan and extraction themselves have their own tests beside
 * their modules.
 */
import { eq } from 'drizzle-orm'
import { strToU8, zipSync } from 'fflate'
import type { Schemas } from '../http/operations'
import { openDatabase } from '../db/client'
import { jobs, nodeVersions } from '../db/schema'
import { createToken } from '../tokens/tokens'
import { signUpUser, signUpVerifiedUser, uniqueEmail, type TestUser } from '../test/auth'
import { BACKENDS, createTestApp, get, query, request, send, type TestApp } from '../test/harness'
import { claimJob, enqueueJob, findJob, JOB_LEASE_MS } from './jobs'
import { pipelineHandlers } from './handlers'
import { decide, examineArchive, pipelineFailure, PROCESS_VERSION_JOB } from './process-version'
import { drainJobs, type JobHandlers } from './worker'

type NodeVersion = Schemas['NodeVersion']
type ComfyNodeListResponse = Schemas['ComfyNodeListResponse']
type NodeListResponse = Schemas['NodeListResponse']
type PublishNodeVersionResponse = Schemas['PublishNodeVersionResponse']
type UploadResult = Schemas['UploadResult']
type SecurityScan = Schemas['SecurityScan']

jest.setTimeout(90_000)

const CLEAN_NODE = `
class SharpenPlus:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"image": ("IMAGE",), "amount": ("FLOAT", {"default": 0.5, "min": 0.0, "max": 2.0})}}

    RETURN_TYPES = ("IMAGE",)
    RETURN_NAMES = ("sharpened",)
    FUNCTION = "sharpen"
    CATEGORY = "image/filters"

    def sharpen(self, image, amount):
        return (image,)


NODE_CLASS_MAPPINGS = {"SharpenPlus": SharpenPlus}
NODE_DISPLAY_NAME_MAPPINGS = {"SharpenPlus": "Sharpen (plus)"}
`

/** Breaks two published standards (eval, pip at run time); nothing malicious. */
const STANDARD_ONLY_NODE = `${CLEAN_NODE}
import subprocess, sys


class MathExpression:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"expression": ("STRING", {"default": "1 + 1"})}}

    RETURN_TYPES = ("FLOAT",)
    FUNCTION = "run"

    def run(self, expression):
        subprocess.check_call([sys.executable, "-m", "pip", "install", "numexpr"])
        return (float(eval(expression)),)


NODE_CLASS_MAPPINGS["MathExpression"] = MathExpression
`

/** A release script at the archive root that ComfyUI never imports, running git at its top level. */
const RELEASE_SCRIPT = `import subprocess
import sys

subprocess.Popen(["git", "tag", "v" + sys.argv[1]]).wait()
`

const MALICIOUS_NODE = `${CLEAN_NODE}
import base64
exec(base64.b64decode("cHJpbnQoJ2hpJyk="))
`

function zipOf(files: Record<string, string>): Buffer {
  return Buffer.from(
    zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)]))),
  )
}

describe.each(BACKENDS)('the publishing pipeline on %s', (backend) => {
  let h: TestApp
  let owner: TestUser
  let admin: TestUser
  let secret: string
  let handlers: JobHandlers
  const publisherId = `pipe-${backend}`
  let counter = 0

  beforeAll(async () => {
    h = await createTestApp({ postgres: backend === 'postgres', nodes: 4, publishers: 2 })
    ;[owner, admin] = await Promise.all([
      signUpUser(uniqueEmail('pipe-owner')),
      signUpVerifiedUser(h.adminEmail),
    ])
    const created = await send(h.app, 'POST', '/publishers', {
      as: owner,
      body: { id: publisherId, name: 'Pipeline' },
    })
    expect(created.status).toBe(201)
    secret = (
      await createToken(h.db, publisherId, { name: 'cli', description: '', expiresInDays: null })
    ).secret
    handlers = pipelineHandlers(h.db, h.storage, h.config)
  })

  afterAll(async () => {
    await h?.close()
  })

  /** Publishes a new node's 1.0.0 and uploads `files` as its zip, as comfy-cli does. */
  async function publishAndUpload(
    files: Record<string, string>,
    nodeId = `pipe-node-${++counter}`,
  ) {
    const published = await request<PublishNodeVersionResponse>(h.app, {
      method: 'POST',
      url: `/publishers/${publisherId}/nodes/${nodeId}/versions`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        personal_access_token: secret,
        node: { id: nodeId, name: nodeId, repository: `https://github.com/pipe/${nodeId}` },
        node_version: { version: '1.0.0', dependencies: ['numpy'] },
      }),
    })
    expect(published.status).toBe(201)
    expect(published.body.node_version.pipeline_state).toBe('awaiting_upload')
    const upload = await request<UploadResult>(h.app, {
      method: 'PUT',
      url: new URL(published.body.signedUrl).pathname,
      headers: { 'content-type': 'application/zip' },
      payload: zipOf(files),
    })
    expect(upload.status).toBe(200)
    return { nodeId, versionId: published.body.node_version.id, upload: upload.body }
  }

  const ownVersions = (nodeId: string) =>
    get<NodeVersion[]>(
      h.app,
      `/nodes/${nodeId}/versions${query({
        statuses: [
          'NodeVersionStatusActive',
          'NodeVersionStatusPending',
          'NodeVersionStatusFlagged',
        ],
        include_status_reason: true,
      })}`,
      { authorization: `Bearer ${owner.idToken}` },
    )

  it('checks, scans and extracts a clean upload, which becomes Active with its comfy nodes', async () => {
    const { nodeId, upload } = await publishAndUpload({ '__init__.py': CLEAN_NODE })
    expect(upload).toMatchObject({ status: 'NodeVersionStatusPending', pipeline_state: 'queued' })
    expect(await drainJobs(h.db, handlers)).toBe(1)

    const node = await get<Schemas['Node']>(h.app, `/nodes/${nodeId}`)
    expect(node.body.latest_version).toMatchObject({
      version: '1.0.0',
      status: 'NodeVersionStatusActive',
      pipeline_state: 'done',
      comfy_node_extract_status: 'success',
      checks_passed: true,
    })
    expect(node.body.latest_version?.scan_findings).toBeUndefined()
    const comfy = await get<ComfyNodeListResponse>(
      h.app,
      `/nodes/${nodeId}/versions/1.0.0/comfy-nodes`,
    )
    expect(comfy.body.comfy_nodes).toEqual([
      expect.objectContaining({
        comfy_node_name: 'SharpenPlus',
        display_name: 'Sharpen (plus)',
        category: 'image/filters',
        function: 'sharpen',
        return_types: '["IMAGE"]',
        return_names: '["sharpened"]',
      }),
    ])
    expect(JSON.parse(comfy.body.comfy_nodes[0].input_types ?? '')).toEqual({
      required: { image: ['IMAGE'], amount: ['FLOAT', { default: 0.5, min: 0, max: 2 }] },
    })
    // Searchable at once by its comfy node class.
    const found = await get<NodeListResponse>(
      h.app,
      `/nodes/search${query({ comfy_node_search: 'SharpenPlus' })}`,
    )
    expect(found.body.nodes.map((n) => n.id)).toContain(nodeId)
    const install = await get<NodeVersion>(h.app, `/nodes/${nodeId}/install`)
    expect(install.status).toBe(200)
    expect(install.body.downloadUrl).toBeTruthy()
  })

  it('running the same job again changes nothing (no duplicate comfy nodes)', async () => {
    const { nodeId, versionId } = await publishAndUpload({ '__init__.py': CLEAN_NODE })
    await drainJobs(h.db, handlers)
    const job = await findJob(h.db, PROCESS_VERSION_JOB, versionId)
    if (!job) throw new Error('the upload queued no job')
    await h.db
      .update(nodeVersions)
      .set({ status: 'NodeVersionStatusPending' })
      .where(eq(nodeVersions.id, versionId))
    await handlers[PROCESS_VERSION_JOB].run(job)
    const comfy = await get<ComfyNodeListResponse>(
      h.app,
      `/nodes/${nodeId}/versions/1.0.0/comfy-nodes`,
    )
    expect(comfy.body.comfy_nodes.map((c) => c.comfy_node_name)).toEqual(['SharpenPlus'])
  })

  it('flags a version whose scan finds a blocking pattern; only its owners read the findings', async () => {
    const { nodeId } = await publishAndUpload({ '__init__.py': MALICIOUS_NODE })
    await drainJobs(h.db, handlers)
    const own = await ownVersions(nodeId)
    expect(own.body).toHaveLength(1)
    const [version] = own.body
    expect(version).toMatchObject({ status: 'NodeVersionStatusFlagged', pipeline_state: 'done' })
    const reason: unknown = JSON.parse(version.status_reason ?? '')
    expect(reason).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          issue_type: expect.any(String),
          severity: expect.stringMatching(/high|critical/),
          file_path: '__init__.py',
          line_number: expect.any(Number),
          code_snippet: expect.stringContaining('exec('),
          message: expect.any(String),
          scanner: 'static-scan',
          kind: 'malicious',
          standard: expect.objectContaining({ id: 'no-eval-exec' }),
        }),
      ]),
    )
    expect(version.scan_findings?.length).toBeGreaterThan(0)
    expect(version.checks_passed).toBe(false)

    // The public and ComfyUI-Manager (anonymous, Active + Pending) see neither it nor its reason.
    const manager = await get<NodeVersion[]>(
      h.app,
      `/nodes/${nodeId}/versions${query({ statuses: ['NodeVersionStatusActive', 'NodeVersionStatusPending'] })}`,
    )
    expect(manager.status).toBe(200)
    expect(manager.body).toEqual([])
    const flaggedAnonymously = await get<NodeVersion[]>(
      h.app,
      `/nodes/${nodeId}/versions${query({ statuses: 'NodeVersionStatusFlagged', include_status_reason: true })}`,
    )
    expect(flaggedAnonymously.status).toBe(200)
    expect(flaggedAnonymously.body).toEqual([])
    expect(
      (await get<Schemas['Node']>(h.app, `/nodes/${nodeId}`)).body.latest_version,
    ).toBeUndefined()
  })

  it('keeps a version that only breaks standards Active; its owner and admins read the findings', async () => {
    const { nodeId } = await publishAndUpload({ '__init__.py': STANDARD_ONLY_NODE })
    await drainJobs(h.db, handlers)
    const [version] = (await ownVersions(nodeId)).body
    expect(version).toMatchObject({
      status: 'NodeVersionStatusActive',
      status_reason: '',
      checks_passed: false,
    })
    const standardFinding = (id: string, rule: string) =>
      expect.objectContaining({
        issue_type: rule,
        severity: 'medium',
        file_path: '__init__.py',
        kind: 'standard',
        standard: expect.objectContaining({
          id,
          url: 'https://docs.comfy.org/registry/standards',
          title: expect.any(String),
          remedy: expect.any(String),
        }),
      })
    const expected = [
      standardFinding('no-runtime-pip-install', 'runtime-pip-install'),
      standardFinding('no-eval-exec', 'eval-exec-call'),
    ]
    expect(version.scan_findings).toEqual(expect.arrayContaining(expected))
    expect(version.scan_findings).toHaveLength(2)

    const asAdmin = await get<NodeVersion[]>(
      h.app,
      `/nodes/${nodeId}/versions${query({ include_status_reason: true })}`,
      { authorization: `Bearer ${admin.idToken}` },
    )
    expect(asAdmin.body[0].scan_findings).toEqual(expect.arrayContaining(expected))

    // The public installs it, sees no "checks passed" mark, and never the findings.
    const node = await get<Schemas['Node']>(h.app, `/nodes/${nodeId}`)
    expect(node.body.latest_version).toMatchObject({ version: '1.0.0', checks_passed: false })
    expect(node.body.latest_version?.scan_findings).toBeUndefined()
    const anonymous = await get<NodeVersion[]>(
      h.app,
      `/nodes/${nodeId}/versions${query({ include_status_reason: true })}`,
    )
    expect(anonymous.body).toHaveLength(1)
    expect(anonymous.body[0].scan_findings).toBeUndefined()
    expect(anonymous.body[0].status_reason).toBeUndefined()
    expect((await get<NodeVersion>(h.app, `/nodes/${nodeId}/install`)).status).toBe(200)
  })

  it('does not flag a release script that ComfyUI never imports', async () => {
    const { nodeId } = await publishAndUpload({
      '__init__.py': CLEAN_NODE,
      'release.py': RELEASE_SCRIPT,
    })
    await drainJobs(h.db, handlers)
    const [version] = (await ownVersions(nodeId)).body
    expect(version).toMatchObject({ status: 'NodeVersionStatusActive', checks_passed: true })
    expect(version.scan_findings).toEqual([])
  })

  it('still flags a process started at the top level of a module the package imports', async () => {
    const { nodeId } = await publishAndUpload({
      '__init__.py': `from . import release\n${CLEAN_NODE}`,
      'release.py': RELEASE_SCRIPT,
    })
    await drainJobs(h.db, handlers)
    const [version] = (await ownVersions(nodeId)).body
    expect(version).toMatchObject({ status: 'NodeVersionStatusFlagged', checks_passed: false })
    expect(JSON.parse(version.status_reason ?? '')).toEqual([
      expect.objectContaining({
        issue_type: 'import-time-subprocess',
        file_path: 'release.py',
        kind: 'malicious',
      }),
    ])
  })

  it('flags an archive that fails its checks, with a finding naming the entry', async () => {
    const { nodeId } = await publishAndUpload({
      '__init__.py': CLEAN_NODE,
      'evil.pth': 'import os\n',
    })
    await drainJobs(h.db, handlers)
    const [version] = (await ownVersions(nodeId)).body
    expect(version.status).toBe('NodeVersionStatusFlagged')
    expect(version.scan_findings).toEqual(
      expect.arrayContaining([expect.objectContaining({ file_path: 'evil.pth' })]),
    )
  })

  it('a version without a Python package is flagged by the archive checks', async () => {
    const { nodeId } = await publishAndUpload({ 'README.md': '# nothing here\n' })
    await drainJobs(h.db, handlers)
    const [version] = (await ownVersions(nodeId)).body
    expect(version.status).toBe('NodeVersionStatusFlagged')
    expect(version.comfy_node_extract_status).toBe('failed')
    expect(version.scan_findings?.[0]).toMatchObject({ scanner: 'archive-check' })
  })

  it('a worker that died holding a job: another takes it once the lease ran out', async () => {
    const { nodeId, versionId } = await publishAndUpload({ '__init__.py': CLEAN_NODE })
    const taken = await claimJob(h.db, 'worker-that-dies')
    expect(taken?.subject).toBe(versionId)
    // Before the lease ends nobody else may take it.
    expect(await drainJobs(h.db, handlers, 'survivor')).toBe(0)
    const later = () => new Date(Date.now() + JOB_LEASE_MS + 1000)
    expect(await drainJobs(h.db, handlers, 'survivor', later)).toBe(1)
    const [version] = (await ownVersions(nodeId)).body
    expect(version.status).toBe('NodeVersionStatusActive')
    expect(await findJob(h.db, PROCESS_VERSION_JOB, versionId)).toMatchObject({
      state: 'done',
      attempts: 2,
      lockedBy: 'survivor',
    })
  })

  it('retries with back-off, then flags the version with the reason, never Pending forever', async () => {
    const { nodeId, versionId } = await publishAndUpload({ '__init__.py': CLEAN_NODE })
    const [row] = await h.db.select().from(nodeVersions).where(eq(nodeVersions.id, versionId))
    await h.storage.delete(row.storageKey ?? '')
    let clock = Date.now()
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(await drainJobs(h.db, handlers, 'w', () => new Date(clock))).toBe(1)
      const job = await findJob(h.db, PROCESS_VERSION_JOB, versionId)
      expect(job).toMatchObject({
        attempts: attempt,
        lastError: expect.stringContaining('missing'),
      })
      if (attempt < 5) {
        expect(job?.state).toBe('queued')
        // Not due before its back-off.
        expect(await drainJobs(h.db, handlers, 'w', () => new Date(clock))).toBe(0)
        clock = (job?.runAt ?? new Date()).getTime()
      } else {
        expect(job?.state).toBe('failed')
      }
    }
    const [version] = (await ownVersions(nodeId)).body
    expect(version).toMatchObject({ status: 'NodeVersionStatusFlagged', pipeline_state: 'done' })
    expect(JSON.parse(version.status_reason ?? '')).toEqual([
      expect.objectContaining({ issue_type: 'checks-failed', scanner: 'pipeline' }),
    ])
  })

  it('GET /security-scan (admins) queues the checks again for Pending versions; refusals change nothing', async () => {
    const manual = pipelineHandlers(h.db, h.storage, { ...h.config, reviewMode: 'manual' })
    const { nodeId, versionId } = await publishAndUpload({ '__init__.py': CLEAN_NODE })
    await drainJobs(h.db, manual)
    const [waiting] = (await ownVersions(nodeId)).body
    // Manual review: clean, checked, and waiting for an admin.
    expect(waiting).toMatchObject({ status: 'NodeVersionStatusPending', pipeline_state: 'done' })

    const refused = await send(h.app, 'GET', '/security-scan', { as: owner })
    expect(refused.status).toBe(403)
    const badAge = await send(h.app, 'GET', '/security-scan?minAge=soon', { as: admin })
    expect(badAge.status).toBe(400)
    expect(await findJob(h.db, PROCESS_VERSION_JOB, versionId)).toMatchObject({ state: 'done' })

    const tooYoung = await send<SecurityScan>(h.app, 'GET', '/security-scan?minAge=1d', {
      as: admin,
    })
    expect(tooYoung.body.results.map((r) => r.version)).not.toContain(versionId)
    const queued = await send<SecurityScan>(h.app, 'GET', '/security-scan?maxNodes=1000', {
      as: admin,
    })
    expect(queued.status).toBe(200)
    expect(queued.body.results).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          node_id: nodeId,
          version: '1.0.0',
          status: 'NodeVersionStatusPending',
        }),
      ]),
    )
    expect(queued.body.queued).toBe(queued.body.results.length)
    expect(await findJob(h.db, PROCESS_VERSION_JOB, versionId)).toMatchObject({ state: 'queued' })
    // Scanned again in automatic mode, it becomes Active.
    await drainJobs(h.db, handlers)
    expect((await ownVersions(nodeId)).body[0].status).toBe('NodeVersionStatusActive')
    // Recently scanned versions are left alone.
    const again = await send<SecurityScan>(h.app, 'GET', '/security-scan?minSecurityScanAge=1h', {
      as: admin,
    })
    expect(again.body.results.map((r) => r.node_id)).not.toContain(nodeId)
  })

  it('the demo data’s archives pass the pipeline and give back the seeded comfy nodes', async () => {
    const version = h.demo.versions.find(
      (v) => v.storageKey && h.demo.comfyNodes.filter((c) => c.nodeVersionId === v.id).length >= 3,
    )
    if (!version?.storageKey) throw new Error('the demo data has no archive with comfy nodes')
    const bytes = await h.storage.get(version.storageKey)
    if (!bytes) throw new Error('the demo archive is not in storage')
    const examined = await examineArchive(bytes, version.dependencies, h.config)
    expect(decide(examined.findings, h.config).status).toBe('NodeVersionStatusActive')
    const seeded = h.demo.comfyNodes.filter((c) => c.nodeVersionId === version.id)
    expect(examined.extraction?.status).toBe('success')
    const parse = (text: string) => (text ? (JSON.parse(text) as unknown) : null)
    expect(
      examined.extraction?.nodes.map((n) => [
        n.comfy_node_name,
        parse(n.input_types),
        parse(n.return_types),
      ]),
    ).toEqual(seeded.map((c) => [c.comfyNodeName, parse(c.inputTypes), parse(c.returnTypes)]))
  })

  it('SCAN_FLAG_SEVERITY below its default also flags standards findings from that severity', async () => {
    const bytes = zipOf({ '__init__.py': STANDARD_ONLY_NODE })
    const { findings } = await examineArchive(bytes, [], h.config)
    expect(h.config.flagSeverity).toBe('high')
    expect(decide(findings, h.config).status).toBe('NodeVersionStatusActive')
    expect(decide(findings, { ...h.config, flagSeverity: 'critical' }).status).toBe(
      'NodeVersionStatusActive',
    )
    const strict = decide(findings, { ...h.config, flagSeverity: 'medium' })
    expect(strict.status).toBe('NodeVersionStatusFlagged')
    expect(JSON.parse(strict.statusReason)).toHaveLength(2)
    // A high standards finding (pip at import time) flags only when asked for, too.
    const pip = findings.map((finding) => ({ ...finding, severity: 'high' as const }))
    expect(decide(pip, h.config).status).toBe('NodeVersionStatusActive')
    expect(decide(pip, { ...h.config, flagSeverity: 'medium' }).status).toBe(
      'NodeVersionStatusFlagged',
    )
  })

  it('a scan cut short by its time budget leaves the version Pending for a reviewer, even in auto mode', async () => {
    const bytes = zipOf({ '__init__.py': 'NODE_CLASS_MAPPINGS = {}\n' })
    const { findings } = await examineArchive(bytes, [], h.config)
    expect(decide(findings, h.config).status).toBe('NodeVersionStatusActive')
    const cut = [
      ...findings,
      { ...pipelineFailure('x'), issue_type: 'scan-timeout', severity: 'medium' as const },
    ]
    expect(h.config.reviewMode).toBe('auto')
    expect(decide(cut, h.config)).toEqual({ status: 'NodeVersionStatusPending', statusReason: '' })
  })

  it('two workers never take the same job', async () => {
    const second = h.databaseUrl ? await openDatabase({ url: h.databaseUrl }) : null
    try {
      const subjects = Array.from({ length: 30 }, (_, i) => `race-${backend}-${i}`)
      for (const subject of subjects) await enqueueJob(h.db, 'race', subject)
      const ran: string[] = []
      const racing: JobHandlers = {
        race: {
          run: async (job) => {
            ran.push(job.subject)
            await new Promise((resolve) => setImmediate(resolve))
          },
          giveUp: async () => undefined,
        },
      }
      await Promise.all([
        drainJobs(h.db, racing, 'a'),
        drainJobs(second?.db ?? h.db, racing, 'b'),
        drainJobs(h.db, racing, 'c'),
      ])
      expect([...ran].sort()).toEqual([...subjects].sort())
      const rows = await h.db.select().from(jobs).where(eq(jobs.kind, 'race'))
      expect(rows.every((row) => row.state === 'done' && row.attempts === 1)).toBe(true)
    } finally {
      await second?.close()
    }
  })
})
