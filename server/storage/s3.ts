// Archives in an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO, Google Cloud Storage's S3
// interface) through the AWS SDK. Uploads are still received by the API and staged in a local
// folder (size cap, SHA-256, structure checks), then sent to the bucket; downloads are redirects
// to a presigned GET or to a public base URL (a CDN in front of the bucket). See
// docs/ARCHITECTURE.md "Archive storage".
import { createReadStream, promises as fs } from 'node:fs'
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import {
  type ArchiveStorage,
  assertValidKey,
  type DirectUrl,
  type DirectUrlOptions,
  removeTemporaryFiles,
  StorageUnavailableError,
} from '.'

export interface S3StorageConfig {
  /** S3_ENDPOINT: unset for AWS S3 itself. */
  endpoint: string | undefined
  /**
   * S3_PUBLIC_ENDPOINT: the store as clients reach it, when that differs from S3_ENDPOINT (a
   * MinIO container the API reaches by its service name): presigned URLs are signed for it.
   */
  publicEndpoint: string | undefined
  /** S3_REGION (`auto` for R2). */
  region: string
  /** S3_BUCKET. */
  bucket: string
  /** S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY; unset: the SDK's default chain (AWS_*, roles). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined
  /** S3_FORCE_PATH_STYLE: `<endpoint>/<bucket>/<key>` rather than `<bucket>.<endpoint>/<key>`. */
  forcePathStyle: boolean
  /** ARCHIVE_PUBLIC_BASE_URL: public objects are downloaded from `<base>/<key>`. */
  publicBaseUrl: string | undefined
  /** S3_PRESIGN_TTL_S: how long a presigned GET stays valid. */
  presignTtlS: number
}

/** A dead store answers quickly: one retry, short connection time-out. */
const CONNECTION_TIMEOUT_MS = 3_000
const REQUEST_TIMEOUT_MS = 60_000

/**
 * The SDK's own messages: warnings only, less the one it prints for every failed upload (a
 * stream cannot be retried). Failed calls are reported by the errors they throw.
 */
const SDK_LOGGER = {
  debug: () => undefined,
  info: () => undefined,
  warn: (...content: unknown[]) => {
    if (!String(content[0]).includes('non-retryable streaming request')) console.warn(...content)
  },
  error: () => undefined,
}

interface SdkErrorShape {
  name?: unknown
  code?: unknown
  $metadata?: { httpStatusCode?: unknown }
}

const shape = (error: unknown): SdkErrorShape =>
  typeof error === 'object' && error !== null ? (error as SdkErrorShape) : {}

function statusOf(error: unknown): number | undefined {
  const status = shape(error).$metadata?.httpStatusCode
  return typeof status === 'number' ? status : undefined
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
])

/** The store is down, overloaded or out of reach (not: the object is missing, access refused). */
export function isStoreUnavailable(error: unknown): boolean {
  const status = statusOf(error)
  if (status !== undefined) return status >= 500 || status === 429
  const { name, code } = shape(error)
  // The SDK may wrap a socket error in a plain Error that keeps only its text.
  const text = error instanceof Error ? error.message : ''
  return (
    (typeof code === 'string' && NETWORK_CODES.has(code)) ||
    [...NETWORK_CODES].some((known) => text.includes(known)) ||
    name === 'TimeoutError' ||
    name === 'RequestTimeout' ||
    (error instanceof AggregateError && error.errors.some(isStoreUnavailable))
  )
}

const isMissing = (error: unknown) =>
  statusOf(error) === 404 || shape(error).name === 'NoSuchKey' || shape(error).name === 'NotFound'

export class S3ArchiveStorage implements ArchiveStorage {
  readonly client: S3Client
  /** Signs presigned URLs (for S3_PUBLIC_ENDPOINT when set; no request is sent with it). */
  private readonly signer: S3Client

  constructor(
    readonly config: S3StorageConfig,
    /** A local folder: uploads are staged there before they go to the bucket. */
    readonly stagingDir: string,
  ) {
    this.client = S3ArchiveStorage.clientFor(config, config.endpoint)
    this.signer = config.publicEndpoint
      ? S3ArchiveStorage.clientFor(config, config.publicEndpoint)
      : this.client
  }

  private static clientFor(config: S3StorageConfig, endpoint: string | undefined): S3Client {
    return new S3Client({
      endpoint,
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      credentials: config.credentials,
      maxAttempts: 2,
      requestHandler: {
        connectionTimeout: CONNECTION_TIMEOUT_MS,
        requestTimeout: REQUEST_TIMEOUT_MS,
      },
      // Checksums only where the API requires them: S3-compatible stores that predate the
      // SDK's CRC32 trailers (MinIO releases, s3rver, some gateways) refuse them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      logger: SDK_LOGGER,
    })
  }

  private where(): string {
    return `bucket '${this.config.bucket}' at ${this.config.endpoint ?? `AWS S3 (${this.config.region})`}`
  }

  /** Runs one store call; a store that is down becomes StorageUnavailableError. */
  private async call<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run()
    } catch (error) {
      if (isStoreUnavailable(error)) {
        throw new StorageUnavailableError(
          `The archive store (${this.where()}) could not ${what}: ${describe(error)}`,
          { cause: error },
        )
      }
      throw error
    }
  }

  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.config.bucket }))
    } catch (error) {
      throw new Error(startupMessage(error, this.config, this.where()), { cause: error })
    }
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    assertValidKey(key)
    await this.call('store an object', () =>
      this.client.send(
        new PutObjectCommand({
          Bucket: this.config.bucket,
          Key: key,
          Body: bytes,
          ContentLength: bytes.byteLength,
        }),
      ),
    )
  }

  async putFile(key: string, staged: string): Promise<void> {
    assertValidKey(key)
    const { size } = await fs.stat(staged)
    // Streamed from the staged file: an archive is never held in memory whole.
    await this.call('store an archive', () =>
      this.client.send(
        new PutObjectCommand({
          Bucket: this.config.bucket,
          Key: key,
          Body: createReadStream(staged),
          ContentLength: size,
          ContentType: 'application/zip',
        }),
      ),
    )
    await fs.rm(staged, { force: true })
  }

  async get(key: string): Promise<Uint8Array | null> {
    assertValidKey(key)
    return this.call('read an object', async () => {
      try {
        const answer = await this.client.send(
          new GetObjectCommand({ Bucket: this.config.bucket, Key: key }),
        )
        if (!answer.Body) return new Uint8Array()
        return await answer.Body.transformToByteArray()
      } catch (error) {
        if (isMissing(error)) return null
        throw error
      }
    })
  }

  async exists(key: string): Promise<boolean> {
    assertValidKey(key)
    return this.call('look up an object', async () => {
      try {
        await this.client.send(new HeadObjectCommand({ Bucket: this.config.bucket, Key: key }))
        return true
      } catch (error) {
        if (isMissing(error)) return false
        throw error
      }
    })
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key)
    // S3 answers 204 for a missing key too.
    await this.call('delete an object', () =>
      this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: key })),
    )
  }

  removeStaleTemporaryFiles(olderThanMs: number, now = Date.now()): Promise<number> {
    // Only the local staging folder has temporary files: a PutObject is whole or absent.
    return removeTemporaryFiles(this.stagingDir, now - olderThanMs)
  }

  async directUrl(key: string, options: DirectUrlOptions): Promise<DirectUrl | null> {
    assertValidKey(key)
    if (options.public && this.config.publicBaseUrl) {
      const path = key.split('/').map(encodeURIComponent).join('/')
      return { url: `${this.config.publicBaseUrl}/${path}`, expiresInS: null }
    }
    return this.presignGet(key, options)
  }

  /** A presigned GET (signed here, no request to the store). `signingDate` is for tests. */
  async presignGet(
    key: string,
    options: Omit<DirectUrlOptions, 'public'>,
    signingDate?: Date,
  ): Promise<DirectUrl> {
    assertValidKey(key)
    const url = await getSignedUrl(
      this.signer,
      new GetObjectCommand({
        Bucket: this.config.bucket,
        Key: key,
        ResponseContentType: options.contentType,
        ...(options.fileName
          ? { ResponseContentDisposition: `attachment; filename="${options.fileName}"` }
          : {}),
      }),
      { expiresIn: this.config.presignTtlS, ...(signingDate ? { signingDate } : {}) },
    )
    return { url, expiresInS: this.config.presignTtlS }
  }

  close(): void {
    this.client.destroy()
    if (this.signer !== this.client) this.signer.destroy()
  }
}

function describe(error: unknown): string {
  const { name, code } = shape(error)
  const status = statusOf(error)
  const parts = [
    typeof code === 'string' ? code : typeof name === 'string' ? name : undefined,
    status !== undefined ? `HTTP ${status}` : undefined,
    error instanceof Error && error.message && error.message !== name ? error.message : undefined,
  ].filter(Boolean)
  return parts.join(', ') || String(error)
}

/** The start-up error for a failed HeadBucket: names the variable to fix. */
function startupMessage(error: unknown, config: S3StorageConfig, where: string): string {
  const status = statusOf(error)
  const detail = describe(error)
  if (status === 404 || shape(error).name === 'NoSuchBucket') {
    return `S3_BUCKET: the ${where} does not exist (${detail}). Create it, or fix S3_BUCKET.`
  }
  if (status === 401 || status === 403) {
    return `S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: the store refused these credentials for the ${where} (${detail}). Fix the keys, or the bucket's permissions.`
  }
  if (status === 301 || status === 400) {
    return `S3_REGION / S3_ENDPOINT: the ${where} answered ${detail}; the bucket may be in another region ('${config.region}' is set) or S3_FORCE_PATH_STYLE may be needed.`
  }
  if (shape(error).name === 'CredentialsProviderError') {
    return `S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: no credentials for the ${where} (${detail}). Set both, or give the process an AWS role.`
  }
  if (isStoreUnavailable(error)) {
    return `S3_ENDPOINT: the archive store cannot be reached (${where}: ${detail}). Start it, or fix S3_ENDPOINT.`
  }
  return `S3_BUCKET: the ${where} cannot be used (${detail}).`
}
