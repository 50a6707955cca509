import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { NodeBrowser } from '@/components/nodes/NodeBrowser'
import { pageItems } from '@/components/nodes/Pagination'
import type { Node, NodeListResponse } from '@/src/api/generated/model'
import { customInstance } from '@/src/api/mutator'
import { NODES_PAGE_SIZE, SEARCH_DEBOUNCE_MS } from '@/src/lib/constants'
import { renderWithProviders } from '../../test-utils'

jest.mock('@/src/api/mutator', () => ({ customInstance: jest.fn() }))
const request = customInstance as jest.MockedFunction<typeof customInstance>

function node(index: number, overrides: Partial<Node> = {}): Node {
  return {
    id: `node-${index}`,
    name: `Node ${index}`,
    description: `Description ${index}`,
    status: 'NodeStatusActive',
    publisher: { id: 'acme', name: 'Acme' },
    downloads: 1000 - index,
    github_stars: index,
    ...overrides,
  }
}

function page(nodes: Node[], total = nodes.length, pageNumber = 1): NodeListResponse {
  return {
    nodes,
    total,
    page: pageNumber,
    limit: NODES_PAGE_SIZE,
    totalPages: Math.ceil(total / NODES_PAGE_SIZE),
  }
}

interface Call {
  url?: string
  params?: Record<string, unknown>
}
const calls = () => request.mock.calls.map(([config]) => config as Call)
// The results' count (the search box has a status of its own, for its suggestions).
const resultsStatus = () =>
  within(screen.getByRole('region', { name: 'Nodes' })).getByRole('status')

beforeEach(() => {
  request.mockReset()
  request.mockResolvedValue(page([node(1), node(2)], 100))
})

describe('NodeBrowser', () => {
  it('lists nodes with the count, sorted by downloads by default', async () => {
    renderWithProviders(<NodeBrowser />)
    expect(await screen.findByRole('link', { name: 'Node 1' })).toBeInTheDocument()
    expect(resultsStatus()).toHaveTextContent('100 nodes')
    expect(calls()[0]).toMatchObject({
      url: '/nodes',
      params: { page: 1, limit: NODES_PAGE_SIZE, sort: 'downloads' },
    })
    expect(screen.getByRole('combobox', { name: 'Sort by' })).toHaveValue('downloads')
    // Best match only makes sense with a search text.
    expect(screen.queryByRole('option', { name: 'Best match' })).not.toBeInTheDocument()
  })

  it('searches with the text, filters and sort of the address', async () => {
    renderWithProviders(<NodeBrowser />, {
      router: { query: { q: 'upscalr', tags: ['video', 'mask'], os: 'linux', page: '2' } },
    })
    await screen.findByRole('link', { name: 'Node 1' })
    expect(calls()[0]).toMatchObject({
      url: '/nodes/search',
      params: {
        search: 'upscalr',
        page: 2,
        sort: 'relevance',
        tags: ['mask', 'video'],
        supported_os: ['linux'],
      },
    })
    expect(screen.getByRole('combobox', { name: 'Search nodes' })).toHaveValue('upscalr')
    expect(screen.getByRole('checkbox', { name: 'Video' })).toBeChecked()
    expect(screen.getByRole('checkbox', { name: 'Linux' })).toBeChecked()
    expect(screen.getByRole('combobox', { name: 'Sort by' })).toHaveValue('relevance')
  })

  it('updates the address once, SEARCH_DEBOUNCE_MS after the last keystroke', async () => {
    jest.useFakeTimers()
    try {
      const { router } = renderWithProviders(<NodeBrowser />)
      const box = screen.getByRole('combobox', { name: 'Search nodes' })
      for (const text of ['u', 'up', 'ups', 'upscale']) {
        fireEvent.change(box, { target: { value: text } })
        act(() => jest.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 50))
      }
      expect(router.push).not.toHaveBeenCalled()
      act(() => jest.advanceTimersByTime(50))
      expect(router.push).toHaveBeenCalledTimes(1)
      expect(router.push).toHaveBeenCalledWith('/?q=upscale', undefined, {
        shallow: true,
        scroll: false,
      })
      act(() => jest.advanceTimersByTime(SEARCH_DEBOUNCE_MS * 5))
      expect(router.push).toHaveBeenCalledTimes(1)
      expect(SEARCH_DEBOUNCE_MS).toBe(300)
    } finally {
      jest.useRealTimers()
    }
  })

  it('follows the address when it changes from outside (back and forward)', () => {
    const view = renderWithProviders(<NodeBrowser />, { router: { query: { q: 'lora' } } })
    const box = screen.getByRole('combobox', { name: 'Search nodes' })
    view.router.query = { q: 'video' }
    view.rerender(<NodeBrowser />)
    expect(box).toHaveValue('video')
    view.router.query = {}
    view.rerender(<NodeBrowser />)
    expect(box).toHaveValue('')
    expect(view.router.push).not.toHaveBeenCalled()
  })

  it('keeps what is typed while the address catches up with the last search', () => {
    jest.useFakeTimers()
    try {
      const view = renderWithProviders(<NodeBrowser />)
      const box = screen.getByRole('combobox', { name: 'Search nodes' })
      fireEvent.change(box, { target: { value: 'ups' } })
      act(() => jest.advanceTimersByTime(SEARCH_DEBOUNCE_MS))
      expect(view.router.push).toHaveBeenLastCalledWith('/?q=ups', undefined, expect.anything())
      fireEvent.change(box, { target: { value: 'upsca' } })
      view.router.query = { q: 'ups' }
      view.rerender(<NodeBrowser />)
      expect(box).toHaveValue('upsca')
      act(() => jest.advanceTimersByTime(SEARCH_DEBOUNCE_MS))
      expect(view.router.push).toHaveBeenLastCalledWith('/?q=upsca', undefined, expect.anything())
      expect(view.router.push).toHaveBeenCalledTimes(2)
    } finally {
      jest.useRealTimers()
    }
  })

  it('searches at once on Enter, and resets the page', async () => {
    const { router } = renderWithProviders(<NodeBrowser />, {
      router: { query: { page: '3', sort: 'stars' } },
    })
    const box = screen.getByRole('combobox', { name: 'Search nodes' })
    fireEvent.change(box, { target: { value: ' face  restore ' } })
    fireEvent.submit(box)
    expect(router.push).toHaveBeenCalledWith('/?q=face+restore&sort=stars', undefined, {
      shallow: true,
      scroll: false,
    })
  })

  it('clears the search with the clear button', async () => {
    const { router } = renderWithProviders(<NodeBrowser />, { router: { query: { q: 'lora' } } })
    fireEvent.click(screen.getByRole('button', { name: 'Clear search' }))
    expect(router.push).toHaveBeenCalledWith('/', undefined, { shallow: true, scroll: false })
    expect(screen.getByRole('combobox', { name: 'Search nodes' })).toHaveValue('')
    expect(screen.getByRole('combobox', { name: 'Search nodes' })).toHaveFocus()
  })

  it('puts sort and filter changes in the address, back on page 1', async () => {
    const { router } = renderWithProviders(<NodeBrowser />, {
      router: { query: { page: '2', tags: 'video' } },
    })
    fireEvent.change(screen.getByRole('combobox', { name: 'Sort by' }), {
      target: { value: 'newest' },
    })
    expect(router.push).toHaveBeenLastCalledWith('/?sort=newest&tags=video', undefined, {
      shallow: true,
      scroll: false,
    })
    fireEvent.click(screen.getByRole('checkbox', { name: 'Masks' }))
    expect(router.push).toHaveBeenLastCalledWith('/?tags=mask&tags=video', undefined, {
      shallow: true,
      scroll: false,
    })
    fireEvent.click(screen.getByRole('checkbox', { name: 'CUDA (NVIDIA)' }))
    expect(router.push).toHaveBeenLastCalledWith(
      '/?tags=video&accelerator=cuda',
      undefined,
      expect.anything(),
    )
    fireEvent.click(screen.getByRole('checkbox', { name: 'Video' }))
    expect(router.push).toHaveBeenLastCalledWith('/', undefined, expect.anything())
  })

  it('opens and closes the filter panel with an expandable button', () => {
    renderWithProviders(<NodeBrowser />)
    const toggle = screen.getByRole('button', { name: 'Show filters' })
    expect(toggle).toHaveAttribute('aria-expanded', 'false')
    fireEvent.click(toggle)
    expect(screen.getByRole('button', { name: 'Hide filters' })).toHaveAttribute(
      'aria-expanded',
      'true',
    )
  })

  it('shows numbered pages with the current one marked', async () => {
    request.mockResolvedValue(page([node(1)], NODES_PAGE_SIZE * 10, 5))
    renderWithProviders(<NodeBrowser />, { router: { query: { page: '5', q: 'x' } } })
    const nav = await screen.findByRole('navigation', { name: 'Pages' })
    expect(nav.querySelector('[aria-current="page"]')).toHaveTextContent('5')
    expect(screen.getByRole('link', { name: 'Page 4' })).toHaveAttribute('href', '/?q=x&page=4')
    expect(screen.getByRole('link', { name: 'Page 1' })).toHaveAttribute('href', '/?q=x')
    expect(screen.getByRole('link', { name: /Previous/ })).toHaveAttribute('href', '/?q=x&page=4')
    expect(screen.getByRole('link', { name: /Next/ })).toHaveAttribute('href', '/?q=x&page=6')
    expect(screen.getByRole('link', { name: 'Page 10' })).toBeInTheDocument()
  })

  it('replaces an address beyond the last page with the last page’s', async () => {
    // The list shrank since the link was made: 3 pages, the address names page 7.
    request.mockResolvedValue(page([], NODES_PAGE_SIZE * 3, 7))
    const { router } = renderWithProviders(<NodeBrowser />, {
      router: { query: { q: 'x', page: '7' } },
    })
    await waitFor(() =>
      expect(router.replace).toHaveBeenCalledWith('/?q=x&page=3', undefined, {
        shallow: true,
        scroll: false,
      }),
    )
    expect(router.push).not.toHaveBeenCalled()
  })

  it('leaves an address within the pages alone', async () => {
    request.mockResolvedValue(page([node(1)], NODES_PAGE_SIZE * 3, 3))
    const { router } = renderWithProviders(<NodeBrowser />, { router: { query: { page: '3' } } })
    await screen.findByRole('link', { name: 'Node 1' })
    expect(router.replace).not.toHaveBeenCalled()
  })

  it.each(['-1', 'abc', '1.5'])('asks for page 1 when the address says page=%s', async (value) => {
    renderWithProviders(<NodeBrowser />, { router: { query: { page: value } } })
    await screen.findByRole('link', { name: 'Node 1' })
    expect(calls()[0]).toMatchObject({ url: '/nodes', params: { page: 1 } })
  })

  it('says how the chosen filters combine: all tags, any system, any accelerator', () => {
    renderWithProviders(<NodeBrowser />)
    expect(screen.getByRole('group', { name: 'Tags' })).toHaveAccessibleDescription(
      'Nodes with all of the selected tags.',
    )
    expect(screen.getByRole('group', { name: 'Operating system' })).toHaveAccessibleDescription(
      'Nodes that support any of the selected systems.',
    )
    expect(screen.getByRole('group', { name: 'Accelerator' })).toHaveAccessibleDescription(
      'Nodes that support any of the selected accelerators.',
    )
  })

  it('shows a clear empty state with a reset link', async () => {
    request.mockResolvedValue(page([], 0))
    renderWithProviders(<NodeBrowser />, { router: { query: { q: 'zzqxv', tags: 'video' } } })
    expect(await screen.findByText('No nodes match “zzqxv”.')).toBeInTheDocument()
    expect(resultsStatus()).toHaveTextContent('0 nodes')
    expect(screen.getByRole('link', { name: 'Reset search and filters' })).toHaveAttribute(
      'href',
      '/',
    )
    expect(screen.queryByRole('navigation', { name: 'Pages' })).not.toBeInTheDocument()
  })

  it('shows an error with a retry button', async () => {
    request.mockRejectedValueOnce(new Error('boom'))
    renderWithProviders(<NodeBrowser />)
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('The nodes could not be loaded.')
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('link', { name: 'Node 1' })).toBeInTheDocument()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  it('keeps the previous results, marked busy, while the next ones load', async () => {
    let resolve: (value: NodeListResponse) => void = () => {}
    const view = renderWithProviders(<NodeBrowser />)
    await screen.findByRole('link', { name: 'Node 1' })
    request.mockReturnValueOnce(new Promise<NodeListResponse>((done) => (resolve = done)))
    // The address changes (the router object is the one the component reads).
    view.router.query = { q: 'video' }
    view.rerender(<NodeBrowser />)
    expect(view.container.querySelector('ul[aria-busy="true"]')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Node 1' })).toBeInTheDocument()
    expect(resultsStatus()).toHaveTextContent('Loading results…')
    await act(async () => resolve(page([node(9)], 1)))
    await waitFor(() => expect(screen.getByRole('link', { name: 'Node 9' })).toBeInTheDocument())
    expect(view.container.querySelector('ul[aria-busy="true"]')).not.toBeInTheDocument()
  })
})

describe('pageItems', () => {
  it('shows first, last and neighbours with gaps', () => {
    expect(pageItems(1, 1)).toEqual([1])
    expect(pageItems(2, 4)).toEqual([1, 2, 3, 4])
    expect(pageItems(1, 5)).toEqual([1, 2, 'gap', 5])
    expect(pageItems(3, 5)).toEqual([1, 2, 3, 4, 5])
    expect(pageItems(5, 10)).toEqual([1, 'gap', 4, 5, 6, 'gap', 10])
    expect(pageItems(1, 10)).toEqual([1, 2, 'gap', 10])
    expect(pageItems(10, 10)).toEqual([1, 'gap', 9, 10])
  })
})
