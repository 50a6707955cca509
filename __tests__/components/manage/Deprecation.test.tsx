// The owners' deprecation controls on the node page: a dialog for the message, a one-click undo,
// toasts, and the API's refusal shown where it happened.
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import NodePage from '@/pages/nodes/[nodeId]'
import { getGetNodeQueryKey } from '@/src/api/generated/nodes/nodes'
import { firstVersionsQuery } from '@/components/node/node-lists'
import type { Node, NodeVersion } from '@/src/api/generated/model'
import type { AuthUser } from '@/src/lib/auth'
import { notifyError, notifySuccess } from '@/src/lib/notify'
import { makeTestQueryClient, renderWithProviders } from '../../test-utils'
import { makeNode, makeVersion } from '../node/fixtures'
import { fakeApi, type FakeRoutes } from './fake-api'

jest.mock('@/src/lib/firebase', () => ({
  getFirebaseAuth: () => ({ authStateReady: () => Promise.resolve(), currentUser: null }),
}))
jest.mock('@/src/lib/notify', () => ({
  notifyError: jest.fn(() => Promise.resolve()),
  notifySuccess: jest.fn(() => Promise.resolve()),
}))

const ada: AuthUser = { uid: 'u-ada', email: 'ada@example.com', displayName: 'Ada', photoURL: null }
const publisher = { id: 'acme', name: 'Acme' }
const active = makeVersion({ id: 'v1', version: '1.0.0' })
const NODE_URL = '/publishers/acme/nodes/demo-node'
const VERSION_URL = `${NODE_URL}/versions/v1`

function renderOwnerPage(node: Node, versions: NodeVersion[], routes: FakeRoutes) {
  const requests = fakeApi({
    'GET /nodes/demo-node/comfy-nodes/latest': {
      status: 404,
      data: { error: 'NotFound', message: '' },
    },
    'GET /publishers/acme/nodes/demo-node/permissions': { status: 200, data: { canEdit: true } },
    'GET /nodes/demo-node/versions': { status: 200, data: versions },
    ...routes,
  })
  const queryClient = makeTestQueryClient()
  queryClient.setQueryData(getGetNodeQueryKey('demo-node'), node)
  queryClient.setQueryData(firstVersionsQuery('demo-node').queryKey, versions)
  renderWithProviders(<NodePage />, {
    queryClient,
    auth: { user: ada },
    router: {
      pathname: '/nodes/[nodeId]',
      asPath: '/nodes/demo-node',
      query: { nodeId: 'demo-node' },
    },
  })
  return requests
}

beforeEach(() => {
  jest.mocked(notifySuccess).mockClear()
  jest.mocked(notifyError).mockClear()
})

describe('Deprecation controls', () => {
  it('deprecates a version with a message, checked before sending, and toasts', async () => {
    const requests = renderOwnerPage(makeNode({ publisher }), [active], {
      [`PUT ${VERSION_URL}`]: {
        status: 200,
        data: { ...active, deprecated: true, deprecation_message: 'Use 1.1.0.' },
      },
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Deprecate version 1.0.0' }))
    const dialog = await screen.findByRole('dialog', { name: 'Deprecate version 1.0.0' })
    const message = within(dialog).getByRole('textbox', { name: 'Message (optional)' })
    fireEvent.change(message, { target: { value: 'x'.repeat(501) } })
    expect(within(dialog).getByText('Use at most 500 characters.')).toBeInTheDocument()
    expect(message).toHaveAttribute('aria-invalid', 'true')
    expect(within(dialog).getByRole('button', { name: 'Deprecate' })).toBeDisabled()

    fireEvent.change(message, { target: { value: '  Use 1.1.0.  ' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deprecate' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(requests.calls('PUT', VERSION_URL).map((call) => call.body)).toEqual([
      { deprecated: true, deprecation_message: 'Use 1.1.0.' },
    ])
    expect(notifySuccess).toHaveBeenCalledWith('Version 1.0.0 is now marked deprecated.')
  })

  it('shows the API refusal inside the dialog and keeps it open', async () => {
    renderOwnerPage(makeNode({ publisher }), [active], {
      [`PUT ${VERSION_URL}`]: {
        status: 400,
        data: { error: 'Bad Request', message: "Invalid field 'deprecation_message': too long." },
      },
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Deprecate version 1.0.0' }))
    const dialog = await screen.findByRole('dialog', { name: 'Deprecate version 1.0.0' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deprecate' }))
    expect(
      await within(dialog).findByText("Invalid field 'deprecation_message': too long."),
    ).toBeInTheDocument()
    expect(notifySuccess).not.toHaveBeenCalled()
  })

  it('undoes a version deprecation in one click', async () => {
    const deprecated = { ...active, deprecated: true, deprecation_message: 'Broken.' }
    const requests = renderOwnerPage(makeNode({ publisher }), [deprecated], {
      [`PUT ${VERSION_URL}`]: { status: 200, data: active },
    })
    // The public mark is there for owners too.
    expect(await screen.findByText('Deprecated: Broken.')).toBeInTheDocument()
    fireEvent.click(
      await screen.findByRole('button', { name: 'Undo deprecation of version 1.0.0' }),
    )
    await waitFor(() =>
      expect(requests.calls('PUT', VERSION_URL).map((call) => call.body)).toEqual([
        { deprecated: false },
      ]),
    )
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    await waitFor(() =>
      expect(notifySuccess).toHaveBeenCalledWith('Version 1.0.0 is no longer deprecated.'),
    )
  })

  it('deprecates the whole node with a message and undoes it; a failed undo toasts', async () => {
    const node = makeNode({ publisher })
    const requests = renderOwnerPage(node, [active], {
      [`PUT ${NODE_URL}`]: {
        status: 200,
        data: { ...node, deprecated: true, deprecation_message: 'Moved to acme/better.' },
      },
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Deprecate node' }))
    const dialog = await screen.findByRole('dialog', { name: 'Deprecate Demo Node' })
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Message (optional)' }), {
      target: { value: 'Moved to acme/better.' },
    })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deprecate' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(requests.calls('PUT', NODE_URL).map((call) => call.body)).toEqual([
      { deprecated: true, deprecation_message: 'Moved to acme/better.' },
    ])
    expect(notifySuccess).toHaveBeenCalledWith('Demo Node is now marked deprecated.')
  })

  it('undoes a node deprecation in one click, and toasts a refusal', async () => {
    const node = { ...makeNode({ publisher }), deprecated: true, deprecation_message: 'Old.' }
    const requests = renderOwnerPage(node, [active], {
      [`PUT ${NODE_URL}`]: {
        status: 403,
        data: { error: 'Forbidden', message: 'Only owners may change this node.' },
      },
    })
    expect(await screen.findByRole('heading', { name: 'This node is deprecated' })).toBeVisible()
    fireEvent.click(await screen.findByRole('button', { name: 'Undo node deprecation' }))
    await waitFor(() =>
      expect(notifyError).toHaveBeenCalledWith(
        'The deprecation could not be changed: Only owners may change this node.',
      ),
    )
    expect(requests.calls('PUT', NODE_URL).map((call) => call.body)).toEqual([
      { deprecated: false },
    ])
    expect(notifySuccess).not.toHaveBeenCalled()
  })
})
