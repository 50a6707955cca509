import type { ScanFinding } from '@/src/api/generated/model'
import { parseStatusReason, sortFindings, versionReason } from '@/src/lib/status-reason'
import { statusReasonText } from '@/src/lib/status-reason-text'

const exec: ScanFinding = {
  issue_type: 'exec-decoded-payload',
  severity: 'critical',
  file_path: '__init__.py',
  line_number: 2,
  code_snippet: 'exec(base64.b64decode("cHJpbnQoMSk="))',
  message: 'Runs code decoded at run time.',
  scanner: 'static-scan',
}
const pin: ScanFinding = {
  issue_type: 'unpinned-dependency',
  severity: 'low',
  file_path: 'requirements.txt',
  line_number: 1,
  code_snippet: 'torch',
  message: 'A dependency without a version.',
  scanner: 'dependency-scan',
}
const network: ScanFinding = {
  ...exec,
  issue_type: 'network-at-import',
  severity: 'high',
  line_number: 9,
  message: 'Downloads at import.',
}

describe('parseStatusReason', () => {
  it.each([undefined, null, '', '   '])('%p is no reason', (reason) => {
    expect(parseStatusReason(reason)).toEqual({ kind: 'none' })
  })

  it('a JSON array of findings (the scan flagged it): the findings, worst first', () => {
    expect(parseStatusReason(JSON.stringify([pin, exec, network]))).toEqual({
      kind: 'findings',
      findings: [exec, network, pin],
    })
  })

  it('keeps the usable findings of a mixed array, normalising unknown fields', () => {
    const reason = JSON.stringify([
      42,
      null,
      'text',
      { severity: 'high' },
      { message: 'Odd one', severity: 'apocalyptic', line_number: -3, scanner: 'laser' },
    ])
    expect(parseStatusReason(reason)).toEqual({
      kind: 'findings',
      findings: [
        {
          issue_type: '',
          severity: 'medium',
          file_path: '',
          line_number: 0,
          code_snippet: '',
          message: 'Odd one',
          scanner: 'static-scan',
        },
      ],
    })
  })

  it('an admin decision: its message, who decided and the history', () => {
    const reason = JSON.stringify({
      message: 'Looks fine now.',
      by: 'admin@example.com',
      statusHistory: [
        { status: 'NodeVersionStatusFlagged', message: 'Suspicious', by: 'scanner' },
        { status: 'NodeVersionStatusActive', message: 'Looks fine now.', by: 'admin@example.com' },
        { status: 7, message: 'broken entry' },
      ],
      batchId: 'batch-1',
    })
    expect(parseStatusReason(reason)).toEqual({
      kind: 'decision',
      message: 'Looks fine now.',
      by: 'admin@example.com',
      history: [
        { status: 'NodeVersionStatusFlagged', message: 'Suspicious', by: 'scanner' },
        { status: 'NodeVersionStatusActive', message: 'Looks fine now.', by: 'admin@example.com' },
      ],
    })
  })

  it('a decision without its own message takes the last entry of its history', () => {
    const reason = JSON.stringify({
      statusHistory: [{ status: 'NodeVersionStatusBanned', message: 'Malware', by: 'ops' }],
    })
    expect(parseStatusReason(reason)).toMatchObject({
      kind: 'decision',
      message: 'Malware',
      by: 'ops',
    })
  })

  it('plain text (older data) stays text, trimmed', () => {
    expect(parseStatusReason('  Suspicious download ')).toEqual({
      kind: 'text',
      text: 'Suspicious download',
    })
    expect(parseStatusReason('42')).toEqual({ kind: 'text', text: '42' })
    expect(parseStatusReason('"quoted reason"')).toEqual({ kind: 'text', text: 'quoted reason' })
  })

  it.each([
    ['broken JSON', '[{"message": "half'],
    ['a broken object', '{"message":'],
    ['an empty array', '[]'],
    ['an array of garbage', '[1, 2, [3]]'],
    ['an empty object', '{}'],
    ['an object of something else', '{"foo": {"bar": 1}}'],
    ['JSON null', 'null'],
  ])('%s is never shown', (_, reason) => {
    expect(parseStatusReason(reason)).toEqual({ kind: 'none' })
  })
})

describe('versionReason', () => {
  it('prefers scan_findings, sorted, and still reads an admin decision from status_reason', () => {
    const decision = JSON.stringify({ message: 'Kept flagged', by: 'ops', statusHistory: [] })
    expect(versionReason({ scan_findings: [pin, exec], status_reason: decision })).toEqual({
      findings: [exec, pin],
      reason: { kind: 'decision', message: 'Kept flagged', by: 'ops', history: [] },
    })
  })

  it('falls back to the findings in status_reason', () => {
    expect(versionReason({ status_reason: JSON.stringify([pin, exec]) })).toEqual({
      findings: [exec, pin],
      reason: undefined,
    })
    expect(versionReason({ scan_findings: [], status_reason: JSON.stringify([pin]) })).toEqual({
      findings: [pin],
      reason: undefined,
    })
  })

  it('nothing to say', () => {
    expect(versionReason({})).toEqual({ findings: [], reason: undefined })
  })
})

describe('sortFindings', () => {
  it('orders by severity, then file and line, without changing its input', () => {
    const input = [pin, { ...exec, line_number: 5 }, exec, network]
    expect(sortFindings(input)).toEqual([exec, { ...exec, line_number: 5 }, network, pin])
    expect(input[0]).toBe(pin)
  })
})

describe('statusReasonText (what the public node page reads, without the findings reader)', () => {
  it.each([
    ['', ''],
    ['Suspicious download', 'Suspicious download'],
    ['42', '42'],
    ['{broken', ''],
    [JSON.stringify([{ issue_type: 'exec', severity: 'high', message: 'Runs code' }]), ''],
    [
      JSON.stringify({ message: 'Approved by hand.', by: 'admin', statusHistory: [] }),
      'Approved by hand.',
    ],
    [
      JSON.stringify({
        statusHistory: [{ status: 'NodeVersionStatusBanned', message: 'Malware', by: 'a' }],
      }),
      'Malware',
    ],
    [JSON.stringify(JSON.stringify({ message: 'Encoded twice' })), 'Encoded twice'],
  ])('reads %j as the full reader does', (reason, expected) => {
    expect(statusReasonText(reason)).toBe(expected)
    const parsed = parseStatusReason(reason)
    const full =
      parsed.kind === 'text' ? parsed.text : parsed.kind === 'decision' ? parsed.message : ''
    expect(full).toBe(expected)
  })
})
