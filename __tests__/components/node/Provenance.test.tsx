import { screen, within } from '@testing-library/react'
import { VersionHistory } from '@/components/node/VersionHistory'
import { renderWithProviders } from '../../test-utils'
import { makeVersion } from './fixtures'

const SHA = '4b825dc642cb6eb9a060e54bf8d69288fbee4904'

function item(version: string) {
  return screen.getByRole('heading', { level: 3, name: version }).closest('li') as HTMLElement
}

describe('Provenance in the version history', () => {
  it('says which repository, commit and workflow published a version, with links', () => {
    renderWithProviders(
      <VersionHistory
        versions={[
          makeVersion({
            version: '2.0.0',
            provenance: {
              method: 'workflow',
              repository: 'acme/comfy-nodes',
              commit_sha: SHA,
              workflow_filename: 'publish.yml',
              environment: 'release',
              run_url: 'https://github.com/acme/comfy-nodes/actions/runs/42/attempts/1',
            },
          }),
        ]}
      />,
    )
    const version = item('2.0.0')
    expect(version).toHaveTextContent(
      'Published from acme/comfy-nodes@4b825dc by workflow publish.yml (environment release) · Commit · Workflow run',
    )
    expect(within(version).getByRole('link', { name: 'Commit' })).toHaveAttribute(
      'href',
      `https://github.com/acme/comfy-nodes/commit/${SHA}`,
    )
    expect(within(version).getByRole('link', { name: 'Workflow run' })).toHaveAttribute(
      'href',
      'https://github.com/acme/comfy-nodes/actions/runs/42/attempts/1',
    )
  })

  it('never links a run address that is not https', () => {
    renderWithProviders(
      <VersionHistory
        versions={[
          makeVersion({
            version: '2.0.0',
            provenance: {
              method: 'workflow',
              repository: 'acme/comfy-nodes',
              commit_sha: SHA,
              workflow_filename: 'publish.yml',
              run_url: 'javascript:alert(1)',
            },
          }),
        ]}
      />,
    )
    expect(within(item('2.0.0')).queryByRole('link', { name: 'Workflow run' })).toBeNull()
  })

  it('shows a token publish without the token, and nothing for unknown provenance', () => {
    renderWithProviders(
      <VersionHistory
        versions={[
          makeVersion({ version: '2.0.0', provenance: { method: 'token', token_name: 'laptop' } }),
          makeVersion({ version: '1.0.0', provenance: { method: 'unknown' } }),
        ]}
      />,
    )
    expect(
      within(item('2.0.0')).getByText('Published with a personal access token'),
    ).toBeInTheDocument()
    expect(document.body).not.toHaveTextContent('laptop')
    expect(within(item('1.0.0')).queryByText(/Published/)).toBeNull()
  })
})
