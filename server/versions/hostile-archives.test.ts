/**
 * Hostile archives sent to an upload link, as comfy-cli would send them: every structural
 * problem (not a zip, damaged, bombs, traversal, absolute paths, links, devices, too many
 * entries, too large) is a 400 (413 for the size) naming the problem and the entry, before
 * anything is stored: no archive, no job, the version still Pending without an archive, no staged
 * file left. The link stays usable for a fixed archive, which then goes through the pipeline;
 * once it stored an archive, other bytes are a 409 and the same bytes the same answer. Also what
 * an upload killed half-way leaves, and the memory a bomb costs (a child process's peak RSS).
 */
import { execFileSync } from 'node:child_process'
import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import type { Schemas } from '../http/operations'
import { jobs, nodeVersions, pendingUploads, publishers } from '../db/schema'
import { pipelineHandlers } from '../pipeline/handlers'
import { buildZip, deflatedZeros, type ZipEntrySpec } from '../pipeline/test-zips'
import { drainJobs } from '../pipeline/worker'
import { runMaintenance } from '../system/maintenance'
import { snapshotState } from '../test/data'
import {
  BACKENDS,
  createTestApp,
  expectErrorBody,
  request,
  send,
  TEST_PUBLIC_URL,
  type TestApp,
} from '../test/harness'
import { createToken } from '../tokens/tokens'

type PublishNodeVersionResponse = Schemas['PublishNodeVersionResponse']
type UploadResult = Schemas['UploadResult']

jest.setTimeout(180_000)

const MB = 1024 * 1024
const MAX_ARCHIVE_MB = 4
const INIT: ZipEntrySpec = {
  name: '__init__.py',
  data: 'NODE_CLASS_MAPPINGS = {}\nNODE_DISPLAY_NAME_MAPPINGS = {}\n',
}

/** `mebibytes` of zeros, deflated, padded so that the ratio stays under the limit (200). */
function paddedZeros(mebibytes: number): Uint8Array {
  const data = new Uint8Array(Math.ceil((mebibytes * MB) / 190))
  data.set(deflatedZeros(mebibytes))
  return data
}

const HOSTILE: { kind: string; zip: () => Uint8Array; message: RegExp }[] = [
  {
    kind: 'random bytes',
    zip: () => new TextEncoder().encode('MZ this is not a zip at all'),
    message: /not a valid zip/,
  },
  {
    kind: 'a truncated zip',
    zip: () => buildZip([INIT]).subarray(0, 40),
    message: /not a valid zip.*truncated/,
  },
  {
    kind: 'damaged data (wrong checksum)',
    zip: () => buildZip([INIT, { name: 'nodes.py', data: 'x = 1\n', crc: 1234 }]),
    message: /damaged data.*"nodes\.py"/,
  },
  {
    kind: 'path traversal',
    zip: () => buildZip([INIT, { name: '../x.py', data: 'x = 1\n' }]),
    message: /\(path traversal\): The entry "\.\.\/x\.py" .*outside/,
  },
  {
    kind: 'an absolute path',
    zip: () => buildZip([INIT, { name: '/etc/cron.d/x', data: '* * * * * root sh\n' }]),
    message: /\(absolute path\): The entry "\/etc\/cron\.d\/x"/,
  },
  {
    kind: 'a Windows absolute path',
    zip: () => buildZip([INIT, { name: 'C:/Windows/x.dll', data: 'MZ' }]),
    message: /\(absolute path\): The entry "C:\/Windows\/x\.dll"/,
  },
  {
    kind: 'a symbolic link',
    zip: () =>
      buildZip([INIT, { name: 'link', data: '/home/user/.ssh/id_rsa', unixMode: 0o120777 }]),
    message: /\(symbolic link\): The entry "link" is a symbolic link/,
  },
  {
    kind: 'a device',
    zip: () => buildZip([INIT, { name: 'tty', data: '', unixMode: 0o020666 }]),
    message: /\(device or special file\): The entry "tty"/,
  },
  {
    kind: 'a zip bomb (1 GiB in 1 MB)',
    zip: () =>
      buildZip([
        INIT,
        { name: 'bomb.bin', rawData: deflatedZeros(1024), declaredUncompressedSize: 1024 * MB },
      ]),
    message: /\(zip bomb\): The entry "bomb\.bin" expands/,
  },
  {
    kind: 'a zip bomb by total size (3 × 200 MiB)',
    zip: () =>
      buildZip([
        INIT,
        ...[1, 2, 3].map((n) => ({
          name: `w${n}.bin`,
          rawData: paddedZeros(200),
          declaredUncompressedSize: 200 * MB,
        })),
      ]),
    message: /\(zip bomb: unpacks too large\): The archive unpacks to 600\.0 MiB/,
  },
  {
    kind: 'lying sizes (1 GiB declared as 1000 bytes)',
    zip: () =>
      buildZip([
        INIT,
        { name: 'small.bin', rawData: deflatedZeros(1024), declaredUncompressedSize: 1000 },
      ]),
    message: /\(declared sizes that lie\): The entry "small\.bin"/,
  },
  {
    kind: 'overlapping entries',
    zip: () =>
      buildZip([
        INIT,
        { name: 'a.bin', data: new Uint8Array(1000) },
        { name: 'b.bin', data: new Uint8Array(1000), sameLocalHeaderAs: 1 },
      ]),
    message: /"b\.bin"/,
  },
  {
    kind: 'too many entries',
    zip: () =>
      buildZip([INIT, ...Array.from({ length: 10_000 }, (_, i) => ({ name: `f${i}`, data: '' }))]),
    message: /\(too many entries\): The archive has 10001 entries/,
  },
  {
    kind: 'no file at all',
    zip: () => buildZip([{ name: 'empty/' }]),
    message: /The archive contains no files/,
  },
]

describe.each(BACKENDS)('hostile archives on %s', (backend) => {
  let h: TestApp
  let secret: string
  const publisherId = `hostile-${backend}`
  let counter = 0

  beforeAll(async () => {
    h = await createTestApp({
      postgres: backend === 'postgres',
      nodes: 4,
      publishers: 2,
      env: { MAX_ARCHIVE_MB: String(MAX_ARCHIVE_MB) },
    })
    await h.db.insert(publishers).values({ id: publisherId, name: 'Hostile' })
    secret = (
      await createToken(h.db, publisherId, { name: 'cli', description: '', expiresInDays: null })
    ).secret
  })

  afterAll(async () => {
    await h?.close()
  })

  /** Publishes a new node's 1.0.0 as comfy-cli does; answers its version id and upload link. */
  async function publish() {
    const nodeId = `hostile-node-${++counter}`
    const published = await send<PublishNodeVersionResponse>(
      h.app,
      'POST',
      `/publishers/${publisherId}/nodes/${nodeId}/versions`,
      {
        body: {
          personal_access_token: secret,
          node: { id: nodeId, name: nodeId, repository: `https://github.com/hostile/${nodeId}` },
          node_version: { version: '1.0.0' },
        },
      },
    )
    expect(published.status).toBe(201)
    return { nodeId, versionId: published.body.node_version.id, link: published.body.signedUrl }
  }

  function upload(link: string, bytes: Uint8Array) {
    return request<UploadResult>(h.app, {
      method: 'PUT',
      url: link.replace(TEST_PUBLIC_URL, ''),
      headers: { 'content-type': 'application/zip' },
      payload: Buffer.from(bytes),
    })
  }

  async function stagedFiles(): Promise<string[]> {
    return fs.readdir(h.storage.stagingDir).catch(() => [])
  }

  /** A refused upload changes nothing: no archive, no job, the same rows, no staged file. */
  async function expectRefused(link: string, bytes: Uint8Array, status: number) {
    const before = await snapshotState(h.db, h.storage)
    const body = expectErrorBody(await upload(link, bytes), status)
    expect(await snapshotState(h.db, h.storage)).toBe(before)
    expect(await stagedFiles()).toEqual([])
    return body.message
  }

  async function expectAwaitingUpload(versionId: string) {
    const [version] = await h.db.select().from(nodeVersions).where(eq(nodeVersions.id, versionId))
    expect(version).toMatchObject({
      status: 'NodeVersionStatusPending',
      pipelineState: 'awaiting_upload',
      storageKey: null,
      archiveSize: null,
    })
    expect(await h.db.select().from(jobs).where(eq(jobs.subject, versionId))).toEqual([])
  }

  it.each(HOSTILE)('refuses $kind with a 400 naming it, storing nothing', async (hostile) => {
    const { versionId, link } = await publish()
    const zip = hostile.zip()
    expect(zip.length).toBeLessThanOrEqual(MAX_ARCHIVE_MB * MB)
    const message = await expectRefused(link, zip, 400)
    expect(message).toMatch(hostile.message)
    expect(message).toMatch(/Nothing was stored/)
    // The same bytes again get the same answer.
    expect(await expectRefused(link, zip, 400)).toBe(message)
    await expectAwaitingUpload(versionId)
    expect(h.storage.keys().filter((key) => key.includes(versionId))).toEqual([])
  })

  it('refuses a body over MAX_ARCHIVE_MB with a 413, leaving no staged file', async () => {
    const { versionId, link } = await publish()
    const tooBig = new Uint8Array(MAX_ARCHIVE_MB * MB + 1)
    tooBig.set(buildZip([INIT]))
    expect(await expectRefused(link, tooBig, 413)).toMatch(/too large: at most 4 MB/)
    await expectAwaitingUpload(versionId)
  })

  it('a refused upload does not burn the link: the fixed archive is stored and checked', async () => {
    const { nodeId, versionId, link } = await publish()
    await expectRefused(link, buildZip([INIT, { name: '../evil.py', data: 'x = 1\n' }]), 400)
    const good = buildZip([INIT])
    const stored = await upload(link, good)
    expect(stored.status).toBe(200)
    expect(stored.body).toMatchObject({
      status: 'NodeVersionStatusPending',
      pipeline_state: 'queued',
    })
    const key = `${publisherId}/${nodeId}/1.0.0/node.zip`
    expect(h.storage.keys()).toContain(key)
    expect((await h.db.select().from(jobs).where(eq(jobs.subject, versionId))).length).toBe(1)

    // The same bytes: the same answer. Other bytes, valid or hostile: a 409, nothing changes.
    const again = await upload(link, good)
    expect(again.status).toBe(200)
    expect(again.body.size).toBe(stored.body.size)
    expect(
      await expectRefused(link, buildZip([INIT, { name: 'more.py', data: 'y = 2\n' }]), 409),
    ).toMatch(/already has its archive/)
    expect(await expectRefused(link, new TextEncoder().encode('not a zip'), 409)).toMatch(
      /already has its archive/,
    )

    // The pipeline takes it from there.
    await drainJobs(h.db, pipelineHandlers(h.db, h.storage, h.config))
    const [version] = await h.db.select().from(nodeVersions).where(eq(nodeVersions.id, versionId))
    expect(version.status).toBe('NodeVersionStatusActive')
    expect(new Uint8Array((await h.storage.get(key)) ?? [])).toEqual(good)
  })

  it('an upload killed after moving the archive, before committing: maintenance removes it', async () => {
    const { nodeId, versionId, link } = await publish()
    const key = `${publisherId}/${nodeId}/1.0.0/node.zip`
    // What the killed process leaves: the archive at the link's key, the rows untouched.
    await h.storage.put(key, buildZip([INIT]))
    const result = await runMaintenance(h)
    expect(result.unclaimedArchives).toBe(1)
    expect(h.storage.keys()).not.toContain(key)
    await expectAwaitingUpload(versionId)
    // Archives of versions that were stored are never touched.
    const stored = h.storage.keys().length
    expect((await runMaintenance(h)).unclaimedArchives).toBe(0)
    expect(h.storage.keys().length).toBe(stored)
    // The link still works.
    expect((await upload(link, buildZip([INIT]))).status).toBe(200)
    expect(h.storage.keys()).toContain(key)
    expect((await runMaintenance(h)).unclaimedArchives).toBe(0)
    expect(h.storage.keys()).toContain(key)
  })

  it('an upload whose transaction fails after the move leaves no archive behind', async () => {
    const { nodeId, versionId, link } = await publish()
    const key = `${publisherId}/${nodeId}/1.0.0/node.zip`
    const putFile = h.storage.putFile.bind(h.storage)
    const spy = jest.spyOn(h.storage, 'putFile').mockImplementationOnce(async (...args) => {
      await putFile(...args)
      throw new Error('disk went away after the move')
    })
    try {
      const failed = await upload(link, buildZip([INIT]))
      expect(failed.status).toBe(500)
    } finally {
      spy.mockRestore()
    }
    expect(h.storage.keys()).not.toContain(key)
    expect(await stagedFiles()).toEqual([])
    await expectAwaitingUpload(versionId)
    const [link_] = await h.db
      .select()
      .from(pendingUploads)
      .where(eq(pendingUploads.nodeVersionId, versionId))
    expect(link_.uploadedSha256).toBeNull()
    expect((await upload(link, buildZip([INIT]))).status).toBe(200)
  })
})

describe('the memory a bomb costs', () => {
  it('a 1 GiB expansion claiming 500 MiB is inflated up to its claim and refused, in bounded memory', async () => {
    const stream = deflatedZeros(1024)
    const data = new Uint8Array(3 * MB)
    data.set(stream)
    const zip = buildZip([
      INIT,
      { name: 'weights.bin', rawData: data, declaredUncompressedSize: 500 * MB, crc: 0 },
    ])
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hostile-'))
    try {
      const file = path.join(dir, 'bomb.zip')
      await fs.writeFile(file, zip)
      // A fresh process, so that its peak RSS is the check's alone.
      const out = execFileSync(
        path.join(process.cwd(), 'node_modules', '.bin', 'tsx'),
        ['scripts/bench/archives.ts', '--check', file],
        { encoding: 'utf8' },
      )
      const figures = JSON.parse(out) as { issues: string[]; peakGrowthMb: number }
      expect(figures.issues).toEqual(['zip-size-mismatch'])
      // Keeping what was inflated would be 500 MiB; the slices cost a few MiB.
      expect(figures.peakGrowthMb).toBeLessThan(200)
    } finally {
      await fs.rm(dir, { recursive: true, force: true })
    }
  })
})
