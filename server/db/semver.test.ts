import {
  compareVersions,
  computeLatestVersionId,
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
    expect(semverSortKey('1.10.2')).toEqual({ major: 1, minor: 10, patch: 2, prerelease: '' })
    expect(semverSortKey('2.0.0-beta.3')).toEqual({
      major: 2,
      minor: 0,
      patch: 0,
      prerelease: 'beta.3',
    })
    expect(semverSortKey('not-a-version')).toEqual({ major: 0, minor: 0, patch: 0, prerelease: '' })
  })
})
