import { deflateSync, strToU8, zipSync } from 'fflate'

import {
  checkArchive,
  DEFAULT_ARCHIVE_LIMITS,
  inflateLimited,
  type ArchiveCheck,
  type ArchiveLimits,
} from './archive'
import { buildZip, incompressibleText, zeros, type ZipEntrySpec } from './test-zips'

const LIMITS: ArchiveLimits = { ...DEFAULT_ARCHIVE_LIMITS, maxArchiveBytes: 50 * 1024 * 1024 }
const PACKAGE: ZipEntrySpec[] = [
  { name: '__init__.py', data: 'NODE_CLASS_MAPPINGS = {}\n' },
  { name: 'pyproject.toml', data: '[project]\nname = "demo"\n' },
]

function check(entries: ZipEntrySpec[], limits: Partial<ArchiveLimits> = {}): ArchiveCheck {
  return checkArchive(buildZip(entries), { ...LIMITS, ...limits })
}

function issues(result: ArchiveCheck): { issue: string; path: string }[] {
  return result.findings.map((finding) => ({ issue: finding.issue_type, path: finding.file_path }))
}

/** The check fails with `issue` naming `path`, and every finding is a well-formed one. */
function expectRefused(result: ArchiveCheck, issue: string, path: string) {
  expect(result.ok).toBe(false)
  expect(issues(result)).toContainEqual({ issue, path })
  for (const finding of result.findings) {
    expect(finding.scanner).toBe('archive-check')
    expect(['high', 'critical']).toContain(finding.severity)
    expect(finding.message.length).toBeGreaterThan(10)
  }
}

function expectAccepted(result: ArchiveCheck) {
  expect(result.findings).toEqual([])
  expect(result.ok).toBe(true)
}

describe('checkArchive: a normal archive', () => {
  it('accepts what comfy-cli packs (fflate zipSync) and reads its files', () => {
    const bytes = zipSync({
      '__init__.py': strToU8('from .nodes import *\n'),
      'nodes.py': strToU8('print("héllo")\n'),
      web: { 'app.js': strToU8('console.log(1)\n') },
    })
    const result = checkArchive(bytes, LIMITS)
    expectAccepted(result)
    if (!result.ok) return
    expect(result.archive.packageRoot).toBe('')
    expect(result.archive.entries.map((entry) => entry.name)).toEqual([
      '__init__.py',
      'nodes.py',
      'web/',
      'web/app.js',
    ])
    expect(result.archive.readText('nodes.py', 1000)).toBe('print("héllo")\n')
    expect(result.archive.readText('nodes.py', 5)).toBeNull()
    expect(result.archive.readText('missing.py', 1000)).toBeNull()
  })

  it('finds the package one folder down (a GitHub archive) and ignores __MACOSX', () => {
    const result = check([
      { name: 'node-main/' },
      { name: 'node-main/__init__.py', data: '' },
      { name: '__MACOSX/node-main/._x', data: 'x' },
    ])
    expectAccepted(result)
    if (!result.ok) return
    expect(result.archive.packageRoot).toBe('node-main/')
    expect(result.archive.entries.find((entry) => entry.name === 'node-main/')?.isDirectory).toBe(
      true,
    )
    expect(result.archive.readText('node-main/', 100)).toBeNull()
  })

  it('accepts an archive comment, stored entries and ZIP64 records', () => {
    const entries = [...PACKAGE, { name: 'stored.txt', data: 'plain', method: 0 }]
    for (const bytes of [
      buildZip(entries, { comment: 'made by a tool' }),
      buildZip(entries, { zip64: true }),
    ]) {
      const result = checkArchive(bytes, LIMITS)
      expectAccepted(result)
      if (result.ok) expect(result.archive.readText('stored.txt', 100)).toBe('plain')
    }
  })

  it('returns null from readText for a file that is not UTF-8', () => {
    const result = check([...PACKAGE, { name: 'image.png', data: new Uint8Array([0x89, 0xff]) }])
    expectAccepted(result)
    if (result.ok) expect(result.archive.readText('image.png', 100)).toBeNull()
  })
})

describe('checkArchive: not a zip', () => {
  it('refuses random bytes, an empty file and a truncated zip', () => {
    const zip = buildZip(PACKAGE)
    for (const bytes of [strToU8('definitely not a zip file at all'), new Uint8Array(0)]) {
      expectRefused(checkArchive(bytes, LIMITS), 'zip-invalid', '')
    }
    const truncated = checkArchive(zip.subarray(0, zip.length - 10), LIMITS)
    expectRefused(truncated, 'zip-invalid', '')
    expect(truncated.findings[0].message).toMatch(/truncated/)
    const cut = checkArchive(zip.subarray(0, 40), LIMITS)
    expectRefused(cut, 'zip-invalid', '')
    expectAccepted(checkArchive(zip, LIMITS))
  })

  it('refuses data hidden before the entries', () => {
    const prefixed = buildZip(PACKAGE, { prefix: strToU8('#!/bin/sh\necho hi\n') })
    expectRefused(checkArchive(prefixed, LIMITS), 'zip-invalid', '__init__.py')
  })

  it('refuses a damaged local header, or one naming another file', () => {
    expectRefused(
      check([...PACKAGE, { name: 'a.py', data: 'x', localSignature: 0x12345678 }]),
      'zip-header-mismatch',
      'a.py',
    )
    expectRefused(
      check([...PACKAGE, { name: 'a.py', data: 'x', localName: '../a.py' }]),
      'zip-header-mismatch',
      'a.py',
    )
    expectAccepted(check([...PACKAGE, { name: 'a.py', data: 'x', localName: 'a.py' }]))
  })

  it('refuses a second name in a Unicode path field that differs from the entry name', () => {
    const unicodePath = (name: string) => {
      const bytes = strToU8(name)
      return new Uint8Array([1, 0, 0, 0, 0, ...bytes])
    }
    expectRefused(
      check([...PACKAGE, { name: 'a.py', data: 'x', extra: { 0x7075: unicodePath('../a.py') } }]),
      'zip-header-mismatch',
      'a.py',
    )
    expectAccepted(
      check([...PACKAGE, { name: 'a.py', data: 'x', extra: { 0x7075: unicodePath('a.py') } }]),
    )
  })

  it('refuses entries that share their bytes', () => {
    const result = check([
      ...PACKAGE,
      { name: 'a.py', data: 'x' },
      { name: 'b.py', data: 'x', sameLocalHeaderAs: 2 },
    ])
    expectRefused(result, 'zip-overlapping-entries', 'b.py')
  })
})

describe('checkArchive: names', () => {
  it.each([
    ['/etc/cron.d/x', 'zip-absolute-path'],
    ['C:\\Windows\\x.py', 'zip-absolute-path'],
    ['C:/x.py', 'zip-absolute-path'],
    ['\\\\host\\share\\x.py', 'zip-absolute-path'],
    ['../x.py', 'zip-path-traversal'],
    ['nodes/../../x.py', 'zip-path-traversal'],
    ['nodes\\..\\..\\x.py', 'zip-path-traversal'],
    ['nodes/..', 'zip-path-traversal'],
    ['nodes\\x.py', 'zip-bad-filename'],
    ['x.py\u0000.txt', 'zip-bad-filename'],
    ['x.py:stream', 'zip-bad-filename'],
    ['nodes//x.py', 'zip-bad-filename'],
  ])('refuses %j (%s)', (name, issue) => {
    expectRefused(check([...PACKAGE, { name, data: 'x' }]), issue, name)
  })

  it.each(['etc/cron.d/x', 'nodes/..x.py', '..hidden.py', 'nodes/x..py', 'nodes/ünïcode.py'])(
    'accepts the look-alike %j',
    (name) => {
      expectAccepted(check([...PACKAGE, { name, data: 'x' }]))
    },
  )

  it('refuses duplicate names, also when they differ only in case', () => {
    expectRefused(
      check([...PACKAGE, { name: 'a.py', data: 'x' }, { name: 'a.py', data: 'y' }]),
      'zip-duplicate-entry',
      'a.py',
    )
    expectRefused(
      check([...PACKAGE, { name: 'Nodes.py', data: 'x' }, { name: 'nodes.py', data: 'y' }]),
      'zip-duplicate-entry',
      'nodes.py',
    )
    expectAccepted(check([...PACKAGE, { name: 'a.py', data: 'x' }, { name: 'b.py', data: 'y' }]))
  })
})

describe('checkArchive: entry types', () => {
  it('refuses a symlink', () => {
    expectRefused(
      check([...PACKAGE, { name: 'link', data: '/etc/passwd', unixMode: 0o120777 }]),
      'zip-symlink',
      'link',
    )
    expectAccepted(check([...PACKAGE, { name: 'link', data: '/etc/passwd', unixMode: 0o100755 }]))
  })

  it.each([
    ['fifo', 0o010644],
    ['char device', 0o020644],
    ['block device', 0o060644],
    ['socket', 0o140644],
  ])('refuses a %s', (_, unixMode) => {
    expectRefused(
      check([...PACKAGE, { name: 'special', data: '', unixMode }]),
      'zip-special-file',
      'special',
    )
  })

  it('accepts folders and files without Unix attributes', () => {
    expectAccepted(
      check([...PACKAGE, { name: 'web/' }, { name: 'web/a.js', data: 'x', unixMode: 0 }]),
    )
  })

  it('refuses encrypted entries and unknown compression methods', () => {
    expectRefused(
      check([...PACKAGE, { name: 'a.py', data: 'x', flags: 1 }]),
      'zip-encrypted',
      'a.py',
    )
    expectRefused(
      check([...PACKAGE, { name: 'a.py', data: 'x', method: 12 }]),
      'zip-unsupported-compression',
      'a.py',
    )
    expectAccepted(check([...PACKAGE, { name: 'a.py', data: 'x', flags: 8 }]))
  })
})

describe('checkArchive: limits', () => {
  it('refuses an archive over maxArchiveBytes', () => {
    const bytes = buildZip(PACKAGE)
    expectRefused(
      checkArchive(bytes, { ...LIMITS, maxArchiveBytes: bytes.length - 1 }),
      'zip-too-large',
      '',
    )
    expectAccepted(checkArchive(bytes, { ...LIMITS, maxArchiveBytes: bytes.length }))
  })

  it('refuses too many entries', () => {
    const files = [1, 2, 3].map((n) => ({ name: `${n}.py`, data: '' }))
    expectRefused(check([...PACKAGE, ...files], { maxEntries: 4 }), 'zip-too-many-entries', '')
    expectAccepted(check([...PACKAGE, ...files], { maxEntries: 5 }))
  })

  it('refuses more uncompressed bytes than allowed in total', () => {
    const files = [{ name: 'a.txt', data: 'x'.repeat(600) }]
    expectRefused(
      check([...PACKAGE, ...files], { maxTotalUncompressedBytes: 600 }),
      'zip-too-large-uncompressed',
      '',
    )
    expectAccepted(check([...PACKAGE, ...files], { maxTotalUncompressedBytes: 1000 }))
  })

  it('refuses a deflate bomb (20 MB of zeros) by its ratio', () => {
    const bomb = check([...PACKAGE, { name: 'weights.bin', data: zeros(20 * 1024 * 1024) }])
    expectRefused(bomb, 'zip-bomb', 'weights.bin')
    // Small files may compress as well as they like; big ones that compress normally pass.
    expectAccepted(
      check([
        ...PACKAGE,
        { name: 'empty.bin', data: zeros(1024 * 1024) },
        { name: 'data.txt', data: incompressibleText(3 * 1024 * 1024) },
      ]),
    )
  })

  it('refuses sizes that lie, found by inflating', () => {
    const payload = zeros(5 * 1024 * 1024)
    expectRefused(
      check([...PACKAGE, { name: 'small.txt', data: payload, declaredUncompressedSize: 100 }]),
      'zip-size-mismatch',
      'small.txt',
    )
    expectRefused(
      check([
        ...PACKAGE,
        { name: 'stored.txt', data: 'abcdef', method: 0, declaredUncompressedSize: 3 },
      ]),
      'zip-size-mismatch',
      'stored.txt',
    )
  })

  it('refuses damaged data', () => {
    expectRefused(check([...PACKAGE, { name: 'a.py', data: 'x', crc: 1 }]), 'zip-corrupt', 'a.py')
    expectRefused(
      check([...PACKAGE, { name: 'a.py', data: 'x', rawData: new Uint8Array([0xff, 0xff, 0xff]) }]),
      'zip-corrupt',
      'a.py',
    )
  })
})

describe('inflateLimited', () => {
  it('stops a bomb as soon as the output passes the limit', () => {
    const bomb = deflateSync(zeros(20 * 1024 * 1024))
    expect(inflateLimited(bomb, 8, 1024 * 1024)).toEqual({ kind: 'too-large' })
    const ok = inflateLimited(bomb, 8, 20 * 1024 * 1024)
    expect(ok.kind === 'ok' && ok.size).toBe(20 * 1024 * 1024)
  })
})

describe('checkArchive: the Python package', () => {
  it.each([
    ['no package files', [{ name: 'README.md', data: '#' }]],
    [
      'two top-level folders',
      [
        { name: 'a/__init__.py', data: '' },
        { name: 'b/__init__.py', data: '' },
      ],
    ],
    ['two folders down', [{ name: 'a/b/__init__.py', data: '' }]],
    ['an empty archive', []],
  ])('refuses %s', (_, entries) => {
    expectRefused(check(entries), 'no-python-package', '')
  })

  it.each([
    ['__init__.py at the root', [{ name: '__init__.py', data: '' }], ''],
    ['pyproject.toml at the root', [{ name: 'pyproject.toml', data: '' }], ''],
    [
      'one folder with a README beside it',
      [
        { name: 'README.md', data: '#' },
        { name: 'node/pyproject.toml', data: '' },
      ],
      'node/',
    ],
  ])('accepts %s', (_, entries, root) => {
    const result = check(entries)
    expectAccepted(result)
    if (result.ok) expect(result.archive.packageRoot).toBe(root)
  })
})

describe('checkArchive: damaged input', () => {
  it('never throws on randomly damaged archives (findings only)', () => {
    const entries = [...PACKAGE, { name: 'web/a.js', data: 'x'.repeat(300) }]
    const zips = [buildZip(entries), buildZip(entries, { zip64: true })]
    let state = 7
    const random = (limit: number) => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0
      return state % limit
    }
    for (let round = 0; round < 3000; round++) {
      const zip = zips[round % 2]
      const bytes = zip.slice(0, round % 10 === 0 ? random(zip.length) : zip.length)
      for (let flips = 1 + random(4); flips > 0 && bytes.length > 0; flips--) {
        bytes[random(bytes.length)] = random(256)
      }
      const result = checkArchive(bytes, LIMITS)
      if (!result.ok) expect(result.findings.length).toBeGreaterThan(0)
      else for (const entry of result.archive.entries) result.archive.readText(entry.name, 1000)
    }
  })
})
