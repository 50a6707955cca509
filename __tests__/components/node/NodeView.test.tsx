import { screen } from '@testing-library/react'
import { markdownHtml } from '@/components/common/markdown-html'
import { NodeView } from '@/components/node/NodeView'
import { UNCLAIMED_PUBLISHER } from '@/src/lib/constants'
import { renderWithProviders } from '../../test-utils'
import { makeNode, makeVersion } from './fixtures'

describe('NodeView', () => {
  it('shows the node: name, publisher link, version, numbers, license, repository, tags', () => {
    renderWithProviders(
      <NodeView
        node={makeNode()}
        versions={[makeVersion({ version: '1.2.0' })]}
        comfyNodes={{
          comfy_nodes: [
            { comfy_node_name: 'DemoSampler', category: 'sampling', description: 'Samples.' },
          ],
          total: 1,
          page: 1,
          limit: 100,
          totalPages: 1,
        }}
        markdown={{ description: markdownHtml(makeNode().description ?? '', 3), changelogs: {} }}
      />,
    )
    expect(screen.getByRole('heading', { level: 1, name: 'Demo Node' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Demo Publisher' })).toHaveAttribute(
      'href',
      '/publishers/demo-publisher',
    )
    expect(screen.getByText('12,345')).toBeInTheDocument()
    expect(screen.getByText('678')).toBeInTheDocument()
    expect(screen.getByText('MIT')).toBeInTheDocument()
    const repo = screen.getByRole('link', { name: /github\.com\/demo\/demo-node/ })
    expect(repo).toHaveAttribute('href', 'https://github.com/demo/demo-node')
    expect(repo).toHaveAttribute('target', '_blank')
    expect(repo).toHaveAttribute('rel', 'noopener noreferrer')
    expect(screen.getByRole('link', { name: 'upscale' })).toHaveAttribute('href', '/?tags=upscale')
    expect(screen.getByText('Windows, Linux')).toBeInTheDocument()
    expect(screen.getByText('CUDA')).toBeInTheDocument()
    expect(screen.getByText('>=0.3.0')).toBeInTheDocument()
    expect(screen.getByText('>=1.2.0')).toBeInTheDocument()
    expect(screen.getAllByText('Mar 5, 2024')[0]).toHaveAttribute(
      'datetime',
      '2024-03-05T12:00:00Z',
    )
    expect(screen.getByText('comfy node install demo-node')).toBeInTheDocument()
    const install = screen.getByRole('region', { name: 'Install' })
    expect(install).toHaveTextContent('Installs version 1.2.0')
    expect(screen.getByRole('heading', { name: 'DemoSampler' })).toBeInTheDocument()
    expect(screen.getByText('Category: sampling')).toBeInTheDocument()
    // The description is markdown, its heading under the page's h2.
    expect(screen.getByRole('heading', { level: 3, name: 'Demo' })).toBeInTheDocument()
  })

  it('without a latest version: says so and offers no install', () => {
    renderWithProviders(<NodeView node={makeNode({ latest_version: undefined })} versions={[]} />)
    expect(screen.getByText('No version published yet')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Copy' })).toBeNull()
    expect(screen.queryByText(/comfy node install/)).toBeNull()
  })

  it('an unclaimed node says so instead of linking its reserved publisher', () => {
    renderWithProviders(<NodeView node={makeNode({ publisher: { ...UNCLAIMED_PUBLISHER } })} />)
    expect(screen.getByText('Unclaimed')).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Unclaimed' })).toBeNull()
    expect(document.querySelector(`a[href*="${UNCLAIMED_PUBLISHER.id}"]`)).toBeNull()
  })

  it.each([
    ['NodeStatusBanned', 'This node is banned'],
    ['NodeStatusDeleted', 'This node was deleted'],
  ] as const)('%s: a clear notice and no install box', (status, title) => {
    renderWithProviders(
      <NodeView node={makeNode({ status, status_detail: 'Malware' })} versions={[]} />,
    )
    expect(screen.getByRole('alert')).toHaveTextContent(title)
    expect(screen.getByRole('alert')).toHaveTextContent('Reason: Malware')
    expect(screen.queryByRole('button', { name: 'Copy' })).toBeNull()
    expect(screen.queryByRole('link', { name: 'Download latest (zip)' })).toBeNull()
  })

  it('never links a repository that is not http(s)', () => {
    renderWithProviders(<NodeView node={makeNode({ repository: 'javascript:alert(1)' })} />)
    expect(screen.queryByRole('link', { name: /alert/ })).toBeNull()
  })
})
