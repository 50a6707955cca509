// What a pack's author wrote for people, read from its archive by the pipeline: the README (kept
// with the version, capped) with the images it refers to, and the licence file (which licence it
// is). The archive is read once here, not on every page view; the node page and its image
// requests then cost a row read (and, for an image, one entry of the archive).
import { matchLicense } from '@/src/lib/license-match'
import { parseLicenseField } from '@/src/lib/licenses'
import { packagePath } from '@/src/lib/package-path'
import { NODE_VERSION_FILES } from '@/src/lib/constants'
import { eq } from 'drizzle-orm'
import type { Db } from '../db/client'
import { nodes, nodeVersionReadmes, nodeVersions } from '../db/schema'
import type { CheckedArchive } from './archive'

export type ReadmeFormat = 'markdown' | 'text'

export interface ArchiveReadme {
  /** The README's path in the package (relative to its root). */
  path: string
  format: ReadmeFormat
  text: string
  /** The README was longer than NODE_VERSION_FILES.maxReadmeBytes: `text` is its start. */
  truncated: boolean
  /** Images the README refers to that the API serves (paths relative to the package root). */
  images: string[]
}

export interface ArchiveLicense {
  /** The licence file's path in the package (relative to its root). */
  path: string
  /** The SPDX identifier its text matched; '' when it is not a known licence. */
  spdx: string
}

export interface ArchiveDocuments {
  readme: ArchiveReadme | null
  license: ArchiveLicense | null
}

/** README names by preference (compared in any case): markdown first, then plain text. */
const README_NAMES: [string, ReadmeFormat][] = [
  ['readme.md', 'markdown'],
  ['readme.markdown', 'markdown'],
  ['readme.rst', 'text'],
  ['readme.txt', 'text'],
  ['readme', 'text'],
]

/** Licence files looked for when the pyproject names none (compared in any case). */
const LICENSE_NAMES = [
  'license',
  'license.md',
  'license.txt',
  'licence',
  'licence.md',
  'licence.txt',
  'copying',
  'copying.md',
  'copying.txt',
]

/** Image types served, by extension, with the bytes their files must start with. */
export const IMAGE_TYPES: Readonly<
  Record<string, { type: string; magic: (b: Uint8Array) => boolean }>
> = {
  png: {
    type: 'image/png',
    magic: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  jpg: { type: 'image/jpeg', magic: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  jpeg: { type: 'image/jpeg', magic: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  gif: { type: 'image/gif', magic: (b) => ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a') },
  webp: { type: 'image/webp', magic: (b) => ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP') },
}

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((byte, index) => bytes[index] === byte)
}

function ascii(bytes: Uint8Array, at: number, text: string): boolean {
  return startsWith(
    bytes.subarray(at),
    [...text].map((char) => char.charCodeAt(0)),
  )
}

/** The image type of a path by its extension, if it is one the API serves. */
export function imageTypeOf(path: string): (typeof IMAGE_TYPES)[string] | undefined {
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase()
  return extension ? IMAGE_TYPES[extension] : undefined
}

/**
 * Link and image destinations a markdown text may contain: inline `(…)`, reference definitions
 * and HTML `src`/`href` attributes. Over-collecting is harmless (only files that exist and are
 * images are served); the website renders only references the markdown parser sees.
 */
export function referencesOf(markdown: string): string[] {
  const found = new Set<string>()
  const patterns = [
    /\]\(\s*<([^>\n]+)>/g,
    /\]\(\s*([^)\s]+)/g,
    /^\s{0,3}\[[^\]\n]+\]:\s*<?([^\s>]+)/gm,
    /\b(?:src|href)\s*=\s*["']([^"'\n]+)["']/gi,
  ]
  for (const pattern of patterns) {
    for (const match of markdown.matchAll(pattern)) found.add(match[1])
  }
  return [...found]
}

/** A file at the package's root named one of `names` (any case); exact names win. */
function rootFile(archive: CheckedArchive, names: string[]): string | undefined {
  const { packageRoot } = archive
  const atRoot = new Map<string, string>()
  for (const entry of archive.entries) {
    if (entry.isDirectory || !entry.name.startsWith(packageRoot)) continue
    const name = entry.name.slice(packageRoot.length)
    if (!name.includes('/') && !atRoot.has(name.toLowerCase())) atRoot.set(name.toLowerCase(), name)
  }
  for (const wanted of names) {
    const name = atRoot.get(wanted.toLowerCase())
    if (name !== undefined) return name
  }
  return undefined
}

/** The first `maxBytes` of a UTF-8 text, cut at a character boundary. */
function capUtf8(text: string, maxBytes: number): { text: string; truncated: boolean } {
  const bytes = new TextEncoder().encode(text)
  if (bytes.length <= maxBytes) return { text, truncated: false }
  const cut = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, maxBytes))
  return { text: cut.replace(/\uFFFD$/, ''), truncated: true }
}

function readReadme(archive: CheckedArchive): ArchiveReadme | null {
  const limits = NODE_VERSION_FILES
  const name = rootFile(
    archive,
    README_NAMES.map(([candidate]) => candidate),
  )
  if (name === undefined) return null
  const format = README_NAMES.find(([candidate]) => candidate === name.toLowerCase())?.[1] ?? 'text'
  // Larger files are not read at all: a README of megabytes is not one people read.
  const whole = archive.readText(archive.packageRoot + name, limits.maxReadmeSourceBytes)
  if (whole === null) return null
  const { text, truncated } = capUtf8(whole, limits.maxReadmeBytes)
  const images: string[] = []
  let imageBytes = 0
  if (format === 'markdown') {
    for (const reference of referencesOf(text)) {
      if (images.length >= limits.maxImages) break
      const path = packagePath(reference)
      if (path === null || images.includes(path)) continue
      const type = imageTypeOf(path)
      if (!type) continue
      const data = archive.readBytes(archive.packageRoot + path, limits.maxImageBytes)
      if (data === null || !type.magic(data)) continue
      if (imageBytes + data.length > limits.maxImagesTotalBytes) continue
      imageBytes += data.length
      images.push(path)
    }
  }
  return { path: name, format, text, truncated, images }
}

function readLicense(archive: CheckedArchive, licenseField: string): ArchiveLicense | null {
  const field = parseLicenseField(licenseField)
  let name: string | undefined
  if (field.kind === 'file') {
    const path = packagePath(field.path)
    const exact = path && archive.entries.find((entry) => entry.name === archive.packageRoot + path)
    name = exact ? path : path ? rootFile(archive, [path]) : undefined
  } else {
    // Linked beside an SPDX id or text too, and identified when the pyproject names none.
    name = rootFile(archive, LICENSE_NAMES)
  }
  if (name === undefined) return null
  const text = archive.readText(archive.packageRoot + name, NODE_VERSION_FILES.maxLicenseBytes)
  if (text === null) return null
  return { path: name, spdx: matchLicense(text) ?? '' }
}

/**
 * The README and licence of a checked archive. `licenseField` is the node's `license` as
 * comfy-cli sent it: `{"file": …}` names the licence file; without a licence, a LICENSE or
 * COPYING file at the root is read. An SPDX id or `{"text": …}` needs no file.
 */
export function readDocuments(archive: CheckedArchive, licenseField: string): ArchiveDocuments {
  return { readme: readReadme(archive), license: readLicense(archive, licenseField) }
}

/** The node's `license` field as comfy-cli sent it ('' for a node that is gone). */
export async function nodeLicenseField(db: Db, nodeId: string): Promise<string> {
  const [row] = await db.select({ license: nodes.license }).from(nodes).where(eq(nodes.id, nodeId))
  return row?.license ?? ''
}

/** Keeps what was read with the version (inside the outcome's transaction), replacing any. */
export async function storeDocuments(
  tx: Db,
  versionId: string,
  documents: ArchiveDocuments | null,
): Promise<void> {
  await tx.delete(nodeVersionReadmes).where(eq(nodeVersionReadmes.nodeVersionId, versionId))
  const { readme, license } = documents ?? { readme: null, license: null }
  if (readme) {
    await tx.insert(nodeVersionReadmes).values({
      nodeVersionId: versionId,
      path: readme.path,
      format: readme.format,
      text: readme.text,
      truncated: readme.truncated,
      images: readme.images,
    })
  }
  await tx
    .update(nodeVersions)
    .set({ licenseFile: license?.path ?? '', licenseFileSpdx: license?.spdx ?? '' })
    .where(eq(nodeVersions.id, versionId))
}
