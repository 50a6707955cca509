import { adminDecisionReason, decisionHistory } from './status-reason'

describe('status_reason of an admin decision', () => {
  it('records the message and who, and keeps the earlier decisions', () => {
    const first = adminDecisionReason('', {
      status: 'NodeVersionStatusFlagged',
      message: 'Suspicious download',
      by: 'a@x.test',
    })
    const second = adminDecisionReason(first, {
      status: 'NodeVersionStatusActive',
      message: 'Explained by the author',
      by: 'b@x.test',
    })
    expect(JSON.parse(second)).toEqual({
      message: 'Explained by the author',
      by: 'b@x.test',
      statusHistory: [
        { status: 'NodeVersionStatusFlagged', message: 'Suspicious download', by: 'a@x.test' },
        { status: 'NodeVersionStatusActive', message: 'Explained by the author', by: 'b@x.test' },
      ],
    })
  })

  it('starts a new history after a scan’s findings, plain text or broken JSON', () => {
    const findings = JSON.stringify([{ issue_type: 'exec-decoded-payload' }])
    for (const previous of [findings, 'Looks fine', '{"statusHistory": 3', '']) {
      expect(decisionHistory(previous)).toEqual([])
    }
    const batch = adminDecisionReason(
      findings,
      { status: 'NodeVersionStatusActive', message: 'ok', by: 'c@x.test' },
      'batch-1',
    )
    expect(JSON.parse(batch)).toMatchObject({
      batchId: 'batch-1',
      statusHistory: [{ by: 'c@x.test' }],
    })
  })
})
