/**
 * Archive storage for node version zips and CI artifacts. Keys look like
 * `<publisherId>/<nodeId>/<version>/node.zip` (see archiveKey()) or `ci/<result>/<file>`.
 * LocalArchiveStorage keeps them as files (default `.data/archives/`, the `npm start` default);
 * S3ArchiveStorage (s3.ts) in an S3-compatible bucket; MemoryArchiveStorage is for tests.
 * storageFromConfig() (from-config.ts) picks one from the environment.
 */
import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/** Files being written end in this; one left behind by a killed process is removed later. */
export const TEMPORARY_SUFFIX = '.tmp'

/** How a client may fetch an object straight from the store (see ArchiveStorage.directUrl). */
export interface DirectUrlOptions {
  /** Anyone may have the object (an Active archive): a public base URL may be used. */
  public: boolean
  /** The media type and the file name the client should be given. */
  contentType: string
  fileName?: string
}

export interface DirectUrl {
  url: string
  /** Seconds the URL stays valid; null when it does not expire (a public base URL). */
  expiresInS: number | null
}

/**
 * How long a redirect to `direct` may be reused by caches: at most `longestS`, and for a URL that
 * expires at most half its life, so a cached redirect still leads to a URL that works.
 */
export function redirectMaxAgeS(direct: DirectUrl, longestS: number): number {
  return direct.expiresInS === null
    ? longestS
    : Math.min(longestS, Math.floor(direct.expiresInS / 2))
}

/**
 * The store cannot be reached or answers with a server error (it is down, overloaded or
 * timing out). Requests answer 503 with Retry-After (http/app.ts) and change nothing.
 */
export class StorageUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'StorageUnavailableError'
  }
}

export interface ArchiveStorage {
  /** Where uploads are written while they arrive (see staging.ts), before putFile. */
  readonly stagingDir: string
  /**
   * Checked once at start: throws an Error naming the setting to fix (a missing bucket, refused
   * credentials, an endpoint that cannot be reached).
   */
  check(): Promise<void>
  /**
   * A URL from which the client downloads the object itself (a presigned GET, or the public
   * base URL for public objects), or null when the API serves the bytes (local folder).
   */
  directUrl(key: string, options: DirectUrlOptions): Promise<DirectUrl | null>
  put(key: string, bytes: Uint8Array): Promise<void>
  /** Stores a staged file under `key`; the file is moved (or copied and removed). */
  putFile(key: string, file: string): Promise<void>
  /** The stored bytes, or null when there is no such archive. */
  get(key: string): Promise<Uint8Array | null>
  exists(key: string): Promise<boolean>
  /** Removes the archive; deleting a missing key is not an error. */
  delete(key: string): Promise<void>
  /**
   * Removes temporary files older than `olderThanMs` (left by a process that was killed while
   * writing); returns how many. Younger ones may belong to an upload in progress.
   */
  removeStaleTemporaryFiles(olderThanMs: number, now?: number): Promise<number>
}

/** Removes `*.tmp` files under `dir` (recursively) last changed before `before`. */
export async function removeTemporaryFiles(dir: string, before: number): Promise<number> {
  let entries
  try {
    entries = await fs.readdir(dir, { recursive: true, withFileTypes: true })
  } catch (error) {
    if (isNotFound(error)) return 0
    throw error
  }
  let removed = 0
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith(TEMPORARY_SUFFIX)) continue
    const file = path.join(entry.parentPath, entry.name)
    try {
      if ((await fs.stat(file)).mtimeMs >= before) continue
      await fs.rm(file, { force: true })
      removed++
    } catch (error) {
      // Renamed or removed by its writer meanwhile.
      if (!isNotFound(error)) throw error
    }
  }
  return removed
}

/** The storage key of a node version's archive. */
export function archiveKey(publisherId: string, nodeId: string, version: string): string {
  const key = `${publisherId}/${nodeId}/${version}/node.zip`
  assertValidKey(key)
  return key
}

export class InvalidArchiveKeyError extends Error {
  constructor(key: string, reason: string) {
    super(`Invalid archive key ${JSON.stringify(key)}: ${reason}`)
    this.name = 'InvalidArchiveKeyError'
  }
}

const BAD_SEGMENT = /(?:^|\/)\.{0,2}(?:\/|$)/

/** Keys are relative, '/'-separated, without '.', '..' or empty segments, backslashes or NULs. */
export function assertValidKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0) throw new InvalidArchiveKeyError(key, 'empty')
  if (key.length > 1024) throw new InvalidArchiveKeyError(key, 'too long')
  if (key.charCodeAt(0) === 47 /* / */ || /^[a-zA-Z]:/.test(key)) {
    throw new InvalidArchiveKeyError(key, 'absolute paths are not allowed')
  }
  if (key.includes('\\') || key.includes('\0')) {
    throw new InvalidArchiveKeyError(key, 'backslashes and NUL are not allowed')
  }
  if (BAD_SEGMENT.test(key)) {
    throw new InvalidArchiveKeyError(key, 'empty, "." and ".." segments are not allowed')
  }
}

export class LocalArchiveStorage implements ArchiveStorage {
  readonly rootDir: string
  /** Inside the root (not a valid key segment), so a staged file is moved in by a rename. */
  readonly stagingDir: string

  constructor(rootDir: string = path.join('.data', 'archives')) {
    this.rootDir = path.resolve(rootDir)
    this.stagingDir = path.join(this.rootDir, '.staging')
  }

  /** The file path for a key (validated, always inside rootDir). */
  pathFor(key: string): string {
    assertValidKey(key)
    const full = path.resolve(this.rootDir, ...key.split('/'))
    if (!full.startsWith(this.rootDir + path.sep)) {
      throw new InvalidArchiveKeyError(key, 'outside the storage root')
    }
    return full
  }

  async check(): Promise<void> {
    await fs.mkdir(this.rootDir, { recursive: true })
  }

  async directUrl(key: string, _options?: DirectUrlOptions): Promise<DirectUrl | null> {
    assertValidKey(key)
    return null
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const file = this.pathFor(key)
    await fs.mkdir(path.dirname(file), { recursive: true })
    // Write then rename, so readers never see a half-written archive.
    const tmp = `${file}.${randomBytes(6).toString('hex')}${TEMPORARY_SUFFIX}`
    try {
      await fs.writeFile(tmp, bytes)
      await fs.rename(tmp, file)
    } catch (error) {
      await fs.rm(tmp, { force: true })
      throw error
    }
  }

  async putFile(key: string, staged: string): Promise<void> {
    const file = this.pathFor(key)
    await fs.mkdir(path.dirname(file), { recursive: true })
    // Same filesystem: the archive appears whole, at once.
    await fs.rename(staged, file)
  }

  removeStaleTemporaryFiles(olderThanMs: number, now = Date.now()): Promise<number> {
    return removeTemporaryFiles(this.rootDir, now - olderThanMs)
  }

  async get(key: string): Promise<Uint8Array | null> {
    const file = this.pathFor(key)
    try {
      const buffer = await fs.readFile(file)
      return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)
    } catch (error) {
      if (isNotFound(error)) return null
      throw error
    }
  }

  async exists(key: string): Promise<boolean> {
    const file = this.pathFor(key)
    try {
      return (await fs.stat(file)).isFile()
    } catch (error) {
      if (isNotFound(error)) return false
      throw error
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathFor(key), { force: true })
  }
}

export class MemoryArchiveStorage implements ArchiveStorage {
  private readonly files = new Map<string, Uint8Array>()
  readonly stagingDir = path.join(os.tmpdir(), `registry-staging-${randomBytes(6).toString('hex')}`)

  async check(): Promise<void> {}

  async directUrl(key: string, _options?: DirectUrlOptions): Promise<DirectUrl | null> {
    assertValidKey(key)
    return null
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    assertValidKey(key)
    this.files.set(key, bytes.slice())
  }

  async putFile(key: string, staged: string): Promise<void> {
    assertValidKey(key)
    this.files.set(key, new Uint8Array(await fs.readFile(staged)))
    await fs.rm(staged, { force: true })
  }

  removeStaleTemporaryFiles(olderThanMs: number, now = Date.now()): Promise<number> {
    return removeTemporaryFiles(this.stagingDir, now - olderThanMs)
  }

  async get(key: string): Promise<Uint8Array | null> {
    assertValidKey(key)
    const bytes = this.files.get(key)
    return bytes ? bytes.slice() : null
  }

  async exists(key: string): Promise<boolean> {
    assertValidKey(key)
    return this.files.has(key)
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key)
    this.files.delete(key)
  }

  /** All stored keys (sorted), for tests. */
  keys(): string[] {
    return [...this.files.keys()].sort()
  }

  get size(): number {
    return this.files.size
  }
}

function isNotFound(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    ((error as { code: unknown }).code === 'ENOENT' ||
      (error as { code: unknown }).code === 'ENOTDIR')
  )
}
