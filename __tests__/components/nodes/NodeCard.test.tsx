import { fireEvent, screen } from '@testing-library/react'
import { formatNumber } from '@/components/node/format'
import { cardFields, NodeCard, summarySource } from '@/components/nodes/NodeCard'
import { summary } from '@/src/lib/markdown'
import { FALLBACK_IMAGE } from '@/src/lib/field-rules'
import type { Node } from '@/src/api/generated/model'
import { renderWithProviders } from '../../test-utils'

// Counts renders of a card: each one formats its downloads and stars.
jest.mock('@/components/node/format', () => {
  const actual = jest.requireActual<typeof import('@/components/node/format')>(
    '@/components/node/format',
  )
  return { ...actual, formatNumber: jest.fn(actual.formatNumber) }
})

function makeNode(overrides: Partial<Node> = {}): Node {
  return {
    id: 'comfyui-upscale-kit',
    name: 'Upscale Kit',
    description:
      '# Upscale Kit\n\nFast **upscaling** nodes for [ComfyUI](https://comfy.org).\n\n- item',
    icon: 'https://example.com/icon.png',
    downloads: 12345,
    github_stars: 678,
    status: 'NodeStatusActive',
    publisher: { id: 'pixel-forge', name: 'Pixel Forge' },
    latest_version: {
      id: '00000000-0000-0000-0000-000000000001',
      version: '1.4.2',
    },
    ...overrides,
  } as Node
}

describe('NodeCard', () => {
  it('shows a publisher name with markup characters as written, inside its link', () => {
    const publisher = { id: 'acme', name: 'A & B <Co> </publisher>' }
    const { container } = renderWithProviders(<NodeCard node={makeNode({ publisher })} />)
    const link = screen.getByRole('link', { name: publisher.name })
    expect(link).toHaveAttribute('href', '/publishers/acme')
    expect(link.parentElement).toHaveTextContent(`by ${publisher.name}`)
    expect(container.innerHTML).not.toContain('&amp;amp;')
  })

  it('shows icon, name link, publisher, latest version, downloads, stars and summary', () => {
    const { container } = renderWithProviders(<NodeCard node={makeNode()} />)
    const link = screen.getByRole('link', { name: 'Upscale Kit' })
    expect(link).toHaveAttribute('href', '/nodes/comfyui-upscale-kit')
    expect(screen.getByRole('heading', { level: 3, name: 'Upscale Kit' })).toBeInTheDocument()
    const publisher = screen.getByRole('link', { name: 'Pixel Forge' })
    expect(publisher).toHaveAttribute('href', '/publishers/pixel-forge')
    expect(publisher.parentElement).toHaveTextContent('by Pixel Forge')
    expect(screen.getByText('1.4.2')).toBeInTheDocument()
    expect(screen.getByText('12,345')).toBeInTheDocument()
    expect(screen.getByText('678')).toBeInTheDocument()
    expect(screen.getByText('Downloads')).toBeInTheDocument()
    expect(screen.getByText('Stars')).toBeInTheDocument()
    // Markdown reduced to prose: no heading, list, link syntax or emphasis marks.
    expect(screen.getByText('Fast upscaling nodes for ComfyUI.')).toBeInTheDocument()
    expect(container.querySelector('img')).toHaveAttribute('src', 'https://example.com/icon.png')
    expect(screen.queryByText(/ComfyUI nodes? match/)).not.toBeInTheDocument()
  })

  it('formats numbers for the locale', () => {
    renderWithProviders(<NodeCard node={makeNode()} />, { locale: 'fr' })
    expect(screen.getByText(/12\s345/)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Pixel Forge' }).parentElement).toHaveTextContent(
      'par Pixel Forge',
    )
  })

  it('says how many ComfyUI nodes matched a search, in the plural form', () => {
    const { rerender } = renderWithProviders(
      <NodeCard node={makeNode({ comfy_nodes_matched: 1 })} />,
    )
    expect(screen.getByText('1 ComfyUI node matches')).toBeInTheDocument()
    rerender(<NodeCard node={makeNode({ comfy_nodes_matched: 3 })} />)
    expect(screen.getByText('3 ComfyUI nodes match')).toBeInTheDocument()
    rerender(<NodeCard node={makeNode({ comfy_nodes_matched: 0 })} />)
    expect(screen.queryByText(/ComfyUI nodes? match/)).not.toBeInTheDocument()
  })

  it('says why a search hit matched when its name does not show it', () => {
    const { rerender } = renderWithProviders(<NodeCard node={makeNode()} query="fast" />)
    expect(screen.getByText('The description matches')).toBeInTheDocument()
    rerender(<NodeCard node={makeNode()} query="pixel" />)
    expect(screen.getByText('Publisher Pixel Forge matches')).toBeInTheDocument()
    rerender(<NodeCard node={makeNode({ tags: ['super-resolution'] })} query="resolution" />)
    expect(screen.getByText('Tag “super-resolution” matches')).toBeInTheDocument()
    // The name shows the match, and outside a search nothing is said.
    rerender(<NodeCard node={makeNode()} query="upscale" />)
    expect(screen.queryByText(/matches$/)).not.toBeInTheDocument()
    rerender(<NodeCard node={makeNode()} />)
    expect(screen.queryByText(/matches$/)).not.toBeInTheDocument()
  })

  it('uses the Russian plural forms', () => {
    renderWithProviders(<NodeCard node={makeNode({ comfy_nodes_matched: 5 })} />, {
      locale: 'ru',
    })
    expect(screen.getByText('Совпадают 5 узлов ComfyUI')).toBeInTheDocument()
  })

  it('falls back to the default icon when there is none or it fails to load', () => {
    const { container, rerender } = renderWithProviders(
      <NodeCard node={makeNode({ icon: undefined })} />,
    )
    expect(container.querySelector('img')).toHaveAttribute('src', FALLBACK_IMAGE)
    rerender(<NodeCard node={makeNode({ id: 'other', icon: 'https://broken.example/x.png' })} />)
    const img = container.querySelector('img') as HTMLImageElement
    fireEvent.error(img)
    expect(img).toHaveAttribute('src', FALLBACK_IMAGE)
    expect(img).toHaveAttribute('alt', '')
  })

  it('leaves out what the node does not have', () => {
    renderWithProviders(
      <NodeCard
        node={makeNode({
          publisher: undefined,
          latest_version: undefined,
          description: undefined,
          downloads: undefined,
          github_stars: undefined,
        })}
      />,
    )
    expect(screen.queryByText(/^by /)).not.toBeInTheDocument()
    expect(screen.queryByText('Version')).not.toBeInTheDocument()
    expect(screen.getAllByText('0')).toHaveLength(2)
  })

  it('can render the name as a level-2 heading', () => {
    renderWithProviders(<NodeCard node={makeNode()} headingLevel={2} />)
    expect(screen.getByRole('heading', { level: 2, name: 'Upscale Kit' })).toBeInTheDocument()
  })
})

describe('cardFields', () => {
  const long = makeNode({
    description: [
      '# Upscale Kit',
      '',
      'Fast **upscaling** nodes for [ComfyUI](https://comfy.org), tiled so that large images fit in',
      'small graphics cards, with seams blended away and a preview of each tile as it is done.',
      '',
      'A third paragraph the card never shows, because the summary stops well before it.',
      '',
      '```python',
      'print("code")',
      '```',
    ].join('\n'),
  })

  it('renders the same card as the whole node', () => {
    const whole = renderWithProviders(<NodeCard node={long} />).container.innerHTML
    const trimmed = renderWithProviders(<NodeCard node={cardFields(long)} />).container.innerHTML
    expect(trimmed).toBe(whole)
    expect(JSON.stringify(cardFields(long)).length).toBeLessThan(JSON.stringify(long).length)
  })

  it('keeps the whole description for a search, which may say the description matched', () => {
    expect(cardFields(long, 'seams').description).toBe(long.description)
    expect(cardFields(long).description).not.toContain('print(')
  })

  it('keeps only the summary itself when it reads back the same', () => {
    expect(cardFields(long).description).toBe(summary(long.description))
  })

  it('keeps the whole description when its summary would not read back the same', () => {
    // After the markup is dropped this line starts with "#", which a summary skips.
    const odd = '_# not a heading_\n\nMore prose.'
    expect(summarySource(odd)).toBe(odd)
    expect(summary(summarySource(odd))).toBe(summary(odd))
  })

  it('reads a long description once (linear in its lines)', () => {
    // A list the summary skips, then its one line of prose: every start of it but the whole
    // summarises differently (scanning starts line by line took seconds here).
    const list = Array.from({ length: 20_000 }, (_, index) => `- item ${index}`)
    const description = [...list, 'The prose at the end.'].join('\n')
    const started = performance.now()
    const source = summarySource(description)
    expect(performance.now() - started).toBeLessThan(1000)
    expect(summary(source)).toBe(summary(description))
    expect(source).toBe('The prose at the end.')
  })

  it('leaves out what the node does not have (page data is JSON)', () => {
    const fields = cardFields(makeNode({ latest_version: undefined, tags: undefined }))
    expect(Object.values(fields)).not.toContain(undefined)
    expect('latest_version' in fields).toBe(false)
  })

  describe('re-rendering', () => {
    // None when memo skipped the card.
    function renderCounted(node: Node, query = '') {
      jest.mocked(formatNumber).mockClear()
      const renders = () => jest.mocked(formatNumber).mock.calls.length / 2
      const view = renderWithProviders(<NodeCard node={node} query={query} />)
      return {
        renders,
        rerender: (shown: Node, text = query) =>
          view.rerender(<NodeCard node={shown} query={text} />),
      }
    }

    it('skips the refresh after load that replaces the page data with the whole node', () => {
      const node = makeNode({ tags: ['upscale'] })
      const version = node.latest_version && { ...node.latest_version, changelog: 'Faster.' }
      const whole = { ...node, latest_version: version }
      const { renders, rerender } = renderCounted(cardFields(whole))
      rerender(whole)
      rerender({ ...whole, repository: 'https://github.com/pixel-forge/upscale-kit' })
      expect(renders()).toBe(1)
    })

    it('renders again when what it shows changed: downloads, a tag, the search', () => {
      const node = makeNode({ tags: ['upscale'] })
      const { renders, rerender } = renderCounted(node)
      rerender({ ...node, downloads: 12346 })
      expect(screen.getByText('12,346')).toBeInTheDocument()
      rerender({ ...node, tags: ['upscale', 'video'] })
      rerender({ ...node, tags: ['upscale', 'video'] }, 'fast')
      expect(renders()).toBe(4)
    })
  })
})
