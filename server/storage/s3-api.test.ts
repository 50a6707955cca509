/**
 * The API on S3-compatible storage (s3rver on loopback), end to end: publish and upload as
 * comfy-cli does, the pipeline reads the archive from the bucket, downloads are redirects to a
 * presigned GET that gives the same bytes, installs are counted, CI artifacts are redirects too,
 * deleting a version deletes its object, and a store that is down answers 503 with Retry-After
 * and loses nothing (the same upload succeeds once it is back).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { strToU8, zipSync } from 'fflate'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../http/app'
import { firebaseTokenVerifier } from '../auth/verifier'
import { loadConfig, type ServerConfig } from '../config'
import { createTestDatabase, type TestDatabase } from '../db/test-db'
import { nodeVersions, pendingUploads } from '../db/schema'
import type { Schemas } from '../http/operations'
import { pipelineHandlers } from '../pipeline/handlers'
import { drainJobs } from '../pipeline/worker'
import { attachDemoMembership } from '../seed/accounts'
import { loadDemoData } from '../seed/load'
import { runMaintenance } from '../system/maintenance'
import { signUpUser, TEST_PROJECT_ID, uniqueEmail, type TestUser } from '../test/auth'
import { expectErrorBody, get, request, send, TEST_PUBLIC_URL } from '../test/harness'
import { createToken } from '../tokens/tokens'
import { archiveKey } from '.'
import { openStorage } from './from-config'
import type { S3ArchiveStorage } from './s3'
import { startTestS3, type TestS3 } from './test-s3'

type NodeVersion = Schemas['NodeVersion']
type Node = Schemas['Node']
type PublishNodeVersionResponse = Schemas['PublishNodeVersionResponse']
type WorkflowResult = Schemas['WorkflowResult']

jest.setTimeout(60_000)

const INIT = `
class Blur:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"image": ("IMAGE",)}}

    RETURN_TYPES = ("IMAGE",)
    FUNCTION = "blur"
    CATEGORY = "image"

    def blur(self, image):
        return (image,)


NODE_CLASS_MAPPINGS = {"Blur": Blur}
`
const LICENSE = 'MIT License\n\nCopyright (c) 2026 S3 tests\n'
const zip = (text: string) =>
  Buffer.from(zipSync({ '__init__.py': strToU8(text), LICENSE: strToU8(LICENSE) }))
const PUBLISHER = 'comfy-demo'
const CI_TOKEN = 'ci-token-s3'

describe('the API on S3-compatible storage', () => {
  let s3: TestS3
  let dataDir: string
  let database: TestDatabase
  let storage: S3ArchiveStorage
  let config: ServerConfig
  let app: FastifyInstance
  let owner: TestUser
  let secret: string

  beforeAll(async () => {
    s3 = await startTestS3()
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'registry-s3-api-'))
    config = loadConfig({
      API_PUBLIC_URL: TEST_PUBLIC_URL,
      FIREBASE_PROJECT_ID: TEST_PROJECT_ID,
      DATA_DIR: dataDir,
      RATE_LIMIT_SCALE: '0',
      PUBLIC_CACHE_MS: '0',
      DOWNLOAD_FLUSH_MS: '0',
      PROXY_LOG_FLUSH_MS: '0',
      CI_UPLOAD_TOKENS: CI_TOKEN,
      ...s3.env(),
    })
    storage = (await openStorage(config)) as S3ArchiveStorage
    database = await createTestDatabase()
    await loadDemoData(database.db, storage, { nodes: 3, publishers: 1, seed: 3 })
    app = await buildApp({
      db: database.db,
      storage,
      verifier: firebaseTokenVerifier(TEST_PROJECT_ID),
      config,
    })
    await app.ready()
    owner = await signUpUser(uniqueEmail('s3-owner'))
    await attachDemoMembership(database.db, owner.uid, owner.email, 'S3 Owner')
    secret = (
      await createToken(database.db, PUBLISHER, {
        name: 's3',
        description: '',
        expiresInDays: null,
      })
    ).secret
  })

  afterAll(async () => {
    await app?.close()
    await database?.close()
    storage?.close()
    await s3?.close()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  async function publish(nodeId: string, version: string) {
    const published = await send<PublishNodeVersionResponse>(
      app,
      'POST',
      `/publishers/${PUBLISHER}/nodes/${nodeId}/versions`,
      {
        body: {
          personal_access_token: secret,
          node: { id: nodeId, name: nodeId, repository: `https://github.com/s3/${nodeId}` },
          node_version: { version },
        },
      },
    )
    expect(published.status).toBe(201)
    // Uploads still go to the API (the size cap, SHA-256 and checks run before the bucket).
    expect(published.body.signedUrl).toMatch(new RegExp(`^${TEST_PUBLIC_URL}/uploads/`))
    return {
      url: new URL(published.body.signedUrl).pathname,
      versionId: published.body.node_version.id,
    }
  }

  const upload = (url: string, bytes: Buffer) =>
    request(app, {
      method: 'PUT',
      url,
      headers: { 'content-type': 'application/zip' },
      payload: bytes,
    })

  it('publishes into the bucket, checks from it, and downloads are redirects to the same bytes; installs are counted', async () => {
    const nodeId = 's3-blur'
    const bytes = zip(INIT)
    const { url } = await publish(nodeId, '1.0.0')
    const uploaded = await upload(url, bytes)
    expect(uploaded.status).toBe(200)
    const key = archiveKey(PUBLISHER, nodeId, '1.0.0')
    expect(Buffer.from((await storage.get(key)) ?? []).equals(bytes)).toBe(true)
    // Nothing is left in the local staging folder.
    expect(await storage.removeStaleTemporaryFiles(0, Date.now() + 1000)).toBe(0)

    // The pipeline reads the archive from the bucket.
    expect(await drainJobs(database.db, pipelineHandlers(database.db, storage, config))).toBe(1)
    const node = await get<Node>(app, `/nodes/${nodeId}`)
    expect(node.body.latest_version).toMatchObject({
      status: 'NodeVersionStatusActive',
      comfy_node_extract_status: 'success',
    })
    const downloadsBefore = node.body.downloads ?? 0

    const install = await get<NodeVersion>(app, `/nodes/${nodeId}/install`)
    expect(install.body.downloadUrl).toBe(`${TEST_PUBLIC_URL}/archives/${nodeId}/1.0.0.zip`)
    expect((await get<Node>(app, `/nodes/${nodeId}`)).body.downloads).toBe(downloadsBefore + 1)

    const download = await app.inject({ method: 'GET', url: `/archives/${nodeId}/1.0.0.zip` })
    expect(download.statusCode).toBe(302)
    const location = String(download.headers.location)
    expect(location.startsWith(`${s3.endpoint}/`)).toBe(true)
    // A cached redirect must still lead to a URL that works: half the URL's 15 minutes.
    expect(download.headers['cache-control']).toBe('public, max-age=450')
    const fetched = await fetch(location)
    expect(fetched.status).toBe(200)
    expect(fetched.headers.get('content-disposition')).toBe(
      `attachment; filename="${nodeId}-1.0.0.zip"`,
    )
    expect(Buffer.from(await fetched.arrayBuffer()).equals(bytes)).toBe(true)
    // The API's file view (the licence) reads from the bucket too.
    const file = await app.inject({
      method: 'GET',
      url: `/nodes/${nodeId}/versions/1.0.0/file?path=LICENSE`,
    })
    expect(file.statusCode).toBe(200)
    expect(file.body).toBe(LICENSE)
  })

  it('a hidden version redirects its members to a presigned URL never cached on the way', async () => {
    const nodeId = 's3-hidden'
    const { url } = await publish(nodeId, '1.0.0')
    expect((await upload(url, zip(INIT))).status).toBe(200)
    // Pending until the pipeline runs: anonymous callers get 404, members a private redirect.
    expectErrorBody(await get(app, `/archives/${nodeId}/1.0.0.zip`), 404)
    const mine = await app.inject({
      method: 'GET',
      url: `/archives/${nodeId}/1.0.0.zip`,
      headers: { authorization: `Bearer ${owner.idToken}` },
    })
    expect(mine.statusCode).toBe(302)
    expect(mine.headers['cache-control']).toBe('private, no-store')
    expect((await fetch(String(mine.headers.location))).status).toBe(200)
  })

  it('a store that is down: the upload answers 503 with Retry-After, nothing changes, and the same upload succeeds once it is back', async () => {
    const nodeId = 's3-outage'
    const { url, versionId } = await publish(nodeId, '1.0.0')
    const rows = async () => ({
      version: (
        await database.db.select().from(nodeVersions).where(eq(nodeVersions.id, versionId))
      )[0],
      link: (
        await database.db
          .select()
          .from(pendingUploads)
          .where(eq(pendingUploads.nodeVersionId, versionId))
      )[0],
    })
    const before = await rows()
    await s3.stop()
    try {
      const refused = await upload(url, zip(INIT))
      expect(expectErrorBody(refused, 503).message).toMatch(/archive store cannot be reached/)
      expect(refused.response.headers['retry-after']).toBe('10')
      expect(await rows()).toEqual(before)
      expect(before.version.pipelineState).toBe('awaiting_upload')
      expect(before.version.storageKey).toBeNull()
      // Reading from the bucket: 503 as well.
      const file = await get(app, `/nodes/s3-blur/versions/1.0.0/file?path=LICENSE`)
      expectErrorBody(file, 503)
    } finally {
      await s3.start()
    }
    const retried = await upload(url, zip(INIT))
    expect(retried.status).toBe(200)
    expect((await rows()).version.pipelineState).toBe('queued')
  })

  it('deleting a version deletes its object; one the store could not delete is removed by maintenance', async () => {
    const nodeId = 's3-deleted'
    const versionsUrl = `/publishers/${PUBLISHER}/nodes/${nodeId}/versions`
    for (const version of ['1.0.0', '1.1.0']) {
      const { url } = await publish(nodeId, version)
      expect((await upload(url, zip(INIT))).status).toBe(200)
    }
    const first = archiveKey(PUBLISHER, nodeId, '1.0.0')
    const second = archiveKey(PUBLISHER, nodeId, '1.1.0')
    expect((await send(app, 'DELETE', `${versionsUrl}/1.0.0`, { as: owner })).status).toBe(204)
    expect(await storage.exists(first)).toBe(false)
    expect(await storage.exists(second)).toBe(true)

    // The store is down while the version is deleted: deleted for everyone at once, the object
    // goes at the next maintenance.
    await s3.stop()
    try {
      expect((await send(app, 'DELETE', `${versionsUrl}/1.1.0`, { as: owner })).status).toBe(204)
    } finally {
      await s3.start()
    }
    expect(await storage.exists(second)).toBe(true)
    expect((await runMaintenance({ db: database.db, storage })).deletedArchives).toBe(1)
    expect(await storage.exists(second)).toBe(false)
    expect((await runMaintenance({ db: database.db, storage })).deletedArchives).toBe(0)
  })

  it('CI artifacts are stored in the bucket and served by redirect', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')
    const posted = await send<WorkflowResult>(app, 'POST', '/upload-artifact', {
      headers: { 'x-ci-token': CI_TOKEN },
      body: {
        repo: 'ci-tests/ComfyUI',
        branch_name: 'master',
        commit_hash: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
        job_id: 's3-job',
        workflow_name: 'sd15-basic',
        os: 'linux',
        status: 'completed',
        output_files: [
          { name: 'grid.png', content_type: 'image/png', data_base64: png.toString('base64') },
        ],
      },
    })
    expect(posted.status).toBe(200)
    const [fileUrl] = posted.body.output_files ?? []
    const served = await app.inject({ method: 'GET', url: new URL(fileUrl).pathname })
    expect(served.statusCode).toBe(302)
    expect(served.headers['cache-control']).toBe('public, max-age=300')
    const fetched = await fetch(String(served.headers.location))
    expect(fetched.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await fetched.arrayBuffer()).equals(png)).toBe(true)
  })
})
