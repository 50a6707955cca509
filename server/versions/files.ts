// A version's README (kept by the pipeline, server/pipeline/documents.ts) and the few files of
// its archive the node page links to: the README's images and the licence file. Nothing else of
// an archive is served this way, so a path that was not recorded is refused without reading it.
import { eq } from 'drizzle-orm'
import type { Db } from '../db/client'
import { nodeVersionReadmes, type NodeVersion, type NodeVersionReadme } from '../db/schema'
import { notFound } from '../http/errors'
import type { ArchiveStorage } from '../storage'
import { readArchiveEntry } from '../pipeline/archive'
import { imageTypeOf } from '../pipeline/documents'
import { packagePath } from '@/src/lib/package-path'
import { NODE_VERSION_FILES } from '@/src/lib/constants'

export async function findReadme(db: Db, versionId: string): Promise<NodeVersionReadme | null> {
  const [row] = await db
    .select()
    .from(nodeVersionReadmes)
    .where(eq(nodeVersionReadmes.nodeVersionId, versionId))
  return row ?? null
}

export interface ServedFile {
  contentType: string
  bytes: Uint8Array
}

/** The file at `path` (relative to the package root) if it is one the node page links to. */
export async function versionFile(
  db: Db,
  storage: ArchiveStorage,
  version: NodeVersion,
  path: string,
): Promise<ServedFile> {
  const missing = notFound(
    `Version ${version.version} of node '${version.nodeId}' serves no file '${path}': only the images its README shows and its licence file are served.`,
  )
  const normalised = packagePath(path)
  if (normalised === null || !version.storageKey) throw missing
  const isLicense = version.licenseFile !== '' && normalised === version.licenseFile
  const image = imageTypeOf(normalised)
  if (!isLicense) {
    const readme = image ? await findReadme(db, version.id) : null
    if (!readme?.images.includes(normalised)) throw missing
  }
  const archive = await storage.get(version.storageKey)
  if (!archive) throw missing
  const maxBytes = isLicense ? NODE_VERSION_FILES.maxLicenseBytes : NODE_VERSION_FILES.maxImageBytes
  const bytes = readArchiveEntry(archive, normalised, maxBytes)
  if (bytes === null) throw missing
  if (isLicense) return { contentType: 'text/plain; charset=utf-8', bytes }
  // Checked when recorded; again here, so the type sent is always what the bytes are.
  if (!image?.magic(bytes)) throw missing
  return { contentType: image.type, bytes }
}
