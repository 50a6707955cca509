import { screen } from '@testing-library/react'
import { PublisherView, supportHref } from '@/components/publisher/PublisherView'
import type { NodeListResponse, Publisher } from '@/src/api/generated/model'
import { renderWithProviders } from '../../test-utils'
import { makeNode } from '../node/fixtures'

const publisher: Publisher = {
  id: 'acme',
  name: 'Acme Nodes',
  description: 'We make nodes.',
  website: 'https://acme.example.com/',
  support: 'help@acme.example.com',
  logo: 'https://acme.example.com/logo.png',
  members: [
    { id: 'm1', role: 'owner', user: { id: 'u1', name: 'Ada' } },
    { id: 'm2', role: 'member', user: { id: 'u2' } },
  ],
  status: 'PublisherStatusActive',
}

function nodes(page: number, totalPages: number): NodeListResponse {
  return {
    nodes: [makeNode({ id: `n${page}`, name: `Node ${page}` })],
    total: totalPages * 12,
    page,
    limit: 12,
    totalPages,
  }
}

describe('PublisherView', () => {
  it('shows name, @id, description, website, support, members (names only) and nodes', () => {
    renderWithProviders(<PublisherView publisher={publisher} nodes={nodes(1, 1)} page={1} />)
    expect(screen.getByRole('heading', { level: 1, name: 'Acme Nodes' })).toBeInTheDocument()
    expect(screen.getByText('@acme')).toBeInTheDocument()
    expect(screen.getByText('We make nodes.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: /^acme\.example\.com/ })).toHaveAttribute(
      'href',
      'https://acme.example.com/',
    )
    expect(screen.getByRole('link', { name: /help@acme\.example\.com/ })).toHaveAttribute(
      'href',
      'mailto:help@acme.example.com',
    )
    expect(screen.getByText('Ada')).toBeInTheDocument()
    expect(screen.getByText('Unnamed member')).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 3, name: 'Node 1' })).toBeInTheDocument()
    expect(screen.getByText('12 nodes')).toBeInTheDocument()
    expect(screen.queryByRole('navigation', { name: 'Pages of nodes' })).toBeNull()
  })

  it('paginates with ?page= links', () => {
    renderWithProviders(<PublisherView publisher={publisher} nodes={nodes(2, 3)} page={2} />)
    const nav = screen.getByRole('navigation', { name: 'Pages of nodes' })
    expect(nav).toHaveTextContent('Page 2 of 3')
    expect(screen.getByRole('link', { name: 'Next page' })).toHaveAttribute(
      'href',
      '/publishers/acme?page=3',
    )
    expect(screen.getByRole('link', { name: 'Previous page' })).toHaveAttribute(
      'href',
      '/publishers/acme',
    )
  })

  it("links the publisher's RSS feed, unless the publisher is banned", () => {
    const { unmount } = renderWithProviders(
      <PublisherView publisher={publisher} nodes={nodes(1, 1)} page={1} />,
    )
    expect(screen.getByRole('link', { name: 'RSS feed' })).toHaveAttribute(
      'href',
      '/publishers/acme/feed.xml',
    )
    unmount()
    renderWithProviders(
      <PublisherView
        publisher={{ ...publisher, status: 'PublisherStatusBanned' }}
        nodes={nodes(1, 1)}
        page={1}
      />,
    )
    expect(screen.queryByRole('link', { name: 'RSS feed' })).toBeNull()
  })

  it('says when the publisher has no nodes', () => {
    renderWithProviders(
      <PublisherView
        publisher={{ ...publisher, members: [] }}
        nodes={{ nodes: [], total: 0, page: 1, limit: 12, totalPages: 0 }}
        page={1}
      />,
      { locale: 'fr' },
    )
    expect(screen.getByText('Cet éditeur n’a encore publié aucun nœud.')).toBeInTheDocument()
    expect(screen.getByText('Aucun membre n’est répertorié.')).toBeInTheDocument()
  })

  it('supportHref: email → mailto, http(s) kept, anything else not linked', () => {
    expect(supportHref('a@b.co')).toBe('mailto:a@b.co')
    expect(supportHref('https://b.co/help')).toBe('https://b.co/help')
    expect(supportHref('javascript:alert(1)')).toBeUndefined()
    expect(supportHref('Ask on Discord')).toBeUndefined()
  })
})
