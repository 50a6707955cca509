// A tiny zip writer for tests and fixtures: it writes what fflate's `zipSync` will not (symlinks,
// absolute or `..` names, duplicates, the encryption flag, lying sizes, disagreeing headers,
// ZIP64 records), byte by byte as APPNOTE.txt lays them out.
import { constants as zlibConstants, deflateRawSync } from 'node:zlib'
import { deflateSync, strToU8 } from 'fflate'

import { crc32 } from './archive'

export interface ZipEntrySpec {
  name: string
  /** File content; a directory when `name` ends with '/' and there is none. */
  data?: Uint8Array | string
  /** 0 stored, 8 deflate (the default for files); anything else is written as given. */
  method?: number
  /** Unix mode written in the high 16 bits of the external attributes, e.g. 0o120777 (symlink). */
  unixMode?: number
  /** General-purpose bit flags, e.g. 1 (encrypted). */
  flags?: number
  /** Lies about the sizes and checksum (both headers); the real ones by default. */
  declaredUncompressedSize?: number
  declaredCompressedSize?: number
  crc?: number
  /** A different name in the local header than in the central directory. */
  localName?: string
  /** A different signature for the local header (a damaged archive). */
  localSignature?: number
  /** The compressed bytes to write instead of compressing `data`. */
  rawData?: Uint8Array
  /** Point this central record at the local header of an earlier entry (overlapping entries). */
  sameLocalHeaderAs?: number
  /** Extra fields of the central record, as id → data. */
  extra?: Record<number, Uint8Array>
}

export interface ZipOptions {
  comment?: string
  /** Write ZIP64 records (EOCD64, locator and per-entry extra fields) even for small archives. */
  zip64?: boolean
  /** Bytes written before the first entry. */
  prefix?: Uint8Array
}

const SIG_LOCAL = 0x04034b50
const SIG_CENTRAL = 0x02014b50
const SIG_EOCD = 0x06054b50

/** A zip with the given entries, in order. */
export function buildZip(entries: ZipEntrySpec[], options: ZipOptions = {}): Uint8Array {
  const parts: Uint8Array[] = []
  let offset = 0
  const push = (part: Uint8Array) => {
    parts.push(part)
    offset += part.length
  }
  if (options.prefix) push(options.prefix)
  const localOffsets: number[] = []
  const central: Uint8Array[] = []
  entries.forEach((entry, index) => {
    const data =
      typeof entry.data === 'string' ? strToU8(entry.data) : (entry.data ?? new Uint8Array(0))
    const isDirectory = entry.name.endsWith('/') && entry.data === undefined
    const method = entry.method ?? (isDirectory ? 0 : 8)
    const compressed = entry.rawData ?? (method === 8 ? deflateSync(data) : data)
    const crc = entry.crc ?? crc32(data)
    const uncompressedSize = entry.declaredUncompressedSize ?? data.length
    const compressedSize = entry.declaredCompressedSize ?? compressed.length
    const flags = (entry.flags ?? 0) | 0x0800
    const name = strToU8(entry.name)
    const mode = entry.unixMode ?? (isDirectory ? 0o040755 : 0o100644)
    let localOffset: number
    if (entry.sameLocalHeaderAs !== undefined) {
      localOffset = localOffsets[entry.sameLocalHeaderAs]
    } else {
      localOffset = offset
      const localName = strToU8(entry.localName ?? entry.name)
      const local = new Uint8Array(30 + localName.length)
      const view = new DataView(local.buffer)
      view.setUint32(0, entry.localSignature ?? SIG_LOCAL, true)
      view.setUint16(4, options.zip64 ? 45 : 20, true)
      view.setUint16(6, flags, true)
      view.setUint16(8, method, true)
      view.setUint32(14, crc, true)
      view.setUint32(18, compressedSize, true)
      view.setUint32(22, uncompressedSize, true)
      view.setUint16(26, localName.length, true)
      local.set(localName, 30)
      push(local)
      push(compressed)
    }
    localOffsets[index] = localOffset
    const extras = { ...entry.extra }
    if (options.zip64) {
      extras[0x0001] = concat([u64(uncompressedSize), u64(compressedSize), u64(localOffset)])
    }
    const extra = concat(Object.entries(extras).map(([id, body]) => extraField(Number(id), body)))
    const record = new Uint8Array(46 + name.length + extra.length)
    const view = new DataView(record.buffer)
    view.setUint32(0, SIG_CENTRAL, true)
    view.setUint16(4, (3 << 8) | 20, true)
    view.setUint16(6, options.zip64 ? 45 : 20, true)
    view.setUint16(8, flags, true)
    view.setUint16(10, method, true)
    view.setUint32(16, crc, true)
    view.setUint32(20, options.zip64 ? 0xffffffff : compressedSize, true)
    view.setUint32(24, options.zip64 ? 0xffffffff : uncompressedSize, true)
    view.setUint16(28, name.length, true)
    view.setUint16(30, extra.length, true)
    view.setUint32(38, ((mode << 16) | (isDirectory ? 0x10 : 0)) >>> 0, true)
    view.setUint32(42, options.zip64 ? 0xffffffff : localOffset, true)
    record.set(name, 46)
    record.set(extra, 46 + name.length)
    central.push(record)
  })
  const directoryOffset = offset
  for (const record of central) push(record)
  const directorySize = offset - directoryOffset
  if (options.zip64) {
    const record64 = new Uint8Array(56)
    const view = new DataView(record64.buffer)
    view.setUint32(0, 0x06064b50, true)
    view.setBigUint64(4, BigInt(56 - 12), true)
    view.setUint16(12, 45, true)
    view.setUint16(14, 45, true)
    view.setBigUint64(24, BigInt(entries.length), true)
    view.setBigUint64(32, BigInt(entries.length), true)
    view.setBigUint64(40, BigInt(directorySize), true)
    view.setBigUint64(48, BigInt(directoryOffset), true)
    const recordOffset = offset
    push(record64)
    const locator = new Uint8Array(20)
    const locatorView = new DataView(locator.buffer)
    locatorView.setUint32(0, 0x07064b50, true)
    locatorView.setBigUint64(8, BigInt(recordOffset), true)
    locatorView.setUint32(16, 1, true)
    push(locator)
  }
  const comment = strToU8(options.comment ?? '')
  const end = new Uint8Array(22 + comment.length)
  const view = new DataView(end.buffer)
  view.setUint32(0, SIG_EOCD, true)
  view.setUint16(8, options.zip64 ? 0xffff : entries.length, true)
  view.setUint16(10, options.zip64 ? 0xffff : entries.length, true)
  view.setUint32(12, options.zip64 ? 0xffffffff : directorySize, true)
  view.setUint32(16, options.zip64 ? 0xffffffff : directoryOffset, true)
  view.setUint16(20, comment.length, true)
  end.set(comment, 22)
  push(end)
  return concat(parts)
}

/** `size` zero bytes: deflate shrinks them about a thousand times (a zip bomb's payload). */
export function zeros(size: number): Uint8Array {
  return new Uint8Array(size)
}

/** Deterministic bytes that barely compress (hex text of a linear congruential sequence). */
export function incompressibleText(size: number): string {
  const out: string[] = []
  let state = 12345
  let length = 0
  while (length < size) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0
    const piece = state.toString(16).padStart(8, '0')
    out.push(piece)
    length += piece.length
  }
  return out.join('').slice(0, size)
}

function extraField(id: number, body: Uint8Array): Uint8Array {
  const field = new Uint8Array(4 + body.length)
  const view = new DataView(field.buffer)
  view.setUint16(0, id, true)
  view.setUint16(2, body.length, true)
  field.set(body, 4)
  return field
}

function u64(value: number): Uint8Array {
  const bytes = new Uint8Array(8)
  new DataView(bytes.buffer).setBigUint64(0, BigInt(value), true)
  return bytes
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

/**
 * The raw deflate stream of `mebibytes` MiB of zeros (about 1 KiB per MiB), built without ever
 * holding them: one MiB compressed and flushed to a byte boundary, repeated (each copy starts
 * afresh with a literal), then an empty final block. 1024 gives a 1 GiB expansion in ~1 MB.
 */
export function deflatedZeros(mebibytes: number): Uint8Array {
  const block = deflateRawSync(new Uint8Array(1024 * 1024), {
    level: 9,
    finishFlush: zlibConstants.Z_SYNC_FLUSH,
  })
  const parts: Uint8Array[] = Array.from({ length: mebibytes }, () => block)
  parts.push(new Uint8Array([0x03, 0x00]))
  return concat(parts)
}
