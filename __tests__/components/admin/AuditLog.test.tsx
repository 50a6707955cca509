import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { AuditLog } from '@/components/admin/actions/AuditLog'
import type { AdminAction, AdminActionListResponse } from '@/src/api/generated/model'
import { renderWithProviders } from '../../test-utils'
import { fakeApi, type FakeResponse } from '../manage/fake-api'
import { makeAction } from './fixtures'

const BATCH = 'bbbbbbbb-0000-4000-8000-000000000001'

const flagged = makeAction({})
const batched = makeAction({
  id: '00000000-0000-4000-8000-000000000002',
  subject_id: '11111111-0000-4000-8000-000000000002',
  subject_label: 'comfyui-bar@0.3.0',
  from_value: 'NodeVersionStatusFlagged',
  to_value: 'NodeVersionStatusActive',
  reason: '',
  batch_id: BATCH,
})
const undone = makeAction({
  id: '00000000-0000-4000-8000-000000000003',
  action: 'publisher.ban',
  subject_type: 'publisher',
  subject_id: 'evil-corp',
  subject_label: 'evil-corp',
  from_value: 'PublisherStatusActive',
  to_value: 'PublisherStatusBanned',
  reason: 'Spam',
  undone_by: '00000000-0000-4000-8000-000000000004',
})
const undo = makeAction({
  id: '00000000-0000-4000-8000-000000000004',
  action: 'undo',
  subject_type: 'publisher',
  subject_id: 'evil-corp',
  subject_label: 'evil-corp',
  from_value: 'PublisherStatusBanned',
  to_value: 'PublisherStatusActive',
  reason: 'Undo of publisher.ban: Spam',
  undoes: undone.id,
  created_at: '2026-11-03T10:00:00.000Z',
})
const nodeUpdate = makeAction({
  id: '00000000-0000-4000-8000-000000000005',
  action: 'node.update',
  subject_type: 'node',
  subject_id: 'comfyui-foo',
  subject_label: 'comfyui-foo',
  from_value: JSON.stringify({
    tags_admin: [],
    search_ranking: null,
    preempted_comfy_node_names: [],
    category: 'image',
  }),
  to_value: JSON.stringify({
    tags_admin: ['dev'],
    search_ranking: 3,
    preempted_comfy_node_names: [],
    category: 'image',
  }),
  reason: '',
})

function page(actions: AdminAction[], extra: Partial<AdminActionListResponse> = {}): FakeResponse {
  return {
    status: 200,
    data: { actions, total: actions.length, page: 1, limit: 25, totalPages: 1, ...extra },
  }
}

function renderLog(query: Record<string, string> = {}) {
  return renderWithProviders(<AuditLog />, {
    router: { pathname: '/admin/actions', asPath: '/admin/actions', query },
  })
}

const rowOf = (text: string) => {
  const cell = screen.getByRole('link', { name: text })
  const row = cell.closest('tr')
  if (!row) throw new Error(`no row for ${text}`)
  return row
}

describe('AuditLog', () => {
  it("sends the address's filters and page, and keeps new filters in the address", async () => {
    const api = fakeApi({
      'GET /admin/actions': page([flagged], { page: 2, total: 26, totalPages: 2 }),
    })
    const { router } = renderLog({
      action: 'version.status',
      actor: 'ada@example.com',
      subject: 'comfyui-foo',
      batch: BATCH,
      page: '2',
    })
    await screen.findByRole('table')
    expect(api.calls('GET', '/admin/actions')[0].params).toEqual({
      page: 2,
      limit: 25,
      action: 'version.status',
      actor: 'ada@example.com',
      subject_id: 'comfyui-foo',
      batch_id: BATCH,
    })
    // The form shows the filters; changing one replaces the address (shallow).
    expect(screen.getByLabelText('Action')).toHaveValue('version.status')
    expect(screen.getByLabelText('Admin (email or user id)')).toHaveValue('ada@example.com')
    fireEvent.change(screen.getByLabelText('Action'), { target: { value: 'node.ban' } })
    fireEvent.change(screen.getByLabelText('Batch id'), { target: { value: '' } })
    fireEvent.click(screen.getByRole('button', { name: 'Apply filters' }))
    expect(router.replace).toHaveBeenCalledWith(
      '/admin/actions?action=node.ban&actor=ada%40example.com&subject=comfyui-foo',
      undefined,
      { shallow: true, scroll: false },
    )

    const pages = screen.getByRole('navigation', { name: 'Pages of the audit log' })
    expect(pages).toHaveTextContent('Page 2 of 2')
    expect(within(pages).getByRole('link', { name: 'Previous page' })).toHaveAttribute(
      'href',
      `/admin/actions?action=version.status&actor=ada%40example.com&subject=comfyui-foo&batch=${BATCH}`,
    )
  })

  it('ignores an unknown kind in the address', async () => {
    const api = fakeApi({ 'GET /admin/actions': page([]) })
    renderLog({ action: 'drop.tables', page: 'x' })
    expect(await screen.findByText('No admin actions yet.')).toBeInTheDocument()
    expect(api.calls('GET', '/admin/actions')[0].params).toEqual({ page: 1, limit: 25 })
  })

  it('renders each row: who, what, subject link, from → to, reason and batch', async () => {
    fakeApi({ 'GET /admin/actions': page([flagged, batched, nodeUpdate, undo, undone]) })
    renderLog()
    await screen.findByRole('table', { name: 'Admin actions, newest first' })

    const first = rowOf('comfyui-foo@1.2.0')
    expect(first).toHaveTextContent('Nov 2, 2026, 09:30 AM UTC')
    expect(first).toHaveTextContent('Version status change')
    expect(first).toHaveTextContent('Pending review → changed to Banned')
    expect(first).toHaveTextContent('Steals tokens')
    expect(within(first).getByRole('link', { name: 'comfyui-foo@1.2.0' })).toHaveAttribute(
      'href',
      '/admin/versions/comfyui-foo/1.2.0',
    )
    expect(
      within(first).getByRole('link', { name: 'Show every action of ada@example.com' }),
    ).toHaveAttribute('href', '/admin/actions?actor=ada%40example.com')
    expect(
      within(first).getByRole('link', { name: 'History of comfyui-foo@1.2.0' }),
    ).toHaveAttribute('href', `/admin/actions?subject=${flagged.subject_id}`)

    const second = rowOf('comfyui-bar@0.3.0')
    expect(second).toHaveTextContent('Flagged → changed to Active')
    expect(
      within(second).getByRole('link', { name: 'Show every action of batch bbbbbbbb' }),
    ).toHaveAttribute('href', `/admin/actions?batch=${BATCH}`)

    // Admin fields: only what changed.
    const update = rowOf('comfyui-foo')
    expect(update).toHaveTextContent('Node admin fields changed')
    expect(update).toHaveTextContent('Admin tags: — → changed to dev')
    expect(update).toHaveTextContent('Search ranking: — → changed to 3')
    expect(update).not.toHaveTextContent('Category')
    expect(within(update).getByRole('link', { name: 'comfyui-foo' })).toHaveAttribute(
      'href',
      '/nodes/comfyui-foo',
    )

    // The undo says what it undid; the undone action says it was undone.
    const [undoRow, undoneRow] = screen
      .getAllByRole('link', { name: 'evil-corp' })
      .map((link) => link.closest('tr') as HTMLElement)
    expect(undoRow).toHaveTextContent('Undoes: Publisher banned of Nov 2, 2026, 09:30 AM UTC')
    expect(undoRow).toHaveTextContent('Banned → changed to Active')
    expect(within(undoneRow).getByRole('link', { name: 'evil-corp' })).toHaveAttribute(
      'href',
      '/publishers/evil-corp',
    )
    expect(undoneRow).toHaveTextContent('Undone')
    // Neither an undo nor an undone action can be undone.
    expect(within(undoRow).queryByRole('button')).not.toBeInTheDocument()
    expect(within(undoneRow).queryByRole('button')).not.toBeInTheDocument()
  })

  it('undoes an action only after confirmation, then refreshes the log', async () => {
    let listed = [flagged]
    const api = fakeApi({
      'GET /admin/actions': () => page(listed),
      'POST /admin/actions/00000000-0000-4000-8000-000000000001/undo': () => {
        const reverted = makeAction({ id: 'u1', action: 'undo', undoes: flagged.id })
        listed = [reverted, { ...flagged, undone_by: 'u1' }]
        return { status: 200, data: { actions: [reverted] } }
      },
    })
    const { queryClient } = renderLog()
    // Cached lists and pages an undo can change, and one it cannot (the user's profile).
    const stale = [
      ['/admin/overview'],
      ['/versions', { statuses: ['NodeVersionStatusPending'] }],
      ['/nodes/comfyui-foo'],
      ['/publishers/evil-corp'],
    ]
    for (const key of [...stale, ['/users']]) queryClient.setQueryData(key, {})
    fireEvent.click(
      await screen.findByRole('button', {
        name: 'Undo Version status change on comfyui-foo@1.2.0',
      }),
    )
    const dialog = await screen.findByRole('dialog', { name: 'Undo this action?' })
    expect(dialog).toHaveTextContent('comfyui-foo@1.2.0 goes back to its state before')
    expect(api.calls('POST', `/admin/actions/${flagged.id}/undo`)).toHaveLength(0)

    fireEvent.click(within(dialog).getByRole('button', { name: 'Undo' }))
    expect(await screen.findByText('The action was undone.')).toBeInTheDocument()
    expect(api.calls('POST', `/admin/actions/${flagged.id}/undo`)).toHaveLength(1)
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    for (const key of stale) expect(queryClient.getQueryState(key)?.isInvalidated).toBe(true)
    expect(queryClient.getQueryState(['/users'])?.isInvalidated).toBe(false)
    // The log is fetched again: the action now shows as undone, without its button.
    await waitFor(() => expect(screen.getByText('Undone')).toBeInTheDocument())
    expect(api.calls('GET', '/admin/actions').length).toBeGreaterThanOrEqual(2)
    expect(
      screen.queryByRole('button', { name: 'Undo Version status change on comfyui-foo@1.2.0' }),
    ).not.toBeInTheDocument()
  })

  it('cancelling the confirmation sends nothing', async () => {
    const api = fakeApi({ 'GET /admin/actions': page([flagged]) })
    renderLog()
    fireEvent.click(
      await screen.findByRole('button', {
        name: 'Undo Version status change on comfyui-foo@1.2.0',
      }),
    )
    const dialog = await screen.findByRole('dialog')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(api.requests.filter((request) => request.method === 'POST')).toHaveLength(0)
  })

  it('undoes a whole batch', async () => {
    const api = fakeApi({
      'GET /admin/actions': page([batched]),
      [`POST /admin/batches/${BATCH}/undo`]: {
        status: 200,
        data: { batch_id: 'cccccccc-0000-4000-8000-000000000001', actions: [batched, batched] },
      },
    })
    renderLog()
    fireEvent.click(await screen.findByRole('button', { name: 'Undo batch bbbbbbbb' }))
    const dialog = await screen.findByRole('dialog', { name: 'Undo the whole batch?' })
    expect(dialog).toHaveTextContent('Every action of batch bbbbbbbb is undone, all or nothing.')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Undo batch' }))
    expect(await screen.findByText('2 actions were undone.')).toBeInTheDocument()
    expect(api.calls('POST', `/admin/batches/${BATCH}/undo`)).toHaveLength(1)
    expect(api.calls('POST', `/admin/actions/${batched.id}/undo`)).toHaveLength(0)
  })

  it('shows a 409 (changed since) as a clear message and keeps the dialog open', async () => {
    fakeApi({
      'GET /admin/actions': page([flagged]),
      [`POST /admin/actions/${flagged.id}/undo`]: {
        status: 409,
        data: {
          error: 'Conflict',
          message: 'comfyui-foo@1.2.0 has changed since action; undo the later actions first.',
        },
      },
    })
    renderLog()
    fireEvent.click(
      await screen.findByRole('button', {
        name: 'Undo Version status change on comfyui-foo@1.2.0',
      }),
    )
    const dialog = await screen.findByRole('dialog')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Undo' }))
    const alert = await within(dialog).findByRole('alert')
    expect(alert).toHaveTextContent(
      'This can no longer be undone: it was already undone, or what it changed has changed since',
    )
    expect(alert).toHaveTextContent('comfyui-foo@1.2.0 has changed since action')
    expect(screen.queryByText('The action was undone.')).not.toBeInTheDocument()
  })

  it('shows a load failure with its message', async () => {
    fakeApi({
      'GET /admin/actions': {
        status: 400,
        data: { error: 'BadRequest', message: 'batch_id must be a uuid.' },
      },
    })
    renderLog({ batch: 'nope' })
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The audit log could not be loaded. batch_id must be a uuid.',
    )
  })
})
