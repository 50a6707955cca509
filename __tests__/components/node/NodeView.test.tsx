import { screen, within } from '@testing-library/react'
import { markdownHtml } from '@/components/common/markdown-html'
import { NodeView, type NodeMarkdown } from '@/components/node/NodeView'
import type { Node } from '@/src/api/generated/model'
import { UNCLAIMED_PUBLISHER } from '@/src/lib/constants'
import { renderWithProviders } from '../../test-utils'
import { makeNode, makeVersion } from './fixtures'

/** The node's markdown as the page's getStaticProps renders it. */
function markdownOf(node: Node): NodeMarkdown {
  return { description: markdownHtml(node.description ?? '', 3), changelogs: {} }
}

/** The value of a term in the node's facts (Details, Compatibility). */
function fact(label: string): HTMLElement {
  const term = screen.getByText(label, { selector: 'dt' })
  return term.nextElementSibling as HTMLElement
}

describe('NodeView', () => {
  it('shows the node: name, publisher link, version, numbers, license, repository, tags', () => {
    renderWithProviders(
      <NodeView
        node={makeNode()}
        versions={[makeVersion({ version: '1.2.0', changelog: '' })]}
        comfyNodes={{
          comfy_nodes: [
            { comfy_node_name: 'DemoSampler', category: 'sampling', description: 'Samples.' },
          ],
          total: 1,
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
    expect(screen.getByText('CUDA (NVIDIA)')).toBeInTheDocument()
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
    const node = makeNode({ latest_version: undefined })
    renderWithProviders(<NodeView node={node} versions={[]} markdown={markdownOf(node)} />)
    expect(screen.getByText('No version published yet')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Copy' })).toBeNull()
    expect(screen.queryByText(/comfy node install/)).toBeNull()
  })

  it('an unclaimed node says so instead of linking its reserved publisher', () => {
    const node = makeNode({ publisher: { ...UNCLAIMED_PUBLISHER } })
    renderWithProviders(<NodeView node={node} markdown={markdownOf(node)} />)
    expect(screen.getByText('Unclaimed')).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Unclaimed' })).toBeNull()
    expect(document.querySelector(`a[href*="${UNCLAIMED_PUBLISHER.id}"]`)).toBeNull()
  })

  it.each([
    ['NodeStatusBanned', 'This node is banned'],
    ['NodeStatusDeleted', 'This node was deleted'],
  ] as const)('%s: a clear notice and no install box', (status, title) => {
    const node = makeNode({ status, status_detail: 'Malware' })
    renderWithProviders(<NodeView node={node} versions={[]} markdown={markdownOf(node)} />)
    expect(screen.getByRole('alert')).toHaveTextContent(title)
    expect(screen.getByRole('alert')).toHaveTextContent('Reason: Malware')
    expect(screen.queryByRole('button', { name: 'Copy' })).toBeNull()
    expect(screen.queryByRole('link', { name: 'Download latest (zip)' })).toBeNull()
    // Its feed is the 404 page to the public: no link to it.
    expect(screen.queryByRole('link', { name: 'RSS feed' })).toBeNull()
  })

  it("links the node's RSS feed, in the page's language", () => {
    const node = makeNode()
    renderWithProviders(<NodeView node={node} versions={[]} markdown={markdownOf(node)} />, {
      locale: 'fr',
    })
    expect(screen.getByRole('link', { name: 'Flux RSS' })).toHaveAttribute(
      'href',
      `/fr/nodes/${node.id}/feed.xml`,
    )
  })

  it('never links a repository that is not http(s)', () => {
    const node = makeNode({ repository: 'javascript:alert(1)' })
    renderWithProviders(<NodeView node={node} markdown={markdownOf(node)} />)
    expect(screen.queryByRole('link', { name: /alert/ })).toBeNull()
  })

  describe('compatibility', () => {
    it('names operating systems and accelerators, whatever their spelling', () => {
      const node = makeNode({
        supported_os: ['windows', 'macos', 'Linux'],
        supported_accelerators: ['cuda', 'MPS', 'cpu', 'rocm', 'xpu'],
      })
      renderWithProviders(<NodeView node={node} markdown={markdownOf(node)} />)
      expect(fact('Operating systems')).toHaveTextContent(/^Windows, macOS, Linux$/)
      expect(fact('Accelerators')).toHaveTextContent(
        /^CUDA \(NVIDIA\), MPS \(Apple\), CPU, ROCm \(AMD\), XPU \(Intel\)$/,
      )
    })

    it('shows a value it does not know exactly as given', () => {
      const node = makeNode({
        supported_os: ['linux', 'FreeBSD 14'],
        supported_accelerators: ['tpu-v5', 'cuda'],
      })
      renderWithProviders(<NodeView node={node} markdown={markdownOf(node)} />)
      expect(fact('Operating systems')).toHaveTextContent(/^Linux, FreeBSD 14$/)
      expect(fact('Accelerators')).toHaveTextContent(/^tpu-v5, CUDA \(NVIDIA\)$/)
    })

    it('translates the names that are words, keeps proper names', () => {
      const node = makeNode({ supported_os: ['windows'], supported_accelerators: ['cpu', 'cuda'] })
      renderWithProviders(<NodeView node={node} markdown={markdownOf(node)} />, { locale: 'ru' })
      expect(fact('Операционные системы')).toHaveTextContent(/^Windows$/)
      expect(fact('Ускорители')).toHaveTextContent(/^ЦП \(CPU\), CUDA \(NVIDIA\)$/)
    })

    it('says "Any" when the node and its latest version declare nothing', () => {
      const node = makeNode({
        supported_os: [],
        supported_accelerators: [],
        latest_version: makeVersion({ supported_os: [], supported_accelerators: [] }),
      })
      renderWithProviders(<NodeView node={node} markdown={markdownOf(node)} />)
      expect(fact('Operating systems')).toHaveTextContent(/^Any$/)
      expect(fact('Accelerators')).toHaveTextContent(/^Any$/)
    })
  })

  it("shows the node's author in its details, apart from the publisher", () => {
    const node = makeNode({ author: 'Jane Doe' })
    renderWithProviders(<NodeView node={node} markdown={markdownOf(node)} />)
    const details = screen.getByRole('region', { name: 'Details' })
    expect(within(details).getByText('Author', { selector: 'dt' })).toBeInTheDocument()
    expect(fact('Author')).toHaveTextContent(/^Jane Doe$/)
    // The publisher stays the publisher.
    expect(screen.getByRole('link', { name: 'Demo Publisher' })).toBeInTheDocument()
  })

  it('leaves the author out when the node names none', () => {
    const node = makeNode({ author: '  ' })
    renderWithProviders(<NodeView node={node} markdown={markdownOf(node)} />)
    expect(screen.queryByText('Author', { selector: 'dt' })).toBeNull()
  })

  it('wraps long ids, addresses and the install command at their joints, never mid-word', () => {
    const id = 'comfyui-very-long-node-identifier_with.many-parts-that-must-wrap'
    const node = makeNode({
      id,
      repository: `https://github.com/some-organisation/${id}`,
      latest_version: makeVersion({ version: '1.0.0', node_id: id }),
    })
    const { container } = renderWithProviders(
      <NodeView node={node} versions={[]} markdown={markdownOf(node)} />,
    )
    // `break-all` splits every word anywhere; nothing on the page uses it.
    expect(container.querySelectorAll('.break-all')).toHaveLength(0)
    // The id, the command and the repository keep their text whole, with a line-break hint after
    // each joint (a <wbr>, which copies as nothing).
    const idLine = screen.getByText(id, { selector: 'p' })
    expect(idLine.querySelectorAll('wbr').length).toBeGreaterThanOrEqual(8)
    const command = screen.getByText(`comfy node install ${id}`, { selector: 'code' })
    expect(command.textContent).toBe(`comfy node install ${id}`)
    expect(command.innerHTML).toContain('comfyui-<wbr>very-<wbr>long')
    expect(command.innerHTML).toContain('identifier_<wbr>with.<wbr>many')
    const repo = screen.getByRole('link', {
      name: new RegExp(`github\\.com/some-organisation/${id}`),
    })
    expect(repo.innerHTML).toContain('github.<wbr>com/<wbr>some-<wbr>organisation/<wbr>')
  })
})
