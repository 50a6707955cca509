import { screen, within } from '@testing-library/react'
import { markdownHtml } from '@/components/common/markdown-html'
import { VersionHistory } from '@/components/node/VersionHistory'
import { renderWithProviders } from '../../test-utils'
import { makeVersion } from './fixtures'

const versions = [
  makeVersion({ version: '2.0.0', changelog: '## Added\n\n- **new** sampler' }),
  makeVersion({ version: '1.1.0', deprecated: true, changelog: '' }),
  makeVersion({
    version: '1.0.0',
    status: 'NodeVersionStatusFlagged',
    status_reason: 'Suspicious download',
  }),
]

// Changelogs arrive rendered by the server, as the node page's getServerSideProps does it.
const changelogHtml = Object.fromEntries(
  versions.filter((v) => v.changelog).map((v) => [v.id, markdownHtml(v.changelog ?? '', 4)]),
)

function item(version: string) {
  return screen.getByRole('heading', { level: 3, name: version }).closest('li') as HTMLElement
}

describe('VersionHistory', () => {
  it('lists versions in the given order (newest first) under its heading', () => {
    renderWithProviders(<VersionHistory versions={versions} latestVersion="2.0.0" />)
    expect(screen.getByRole('heading', { level: 2, name: 'Version history' })).toBeInTheDocument()
    const headings = screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)
    expect(headings).toEqual(['2.0.0', '1.1.0', '1.0.0'])
  })

  it('marks the latest, the status and deprecation with badges', () => {
    renderWithProviders(<VersionHistory versions={versions} latestVersion="2.0.0" />)
    expect(within(item('2.0.0')).getByText('Latest')).toBeInTheDocument()
    expect(within(item('2.0.0')).getByText('Active')).toBeInTheDocument()
    expect(within(item('1.1.0')).getByText('Deprecated')).toBeInTheDocument()
    expect(within(item('1.1.0')).queryByText('Latest')).toBeNull()
    expect(within(item('1.0.0')).getByText('Flagged')).toBeInTheDocument()
    expect(within(item('1.0.0')).getByText('Reason: Suspicious download')).toBeInTheDocument()
  })

  it('renders changelogs as markdown, or says there is none', () => {
    renderWithProviders(
      <VersionHistory versions={versions} latestVersion="2.0.0" changelogHtml={changelogHtml} />,
    )
    expect(within(item('2.0.0')).getByRole('heading', { level: 4, name: 'Added' })).toBeVisible()
    expect(within(item('2.0.0')).getByText('new').tagName).toBe('STRONG')
    expect(within(item('1.1.0')).getByText('No changelog for this version.')).toBeInTheDocument()
  })

  it('shows dates in the current locale', () => {
    renderWithProviders(<VersionHistory versions={[versions[0]]} />, { locale: 'ja' })
    expect(screen.getByText('2024/03/05')).toHaveAttribute('datetime', '2024-03-05T12:00:00Z')
    expect(screen.getByText('有効')).toBeInTheDocument()
  })

  it('without server HTML, shows the changelog as plain text, never as HTML', () => {
    const version = makeVersion({ changelog: '<img src=x onerror=alert(1)> **bold**' })
    const { container } = renderWithProviders(<VersionHistory versions={[version]} />)
    expect(container.querySelector('img')).toBeNull()
    expect(container.querySelector('strong')).toBeNull()
    expect(screen.getByText('<img src=x onerror=alert(1)> **bold**')).toBeInTheDocument()
  })

  it('never shows a raw status_reason: findings are left out, a decision shows its message', () => {
    const findings = JSON.stringify([
      { issue_type: 'exec', severity: 'high', message: 'Runs code', file_path: 'a.py' },
    ])
    const decision = JSON.stringify({
      message: 'Approved by hand.',
      by: 'admin',
      statusHistory: [],
    })
    const { container } = renderWithProviders(
      <VersionHistory
        versions={[
          makeVersion({
            version: '1.0.1',
            status: 'NodeVersionStatusFlagged',
            status_reason: findings,
          }),
          makeVersion({ version: '1.0.0', status_reason: decision }),
        ]}
      />,
    )
    expect(container.textContent).not.toContain('{')
    expect(container.textContent).not.toContain('Runs code')
    expect(within(item('1.0.0')).getByText('Reason: Approved by hand.')).toBeInTheDocument()
  })

  it('says when there are no versions', () => {
    renderWithProviders(<VersionHistory versions={[]} />)
    expect(screen.getByText('No versions yet.')).toBeInTheDocument()
  })
})
