import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {
  type ArchiveStorage,
  archiveKey,
  assertValidKey,
  InvalidArchiveKeyError,
  LocalArchiveStorage,
  MemoryArchiveStorage,
} from './index'

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
})
