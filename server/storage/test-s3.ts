// Tests only: an S3-compatible server (s3rver, from npm) on loopback, in a temporary folder.
// s3rver checks the access key id (S3RVER) and a presigned URL's expiry, but not SigV4
// signatures themselves (its authentication code leaves them "unimplemented"): tests of a
// tampered signature would pass here and are not written against it.
import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import S3rver from 's3rver'
import type { S3StorageConfig } from './s3'

// The SDK warns once per process that Node 20 will not be supported by its 2027 releases.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'

export const TEST_BUCKET = 'registry-test'
/** The only credentials s3rver knows. */
export const TEST_S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }

export interface TestS3 {
  endpoint: string
  /** Settings for S3ArchiveStorage against this server. */
  config(overrides?: Partial<S3StorageConfig>): S3StorageConfig
  /** The same settings as environment variables (loadConfig). */
  env(overrides?: Record<string, string>): Record<string, string>
  /** Stops the server (the store is "down"); its objects stay in its folder. */
  stop(): Promise<void>
  /** Starts it again on the same port, with the same objects. */
  start(): Promise<void>
  close(): Promise<void>
}

export async function startTestS3(buckets: string[] = [TEST_BUCKET]): Promise<TestS3> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 's3rver-'))
  let port = 0
  let server: S3rver | null = null
  const run = async () => {
    const next = new S3rver({
      address: '127.0.0.1',
      port,
      directory,
      silent: true,
      configureBuckets: buckets.map((name) => ({ name, configs: [] })),
    })
    const address: AddressInfo = await next.run()
    port = address.port
    server = next
  }
  await run()
  const endpoint = `http://127.0.0.1:${port}`
  const stop = async () => {
    const running = server
    server = null
    await running?.close()
  }
  return {
    endpoint,
    config: (overrides = {}) => ({
      endpoint,
      publicEndpoint: undefined,
      region: 'us-east-1',
      bucket: TEST_BUCKET,
      credentials: TEST_S3_CREDENTIALS,
      forcePathStyle: true,
      publicBaseUrl: undefined,
      presignTtlS: 900,
      ...overrides,
    }),
    env: (overrides = {}) => ({
      S3_ENDPOINT: endpoint,
      S3_BUCKET: TEST_BUCKET,
      S3_ACCESS_KEY_ID: TEST_S3_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: TEST_S3_CREDENTIALS.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
      ...overrides,
    }),
    stop,
    start: run,
    close: async () => {
      await stop()
      await rm(directory, { recursive: true, force: true })
    },
  }
}
