// The archive store the settings ask for: the local folder DATA_DIR/archives (the default, what
// `npm start` uses), or an S3-compatible bucket when S3_BUCKET is set. Checked before use, so a
// missing bucket or refused credentials stop the process at start with the variable to fix.
import path from 'node:path'
import type { ServerConfig } from '../config'
import { type ArchiveStorage, LocalArchiveStorage } from '.'
import { S3ArchiveStorage } from './s3'

export function storageFromConfig(
  config: Pick<ServerConfig, 'dataDir' | 'storage'>,
): ArchiveStorage {
  if (config.storage.kind === 'local') {
    return new LocalArchiveStorage(path.join(config.dataDir, 'archives'))
  }
  const { kind: _kind, ...s3 } = config.storage
  // Uploads are staged on local disk before they go to the bucket.
  return new S3ArchiveStorage(s3, path.join(config.dataDir, 'staging'))
}

/** storageFromConfig, checked (throws a start-up error naming the variable to fix). */
export async function openStorage(
  config: Pick<ServerConfig, 'dataDir' | 'storage'>,
): Promise<ArchiveStorage> {
  const storage = storageFromConfig(config)
  await storage.check()
  return storage
}
