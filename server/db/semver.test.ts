import semver from 'semver'
import {
  compareVersions,
  computeLatestVersionId,
  formatVersion,
  isVersion,
  MAX_NUMERIC_IDENTIFIER,
  parseVersion,
  semverSortKey,
  type VersionCandidate,
} from './semver'

const v = (
  id: string,
  version: string,
  status: VersionCandidate['status'] = 'NodeVersionStatusActive',
): VersionCandidate => ({ id, version, status })

describe('computeLatestVersionId', () => {
  it('orders by semver, not by string (1.10.0 beats 1.9.0)', () => {
    expect(computeLatestVersionId([v('a', '1.9.0'), v('b', '1.10.0'), v('c', '1.2.0')])).toBe('b')
    expect(computeLatestVersionId([v('b', '1.10.0'), v('a', '1.9.0')])).toBe('b')
  })

  it('never picks Pending, Flagged, Banned or Deleted versions', () => {
    expect(
      computeLatestVersionId([
        v('a', '1.0.0'),
        v('p', '3.0.0', 'NodeVersionStatusPending'),
        v('f', '2.5.0', 'NodeVersionStatusFlagged'),
        v('x', '2.4.0', 'NodeVersionStatusBanned'),
        v('d', '2.3.0', 'NodeVersionStatusDeleted'),
      ]),
    ).toBe('a')
  })

  it('returns null without an Active version', () => {
    expect(computeLatestVersionId([])).toBeNull()
    expect(computeLatestVersionId([v('p', '1.0.0', 'NodeVersionStatusPending')])).toBeNull()
  })

  it('ranks a release above its prerelease and prereleases numerically', () => {
    expect(computeLatestVersionId([v('rc', '2.0.0-rc.1'), v('r', '2.0.0')])).toBe('r')
    expect(computeLatestVersionId([v('rc9', '2.0.0-rc.9'), v('rc10', '2.0.0-rc.10')])).toBe('rc10')
    expect(computeLatestVersionId([v('rc', '2.0.0-rc.1'), v('old', '1.9.9')])).toBe('rc')
  })

  it('ranks invalid version strings below valid ones', () => {
    expect(computeLatestVersionId([v('bad', 'latest'), v('ok', '0.0.1')])).toBe('ok')
    expect(compareVersions('nightly', '0.0.1')).toBeLessThan(0)
  })
})

describe('semverSortKey', () => {
  it('splits a version into sortable columns', () => {
    expect(semverSortKey('1.10.2')).toEqual({
      major: '1',
      minor: '10',
      patch: '2',
      prerelease: '',
    })
    expect(semverSortKey('2.0.0-beta.3')).toEqual({
      major: '2',
      minor: '0',
      patch: '0',
      prerelease: 'beta.3',
    })
    expect(semverSortKey('not-a-version')).toEqual({
      major: '0',
      minor: '0',
      patch: '0',
      prerelease: '',
    })
  })

  it('keeps 20-digit numbers exact (a JavaScript number would round them)', () => {
    expect(semverSortKey('18446744073709551615.1.2608210019-rc.18446744073709551615')).toEqual({
      major: '18446744073709551615',
      minor: '1',
      patch: '2608210019',
      prerelease: 'rc.18446744073709551615',
    })
  })
})

const MAX = '18446744073709551615' // 2^64 − 1
const OVER = '18446744073709551616' // 2^64

describe('parseVersion: numbers up to 2^64 − 1', () => {
  it('reads 10- to 20-digit numbers exactly', () => {
    expect(MAX_NUMERIC_IDENTIFIER).toBe(2n ** 64n - 1n)
    expect(parseVersion('1.0.2608210019')).toMatchObject({
      major: 1n,
      minor: 0n,
      patch: 2608210019n,
      prerelease: [],
    })
    expect(parseVersion(`${MAX}.${MAX}.${MAX}-${MAX}`)).toMatchObject({
      major: MAX_NUMERIC_IDENTIFIER,
      minor: MAX_NUMERIC_IDENTIFIER,
      patch: MAX_NUMERIC_IDENTIFIER,
      prerelease: [MAX_NUMERIC_IDENTIFIER],
    })
    // Above Number.MAX_SAFE_INTEGER (where npm's `semver` gives up) and still exact.
    expect(parseVersion('9007199254740993.0.0')?.major).toBe(9007199254740993n)
  })

  it('refuses 2^64 and longer numbers, in any part', () => {
    for (const version of [
      `${OVER}.0.0`,
      `0.${OVER}.0`,
      `0.0.${OVER}`,
      `1.0.0-rc.${OVER}`,
      `1.0.0-${OVER}`,
      '1.0.100000000000000000000',
      '1.0.99999999999999999999',
    ]) {
      expect([version, parseVersion(version)]).toEqual([version, null])
      expect(isVersion(version)).toBe(false)
    }
    expect(isVersion(`1.0.${MAX}`)).toBe(true)
  })

  it('keeps the semver.org rules: no leading zeros, no `v`, three numbers', () => {
    for (const version of ['01.0.0', '1.01.0', '1.0.0-rc.01', 'v1.0.0', '1.0', '1.0.0.0', '']) {
      expect([version, isVersion(version)]).toEqual([version, false])
    }
    // Digits with a letter are text, whatever their length.
    expect(parseVersion('1.0.0-0123456789012345678901x')?.prerelease).toEqual([
      '0123456789012345678901x',
    ])
    expect(parseVersion('1.0.0+build.007')?.build).toEqual(['build', '007'])
  })

  it('formats a version without its build metadata', () => {
    expect(formatVersion(parseVersion('1.0.2608210019-rc.1+abc')!)).toBe('1.0.2608210019-rc.1')
  })
})

describe('compareVersions: long numbers as numbers', () => {
  const ascending = [
    '0.0.0',
    '1.0.99',
    '1.0.999999999',
    '1.0.1000000000',
    '1.0.2608210019',
    '1.0.10000000000',
    '1.0.9007199254740992',
    '1.0.9007199254740993',
    `1.0.${MAX}`,
    '1.1.0',
    `1.${MAX}.0`,
    '2.0.0',
    '10.0.0',
    `${MAX}.0.0`,
  ]

  it('orders 10- to 20-digit parts against short ones', () => {
    for (let i = 0; i < ascending.length; i++) {
      for (let j = 0; j < ascending.length; j++) {
        expect([
          ascending[i],
          ascending[j],
          Math.sign(compareVersions(ascending[i], ascending[j])),
        ]).toEqual([ascending[i], ascending[j], Math.sign(i - j)])
      }
    }
    const shuffled = [...ascending].reverse()
    expect(shuffled.sort(compareVersions)).toEqual(ascending)
  })

  it('orders prereleases by semver §11: numbers by value, below text; more parts rank higher', () => {
    const prereleases = [
      '1.0.0-0',
      '1.0.0-2',
      '1.0.0-10',
      `1.0.0-${MAX}`,
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.1.1',
      '1.0.0-alpha.beta',
      '1.0.0-alpha-x',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.10',
      '1.0.0-beta.2608210019',
      '1.0.0-beta.99999999999',
      `1.0.0-beta.${MAX}`,
      '1.0.0-beta.a',
      '1.0.0-rc.1',
      '1.0.0',
      '1.0.1-0',
    ]
    expect([...prereleases].reverse().sort(compareVersions)).toEqual(prereleases)
  })

  it('ignores build metadata', () => {
    expect(compareVersions('1.0.2608210019+a', '1.0.2608210019+b')).toBe(0)
  })

  it('picks the latest among date-stamped versions', () => {
    expect(
      computeLatestVersionId([
        v('short', '1.0.99'),
        v('dated', '1.0.2608210019'),
        v('long', '1.0.10000000000'),
        v('over', `1.0.${OVER}`),
      ]),
    ).toBe('long')
    expect(computeLatestVersionId([v('dated', '1.0.2608210019'), v('short', '1.0.99')])).toBe(
      'dated',
    )
  })
})

describe('compareVersions agrees with npm semver where that one can count', () => {
  it('on many short versions with prereleases', () => {
    const parts = ['0', '1', '2', '9', '10', '11', '123456789']
    const pres = ['', '-0', '-1', '-10', '-2', '-a', '-a.1', '-a.10', '-a.2', '-a.b', '-a-b', '-B']
    const versions: string[] = []
    for (const minor of parts) {
      for (const patch of parts.slice(0, 4)) {
        for (const pre of pres) versions.push(`1.${minor}.${patch}${pre}`)
      }
    }
    const disagreements: string[] = []
    for (const a of versions) {
      for (const b of versions) {
        const ours = compareVersions(a, b)
        if (ours !== semver.compare(a, b)) disagreements.push(`${a} vs ${b}: ${ours}`)
      }
    }
    expect(disagreements).toEqual([])
    expect(versions.length).toBeGreaterThan(300)
  })
})
