import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { ReviewQueue } from '@/components/admin/queue/ReviewQueue'
import type { NodeVersion, NodeVersionListResponse } from '@/src/api/generated/model'
import { makeVersion } from '../node/fixtures'
import type { FakeResponse } from '../manage/fake-api'
import { renderAdmin } from './fixtures'

const first = makeVersion({
  id: 'v1',
  node_id: 'demo-node',
  version: '1.2.0',
  status: 'NodeVersionStatusPending',
  publisher_id: 'acme',
  archive_size: 1_400_000,
  pipeline_state: 'done',
  scan_findings: [
    {
      issue_type: 'exec',
      severity: 'medium',
      file_path: 'a.py',
      line_number: 1,
      code_snippet: '',
      message: 'm',
      scanner: 'static-scan',
    },
    {
      issue_type: 'miner',
      severity: 'critical',
      file_path: 'b.py',
      line_number: 2,
      code_snippet: '',
      message: 'm',
      scanner: 'static-scan',
    },
  ],
})
const second = makeVersion({
  id: 'v2',
  node_id: 'other-node',
  version: '0.3.0',
  status: 'NodeVersionStatusPending',
  publisher_id: 'bob',
  scan_findings: [],
  pipeline_state: 'done',
})
const third = makeVersion({
  id: 'v3',
  node_id: 'third-node',
  version: '2.0.0',
  status: 'NodeVersionStatusPending',
  pipeline_state: 'checking',
})

function page(versions: NodeVersion[], extra: Partial<NodeVersionListResponse> = {}) {
  return {
    status: 200,
    data: { versions, total: versions.length, page: 1, limit: 50, totalPages: 1, ...extra },
  }
}

function renderQueue(
  query: Record<string, string> = {},
  routes: Record<string, FakeResponse> = {},
) {
  return renderAdmin(<ReviewQueue />, {
    path: '/admin/versions',
    query,
    routes: { 'GET /versions': page([first, second, third]), ...routes },
  })
}

const rows = () => screen.getAllByRole('row').slice(1)

describe('ReviewQueue', () => {
  it("asks GET /versions with the URL's filters and renders the rows", async () => {
    const { api } = renderQueue(
      {
        status: 'flagged',
        publisher: 'acme',
        node: 'demo-node',
        after: '2024-03-01',
        before: '2024-03-31T12:00:00.000Z',
        sort: 'newest',
        page: '2',
      },
      { 'GET /versions': page([first], { total: 51, page: 2, totalPages: 2 }) },
    )
    expect(await screen.findByRole('link', { name: 'demo-node' })).toHaveAttribute(
      'href',
      '/nodes/demo-node',
    )
    expect(api.calls('GET', '/versions')[0].params).toEqual({
      statuses: ['NodeVersionStatusFlagged'],
      include_status_reason: true,
      nodeId: 'demo-node',
      publisher_id: 'acme',
      created_after: new Date('2024-03-01T00:00').toISOString(),
      created_before: '2024-03-31T12:00:00.000Z',
      sort: 'newest',
      page: 2,
      limit: 50,
    })
    const row = rows()[0]
    expect(within(row).getByRole('link', { name: 'Review demo-node 1.2.0' })).toHaveAttribute(
      'href',
      '/admin/versions/demo-node/1.2.0',
    )
    expect(within(row).getByRole('link', { name: 'acme' })).toHaveAttribute(
      'href',
      '/admin/versions?publisher=acme',
    )
    expect(within(row).getByText('2 findings, worst: Critical')).toBeInTheDocument()
    expect(within(row).getByText('1.4 MB')).toBeInTheDocument()
    expect(within(row).getByText('Pending review')).toBeInTheDocument()
    expect(screen.getByText(/51 versions/)).toHaveTextContent('51 versions · Page 2 of 2')
    // Page 1 is the default, so the previous page's address has no page but keeps the filters.
    const previous = screen.getByRole('link', { name: 'Previous' }).getAttribute('href') ?? ''
    expect(previous).toMatch(/^\/admin\/versions\?/)
    expect(previous).toContain('status=flagged')
    expect(previous).toContain('publisher=acme')
    expect(previous).not.toContain('page=')
    expect(screen.queryByRole('link', { name: 'Next' })).not.toBeInTheDocument()
  })

  it('shows every status for status=all, clean and running scans', async () => {
    const { api } = renderQueue({ status: 'all' })
    await screen.findByRole('link', { name: 'other-node' })
    expect(api.calls('GET', '/versions')[0].params?.statuses).toHaveLength(5)
    expect(within(rows()[1]).getByText('No findings')).toBeInTheDocument()
    expect(within(rows()[2]).getByText('Checking…')).toBeInTheDocument()
  })

  it('keeps the filters in the URL', async () => {
    const { router } = renderQueue()
    await screen.findByRole('link', { name: 'demo-node' })
    fireEvent.change(screen.getByRole('textbox', { name: 'Publisher id' }), {
      target: { value: ' acme ' },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Apply filters' }))
    expect(router.replace).toHaveBeenLastCalledWith(
      { pathname: '/admin/versions', query: { publisher: 'acme' } },
      undefined,
      { shallow: true },
    )
    fireEvent.change(screen.getByRole('combobox', { name: 'Status' }), {
      target: { value: 'banned' },
    })
    expect(router.replace).toHaveBeenLastCalledWith(
      { pathname: '/admin/versions', query: { status: 'banned' } },
      undefined,
      { shallow: true },
    )
  })

  it('flags two selected rows with one POST carrying both versions and the reason', async () => {
    const { api } = renderQueue(
      {},
      {
        'POST /admin/versions/decisions': { status: 200, data: { batch_id: 'b-9', versions: [] } },
      },
    )
    await screen.findByRole('link', { name: 'demo-node' })
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select demo-node 1.2.0' }))
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select other-node 0.3.0' }))
    expect(screen.getByText('2 selected')).toBeInTheDocument()
    fireEvent.click(screen.getByRole('button', { name: 'Flag' }))

    const dialog = await screen.findByRole('dialog')
    // Without a reason: refused, nothing sent.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Flag 2 versions' }))
    expect(
      await within(dialog).findByText('Write a reason: flagging and banning need one.'),
    ).toBeInTheDocument()
    expect(api.calls('POST', '/admin/versions/decisions')).toHaveLength(0)

    fireEvent.change(within(dialog).getByRole('textbox', { name: /Reason/ }), {
      target: { value: 'Obfuscated code' },
    })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Flag 2 versions' }))
    expect(await screen.findByText('Flagged 2 versions.')).toBeInTheDocument()
    const posts = api.calls('POST', '/admin/versions/decisions')
    expect(posts).toHaveLength(1)
    expect(posts[0].body).toEqual({
      versions: [
        { node_id: 'demo-node', version: '1.2.0' },
        { node_id: 'other-node', version: '0.3.0' },
      ],
      status: 'NodeVersionStatusFlagged',
      reason: 'Obfuscated code',
    })
    expect(screen.getByRole('button', { name: 'Undo' })).toBeInTheDocument()
    // The list is asked again; the selection is cleared.
    await waitFor(() => expect(api.calls('GET', '/versions').length).toBeGreaterThan(1))
    expect(screen.getByText('0 selected')).toBeInTheDocument()
  })

  it('selects all rows of the page with the header checkbox', async () => {
    renderQueue()
    await screen.findByRole('link', { name: 'demo-node' })
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all versions on this page' }))
    expect(screen.getByText('3 selected')).toBeInTheDocument()
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all versions on this page' }))
    expect(screen.getByText('0 selected')).toBeInTheDocument()
  })

  it('works by keyboard: j moves, x selects, f flags the selection, Enter opens', async () => {
    const { api, router } = renderQueue(
      {},
      { 'PUT /admin/nodes/other-node/versions/0.3.0': { status: 200, data: {} } },
    )
    await screen.findByRole('link', { name: 'demo-node' })
    expect(screen.getByText('Keyboard:')).toBeInTheDocument()

    // Typing in a filter is not a shortcut.
    const nodeField = screen.getByRole('textbox', { name: 'Node id' })
    nodeField.focus()
    fireEvent.keyDown(nodeField, { key: 'j' })
    expect(document.activeElement).toBe(nodeField)

    fireEvent.keyDown(document.body, { key: 'j' })
    expect(document.activeElement).toBe(
      screen.getByRole('link', { name: 'Review demo-node 1.2.0' }),
    )
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'j' })
    expect(document.activeElement).toBe(
      screen.getByRole('link', { name: 'Review other-node 0.3.0' }),
    )
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'x' })
    expect(screen.getByRole('checkbox', { name: 'Select other-node 0.3.0' })).toBeChecked()
    expect(screen.getByRole('checkbox', { name: 'Select demo-node 1.2.0' })).not.toBeChecked()

    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'f' })
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByRole('radio', { name: 'Flag' })).toBeChecked()
    expect(within(dialog).getByText('other-node@0.3.0')).toBeInTheDocument()
    // Shortcuts are off while the dialog is open: typing "j" in the reason moves nothing.
    const reason = within(dialog).getByRole('textbox', { name: /Reason/ })
    fireEvent.keyDown(reason, { key: 'j' })
    fireEvent.keyDown(document.body, { key: 'j' })
    expect(document.activeElement).not.toBe(
      screen.getByRole('link', { name: 'Review third-node 2.0.0', hidden: true }),
    )
    fireEvent.change(reason, { target: { value: 'Needs a license' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Flag' }))
    expect(await screen.findByText('Flagged other-node 0.3.0.')).toBeInTheDocument()
    expect(api.calls('PUT', '/admin/nodes/other-node/versions/0.3.0')[0].body).toEqual({
      status: 'NodeVersionStatusFlagged',
      status_reason: 'Needs a license',
    })

    // k moves back up; Enter (from outside a link) opens the review view.
    fireEvent.keyDown(document.body, { key: 'k' })
    expect(document.activeElement).toBe(
      screen.getByRole('link', { name: 'Review demo-node 1.2.0' }),
    )
    fireEvent.keyDown(document.body, { key: 'Enter' })
    expect(router.push).toHaveBeenCalledWith('/admin/versions/demo-node/1.2.0')
  })

  it('a approves the focused row when nothing is selected', async () => {
    const { api } = renderQueue(
      {},
      { 'PUT /admin/nodes/demo-node/versions/1.2.0': { status: 200, data: {} } },
    )
    await screen.findByRole('link', { name: 'demo-node' })
    fireEvent.keyDown(document.body, { key: 'ArrowDown' })
    fireEvent.keyDown(document.body, { key: 'a' })
    const dialog = await screen.findByRole('dialog')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }))
    expect(await screen.findByText('Approved demo-node 1.2.0.')).toBeInTheDocument()
    expect(api.calls('PUT', '/admin/nodes/demo-node/versions/1.2.0')[0].body).toEqual({
      status: 'NodeVersionStatusActive',
    })
  })

  it('shows the empty state', async () => {
    renderQueue({}, { 'GET /versions': page([]) })
    expect(await screen.findByText('Nothing to review')).toBeInTheDocument()
  })

  it('shows an API error', async () => {
    renderQueue(
      {},
      {
        'GET /versions': {
          status: 400,
          data: { error: 'BadRequest', message: 'created_after is not a date-time' },
        },
      },
    )
    expect(await screen.findByRole('alert')).toHaveTextContent('created_after is not a date-time')
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument()
  })
})
