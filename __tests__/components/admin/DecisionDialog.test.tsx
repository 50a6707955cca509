import { fireEvent, screen, waitFor } from '@testing-library/react'
import { useState } from 'react'
import {
  DecisionDialog,
  type DecisionResult,
  type DecisionStatus,
  type DecisionTarget,
} from '@/components/admin/decide/DecisionDialog'
import { DecisionBanner } from '@/components/admin/decide/DecisionBanner'
import { getGetAdminOverviewQueryKey } from '@/src/api/generated/admin/admin'
import { getGetNodeQueryKey } from '@/src/api/generated/nodes/nodes'
import { getListAllNodeVersionsQueryKey } from '@/src/api/generated/versions/versions'
import { makeTestQueryClient, renderWithProviders } from '../../test-utils'
import { fakeApi, type FakeResponse } from '../manage/fake-api'

const one: DecisionTarget = { node_id: 'demo-node', version: '1.2.0', id: 'v1' }
const two: DecisionTarget = { node_id: 'other-node', version: '0.3.0', id: 'v2' }

/** The dialog as a page hosts it: the outcome shown in the banner once decided. */
function Host({ targets, status }: { targets: DecisionTarget[]; status: DecisionStatus }) {
  const [open, setOpen] = useState(true)
  const [result, setResult] = useState<DecisionResult | null>(null)
  return (
    <>
      {result && <DecisionBanner result={result} onDismiss={() => setResult(null)} />}
      <DecisionDialog
        open={open}
        onClose={() => setOpen(false)}
        targets={targets}
        initialStatus={status}
        onDecided={setResult}
      />
    </>
  )
}

function renderDialog(
  targets: DecisionTarget[],
  status: DecisionStatus,
  routes: Record<string, FakeResponse> = {},
) {
  const api = fakeApi(routes)
  const queryClient = makeTestQueryClient()
  const result = renderWithProviders(<Host targets={targets} status={status} />, { queryClient })
  return { ...result, api }
}

describe('DecisionDialog', () => {
  it('approves one version with PUT and status Active (the reason is optional)', async () => {
    const { api, queryClient } = renderDialog([one], 'NodeVersionStatusActive', {
      'PUT /admin/nodes/demo-node/versions/1.2.0': { status: 200, data: {} },
    })
    queryClient.setQueryData(getListAllNodeVersionsQueryKey({ page: 1 }), { versions: [] })
    queryClient.setQueryData(getGetAdminOverviewQueryKey(), {})
    queryClient.setQueryData(getGetNodeQueryKey('demo-node'), {})
    queryClient.setQueryData(getGetNodeQueryKey('untouched'), {})

    expect(screen.getByRole('radio', { name: 'Approve' })).toBeChecked()
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }))

    expect(await screen.findByText('Approved demo-node 1.2.0.')).toBeInTheDocument()
    expect(api.calls('PUT', '/admin/nodes/demo-node/versions/1.2.0')).toHaveLength(1)
    expect(api.calls('PUT', '/admin/nodes/demo-node/versions/1.2.0')[0].body).toEqual({
      status: 'NodeVersionStatusActive',
    })
    // A single decision is no batch: nothing to undo.
    expect(screen.queryByRole('button', { name: 'Undo' })).not.toBeInTheDocument()
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    // The lists, the overview and the node's own queries are stale; other nodes are not.
    const stale = (key: readonly unknown[]) => queryClient.getQueryState(key)?.isInvalidated
    expect(stale(getListAllNodeVersionsQueryKey({ page: 1 }))).toBe(true)
    expect(stale(getGetAdminOverviewQueryKey())).toBe(true)
    expect(stale(getGetNodeQueryKey('demo-node'))).toBe(true)
    expect(stale(getGetNodeQueryKey('untouched'))).toBe(false)
  })

  it('refuses to flag without a reason and sends nothing', async () => {
    const { api } = renderDialog([one, two], 'NodeVersionStatusFlagged')
    // The reason is where the admin starts typing.
    await waitFor(() => expect(screen.getByRole('textbox', { name: /Reason/ })).toHaveFocus())
    fireEvent.click(screen.getByRole('button', { name: 'Flag 2 versions' }))
    expect(
      await screen.findByText('Write a reason: flagging and banning need one.'),
    ).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: /Reason/ })).toHaveAttribute('aria-invalid', 'true')
    // Whitespace is no reason either.
    fireEvent.change(screen.getByRole('textbox', { name: /Reason/ }), { target: { value: '   ' } })
    fireEvent.click(screen.getByRole('button', { name: 'Flag 2 versions' }))
    expect(
      await screen.findByText('Write a reason: flagging and banning need one.'),
    ).toBeInTheDocument()
    expect(api.requests).toHaveLength(0)
  })

  it('bans several versions in one POST with the reason, then undoes the batch', async () => {
    const { api } = renderDialog([one, two], 'NodeVersionStatusFlagged', {
      'POST /admin/versions/decisions': { status: 200, data: { batch_id: 'b-1', versions: [] } },
      'POST /admin/batches/b-1/undo': { status: 200, data: { actions: [] } },
    })
    fireEvent.click(screen.getByRole('radio', { name: 'Ban' }))
    const reason = screen.getByRole('textbox', { name: /Reason/ })
    fireEvent.change(reason, { target: { value: '  Ships a crypto miner  ' } })
    // Ctrl+Enter in the reason decides.
    fireEvent.keyDown(reason, { key: 'Enter', ctrlKey: true })

    expect(await screen.findByText('Banned 2 versions.')).toBeInTheDocument()
    const posts = api.calls('POST', '/admin/versions/decisions')
    expect(posts).toHaveLength(1)
    expect(posts[0].body).toEqual({
      versions: [
        { node_id: 'demo-node', version: '1.2.0' },
        { node_id: 'other-node', version: '0.3.0' },
      ],
      status: 'NodeVersionStatusBanned',
      reason: 'Ships a crypto miner',
    })

    fireEvent.click(screen.getByRole('button', { name: 'Undo' }))
    expect(
      await screen.findByText('Undone: 2 versions are back to their former status.'),
    ).toBeInTheDocument()
    expect(api.calls('POST', '/admin/batches/b-1/undo')).toHaveLength(1)
  })

  it('shows the API error in the dialog and stays open', async () => {
    const { api } = renderDialog([one], 'NodeVersionStatusBanned', {
      'PUT /admin/nodes/demo-node/versions/1.2.0': {
        status: 400,
        data: { error: 'BadRequest', message: 'status_reason is required to ban' },
      },
    })
    fireEvent.change(screen.getByRole('textbox', { name: /Reason/ }), {
      target: { value: 'Malware' },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Ban' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('status_reason is required to ban')
    expect(screen.getByRole('dialog')).toBeInTheDocument()
    expect(api.calls('PUT', '/admin/nodes/demo-node/versions/1.2.0')[0].body).toEqual({
      status: 'NodeVersionStatusBanned',
      status_reason: 'Malware',
    })
  })

  it('shows an Undo failure (e.g. the versions changed since)', async () => {
    renderDialog([one, two], 'NodeVersionStatusActive', {
      'POST /admin/versions/decisions': { status: 200, data: { batch_id: 'b-2', versions: [] } },
      'POST /admin/batches/b-2/undo': {
        status: 409,
        data: { error: 'Conflict', message: 'demo-node 1.2.0 changed since' },
      },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Approve 2 versions' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Undo' }))
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('demo-node 1.2.0 changed since'),
    )
  })
})
