import { fireEvent, screen, within } from '@testing-library/react'
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
    renderWithProviders(
      <VersionHistory versions={versions} latestVersion="2.0.0" changelogHtml={changelogHtml} />,
    )
    expect(screen.getByRole('heading', { level: 2, name: 'Version history' })).toBeInTheDocument()
    const headings = screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)
    expect(headings).toEqual(['2.0.0', '1.1.0', '1.0.0'])
  })

  it('marks the latest, the status and deprecation with badges', () => {
    renderWithProviders(
      <VersionHistory versions={versions} latestVersion="2.0.0" changelogHtml={changelogHtml} />,
    )
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
    renderWithProviders(<VersionHistory versions={[versions[0]]} changelogHtml={changelogHtml} />, {
      locale: 'ja',
    })
    expect(screen.getByText('2024/03/05')).toHaveAttribute('datetime', '2024-03-05T12:00:00Z')
    expect(screen.getByText('有効')).toBeInTheDocument()
  })

  it('without server HTML, renders in the browser and still never as raw HTML', async () => {
    const version = makeVersion({ changelog: '<img src=x onerror=alert(1)> **bold**' })
    const { container } = renderWithProviders(<VersionHistory versions={[version]} />)
    // Whether the renderer is still loading (the source as text) or loaded: never an <img>.
    expect(container.querySelector('img')).toBeNull()
    expect((await screen.findByText('bold')).tagName).toBe('STRONG')
    expect(container.querySelector('img')).toBeNull()
    expect(container.innerHTML).not.toContain('onerror')
  })

  // An owner's Pending and Flagged versions are never prerendered by the public page (it lists
  // Active versions only), so their changelogs arrive without server HTML.
  it.each(['NodeVersionStatusPending', 'NodeVersionStatusFlagged'] as const)(
    'renders the changelog of a %s version as markdown, like an Active one',
    async (status) => {
      const changelog = [
        '## Fixed',
        '',
        '- **tiled** decode on small GPUs',
        '- see [the issue](https://github.com/demo/demo-node/issues/1)',
        '- [bad](javascript:alert(1))',
        '',
        '<script>alert(1)</script>',
      ].join('\n')
      const { container } = renderWithProviders(
        <VersionHistory versions={[makeVersion({ version: '2.1.0', status, changelog })]} />,
      )
      const entry = item('2.1.0')
      expect(
        await within(entry).findByRole('heading', { level: 4, name: 'Fixed' }),
      ).toBeInTheDocument()
      expect(within(entry).getByText('tiled').tagName).toBe('STRONG')
      expect(within(entry).getAllByRole('listitem')).toHaveLength(3)
      expect(within(entry).getByRole('link', { name: 'the issue' })).toHaveAttribute(
        'href',
        'https://github.com/demo/demo-node/issues/1',
      )
      // The same sanitising as the public changelog: no script, no javascript: link.
      expect(within(entry).queryByRole('link', { name: 'bad' })).toBeNull()
      expect(container.querySelector('script')).toBeNull()
      expect(container.textContent).not.toContain('## Fixed')
    },
  )

  it('renders a version without server HTML the same as the server renders it', async () => {
    const changelog = '### Added\n\n1. `--tile` option\n2. *faster* load'
    const pending = makeVersion({ status: 'NodeVersionStatusPending', changelog })
    const { container } = renderWithProviders(<VersionHistory versions={[pending]} />)
    await screen.findByRole('heading', { level: 4, name: 'Added' })
    const rendered = container.querySelector('li > div.markdown-body')
    const server = new DOMParser().parseFromString(markdownHtml(changelog, 4), 'text/html')
    expect(rendered?.innerHTML).toBe(server.body.firstElementChild?.innerHTML)
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
            changelog: '',
          }),
          makeVersion({ version: '1.0.0', status_reason: decision, changelog: '' }),
        ]}
      />,
    )
    expect(container.textContent).not.toContain('{')
    expect(container.textContent).not.toContain('Runs code')
    expect(within(item('1.0.0')).getByText('Reason: Approved by hand.')).toBeInTheDocument()
  })

  it('marks the versions whose checks found nothing, in light and dark mode and other languages', () => {
    const { unmount } = renderWithProviders(
      <VersionHistory
        versions={[
          makeVersion({ version: '1.0.2', checks_passed: true }),
          makeVersion({ version: '1.0.1', checks_passed: false }),
          makeVersion({ version: '1.0.0' }),
        ]}
      />,
    )
    const row = (version: string) =>
      screen.getByRole('heading', { level: 3, name: version }).closest('li') as HTMLElement
    const mark = within(row('1.0.2')).getByText('Checks passed')
    expect(mark.closest('[title]')).toHaveAttribute(
      'title',
      'The archive checks and the security scan found nothing in this version.',
    )
    // Read out with its meaning; the icon is decoration.
    expect(row('1.0.2')).toHaveTextContent(
      'Checks passed: The archive checks and the security scan found nothing in this version.',
    )
    expect(row('1.0.2').querySelector('svg')).toHaveAttribute('aria-hidden', 'true')
    expect(mark.className).toMatch(/dark:bg-green-900/)
    expect(within(row('1.0.1')).queryByText('Checks passed')).toBeNull()
    expect(within(row('1.0.0')).queryByText('Checks passed')).toBeNull()
    unmount()
    renderWithProviders(<VersionHistory versions={[makeVersion({ checks_passed: true })]} />, {
      locale: 'fr',
    })
    expect(screen.getByText('Vérifications réussies')).toBeInTheDocument()
  })

  it('says when there are no versions', () => {
    renderWithProviders(<VersionHistory versions={[]} />)
    expect(screen.getByText('No versions yet.')).toBeInTheDocument()
  })

  it('offers the older versions when there are more, and loads them on request', () => {
    const rest = { load: jest.fn(), loading: false, failed: false }
    const { rerender } = renderWithProviders(
      <VersionHistory versions={versions.slice(0, 2)} more rest={rest} />,
    )
    fireEvent.click(screen.getByRole('button', { name: 'Show all versions' }))
    expect(rest.load).toHaveBeenCalledTimes(1)
    rerender(
      <VersionHistory versions={versions.slice(0, 2)} more rest={{ ...rest, loading: true }} />,
    )
    expect(screen.getByRole('status')).toHaveTextContent('Loading')
    expect(screen.queryByRole('button', { name: 'Show all versions' })).toBeNull()
    rerender(<VersionHistory versions={versions} more={false} rest={rest} />)
    expect(screen.getAllByRole('heading', { level: 3 })).toHaveLength(3)
    expect(screen.queryByRole('button', { name: 'Show all versions' })).toBeNull()
    expect(screen.queryByRole('status')).toBeNull()
  })

  it('says when the older versions could not be loaded; the button asks again', () => {
    const rest = { load: jest.fn(), loading: false, failed: false }
    const { rerender } = renderWithProviders(
      <VersionHistory versions={versions.slice(0, 1)} more rest={rest} />,
    )
    fireEvent.click(screen.getByRole('button', { name: 'Show all versions' }))
    rerender(
      <VersionHistory versions={versions.slice(0, 1)} more rest={{ ...rest, failed: true }} />,
    )
    expect(screen.getByRole('alert')).toHaveTextContent('The rest could not be loaded.')
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(rest.load).toHaveBeenCalledTimes(2)
  })
})
