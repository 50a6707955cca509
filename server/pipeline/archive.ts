// Reads and checks an uploaded node archive (zip) in memory. The zip structures are parsed here
// rather than with fflate's `unzipSync`, because the checks need what it hides: external
// attributes (symlinks, devices), the local headers (which extractors trust instead of the
// central directory), duplicate names and the declared sizes. Nothing is ever written to disk.
import { Inflate } from 'fflate'

import type { Finding, Severity } from './findings'

export interface ArchiveLimits {
  maxEntries: number
  maxTotalUncompressedBytes: number
  /** Per entry, uncompressed/compressed; only checked for entries over 1 MiB uncompressed. */
  maxCompressionRatio: number
  /** The MAX_ARCHIVE_MB cap, passed in by the caller. */
  maxArchiveBytes: number
}

export const DEFAULT_ARCHIVE_LIMITS: Omit<ArchiveLimits, 'maxArchiveBytes'> = {
  maxEntries: 10_000,
  maxTotalUncompressedBytes: 512 * 1024 * 1024,
  maxCompressionRatio: 200,
}

export interface ArchiveEntry {
  name: string
  compressedSize: number
  uncompressedSize: number
  isDirectory: boolean
  /** CRC-32 of the uncompressed data, as the central directory declares it (verified). */
  crc: number
}

export interface CheckedArchive {
  /** Every entry, directories included, in central-directory order. */
  entries: ArchiveEntry[]
  /** '' when the package is at the root, else 'folder/' (one folder down). */
  packageRoot: string
  /**
   * Inflates one entry (by its full name) as UTF-8 text, refusing more than maxBytes (returns
   * null then, or if it is not found / not valid).
   */
  readText(name: string, maxBytes: number): string | null
  /** The same for any file's bytes (null when missing, larger than maxBytes or damaged). */
  readBytes(name: string, maxBytes: number): Uint8Array | null
}

export type ArchiveCheck =
  { ok: true; archive: CheckedArchive; findings: Finding[] } | { ok: false; findings: Finding[] }

const SIG_LOCAL = 0x04034b50
const SIG_CENTRAL = 0x02014b50
const SIG_EOCD = 0x06054b50
const SIG_EOCD64 = 0x06064b50
const SIG_EOCD64_LOCATOR = 0x07064b50
const EOCD_SIZE = 22
const EOCD64_LOCATOR_SIZE = 20
const CENTRAL_HEADER_SIZE = 46
const LOCAL_HEADER_SIZE = 30
const MAX_COMMENT = 0xffff
const EXTRA_ZIP64 = 0x0001
const EXTRA_UNICODE_PATH = 0x7075
const FLAG_ENCRYPTED = 0x0001
const FLAG_STRONG_ENCRYPTION = 0x0040
const FLAG_UTF8 = 0x0800
const METHOD_STORED = 0
const METHOD_DEFLATE = 8
const METHOD_AES = 99
const RATIO_MIN_BYTES = 1024 * 1024
/** Longer names are refused: no real package needs them, and they make checks costly. */
const MAX_NAME_LENGTH = 1024

const S_IFMT = 0o170000
const S_IFREG = 0o100000
const S_IFDIR = 0o040000
const S_IFLNK = 0o120000

interface RawEntry extends ArchiveEntry {
  method: number
  flags: number
  crc: number
  localOffset: number
  /** Start and end of the compressed data, once the local header has been read. */
  dataStart: number
  dataEnd: number
}

/** A zip that cannot be parsed at all: one finding, nothing else is checked. */
class ZipStructureError extends Error {}

const utf8 = new TextDecoder('utf-8', { fatal: true })
const latin1 = new TextDecoder('latin1')

export function checkArchive(bytes: Uint8Array, limits: ArchiveLimits): ArchiveCheck {
  const { entries, findings, root } = inspect(bytes, limits)
  if (findings.length > 0 || root === null || entries === null) return refuse(findings)
  return { ok: true, findings: [], archive: checkedArchive(bytes, entries, root) }
}

/**
 * The findings that refuse an upload at once, before anything is stored: every archive check
 * except the package layout (flagged by the pipeline, like the content scan). An archive with no
 * file at all is refused too. Empty when the upload may be stored.
 */
export function uploadRefusals(bytes: Uint8Array, limits: ArchiveLimits): Finding[] {
  const { entries, findings } = inspect(bytes, limits)
  const refusals = findings.filter((finding) => finding.issue_type !== NO_PYTHON_PACKAGE)
  if (refusals.length === 0 && entries !== null && entries.every((entry) => entry.isDirectory)) {
    refusals.push(archiveFinding('zip-invalid', 'critical', '', 'The archive contains no files.'))
  }
  return refusals
}

const NO_PYTHON_PACKAGE = 'no-python-package'

function inspect(
  bytes: Uint8Array,
  limits: ArchiveLimits,
): { entries: RawEntry[] | null; findings: Finding[]; root: string | null } {
  const refused = (finding: Finding) => ({ entries: null, findings: [finding], root: null })
  if (bytes.length > limits.maxArchiveBytes) {
    return refused(
      archiveFinding(
        'zip-too-large',
        'high',
        '',
        `The archive is ${formatBytes(bytes.length)}; the registry accepts at most ${formatBytes(limits.maxArchiveBytes)}.`,
      ),
    )
  }
  let parsed: { entries: RawEntry[]; findings: Finding[] }
  try {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    const directory = readDirectoryLocation(bytes, view)
    if (directory.entryCount > limits.maxEntries) {
      // Refused on the count alone, before reading a single entry.
      return refused(
        archiveFinding(
          'zip-too-many-entries',
          'high',
          '',
          `The archive has ${directory.entryCount} entries; the registry accepts at most ${limits.maxEntries}.`,
        ),
      )
    }
    parsed = readEntries(bytes, view, directory)
  } catch (error) {
    if (!(error instanceof ZipStructureError)) throw error
    return refused(archiveFinding('zip-invalid', 'critical', '', error.message))
  }
  const { entries } = parsed
  const findings = [...parsed.findings, ...checkEntries(entries, limits)]
  // Inflating is the costly part, so only archives whose structure passed are verified (with or
  // without a package: a bomb is refused at upload either way).
  if (findings.length === 0) findings.push(...verifyData(bytes, entries))
  const root = findPackageRoot(entries)
  if (root === null) {
    findings.push(
      archiveFinding(
        NO_PYTHON_PACKAGE,
        'high',
        '',
        'No Python package found: the archive needs __init__.py or pyproject.toml at its root, or inside its only top-level folder.',
      ),
    )
  }
  return { entries, findings, root }
}

function refuse(findings: Finding[]): ArchiveCheck {
  return { ok: false, findings }
}

function archiveFinding(
  issueType: string,
  severity: Severity,
  filePath: string,
  message: string,
): Finding {
  return {
    issue_type: issueType,
    severity,
    file_path: filePath,
    line_number: 0,
    code_snippet: '',
    message,
    scanner: 'archive-check',
  }
}

// ---------------------------------------------------------------------------------------------
// Structure

interface Directory {
  entryCount: number
  offset: number
  size: number
  /** Where the central directory must end: the EOCD (or ZIP64 EOCD) record. */
  end: number
}

function readEntries(
  bytes: Uint8Array,
  view: DataView,
  directory: Directory,
): { entries: RawEntry[]; findings: Finding[] } {
  const findings: Finding[] = []
  const entries: RawEntry[] = []
  let position = directory.offset
  for (let index = 0; index < directory.entryCount; index++) {
    const { entry, next, problems } = readCentralEntry(bytes, view, position, directory.offset)
    entries.push(entry)
    findings.push(...problems)
    position = next
  }
  if (position !== directory.end) {
    throw new ZipStructureError(
      'The central directory of the archive does not match its declared size: the file is damaged or crafted.',
    )
  }
  const headerFindings = entries.flatMap((entry) => readLocalHeader(bytes, view, entry, directory))
  findings.push(...headerFindings)
  findings.push(...checkLayout(entries, directory, headerFindings.length === 0))
  return { entries, findings }
}

function readDirectoryLocation(bytes: Uint8Array, view: DataView): Directory {
  const eocd = findEocd(bytes, view)
  if (eocd < 0) {
    const looksLikeZip = bytes.length >= 4 && view.getUint32(0, true) === SIG_LOCAL
    throw new ZipStructureError(
      looksLikeZip
        ? 'The archive is truncated: its end-of-central-directory record is missing. Upload the complete zip.'
        : 'The upload is not a valid zip archive.',
    )
  }
  const disk = view.getUint16(eocd + 4, true)
  const directoryDisk = view.getUint16(eocd + 6, true)
  const entriesOnDisk = view.getUint16(eocd + 8, true)
  const entryCount = view.getUint16(eocd + 10, true)
  const size = view.getUint32(eocd + 12, true)
  const offset = view.getUint32(eocd + 16, true)
  const needsZip64 = entryCount === 0xffff || size === 0xffffffff || offset === 0xffffffff
  const locator = eocd - EOCD64_LOCATOR_SIZE
  if (needsZip64 || (locator >= 0 && view.getUint32(locator, true) === SIG_EOCD64_LOCATOR)) {
    return readZip64Directory(bytes, view, locator)
  }
  if (disk !== 0 || directoryDisk !== 0 || entriesOnDisk !== entryCount) {
    throw new ZipStructureError('Multi-part (split or spanned) zip archives are not accepted.')
  }
  return checkDirectoryBounds({ entryCount, offset, size, end: eocd })
}

/** The last EOCD signature whose comment length reaches exactly the end of the file. */
function findEocd(bytes: Uint8Array, view: DataView): number {
  const lowest = Math.max(0, bytes.length - EOCD_SIZE - MAX_COMMENT)
  for (let at = bytes.length - EOCD_SIZE; at >= lowest; at--) {
    if (view.getUint32(at, true) !== SIG_EOCD) continue
    if (at + EOCD_SIZE + view.getUint16(at + 20, true) === bytes.length) return at
  }
  return -1
}

function readZip64Directory(bytes: Uint8Array, view: DataView, locator: number): Directory {
  if (locator < 0 || view.getUint32(locator, true) !== SIG_EOCD64_LOCATOR) {
    throw new ZipStructureError(
      'The archive says it is a ZIP64 archive but its ZIP64 locator is missing: the file is damaged.',
    )
  }
  const recordOffset = readUint64(view, locator + 8)
  if (view.getUint32(locator + 4, true) !== 0 || view.getUint32(locator + 16, true) !== 1) {
    throw new ZipStructureError('Multi-part (split or spanned) zip archives are not accepted.')
  }
  if (recordOffset + 56 > locator || view.getUint32(recordOffset, true) !== SIG_EOCD64) {
    throw new ZipStructureError('The ZIP64 end-of-central-directory record is missing or damaged.')
  }
  // The record must sit right before the locator: nothing may be hidden between them.
  if (recordOffset + 12 + readUint64(view, recordOffset + 4) !== locator) {
    throw new ZipStructureError('The ZIP64 end-of-central-directory record has a wrong size.')
  }
  const entriesOnDisk = readUint64(view, recordOffset + 24)
  const entryCount = readUint64(view, recordOffset + 32)
  if (
    view.getUint32(recordOffset + 16, true) !== 0 ||
    view.getUint32(recordOffset + 20, true) !== 0 ||
    entriesOnDisk !== entryCount
  ) {
    throw new ZipStructureError('Multi-part (split or spanned) zip archives are not accepted.')
  }
  return checkDirectoryBounds({
    entryCount,
    size: readUint64(view, recordOffset + 40),
    offset: readUint64(view, recordOffset + 48),
    end: recordOffset,
  })
}

function checkDirectoryBounds(directory: Directory): Directory {
  // Strict: data before the entries or between the directory and its end record would be
  // seen by some tools and not others (polyglot files, self-extractors).
  if (directory.offset + directory.size > directory.end) {
    throw new ZipStructureError(
      'The archive is truncated or damaged: its central directory runs past the end of the file.',
    )
  }
  if (directory.offset + directory.size < directory.end) {
    throw new ZipStructureError(
      'The archive has unexpected data between its central directory and its end record.',
    )
  }
  return directory
}

function readUint64(view: DataView, at: number): number {
  const value = view.getBigUint64(at, true)
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new ZipStructureError('The archive declares an impossible size or offset.')
  }
  return Number(value)
}

function readCentralEntry(
  bytes: Uint8Array,
  view: DataView,
  at: number,
  directoryStart: number,
): { entry: RawEntry; next: number; problems: Finding[] } {
  if (at + CENTRAL_HEADER_SIZE > bytes.length || view.getUint32(at, true) !== SIG_CENTRAL) {
    throw new ZipStructureError('The central directory of the archive is damaged.')
  }
  const flags = view.getUint16(at + 8, true)
  const method = view.getUint16(at + 10, true)
  const crc = view.getUint32(at + 16, true)
  let compressedSize = view.getUint32(at + 20, true)
  let uncompressedSize = view.getUint32(at + 24, true)
  const nameLength = view.getUint16(at + 28, true)
  const extraLength = view.getUint16(at + 30, true)
  const commentLength = view.getUint16(at + 32, true)
  let diskStart = view.getUint16(at + 34, true)
  const externalAttributes = view.getUint32(at + 38, true)
  let localOffset = view.getUint32(at + 42, true)
  const nameStart = at + CENTRAL_HEADER_SIZE
  const extraStart = nameStart + nameLength
  const next = extraStart + extraLength + commentLength
  if (next > bytes.length) {
    throw new ZipStructureError('The central directory of the archive is damaged.')
  }
  const nameBytes = bytes.subarray(nameStart, extraStart)
  const name = decodeName(nameBytes, flags)
  const problems: Finding[] = []
  for (const extra of readExtraFields(bytes, view, extraStart, extraLength)) {
    if (extra.id === EXTRA_ZIP64) {
      // Only the fields whose 32-bit value is saturated are present, in this order.
      let field = extra.start
      const take = (): number => {
        if (field + 8 > extra.end) {
          throw new ZipStructureError(`The ZIP64 information of "${name}" is damaged.`)
        }
        const value = readUint64(view, field)
        field += 8
        return value
      }
      if (uncompressedSize === 0xffffffff) uncompressedSize = take()
      if (compressedSize === 0xffffffff) compressedSize = take()
      if (localOffset === 0xffffffff) localOffset = take()
      if (diskStart === 0xffff && field + 4 <= extra.end) diskStart = view.getUint32(field, true)
    } else if (extra.id === EXTRA_UNICODE_PATH && extra.end - extra.start > 5) {
      // Some extractors prefer this name over the header's: both must say the same thing.
      const alternative = decodeName(bytes.subarray(extra.start + 5, extra.end), FLAG_UTF8)
      if (alternative !== name) {
        problems.push(
          archiveFinding(
            'zip-header-mismatch',
            'critical',
            name,
            `The entry "${name}" also carries a different name ("${alternative}") that some tools would use instead.`,
          ),
        )
      }
    }
  }
  if (diskStart !== 0) {
    throw new ZipStructureError('Multi-part (split or spanned) zip archives are not accepted.')
  }
  if (localOffset >= directoryStart) {
    throw new ZipStructureError(`The entry "${name}" points outside the archive's data.`)
  }
  const mode = externalAttributes >>> 16
  const type = mode & S_IFMT
  const isDirectory = name.endsWith('/') || type === S_IFDIR
  problems.push(...checkFileType(name, type, isDirectory, uncompressedSize))
  return {
    entry: {
      name,
      compressedSize,
      uncompressedSize,
      isDirectory,
      method,
      flags,
      crc,
      localOffset,
      dataStart: 0,
      dataEnd: 0,
    },
    next,
    problems,
  }
}

function readExtraFields(
  bytes: Uint8Array,
  view: DataView,
  start: number,
  length: number,
): { id: number; start: number; end: number }[] {
  const fields: { id: number; start: number; end: number }[] = []
  const end = start + length
  let at = start
  while (at + 4 <= end) {
    const id = view.getUint16(at, true)
    const size = view.getUint16(at + 2, true)
    if (at + 4 + size > end) break
    fields.push({ id, start: at + 4, end: at + 4 + size })
    at += 4 + size
  }
  return fields
}

function decodeName(nameBytes: Uint8Array, flags: number): string {
  try {
    return utf8.decode(nameBytes)
  } catch {
    // Old tools write names in the local code page without the UTF-8 flag; the checks only
    // care about ASCII separators and dots, which read the same either way.
    if ((flags & FLAG_UTF8) === 0) return latin1.decode(nameBytes)
    throw new ZipStructureError('An entry name of the archive is not valid UTF-8.')
  }
}

/** The Unix file type in the high 16 bits of the external attributes. */
function checkFileType(
  name: string,
  type: number,
  isDirectory: boolean,
  uncompressedSize: number,
): Finding[] {
  if (type === S_IFLNK) {
    return [
      archiveFinding(
        'zip-symlink',
        'critical',
        name,
        `The entry "${name}" is a symbolic link. Archives may not contain links: they can point outside the node's folder when unpacked.`,
      ),
    ]
  }
  if (type !== 0 && type !== S_IFREG && type !== S_IFDIR) {
    return [
      archiveFinding(
        'zip-special-file',
        'critical',
        name,
        `The entry "${name}" is a device, pipe or socket, not a regular file or folder.`,
      ),
    ]
  }
  if (isDirectory && uncompressedSize > 0) {
    return [
      archiveFinding(
        'zip-invalid',
        'critical',
        name,
        `The entry "${name}" is a folder but carries data.`,
      ),
    ]
  }
  return []
}

function readLocalHeader(
  bytes: Uint8Array,
  view: DataView,
  entry: RawEntry,
  directory: Directory,
): Finding[] {
  const at = entry.localOffset
  if (at + LOCAL_HEADER_SIZE > directory.offset || view.getUint32(at, true) !== SIG_LOCAL) {
    return [
      archiveFinding(
        'zip-header-mismatch',
        'critical',
        entry.name,
        `The entry "${entry.name}" has no valid local header where the central directory says it is.`,
      ),
    ]
  }
  const flags = view.getUint16(at + 6, true)
  const method = view.getUint16(at + 8, true)
  const nameLength = view.getUint16(at + 26, true)
  const extraLength = view.getUint16(at + 28, true)
  entry.dataStart = at + LOCAL_HEADER_SIZE + nameLength + extraLength
  entry.dataEnd = entry.dataStart + entry.compressedSize
  if (entry.dataEnd > directory.offset) {
    return [
      archiveFinding(
        'zip-invalid',
        'critical',
        entry.name,
        `The data of "${entry.name}" runs into the central directory: the archive is truncated or damaged.`,
      ),
    ]
  }
  const localName = decodeLocalName(
    bytes.subarray(at + LOCAL_HEADER_SIZE, at + LOCAL_HEADER_SIZE + nameLength),
    flags,
  )
  // Extractors that stream the file read the local header only: it must agree.
  if (
    localName !== entry.name ||
    method !== entry.method ||
    (flags & FLAG_ENCRYPTED) !== (entry.flags & FLAG_ENCRYPTED)
  ) {
    return [
      archiveFinding(
        'zip-header-mismatch',
        'critical',
        entry.name,
        `The local header of "${entry.name}" disagrees with the central directory${localName === entry.name ? '' : ` (it names "${localName}")`}.`,
      ),
    ]
  }
  return []
}

function decodeLocalName(nameBytes: Uint8Array, flags: number): string {
  try {
    return decodeName(nameBytes, flags)
  } catch {
    return latin1.decode(nameBytes)
  }
}

/** Largest data descriptor (ZIP64, with signature) that may follow an entry's data. */
const MAX_DESCRIPTOR = 24
const FLAG_DESCRIPTOR = 0x0008

/**
 * Entries must follow each other from the first byte to the central directory. Entries sharing
 * bytes are the trick behind non-recursive zip bombs; bytes before or between entries are
 * invisible to some tools (polyglot files, self-extractors).
 */
function checkLayout(entries: RawEntry[], directory: Directory, checkGaps: boolean): Finding[] {
  // Entries whose local header could not be read have no known extent.
  const ordered = entries
    .filter((entry) => entry.dataEnd > 0)
    .sort((a, b) => a.localOffset - b.localOffset)
  const findings: Finding[] = []
  let end = 0
  let previous: RawEntry | null = null
  for (const entry of ordered) {
    if (previous !== null && entry.localOffset < previous.dataEnd) {
      findings.push(
        archiveFinding(
          'zip-overlapping-entries',
          'critical',
          entry.name,
          `The entries "${previous.name}" and "${entry.name}" share the same bytes in the archive.`,
        ),
      )
    } else if (checkGaps && !gapAllowed(previous, entry.localOffset - end)) {
      findings.push(hiddenData(entry.name))
    }
    end = Math.max(end, entry.dataEnd)
    previous = entry
  }
  if (checkGaps && previous !== null && !gapAllowed(previous, directory.offset - end)) {
    findings.push(hiddenData(''))
  }
  return findings
}

function gapAllowed(previous: RawEntry | null, gap: number): boolean {
  if (gap === 0) return true
  return previous !== null && (previous.flags & FLAG_DESCRIPTOR) !== 0 && gap <= MAX_DESCRIPTOR
}

function hiddenData(name: string): Finding {
  return archiveFinding(
    'zip-invalid',
    'critical',
    name,
    name === ''
      ? 'The archive has unexpected data after its last entry.'
      : `The archive has unexpected data before the entry "${name}".`,
  )
}

// ---------------------------------------------------------------------------------------------
// Entry rules

function checkEntries(entries: RawEntry[], limits: ArchiveLimits): Finding[] {
  const findings: Finding[] = []
  const seen = new Map<string, string>()
  let total = 0
  for (const entry of entries) {
    const { name } = entry
    findings.push(...checkName(name))
    const key = name.replace(/\/+$/, '').normalize('NFC').toLowerCase()
    const earlier = seen.get(key)
    if (earlier === undefined) {
      seen.set(key, name)
    } else {
      findings.push(
        archiveFinding(
          'zip-duplicate-entry',
          'high',
          name,
          earlier === name
            ? `The entry "${name}" appears more than once; unpacking would keep only one of them.`
            : `The entries "${earlier}" and "${name}" differ only in letter case; on Windows and macOS one would overwrite the other.`,
        ),
      )
    }
    if (
      (entry.flags & (FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION)) !== 0 ||
      entry.method === METHOD_AES
    ) {
      findings.push(
        archiveFinding(
          'zip-encrypted',
          'high',
          name,
          `The entry "${name}" is encrypted. The registry must be able to read every file; upload the archive without a password.`,
        ),
      )
    } else if (entry.method !== METHOD_STORED && entry.method !== METHOD_DEFLATE) {
      findings.push(
        archiveFinding(
          'zip-unsupported-compression',
          'high',
          name,
          `The entry "${name}" uses compression method ${entry.method}; only stored and deflate are accepted.`,
        ),
      )
    }
    total += entry.uncompressedSize
    const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1)
    if (entry.uncompressedSize > RATIO_MIN_BYTES && ratio > limits.maxCompressionRatio) {
      findings.push(
        archiveFinding(
          'zip-bomb',
          'critical',
          name,
          `The entry "${name}" expands ${Math.round(ratio)} times (${formatBytes(entry.compressedSize)} to ${formatBytes(entry.uncompressedSize)}); at most ${limits.maxCompressionRatio} times is accepted.`,
        ),
      )
    }
  }
  if (total > limits.maxTotalUncompressedBytes) {
    findings.push(
      archiveFinding(
        'zip-too-large-uncompressed',
        'high',
        '',
        `The archive unpacks to ${formatBytes(total)}; at most ${formatBytes(limits.maxTotalUncompressedBytes)} is accepted.`,
      ),
    )
  }
  return findings
}

function checkName(name: string): Finding[] {
  const finding = (issueType: string, severity: Severity, why: string): Finding[] => [
    archiveFinding(issueType, severity, name, `The entry "${name}" ${why}`),
  ]
  if (name.length === 0) return finding('zip-bad-filename', 'high', 'has an empty name.')
  if (name.length > MAX_NAME_LENGTH) {
    return finding(
      'zip-bad-filename',
      'high',
      `has a name longer than ${MAX_NAME_LENGTH} characters.`,
    )
  }
  // Checked before backslashes so that `C:\x` and `\\host\x` are reported as what they are.
  if (/^(?:[/\\]|[A-Za-z]:)/.test(name)) {
    return finding(
      'zip-absolute-path',
      'critical',
      'has an absolute path; entries must be relative to the archive.',
    )
  }
  if (name.split(/[/\\]/).includes('..')) {
    return finding(
      'zip-path-traversal',
      'critical',
      'contains a ".." segment, which would unpack outside the node\'s folder.',
    )
  }
  if (name.includes('\\')) {
    return finding(
      'zip-bad-filename',
      'high',
      'contains a backslash (\\); zip paths must use forward slashes.',
    )
  }
  if (/[\u0000-\u001f\u007f]/.test(name)) {
    return finding('zip-bad-filename', 'high', 'contains a NUL or control character.')
  }
  // A colon is a drive letter or an NTFS alternate data stream on Windows.
  if (name.includes(':')) return finding('zip-bad-filename', 'high', 'contains a colon (:).')
  if (/\/\/|^\.\/|\/\.\//.test(name)) {
    return finding('zip-bad-filename', 'high', 'has an empty or "." path segment.')
  }
  return []
}

// ---------------------------------------------------------------------------------------------
// Package root

const PACKAGE_MARKERS = ['__init__.py', 'pyproject.toml']
/** Added by macOS's Archive Utility next to the real content. */
const IGNORED_TOP_FOLDERS = new Set(['__MACOSX'])

function findPackageRoot(entries: ArchiveEntry[]): string | null {
  const files = new Set(entries.filter((entry) => !entry.isDirectory).map((entry) => entry.name))
  if (PACKAGE_MARKERS.some((marker) => files.has(marker))) return ''
  const folders = new Set<string>()
  for (const entry of entries) {
    const slash = entry.name.indexOf('/')
    if (slash > 0 || (entry.isDirectory && slash < 0)) {
      const folder = slash > 0 ? entry.name.slice(0, slash) : entry.name
      if (!IGNORED_TOP_FOLDERS.has(folder)) folders.add(folder)
    }
  }
  if (folders.size !== 1) return null
  const [folder] = folders
  return PACKAGE_MARKERS.some((marker) => files.has(`${folder}/${marker}`)) ? `${folder}/` : null
}

// ---------------------------------------------------------------------------------------------
// Data

/** Declared sizes may lie: every file is inflated once, never past its declared size. */
function verifyData(bytes: Uint8Array, entries: RawEntry[]): Finding[] {
  const findings: Finding[] = []
  for (const entry of entries) {
    if (entry.isDirectory && entry.compressedSize === 0) continue
    // Only the size and checksum are needed: nothing inflated is kept (memory stays bounded).
    const result = inflateEntry(bytes, entry, entry.uncompressedSize, false)
    if (
      result.kind === 'too-large' ||
      (result.kind === 'ok' && result.size !== entry.uncompressedSize)
    ) {
      findings.push(
        archiveFinding(
          'zip-size-mismatch',
          'critical',
          entry.name,
          `The entry "${entry.name}" unpacks to a different size than the archive declares (${formatBytes(entry.uncompressedSize)}).`,
        ),
      )
    } else if (result.kind === 'corrupt' || result.crc !== entry.crc) {
      findings.push(
        archiveFinding(
          'zip-corrupt',
          'high',
          entry.name,
          `The entry "${entry.name}" is damaged: its data does not unpack or fails its checksum.`,
        ),
      )
    }
  }
  return findings
}

export type Inflated =
  | { kind: 'ok'; size: number; crc: number; chunks: Uint8Array[] }
  | { kind: 'too-large' }
  | { kind: 'corrupt' }

function inflateEntry(bytes: Uint8Array, entry: RawEntry, maxBytes: number, keep = true): Inflated {
  return inflateLimited(
    bytes.subarray(entry.dataStart, entry.dataEnd),
    entry.method,
    maxBytes,
    keep,
  )
}

class OutputLimitReached extends Error {}

/**
 * What one push of compressed data should inflate to; see inflateLimited. A slice is at most
 * MAX_SLICE, so data that turns into a bomb half-way expands at most ~33 MB in one push.
 */
const PUSH_OUTPUT = 1024 * 1024
const MAX_SLICE = 32 * 1024

/**
 * Inflates stored or deflate data, giving up as soon as the output passes maxBytes. The input is
 * fed in slices small enough that one slice cannot expand to much more than maxBytes (deflate
 * expands at most ~1032 times), so a bomb never gets allocated. With `keep` false the output is
 * only counted and checksummed, never collected: memory stays at one slice's expansion (about
 * 1 MB; at most ~33 MB) however large the entry.
 */
export function inflateLimited(
  data: Uint8Array,
  method: number,
  maxBytes: number,
  keep = true,
): Inflated {
  if (method === METHOD_STORED) {
    if (data.length > maxBytes) return { kind: 'too-large' }
    return { kind: 'ok', size: data.length, crc: crc32(data), chunks: keep ? [data] : [] }
  }
  if (method !== METHOD_DEFLATE) return { kind: 'corrupt' }
  const chunks: Uint8Array[] = []
  let size = 0
  let crc = CRC_START
  let ended = false
  const inflate = new Inflate((chunk, final) => {
    size += chunk.length
    if (size > maxBytes) throw new OutputLimitReached()
    if (chunk.length > 0) {
      if (keep) chunks.push(chunk)
      crc = crcUpdate(crc, chunk)
    }
    if (final) ended = true
  })
  // The slice adapts to the data's ratio: each push yields about PUSH_OUTPUT bytes (a push's
  // output is allocated whole, and copied), so text goes in big slices and a bomb in small ones.
  const largest = Math.min(MAX_SLICE, Math.max(1024, Math.floor(maxBytes / 1024)))
  let slice = Math.min(4 * 1024, largest)
  try {
    for (let at = 0; at < data.length;) {
      const end = Math.min(at + slice, data.length)
      const before = size
      inflate.push(data.subarray(at, end), end === data.length)
      const ratio = (size - before) / (end - at)
      slice = Math.min(largest, Math.max(1024, Math.floor(PUSH_OUTPUT / Math.max(ratio, 1))))
      at = end
    }
    if (data.length === 0) inflate.push(new Uint8Array(0), true)
  } catch (error) {
    if (error instanceof OutputLimitReached) return { kind: 'too-large' }
    return { kind: 'corrupt' }
  }
  if (!ended) return { kind: 'corrupt' }
  return { kind: 'ok', size, crc: crcFinish(crc), chunks }
}

function checkedArchive(
  bytes: Uint8Array,
  entries: RawEntry[],
  packageRoot: string,
): CheckedArchive {
  const byName = new Map(
    entries.filter((entry) => !entry.isDirectory).map((entry) => [entry.name, entry]),
  )
  // The scan and the extraction both read the Python files: inflate each once. What is read does
  // not depend on `maxBytes` once the declared size is within it.
  const texts = new Map<string, string | null>()
  return {
    entries: entries.map(({ name, compressedSize, uncompressedSize, isDirectory, crc }) => ({
      name,
      compressedSize,
      uncompressedSize,
      isDirectory,
      crc,
    })),
    packageRoot,
    readText(name, maxBytes) {
      const entry = byName.get(name)
      if (entry === undefined || entry.uncompressedSize > maxBytes) return null
      if (!texts.has(name)) texts.set(name, inflateText(entry))
      return texts.get(name) ?? null
    },
    readBytes(name, maxBytes) {
      const entry = byName.get(name)
      if (entry === undefined || entry.uncompressedSize > maxBytes) return null
      return inflateVerified(bytes, entry)
    },
  }

  function inflateText(entry: RawEntry): string | null {
    const data = inflateVerified(bytes, entry)
    if (data === null) return null
    try {
      return utf8.decode(data)
    } catch {
      return null
    }
  }
}

/** An entry's data, whole and matching its declared size and CRC-32, else null. */
function inflateVerified(bytes: Uint8Array, entry: RawEntry): Uint8Array | null {
  const result = inflateEntry(bytes, entry, entry.uncompressedSize)
  if (result.kind !== 'ok' || result.size !== entry.uncompressedSize || result.crc !== entry.crc) {
    return null
  }
  return concat(result.chunks, result.size)
}

/**
 * One file of a stored archive (which passed its checks when it was examined), by its path
 * inside the package (relative to the package root, as documents.ts records them):
 * only the zip's structure is read, and only this entry inflated and verified. Null when the
 * archive has no such file, it is larger than maxBytes, or anything is damaged.
 */
export function readArchiveEntry(
  bytes: Uint8Array,
  name: string,
  maxBytes: number,
): Uint8Array | null {
  let entries: RawEntry[]
  try {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    entries = readEntries(bytes, view, readDirectoryLocation(bytes, view)).entries
  } catch (error) {
    if (error instanceof ZipStructureError) return null
    throw error
  }
  const root = findPackageRoot(entries) ?? ''
  const entry = entries.find(
    (candidate) => !candidate.isDirectory && candidate.name === root + name,
  )
  if (entry === undefined || entry.uncompressedSize > maxBytes) return null
  return inflateVerified(bytes, entry)
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]
  const out = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    out.set(chunk, at)
    at += chunk.length
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// CRC-32 (the zip polynomial)

const CRC_START = 0xffffffff
const CRC_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

function crcUpdate(crc: number, data: Uint8Array): number {
  let c = crc
  for (let index = 0; index < data.length; index++) {
    c = CRC_TABLE[(c ^ data[index]) & 0xff] ^ (c >>> 8)
  }
  return c
}

function crcFinish(crc: number): number {
  return (crc ^ 0xffffffff) >>> 0
}

/** CRC-32 as zip stores it. */
export function crc32(data: Uint8Array): number {
  return crcFinish(crcUpdate(CRC_START, data))
}

function formatBytes(size: number): string {
  if (size >= 1024 * 1024) return `${(size / (1024 * 1024)).toFixed(1)} MiB`
  if (size >= 1024) return `${(size / 1024).toFixed(1)} KiB`
  return `${size} bytes`
}
