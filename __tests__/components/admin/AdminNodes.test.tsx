import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { AdminNodes } from '@/components/admin/nodes/AdminNodes'
import type { Node } from '@/src/api/generated/model'
import { makeNode } from '../node/fixtures'
import type { FakeRoutes } from '../manage/fake-api'
import { renderAdmin } from './fixtures'

jest.mock('@/src/lib/firebase', () => ({
  getFirebaseAuth: () => ({ authStateReady: () => Promise.resolve(), currentUser: null }),
}))

const acme = { id: 'acme', name: 'Acme' }
const active = makeNode({
  id: 'good-node',
  name: 'Good Node',
  publisher: acme,
  tags_admin: ['dev'],
  search_ranking: 5,
  category: 'image',
  preempted_comfy_node_names: ['LoadImage'],
})
const banned = makeNode({
  id: 'bad-node',
  name: 'Bad Node',
  publisher: acme,
  status: 'NodeStatusBanned',
  status_detail: 'Steals tokens',
})
const deleted = makeNode({
  id: 'old-node',
  name: 'Old Node',
  publisher: acme,
  status: 'NodeStatusDeleted',
})

function page(nodes: Node[], total = nodes.length, limit = 50) {
  return {
    status: 200,
    data: { nodes, total, page: 1, limit, totalPages: Math.max(1, Math.ceil(total / limit)) },
  }
}

function renderNodes(routes: FakeRoutes = {}, query: Record<string, string> = {}) {
  return renderAdmin(<AdminNodes />, {
    path: '/admin/nodes',
    query,
    routes: { 'GET /nodes': page([active, banned, deleted]), ...routes },
  })
}

const rowOf = async (id: string) =>
  (await screen.findByRole('link', { name: id })).closest('tr') as HTMLElement

describe('AdminNodes', () => {
  it('lists every node with include_banned, with status, admin fields and actions', async () => {
    const { api } = renderNodes()
    const good = await rowOf('good-node')
    expect(api.calls('GET', '/nodes')[0].params).toEqual({
      page: 1,
      limit: 50,
      include_banned: true,
      sort: 'newest',
    })
    expect(within(good).getByRole('link', { name: 'good-node' })).toHaveAttribute(
      'href',
      '/nodes/good-node',
    )
    expect(within(good).getByRole('link', { name: 'Acme' })).toHaveAttribute(
      'href',
      '/publishers/acme',
    )
    expect(within(good).getByText('Active')).toBeInTheDocument()
    expect(within(good).getByText('dev')).toBeInTheDocument()
    expect(within(good).getByText('1 node name')).toBeInTheDocument()
    expect(within(good).getByRole('button', { name: 'Ban good-node' })).toBeInTheDocument()
    expect(within(good).getByRole('link', { name: 'Versions of good-node' })).toHaveAttribute(
      'href',
      '/admin/versions?node=good-node&status=all',
    )

    const bad = await rowOf('bad-node')
    expect(within(bad).getByText('Banned')).toBeInTheDocument()
    expect(within(bad).getByText('Reason: Steals tokens')).toBeInTheDocument()
    expect(within(bad).getByRole('button', { name: 'Unban bad-node' })).toBeInTheDocument()

    // Deleted nodes: no actions (the API answers 409), only their versions.
    const old = await rowOf('old-node')
    expect(within(old).getByText('Deleted')).toBeInTheDocument()
    expect(within(old).queryByRole('button')).not.toBeInTheDocument()
    expect(within(old).getByText('Deleted nodes cannot be changed.')).toBeInTheDocument()
    expect(within(old).getByRole('link', { name: 'Versions of old-node' })).toBeInTheDocument()
  })

  it('searches with the text of the address, and puts a new search in the address', async () => {
    const { api, router } = renderNodes(
      { 'GET /nodes/search': page([active]) },
      { q: 'good', page: '2' },
    )
    await rowOf('good-node')
    expect(api.calls('GET', '/nodes/search')[0].params).toEqual({
      page: 2,
      limit: 50,
      include_banned: true,
      search: 'good',
      sort: 'relevance',
    })
    expect(api.calls('GET', '/nodes')).toHaveLength(0)
    expect(screen.getByText('1 node found for “good”')).toBeInTheDocument()

    const box = screen.getByRole('searchbox', { name: 'Search nodes' })
    expect(box).toHaveValue('good')
    fireEvent.change(box, { target: { value: ' upscale ' } })
    fireEvent.click(screen.getByRole('button', { name: 'Search' }))
    expect(router.replace).toHaveBeenLastCalledWith(
      { pathname: '/admin/nodes', query: { q: 'upscale' } },
      undefined,
      { shallow: true, scroll: false },
    )
    fireEvent.click(screen.getByRole('checkbox', { name: 'Banned only' }))
    expect(router.replace).toHaveBeenLastCalledWith(
      { pathname: '/admin/nodes', query: { q: 'upscale', banned: '1' } },
      undefined,
      { shallow: true, scroll: false },
    )
  })

  it.each([
    ['the list', {}, 'GET /nodes', { page: 1, sort: 'newest' }, '1 banned node'],
    [
      'a search',
      { q: 'bad', page: '2' },
      'GET /nodes/search',
      { page: 2, search: 'bad', sort: 'relevance' },
      '1 node found for “bad”',
    ],
  ])(
    'banned=1 asks the API for the banned nodes only (%s)',
    async (_, query: Record<string, string>, route, params, summary) => {
      const { api } = renderNodes({ [route]: page([banned]) }, { ...query, banned: '1' })
      const row = await rowOf('bad-node')
      const [method, url] = route.split(' ')
      expect(api.calls(method, url).map((call) => call.params)).toEqual([
        { ...params, limit: 50, include_banned: true, node_statuses: ['NodeStatusBanned'] },
      ])
      expect(api.requests).toHaveLength(1)
      expect(screen.getByText(summary)).toBeInTheDocument()
      expect(within(row).getByText('Banned')).toBeInTheDocument()
      expect(within(row).getByRole('button', { name: 'Unban bad-node' })).toBeInTheDocument()
      expect(screen.getByRole('checkbox', { name: 'Banned only' })).toBeChecked()
    },
  )

  it('banned=1 with no banned node says so', async () => {
    renderNodes({ 'GET /nodes': page([]) }, { banned: '1' })
    expect(await screen.findByText('No banned nodes found.')).toBeInTheDocument()
    expect(screen.getByText('0 banned nodes')).toBeInTheDocument()
  })

  it('refuses a ban without a reason: a message, and no request', async () => {
    const { api } = renderNodes()
    fireEvent.click(within(await rowOf('good-node')).getByRole('button', { name: 'Ban good-node' }))
    const dialog = await screen.findByRole('dialog')
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Reason' }), {
      target: { value: '   ' },
    })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Ban node' }))
    expect(within(dialog).getByText('Write a reason: a ban needs one.')).toBeInTheDocument()
    expect(within(dialog).getByRole('textbox', { name: 'Reason' })).toHaveAttribute(
      'aria-invalid',
      'true',
    )
    expect(api.calls('PUT', '/admin/nodes/good-node')).toHaveLength(0)
  })

  it('bans with the reason, then refreshes the lists, the overview and the audit log', async () => {
    const { api, queryClient } = renderNodes({
      'PUT /admin/nodes/good-node': ({ body }) => ({
        status: 200,
        data: { ...active, status: (body as { status: string }).status },
      }),
    })
    queryClient.setQueryData(['/admin/overview'], { banned_nodes: 0 })
    queryClient.setQueryData(['/admin/actions', { page: 1 }], { actions: [] })
    fireEvent.click(within(await rowOf('good-node')).getByRole('button', { name: 'Ban good-node' }))
    const dialog = await screen.findByRole('dialog')
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Reason' }), {
      target: { value: ' Ships a crypto miner ' },
    })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Ban node' }))

    expect(await screen.findByText('good-node is banned.')).toBeInTheDocument()
    expect(api.calls('PUT', '/admin/nodes/good-node').map((call) => call.body)).toEqual([
      { status: 'NodeStatusBanned', status_reason: 'Ships a crypto miner' },
    ])
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(queryClient.getQueryState(['/admin/overview'])?.isInvalidated).toBe(true)
    expect(queryClient.getQueryState(['/admin/actions', { page: 1 }])?.isInvalidated).toBe(true)
    await waitFor(() => expect(api.calls('GET', '/nodes').length).toBeGreaterThan(1))
  })

  it('unbans without a reason (optional), and shows an API refusal', async () => {
    let refuse = true
    const { api } = renderNodes({
      'PUT /admin/nodes/bad-node': () =>
        refuse
          ? { status: 409, data: { error: 'Conflict', message: "Node 'bad-node' is deleted." } }
          : { status: 200, data: { ...banned, status: 'NodeStatusActive' } },
    })
    fireEvent.click(within(await rowOf('bad-node')).getByRole('button', { name: 'Unban bad-node' }))
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByText('It was banned because: Steals tokens')).toBeInTheDocument()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Unban node' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      "Node 'bad-node' is deleted.",
    )
    refuse = false
    fireEvent.click(within(dialog).getByRole('button', { name: 'Unban node' }))
    expect(await screen.findByText('bad-node is active again.')).toBeInTheDocument()
    expect(api.calls('PUT', '/admin/nodes/bad-node').map((call) => call.body)).toEqual([
      { status: 'NodeStatusActive' },
      { status: 'NodeStatusActive' },
    ])
  })

  describe('admin fields', () => {
    async function openFields(routes: FakeRoutes = {}) {
      const view = renderNodes(routes)
      fireEvent.click(
        within(await rowOf('good-node')).getByRole('button', {
          name: 'Edit admin fields of good-node',
        }),
      )
      const dialog = await screen.findByRole('dialog')
      return { ...view, dialog }
    }

    it('sends only the changed fields, with the admin tags as an array', async () => {
      const { api, dialog } = await openFields({
        'PUT /admin/nodes/good-node': ({ body }) => ({
          status: 200,
          data: { ...active, ...(body as object) },
        }),
      })
      const tags = within(dialog).getByRole('textbox', { name: 'Admin tags (optional)' })
      expect(tags).toHaveValue('dev')
      expect(within(dialog).getByRole('textbox', { name: 'Search ranking' })).toHaveValue('5')
      fireEvent.change(tags, { target: { value: 'dev, unsafe , unsafe,, Legacy' } })
      // What will be saved is shown as chips.
      const preview = within(dialog).getByRole('list', { name: 'Admin tags as they will be saved' })
      expect(
        within(preview)
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual(['dev', 'unsafe', 'Legacy'])
      fireEvent.change(
        within(dialog).getByRole('textbox', { name: 'Preempted ComfyUI node names (optional)' }),
        { target: { value: 'LoadImage\n SaveImage \n' } },
      )
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }))

      expect(await screen.findByText('Admin fields of good-node saved.')).toBeInTheDocument()
      expect(api.calls('PUT', '/admin/nodes/good-node').map((call) => call.body)).toEqual([
        {
          tags_admin: ['dev', 'unsafe', 'Legacy'],
          preempted_comfy_node_names: ['LoadImage', 'SaveImage'],
        },
      ])
    })

    it.each([
      ['1000001', 'The search ranking must be between -1000000 and 1000000.'],
      ['-1000001', 'The search ranking must be between -1000000 and 1000000.'],
      ['1.5', 'Enter a whole number from -1000000 to 1000000.'],
      ['ten', 'Enter a whole number from -1000000 to 1000000.'],
      ['', 'A search ranking cannot be removed, only changed: enter a whole number.'],
    ])('refuses the search ranking %p with a message and no request', async (value, message) => {
      const { api, dialog } = await openFields()
      const ranking = within(dialog).getByRole('textbox', { name: 'Search ranking' })
      fireEvent.change(ranking, { target: { value } })
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }))
      expect(within(dialog).getByText(message)).toBeInTheDocument()
      expect(ranking).toHaveAttribute('aria-invalid', 'true')
      expect(api.calls('PUT', '/admin/nodes/good-node')).toHaveLength(0)
    })

    it('sends a new ranking within the bounds as a number', async () => {
      const { api, dialog } = await openFields({
        'PUT /admin/nodes/good-node': { status: 200, data: { ...active, search_ranking: -3 } },
      })
      fireEvent.change(within(dialog).getByRole('textbox', { name: 'Search ranking' }), {
        target: { value: ' -3 ' },
      })
      fireEvent.change(within(dialog).getByRole('textbox', { name: 'Category (optional)' }), {
        target: { value: '' },
      })
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }))
      await screen.findByText('Admin fields of good-node saved.')
      expect(api.calls('PUT', '/admin/nodes/good-node')[0].body).toEqual({
        search_ranking: -3,
        category: '',
      })
    })

    it('sends nothing when nothing changed', async () => {
      const { api, dialog } = await openFields()
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }))
      expect(within(dialog).getByText('Nothing has changed.')).toBeInTheDocument()
      expect(api.calls('PUT', '/admin/nodes/good-node')).toHaveLength(0)
    })
  })
})
