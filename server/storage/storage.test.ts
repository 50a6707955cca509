import { createHash } from 'node:crypto'
import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import {
  type ArchiveStorage,
  archiveKey,
  assertValidKey,
  InvalidArchiveKeyError,
  LocalArchiveStorage,
  MemoryArchiveStorage,
  StorageUnavailableError,
} from '.'
import { CreateBucketCommand } from '@aws-sdk/client-s3'
import { loadConfig } from '../config'
import { S3ArchiveStorage } from './s3'
import { stageUpload, TooLargeError } from './staging'
import { startTestS3, type TestS3 } from './test-s3'

let s3: TestS3
beforeAll(async () => {
  s3 = await startTestS3()
})
afterAll(async () => {
  await s3.close()
})

let buckets = 0
/** S3 storage on a bucket of its own (on the loopback s3rver), staging in a temporary folder. */
async function makeS3(overrides: Parameters<TestS3['config']>[0] = {}) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 's3-staging-'))
  const bucket = `contract-${++buckets}`
  const storage = new S3ArchiveStorage(s3.config({ bucket, ...overrides }), dir)
  await storage.client.send(new CreateBucketCommand({ Bucket: bucket }))
  return {
    storage,
    cleanup: async () => {
      storage.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

describe('archive keys', () => {
  it('formats <publisherId>/<nodeId>/<version>/node.zip', () => {
    expect(archiveKey('acme', 'comfyui-foo', '1.10.0')).toBe('acme/comfyui-foo/1.10.0/node.zip')
  })

  it.each(['../x.zip', 'a/../../b', '/etc/passwd', 'a//b', 'a/./b', 'a\\b', 'C:/x', '', 'a\0b'])(
    'rejects %j',
    (key) => {
      expect(() => assertValidKey(key)).toThrow(InvalidArchiveKeyError)
    },
  )
})

describe.each<[string, () => Promise<{ storage: ArchiveStorage; cleanup: () => Promise<void> }>]>([
  [
    'LocalArchiveStorage',
    async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'archives-'))
      return {
        storage: new LocalArchiveStorage(dir),
        cleanup: () => rm(dir, { recursive: true, force: true }),
      }
    },
  ],
  [
    'MemoryArchiveStorage',
    async () => ({ storage: new MemoryArchiveStorage(), cleanup: async () => {} }),
  ],
  ['S3ArchiveStorage', () => makeS3()],
])('%s', (_name, make) => {
  it('passes its start-up check', async () => {
    const { storage, cleanup } = await make()
    try {
      await expect(storage.check()).resolves.toBeUndefined()
    } finally {
      await cleanup()
    }
  })

  it('puts, gets, checks and deletes archives', async () => {
    const { storage, cleanup } = await make()
    try {
      const key = archiveKey('acme', 'node-a', '1.0.0')
      expect(await storage.exists(key)).toBe(false)
      expect(await storage.get(key)).toBeNull()
      await storage.put(key, new Uint8Array([1, 2, 3]))
      expect(await storage.exists(key)).toBe(true)
      expect(Array.from((await storage.get(key)) ?? [])).toEqual([1, 2, 3])
      await storage.put(key, new Uint8Array([4]))
      expect(Array.from((await storage.get(key)) ?? [])).toEqual([4])
      await storage.delete(key)
      await storage.delete(key)
      expect(await storage.exists(key)).toBe(false)
      await expect(storage.put('../escape.zip', new Uint8Array([1]))).rejects.toThrow(
        InvalidArchiveKeyError,
      )
      await expect(storage.get('/abs/node.zip')).rejects.toThrow(InvalidArchiveKeyError)
      await expect(storage.exists('a/../b')).rejects.toThrow(InvalidArchiveKeyError)
      await expect(storage.delete('a//b')).rejects.toThrow(InvalidArchiveKeyError)
      await expect(storage.directUrl('../x', { public: true, contentType: 'x/y' })).rejects.toThrow(
        InvalidArchiveKeyError,
      )
      // Other keys (CI artifacts) live beside archives.
      await storage.put('ci/result-1/out.png', new Uint8Array([7, 7]))
      expect(Array.from((await storage.get('ci/result-1/out.png')) ?? [])).toEqual([7, 7])
      expect(await storage.get('ci/result-1/other.png')).toBeNull()
    } finally {
      await cleanup()
    }
  })
  it('stages an upload to a file (size and SHA-256), moves it in, and refuses one over the cap', async () => {
    const { storage, cleanup } = await make()
    try {
      const bytes = Buffer.from('zip bytes, pretend')
      const staged = await stageUpload(Readable.from([bytes]), storage.stagingDir, 1024)
      expect(staged.size).toBe(bytes.byteLength)
      expect(staged.sha256).toBe(createHash('sha256').update(bytes).digest('hex'))
      const key = archiveKey('acme', 'node-a', '2.0.0')
      await storage.putFile(key, staged.file)
      expect(Buffer.from((await storage.get(key)) ?? []).equals(bytes)).toBe(true)
      await expect(stat(staged.file)).rejects.toThrow()

      const big = Readable.from([Buffer.alloc(600), Buffer.alloc(600)])
      await expect(stageUpload(big, storage.stagingDir, 1024)).rejects.toThrow(TooLargeError)
      // Nothing is left behind by the refusal.
      expect((await readdir(storage.stagingDir)).filter((f) => f.endsWith('.tmp'))).toEqual([])
    } finally {
      await cleanup()
    }
  })

  it('removes temporary files left by a killed writer once they are stale, and nothing else', async () => {
    const { storage, cleanup } = await make()
    try {
      const key = archiveKey('acme', 'node-b', '1.0.0')
      await storage.put(key, new Uint8Array([9]))
      await mkdir(storage.stagingDir, { recursive: true })
      const stale = path.join(storage.stagingDir, 'killed-upload.tmp')
      const fresh = path.join(storage.stagingDir, 'in-progress.tmp')
      const other = path.join(storage.stagingDir, 'notes.txt')
      for (const file of [stale, fresh, other]) await writeFile(file, 'x')
      const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000)
      await utimes(stale, twoHoursAgo, twoHoursAgo)
      await utimes(other, twoHoursAgo, twoHoursAgo)
      expect(await storage.removeStaleTemporaryFiles(60 * 60 * 1000)).toBe(1)
      await expect(stat(stale)).rejects.toThrow()
      expect((await stat(fresh)).isFile()).toBe(true)
      expect((await stat(other)).isFile()).toBe(true)
      expect(Array.from((await storage.get(key)) ?? [])).toEqual([9])
    } finally {
      await rm(storage.stagingDir, { recursive: true, force: true })
      await cleanup()
    }
  })
})

describe('S3ArchiveStorage only', () => {
  it('gives no direct URL for the local folder, and a presigned GET for S3 that serves the bytes as a named zip', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'archives-'))
    try {
      expect(
        await new LocalArchiveStorage(dir).directUrl('a/b.zip', {
          public: true,
          contentType: 'application/zip',
        }),
      ).toBeNull()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
    const { storage, cleanup } = await makeS3()
    try {
      const key = archiveKey('acme', 'node-a', '1.0.0')
      await storage.put(key, new Uint8Array([80, 75, 5, 6]))
      const direct = await storage.directUrl(key, {
        public: false,
        contentType: 'application/zip',
        fileName: 'node-a-1.0.0.zip',
      })
      expect(direct?.expiresInS).toBe(900)
      expect(direct?.url).toContain('X-Amz-Signature=')
      const response = await fetch(direct?.url ?? '')
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('application/zip')
      expect(response.headers.get('content-disposition')).toBe(
        'attachment; filename="node-a-1.0.0.zip"',
      )
      expect(Array.from(new Uint8Array(await response.arrayBuffer()))).toEqual([80, 75, 5, 6])
      // Signed two hours ago for 15 minutes: expired, refused by the store.
      const old = await storage.presignGet(
        key,
        { contentType: 'application/zip' },
        new Date(Date.now() - 2 * 60 * 60 * 1000),
      )
      expect((await fetch(old.url)).status).toBe(403)
    } finally {
      await cleanup()
    }
  })

  it('signs presigned URLs for S3_PUBLIC_ENDPOINT when the clients reach the store elsewhere', async () => {
    const { storage, cleanup } = await makeS3({ publicEndpoint: 'http://localhost:9000' })
    try {
      await storage.put('a/b.zip', new Uint8Array([1]))
      const direct = await storage.directUrl('a/b.zip', { public: true, contentType: 'x/y' })
      expect(direct?.url).toMatch(/^http:\/\/localhost:9000\/contract-\d+\/a\/b\.zip\?/)
      // Requests still go to S3_ENDPOINT.
      expect(Array.from((await storage.get('a/b.zip')) ?? [])).toEqual([1])
    } finally {
      await cleanup()
    }
  })

  it('sends public objects to ARCHIVE_PUBLIC_BASE_URL, private ones to a presigned GET', async () => {
    const { storage, cleanup } = await makeS3({ publicBaseUrl: 'https://cdn.example/archives' })
    try {
      const options = { contentType: 'application/zip' }
      expect(
        await storage.directUrl('acme/n/1.0.0+b 1/node.zip', { ...options, public: true }),
      ).toEqual({
        url: 'https://cdn.example/archives/acme/n/1.0.0%2Bb%201/node.zip',
        expiresInS: null,
      })
      const hidden = await storage.directUrl('acme/n/1.0.0/node.zip', { ...options, public: false })
      expect(hidden?.url.startsWith(s3.endpoint)).toBe(true)
      expect(hidden?.expiresInS).toBe(900)
    } finally {
      await cleanup()
    }
  })

  it('stops at start with a message naming the variable: missing bucket, refused credentials, unreachable endpoint', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 's3-staging-'))
    const check = async (overrides: Parameters<TestS3['config']>[0]) => {
      const storage = new S3ArchiveStorage(s3.config(overrides), dir)
      try {
        await storage.check()
        return 'passed'
      } catch (error) {
        return error instanceof Error ? error.message : String(error)
      } finally {
        storage.close()
      }
    }
    try {
      expect(await check({ bucket: 'no-such-bucket' })).toMatch(
        /^S3_BUCKET: the bucket 'no-such-bucket' at http:\/\/127\.0\.0\.1:\d+ does not exist/,
      )
      expect(
        await check({ credentials: { accessKeyId: 'WRONG', secretAccessKey: 'WRONG' } }),
      ).toMatch(/^S3_ACCESS_KEY_ID \/ S3_SECRET_ACCESS_KEY: the store refused these credentials/)
      // A port nothing listens on: a closed server's.
      const closed = await startTestS3()
      await closed.close()
      expect(await check({ endpoint: closed.endpoint })).toMatch(
        /^S3_ENDPOINT: the archive store cannot be reached .*ECONNREFUSED/,
      )
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('a store that is down is StorageUnavailableError on every call, and works again once it is back', async () => {
    const down = await startTestS3()
    const dir = await mkdtemp(path.join(os.tmpdir(), 's3-staging-'))
    const storage = new S3ArchiveStorage(down.config(), dir)
    try {
      const key = archiveKey('acme', 'node-a', '1.0.0')
      await storage.put(key, new Uint8Array([1]))
      await down.stop()
      const staged = path.join(dir, 'staged.tmp')
      await writeFile(staged, 'zip')
      for (const call of [
        () => storage.get(key),
        () => storage.exists(key),
        () => storage.put(key, new Uint8Array([2])),
        () => storage.putFile(key, staged),
        () => storage.delete(key),
      ]) {
        await expect(call()).rejects.toThrow(StorageUnavailableError)
      }
      // The staged file is kept for the caller (it removes it, or tries again).
      expect((await stat(staged)).isFile()).toBe(true)
      await down.start()
      expect(Array.from((await storage.get(key)) ?? [])).toEqual([1])
    } finally {
      storage.close()
      await down.close()
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('S3 settings (loadConfig)', () => {
  const storageOf = (env: Record<string, string>) => loadConfig(env).storage
  const refusal = (env: Record<string, string>) => {
    try {
      loadConfig(env)
      return 'accepted'
    } catch (error) {
      return error instanceof Error ? error.message : String(error)
    }
  }

  it('keeps archives in DATA_DIR unless S3_BUCKET is set', () => {
    expect(storageOf({})).toEqual({ kind: 'local' })
    expect(
      storageOf({
        S3_BUCKET: 'registry-archives',
        S3_ENDPOINT: 'https://acct.r2.cloudflarestorage.com/',
        S3_REGION: 'auto',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: 'true',
        ARCHIVE_PUBLIC_BASE_URL: 'https://cdn.example/',
        S3_PRESIGN_TTL_S: '600',
      }),
    ).toEqual({
      kind: 's3',
      bucket: 'registry-archives',
      endpoint: 'https://acct.r2.cloudflarestorage.com',
      publicEndpoint: undefined,
      region: 'auto',
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
      forcePathStyle: true,
      publicBaseUrl: 'https://cdn.example',
      presignTtlS: 600,
    })
    // AWS itself, with the SDK's own credentials (environment, instance role…).
    expect(storageOf({ S3_BUCKET: 'registry-archives' })).toMatchObject({
      endpoint: undefined,
      region: 'us-east-1',
      credentials: undefined,
      forcePathStyle: false,
      presignTtlS: 900,
    })
  })

  it('stops at start with a message naming the variable', () => {
    expect(refusal({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toMatch(
      /^S3_ENDPOINT is set but S3_BUCKET is not/,
    )
    expect(refusal({ S3_BUCKET: 'Bad_Bucket' })).toMatch(/^S3_BUCKET must be a bucket name/)
    expect(refusal({ S3_BUCKET: 'archives', S3_ACCESS_KEY_ID: 'id' })).toMatch(
      /S3_SECRET_ACCESS_KEY is missing/,
    )
    expect(refusal({ S3_BUCKET: 'archives', S3_ENDPOINT: 'minio:9000' })).toMatch(
      /^S3_ENDPOINT must be an http\(s\) URL/,
    )
    expect(refusal({ S3_BUCKET: 'archives', S3_FORCE_PATH_STYLE: 'yes' })).toMatch(
      /^S3_FORCE_PATH_STYLE must be one of true, false/,
    )
    expect(refusal({ S3_BUCKET: 'archives', S3_PRESIGN_TTL_S: '999999' })).toMatch(
      /^S3_PRESIGN_TTL_S must be a whole number of seconds from 60 to 604800/,
    )
    expect(refusal({ S3_BUCKET: 'archives', S3_PUBLIC_ENDPOINT: 'localhost:9000' })).toMatch(
      /^S3_PUBLIC_ENDPOINT must be an http\(s\) URL/,
    )
    expect(refusal({ S3_BUCKET: 'archives', ARCHIVE_PUBLIC_BASE_URL: 'cdn' })).toMatch(
      /^ARCHIVE_PUBLIC_BASE_URL must be an http\(s\) URL/,
    )
  })
})
