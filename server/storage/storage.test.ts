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
} from '.'
import { stageUpload, TooLargeError } from './staging'

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
])('%s', (_name, make) => {
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
