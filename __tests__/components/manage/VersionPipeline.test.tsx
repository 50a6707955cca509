import { screen, within } from '@testing-library/react'
import { VersionStateBadge, VersionStatusDetails } from '@/components/manage/VersionPipeline'
import { VersionHistory } from '@/components/node/VersionHistory'
import type { NodeVersion, ScanFinding } from '@/src/api/generated/model'
import { renderWithProviders } from '../../test-utils'
import { makeVersion } from '../node/fixtures'

const exec: ScanFinding = {
  issue_type: 'exec-decoded-payload',
  severity: 'critical',
  file_path: '__init__.py',
  line_number: 2,
  code_snippet: 'exec(base64.b64decode("cHJpbnQoMSk="))',
  message: 'Runs code decoded at run time.',
  scanner: 'static-scan',
}
const markup: ScanFinding = {
  issue_type: 'suspicious-url',
  severity: 'medium',
  file_path: 'web/app.js',
  line_number: 0,
  code_snippet: '<img src=x onerror=alert(1)>',
  message: 'Loads from an unknown host.',
  scanner: 'static-scan',
}

const noEvalExec = {
  id: 'no-eval-exec',
  title: 'Security: no eval/exec calls',
  url: 'https://docs.comfy.org/registry/standards',
  remedy: 'Use ast.literal_eval for literals.',
}
const evalCall: ScanFinding = {
  issue_type: 'eval-exec-call',
  severity: 'medium',
  file_path: 'nodes.py',
  line_number: 12,
  code_snippet: 'return (eval(expression),)',
  message: 'Calls eval or exec.',
  scanner: 'static-scan',
  kind: 'standard',
  standard: noEvalExec,
}

function renderOwnerHistory(versions: NodeVersion[]) {
  return renderWithProviders(
    <VersionHistory
      versions={versions}
      renderStatus={(version) => <VersionStateBadge version={version} />}
      renderDetails={(version) => <VersionStatusDetails version={version} />}
    />,
  )
}

function item(version: string) {
  return screen.getByRole('heading', { level: 3, name: version }).closest('li') as HTMLElement
}

describe("The owners' version history", () => {
  it('a state badge for each step of the pipeline and each decision', () => {
    renderOwnerHistory([
      makeVersion({
        version: '1.0.6',
        status: 'NodeVersionStatusPending',
        pipeline_state: 'awaiting_upload',
      }),
      makeVersion({
        version: '1.0.5',
        status: 'NodeVersionStatusPending',
        pipeline_state: 'queued',
      }),
      makeVersion({
        version: '1.0.4',
        status: 'NodeVersionStatusPending',
        pipeline_state: 'checking',
      }),
      makeVersion({ version: '1.0.3', status: 'NodeVersionStatusPending', pipeline_state: 'done' }),
      makeVersion({ version: '1.0.2', status: 'NodeVersionStatusFlagged', pipeline_state: 'done' }),
      makeVersion({ version: '1.0.1', status: 'NodeVersionStatusActive', pipeline_state: 'done' }),
    ])
    const state = (version: string) => within(item(version)).getByRole('status').textContent
    expect(state('1.0.6')).toBe('Waiting for upload')
    expect(state('1.0.5')).toBe('Checking…')
    expect(state('1.0.4')).toBe('Checking…')
    expect(state('1.0.3')).toBe('Waiting for review')
    expect(state('1.0.2')).toBe('Flagged')
    expect(state('1.0.1')).toBe('Active')
    // The public status badge is replaced, not doubled.
    expect(within(item('1.0.3')).queryByText('Pending review')).toBeNull()
  })

  it('a Flagged version lists its findings worst first: severity, message, file:line, snippet', () => {
    const { container } = renderOwnerHistory([
      makeVersion({
        version: '1.0.1',
        status: 'NodeVersionStatusFlagged',
        pipeline_state: 'done',
        scan_findings: [markup, exec],
        status_reason: JSON.stringify([markup, exec]),
      }),
    ])
    const findings = within(item('1.0.1')).getByRole('region', {
      name: 'What the checks found (2 findings)',
    })
    const [first, second] = within(findings).getAllByRole('listitem')
    expect(within(first).getByText('Critical')).toBeInTheDocument()
    expect(within(first).getByText('Runs code decoded at run time.')).toBeInTheDocument()
    expect(within(first).getByText('__init__.py:2').tagName).toBe('CODE')
    const snippet = within(first).getByText('exec(base64.b64decode("cHJpbnQoMSk="))')
    expect(snippet.tagName).toBe('CODE')
    expect(snippet.parentElement?.tagName).toBe('PRE')
    expect(within(second).getByText('Medium')).toBeInTheDocument()
    // No line: the file alone. The snippet is text, never markup.
    expect(within(second).getByText('web/app.js')).toBeInTheDocument()
    expect(within(second).getByText('<img src=x onerror=alert(1)>')).toBeInTheDocument()
    expect(container.querySelector('img')).toBeNull()
    // The raw JSON of status_reason is never shown.
    expect(container.textContent).not.toContain('"issue_type"')
    expect(within(item('1.0.1')).getByText(/security scan found problems/)).toBeInTheDocument()
  })

  it('reads the findings from status_reason when scan_findings is absent', () => {
    renderOwnerHistory([
      makeVersion({
        status: 'NodeVersionStatusFlagged',
        status_reason: JSON.stringify([exec]),
      }),
    ])
    expect(screen.getByText('__init__.py:2')).toBeInTheDocument()
    expect(screen.getByText('Critical')).toBeInTheDocument()
  })

  it("an admin's decision: its message, who decided, and the history when there is one", () => {
    renderOwnerHistory([
      makeVersion({
        version: '2.0.0',
        status: 'NodeVersionStatusBanned',
        status_reason: JSON.stringify({
          message: 'Confirmed malware.',
          by: 'admin@example.com',
          statusHistory: [
            { status: 'NodeVersionStatusFlagged', message: 'Scan', by: 'pipeline' },
            {
              status: 'NodeVersionStatusBanned',
              message: 'Confirmed malware.',
              by: 'admin@example.com',
            },
          ],
        }),
      }),
      makeVersion({
        version: '1.0.0',
        status: 'NodeVersionStatusActive',
        status_reason: JSON.stringify({
          message: 'Approved.',
          by: 'admin@example.com',
          statusHistory: [{ status: 'NodeVersionStatusActive', message: 'Approved.', by: 'a' }],
        }),
      }),
    ])
    const banned = item('2.0.0')
    expect(within(banned).getByText('Decision: Confirmed malware.')).toBeInTheDocument()
    expect(within(banned).getByText('Decided by admin@example.com')).toBeInTheDocument()
    expect(within(banned).getByText('History of decisions')).toBeInTheDocument()
    expect(within(banned).getByText('Flagged: Scan (pipeline)')).toBeInTheDocument()
    expect(within(item('1.0.0')).getByText('Decision: Approved.')).toBeInTheDocument()
    expect(within(item('1.0.0')).queryByText('History of decisions')).toBeNull()
  })

  it('plain text stays text; garbage says nothing; a failed extraction is explained', () => {
    renderOwnerHistory([
      makeVersion({
        version: '1.0.2',
        status: 'NodeVersionStatusFlagged',
        status_reason: 'Suspicious download',
      }),
      makeVersion({
        version: '1.0.1',
        status: 'NodeVersionStatusFlagged',
        status_reason: '[{"broken',
        comfy_node_extract_status: 'failed',
        comfy_node_extract_reason: '__init__.py: syntax error on line 3',
      }),
    ])
    expect(within(item('1.0.2')).getByText('Reason: Suspicious download')).toBeInTheDocument()
    expect(within(item('1.0.1')).queryByText(/broken/)).toBeNull()
    expect(
      within(item('1.0.1')).getByText(
        'Its ComfyUI nodes could not be read: __init__.py: syntax error on line 3',
      ),
    ).toBeInTheDocument()
  })

  it('shows the standard a finding enforces, linked, with what to change', () => {
    const malicious: ScanFinding = {
      ...exec,
      kind: 'malicious',
      standard: { ...noEvalExec, remedy: '' },
    }
    renderOwnerHistory([
      makeVersion({
        version: '1.0.1',
        status: 'NodeVersionStatusFlagged',
        scan_findings: [malicious, evalCall],
        status_reason: JSON.stringify([malicious]),
      }),
    ])
    const [first, second] = within(item('1.0.1')).getAllByRole('listitem')
    expect(within(first).getByText('Malicious or unsafe')).toBeInTheDocument()
    expect(within(second).getByText('Breaks a registry standard')).toBeInTheDocument()
    const link = within(second).getByRole('link', { name: 'Security: no eval/exec calls' })
    expect(link).toHaveAttribute('href', 'https://docs.comfy.org/registry/standards')
    expect(
      within(second).getByText('What to change: Use ast.literal_eval for literals.'),
    ).toBeInTheDocument()
    expect(within(first).queryByText(/What to change/)).toBeNull()
  })

  it('an Active version lists the standards it breaks, and nothing else', () => {
    renderOwnerHistory([
      makeVersion({
        version: '1.0.2',
        status: 'NodeVersionStatusActive',
        scan_findings: [markup, evalCall],
      }),
      makeVersion({ version: '1.0.1', status: 'NodeVersionStatusActive', scan_findings: [markup] }),
    ])
    const standards = within(item('1.0.2')).getByRole('region', {
      name: 'Registry standards this version breaks (1 finding)',
    })
    expect(within(standards).getAllByRole('listitem')).toHaveLength(1)
    expect(within(standards).getByText('nodes.py:12')).toBeInTheDocument()
    expect(within(item('1.0.1')).queryByRole('region')).toBeNull()
  })

  it('drops a standard whose link is not https', () => {
    renderOwnerHistory([
      makeVersion({
        status: 'NodeVersionStatusActive',
        scan_findings: [{ ...evalCall, standard: { ...noEvalExec, url: 'javascript:alert(1)' } }],
      }),
    ])
    expect(screen.queryByRole('link')).toBeNull()
    expect(screen.queryByText(/What to change/)).toBeNull()
    expect(screen.getByText('nodes.py:12')).toBeInTheDocument()
  })

  it('in another language', () => {
    renderWithProviders(
      <VersionStateBadge
        version={makeVersion({ status: 'NodeVersionStatusPending', pipeline_state: 'checking' })}
      />,
      { locale: 'ja' },
    )
    expect(screen.getByRole('status')).toHaveTextContent('チェック中…')
  })
})
