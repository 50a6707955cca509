import type { NodeVersion } from '@/src/api/generated/model'
import {
  AWAITING_UPLOAD_POLL_LIMIT_MS,
  PIPELINE_POLL_MS,
  latestUpload,
  ownerVersionState,
  pollWhileInProgress,
  versionInProgress,
} from '@/src/lib/version-state'
import { makeVersion } from '../components/node/fixtures'

const pending = (overrides: Partial<NodeVersion>) =>
  makeVersion({ status: 'NodeVersionStatusPending', ...overrides })

describe('ownerVersionState', () => {
  it.each([
    [pending({ pipeline_state: 'awaiting_upload' }), 'awaitingUpload'],
    [pending({ pipeline_state: 'queued' }), 'checking'],
    [pending({ pipeline_state: 'checking' }), 'checking'],
    [pending({ pipeline_state: 'done' }), 'review'],
    [pending({}), 'review'],
    [makeVersion({ pipeline_state: 'done' }), 'active'],
    [makeVersion({ status: 'NodeVersionStatusFlagged', pipeline_state: 'done' }), 'flagged'],
    [makeVersion({ status: 'NodeVersionStatusBanned', pipeline_state: 'checking' }), 'banned'],
    [makeVersion({ status: 'NodeVersionStatusDeleted' }), 'deleted'],
  ] as const)('%#: %s', (version, state) => {
    expect(ownerVersionState(version)).toBe(state)
  })
})

describe('polling', () => {
  const now = Date.parse('2024-03-05T12:00:00Z')

  it('polls while a version is queued, checked, or waits for its archive (for the link’s life)', () => {
    expect(versionInProgress(pending({ pipeline_state: 'checking' }), now)).toBe(true)
    expect(versionInProgress(pending({ pipeline_state: 'queued' }), now)).toBe(true)
    expect(versionInProgress(pending({ pipeline_state: 'awaiting_upload' }), now)).toBe(true)
    expect(
      versionInProgress(
        pending({ pipeline_state: 'awaiting_upload' }),
        now + AWAITING_UPLOAD_POLL_LIMIT_MS,
      ),
    ).toBe(false)
    expect(versionInProgress(pending({ pipeline_state: 'done' }), now)).toBe(false)
    expect(versionInProgress(makeVersion({ pipeline_state: 'done' }), now)).toBe(false)
  })

  it('gives React Query its interval, or false when nothing is on its way', () => {
    const checking = pending({ pipeline_state: 'checking' })
    expect(pollWhileInProgress([makeVersion(), checking])).toBe(PIPELINE_POLL_MS)
    expect(pollWhileInProgress([makeVersion()])).toBe(false)
    expect(pollWhileInProgress(undefined)).toBe(false)
  })
})

describe('latestUpload', () => {
  it('is the version created last, whatever its semver order', () => {
    const older = makeVersion({ version: '2.0.0', createdAt: '2024-01-01T00:00:00Z' })
    const newer = makeVersion({ version: '1.0.1', createdAt: '2024-02-01T00:00:00Z' })
    expect(latestUpload([older, newer])).toBe(newer)
    expect(latestUpload([])).toBeUndefined()
    expect(latestUpload(undefined)).toBeUndefined()
  })
})
