// An upload arrives as a stream and is written to a temporary file as it comes, with a size cap
// and its SHA-256, so no archive is ever held in memory whole and an oversized one is cut off at
// the cap. The caller moves the file into storage (ArchiveStorage.putFile) or removes it.
import { createHash, randomBytes } from 'node:crypto'
import { createWriteStream, promises as fs } from 'node:fs'
import path from 'node:path'
import { PassThrough, Transform, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { TEMPORARY_SUFFIX } from '.'

export interface StagedFile {
  file: string
  size: number
  sha256: string
}

export class TooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The upload is larger than ${maxBytes} bytes.`)
  }
}

export async function stageUpload(
  source: Readable,
  dir: string,
  maxBytes: number,
): Promise<StagedFile> {
  await fs.mkdir(dir, { recursive: true })
  const file = path.join(dir, `${randomBytes(12).toString('hex')}${TEMPORARY_SUFFIX}`)
  const hash = createHash('sha256')
  let size = 0
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.byteLength
      if (size > maxBytes) return done(new TooLargeError(maxBytes))
      hash.update(chunk)
      done(null, chunk)
    },
  })
  // Read through a pipe: on a refusal the pipeline stops reading, but the request itself stays
  // open so that the refusal can still be answered (with Connection: close).
  const reader = source.pipe(new PassThrough())
  // pipe() does not pass on a client that went away mid-upload.
  const interrupted = () => {
    if (!source.readableEnded) reader.destroy(new Error('The upload was interrupted.'))
  }
  source.once('close', interrupted)
  source.once('error', interrupted)
  try {
    await pipeline(reader, meter, createWriteStream(file, { flags: 'wx' }))
    return { file, size, sha256: hash.digest('hex') }
  } catch (error) {
    source.unpipe(reader)
    source.pause()
    await fs.rm(file, { force: true })
    throw error
  } finally {
    source.off('close', interrupted)
    source.off('error', interrupted)
  }
}
