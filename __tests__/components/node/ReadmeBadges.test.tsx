import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { NodeView } from '@/components/node/NodeView'
import { badgeMarkdown, badgeUrl } from '@/components/node/ReadmeBadges'
import { publicEnv } from '@/src/lib/public-env'
import { renderWithProviders } from '../../test-utils'
import { makeNode } from './fixtures'

function mockClipboard(writeText: jest.Mock) {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
}

function badgesSection() {
  return screen.getByRole('region', { name: 'Badges' })
}

describe('the node page’s badges', () => {
  it('writes README Markdown: the API’s badge linking to the node’s page', () => {
    expect(badgeUrl('my-node', 'version', 'https://api.example.com/')).toBe(
      'https://api.example.com/badges/my-node/version.svg',
    )
    expect(
      badgeMarkdown('my-node', 'version', 'https://api.example.com', 'https://reg.example'),
    ).toBe(
      '[![Comfy Registry](https://api.example.com/badges/my-node/version.svg)](https://reg.example/nodes/my-node)',
    )
    expect(
      badgeMarkdown('my-node', 'downloads', 'https://api.example.com', 'https://reg.example'),
    ).toBe(
      '[![Comfy Registry downloads](https://api.example.com/badges/my-node/downloads.svg)](https://reg.example/nodes/my-node)',
    )
  })

  it('shows both badges and their Markdown; Copy copies it and says so', async () => {
    const writeText = jest.fn(() => Promise.resolve())
    mockClipboard(writeText)
    renderWithProviders(<NodeView node={makeNode()} />)
    const section = within(badgesSection())
    const { apiUrl, siteUrl } = publicEnv()
    expect(section.getByRole('img', { name: 'Latest version badge' })).toHaveAttribute(
      'src',
      `${apiUrl}/badges/demo-node/version.svg`,
    )
    expect(section.getByRole('img', { name: 'Downloads badge' })).toHaveAttribute(
      'src',
      `${apiUrl}/badges/demo-node/downloads.svg`,
    )
    const field = section.getByRole('textbox', { name: 'Downloads badge' })
    expect(field).toHaveAttribute('readonly')
    expect(field).toHaveValue(
      `[![Comfy Registry downloads](${apiUrl}/badges/demo-node/downloads.svg)](${siteUrl}/nodes/demo-node)`,
    )
    const buttons = section.getAllByRole('button', { name: 'Copy Markdown' })
    expect(buttons).toHaveLength(2)
    fireEvent.click(buttons[0])
    expect(writeText).toHaveBeenCalledWith(
      `[![Comfy Registry](${apiUrl}/badges/demo-node/version.svg)](${siteUrl}/nodes/demo-node)`,
    )
    await waitFor(() => expect(section.getByRole('status')).toHaveTextContent('Markdown copied'))
  })

  it('announces a failure when the clipboard refuses', async () => {
    mockClipboard(jest.fn(() => Promise.reject(new Error('denied'))))
    renderWithProviders(<NodeView node={makeNode()} />)
    const section = within(badgesSection())
    fireEvent.click(section.getAllByRole('button', { name: 'Copy Markdown' })[1])
    await waitFor(() =>
      expect(section.getByRole('status')).toHaveTextContent(
        'Copying failed. Select the Markdown and copy it yourself.',
      ),
    )
  })

  it('is translated', () => {
    renderWithProviders(<NodeView node={makeNode()} />, { locale: 'ja' })
    const section = within(screen.getByRole('region', { name: 'バッジ' }))
    expect(section.getAllByRole('button', { name: 'Markdown をコピー' })).toHaveLength(2)
    expect(section.getByRole('img', { name: '最新バージョンのバッジ' })).toBeInTheDocument()
  })

  it.each([
    ['a banned node', makeNode({ status: 'NodeStatusBanned' })],
    ['a deleted node', makeNode({ status: 'NodeStatusDeleted' })],
    [
      'a node of a banned publisher',
      makeNode({
        publisher: { id: 'p', name: 'P', status: 'PublisherStatusBanned' },
      }),
    ],
  ])('is not offered for %s', (_name, node) => {
    renderWithProviders(<NodeView node={node} />)
    expect(screen.queryByRole('region', { name: 'Badges' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Copy Markdown' })).toBeNull()
  })
})
