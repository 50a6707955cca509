import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import NodePage from '@/pages/nodes/[nodeId]'
import { getGetNodeQueryKey } from '@/src/api/generated/nodes/nodes'
import { firstVersionsQuery } from '@/components/node/node-lists'
import type { Node, NodeVersion } from '@/src/api/generated/model'
import type { AuthUser } from '@/src/lib/auth'
import { UNCLAIMED_PUBLISHER } from '@/src/lib/constants'
import { makeTestQueryClient, renderWithProviders } from '../../test-utils'
import { makeNode, makeVersion } from '../node/fixtures'
import { fakeApi, type FakeRequest, type FakeResponse } from './fake-api'

jest.mock('@/src/lib/firebase', () => ({
  getFirebaseAuth: () => ({ authStateReady: () => Promise.resolve(), currentUser: null }),
}))

const ada: AuthUser = { uid: 'u-ada', email: 'ada@example.com', displayName: 'Ada', photoURL: null }
const publisher = { id: 'acme', name: 'Acme' }
const active = makeVersion({ id: 'v1', version: '1.0.0' })
const pending = makeVersion({ id: 'v2', version: '1.1.0', status: 'NodeVersionStatusPending' })

function renderNodePage(
  node: Node,
  signedIn: boolean,
  routes: Record<string, FakeResponse | ((r: never) => FakeResponse)> = {},
) {
  const requests = fakeApi({
    'GET /nodes/demo-node/comfy-nodes/latest': {
      status: 404,
      data: { error: 'NotFound', message: '' },
    },
    ...(routes as Record<string, FakeResponse>),
  })
  const queryClient = makeTestQueryClient()
  queryClient.setQueryData(getGetNodeQueryKey('demo-node'), node)
  queryClient.setQueryData(firstVersionsQuery('demo-node').queryKey, [active] as NodeVersion[])
  const result = renderWithProviders(<NodePage />, {
    queryClient,
    auth: { user: signedIn ? ada : null },
    router: {
      pathname: '/nodes/[nodeId]',
      asPath: '/nodes/demo-node',
      query: { nodeId: 'demo-node' },
    },
  })
  return { ...result, requests }
}

describe('Node management on the node page', () => {
  it('signed out: no permission call and no edit controls', async () => {
    const { requests } = renderNodePage(makeNode({ publisher }), false)
    expect(await screen.findByRole('heading', { name: 'Demo Node' })).toBeInTheDocument()
    expect(requests.calls('GET', '/publishers/acme/nodes/demo-node/permissions')).toHaveLength(0)
    expect(screen.queryByRole('button', { name: 'Edit node' })).not.toBeInTheDocument()
  })

  it('hides every edit control when the API says canEdit is false', async () => {
    const { requests } = renderNodePage(makeNode({ publisher }), true, {
      'GET /publishers/acme/nodes/demo-node/permissions': { status: 200, data: { canEdit: false } },
    })
    await waitFor(() =>
      expect(requests.calls('GET', '/publishers/acme/nodes/demo-node/permissions')).toHaveLength(1),
    )
    expect(screen.queryByRole('button', { name: 'Edit node' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Delete node' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Deprecate/ })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Claim this node' })).not.toBeInTheDocument()
  })

  it('owners get the controls and see pending versions too', async () => {
    const { requests } = renderNodePage(makeNode({ publisher }), true, {
      'GET /publishers/acme/nodes/demo-node/permissions': { status: 200, data: { canEdit: true } },
      'GET /nodes/demo-node/versions': { status: 200, data: [pending, active] },
    })
    expect(await screen.findByRole('button', { name: 'Edit node' })).toBeInTheDocument()
    expect(await screen.findByRole('heading', { name: '1.1.0' })).toBeInTheDocument()
    // Owners see where the version is: decided by the checks, waiting for an admin.
    expect(await screen.findByText('Waiting for review')).toBeInTheDocument()
    expect(requests.calls('GET', '/nodes/demo-node/versions')[0].params).toEqual({
      statuses: [
        'NodeVersionStatusActive',
        'NodeVersionStatusPending',
        'NodeVersionStatusFlagged',
        'NodeVersionStatusBanned',
      ],
      include_status_reason: true,
    })
    expect(screen.getByRole('button', { name: 'Deprecate version 1.0.0' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Delete version 1.1.0' })).toBeInTheDocument()
  })

  it('owners download an archive still under review with their token; a failure is shown', async () => {
    const underReview = { ...pending, downloadUrl: 'http://api.test/archives/demo-node/1.1.0.zip' }
    let calls = 0
    const { requests } = renderNodePage(makeNode({ publisher }), true, {
      'GET /publishers/acme/nodes/demo-node/permissions': { status: 200, data: { canEdit: true } },
      'GET /nodes/demo-node/versions': { status: 200, data: [underReview, active] },
      'GET /archives/demo-node/1.1.0.zip': () =>
        ++calls === 1
          ? { status: 404, data: { error: 'Not Found', message: 'There is no archive.' } }
          : { status: 200, data: new Blob(['zip']) },
    })
    const createObjectURL = jest.fn(() => 'blob:archive')
    const revokeObjectURL = jest.fn()
    Object.assign(URL, { createObjectURL, revokeObjectURL })
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {})
    const button = await screen.findByRole('button', {
      name: 'Download archive of version 1.1.0',
    })
    // Active versions are public: their archive is the ordinary download link.
    expect(
      screen.queryByRole('button', { name: 'Download archive of version 1.0.0' }),
    ).not.toBeInTheDocument()
    fireEvent.click(button)
    expect(await screen.findByText('There is no archive.')).toBeInTheDocument()
    fireEvent.click(button)
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1))
    expect(createObjectURL).toHaveBeenCalledTimes(1)
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:archive')
    expect(requests.calls('GET', '/archives/demo-node/1.1.0.zip')).toHaveLength(2)
    expect(screen.queryByText('There is no archive.')).not.toBeInTheDocument()
    click.mockRestore()
  })

  it('deprecates a version with PUT {deprecated: true} from its dialog', async () => {
    const { requests } = renderNodePage(makeNode({ publisher }), true, {
      'GET /publishers/acme/nodes/demo-node/permissions': { status: 200, data: { canEdit: true } },
      'GET /nodes/demo-node/versions': { status: 200, data: [active] },
      'PUT /publishers/acme/nodes/demo-node/versions/v1': {
        status: 200,
        data: { ...active, deprecated: true },
      },
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Deprecate version 1.0.0' }))
    const dialog = await screen.findByRole('dialog', { name: 'Deprecate version 1.0.0' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deprecate' }))
    await waitFor(() =>
      expect(
        requests.calls('PUT', '/publishers/acme/nodes/demo-node/versions/v1')[0]?.body,
      ).toEqual({
        deprecated: true,
        deprecation_message: '',
      }),
    )
  })

  it('edits the node: validation messages, then PUT with parsed tags', async () => {
    const { requests } = renderNodePage(makeNode({ publisher }), true, {
      'GET /publishers/acme/nodes/demo-node/permissions': { status: 200, data: { canEdit: true } },
      'GET /nodes/demo-node/versions': { status: 200, data: [active] },
      'PUT /publishers/acme/nodes/demo-node': { status: 200, data: makeNode({ publisher }) },
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Edit node' }))
    const dialog = await screen.findByRole('dialog', { name: 'Edit Demo Node' })
    const name = within(dialog).getByRole('textbox', { name: 'Name' })
    fireEvent.change(name, { target: { value: ' ' } })
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Icon URL (optional)' }), {
      target: { value: 'ftp://icon' },
    })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }))
    expect(within(dialog).getByText('Enter a name for the node.')).toBeInTheDocument()
    expect(within(dialog).getByText(/Enter a web address of an image/)).toBeInTheDocument()
    expect(requests.calls('PUT', '/publishers/acme/nodes/demo-node')).toHaveLength(0)

    fireEvent.change(name, { target: { value: 'Demo Node 2' } })
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Icon URL (optional)' }), {
      target: { value: '' },
    })
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Tags (optional)' }), {
      target: { value: 'Video, upscaling, video,' },
    })
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'macOS' }))
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(requests.calls('PUT', '/publishers/acme/nodes/demo-node')[0].body).toMatchObject({
      name: 'Demo Node 2',
      tags: ['video', 'upscaling'],
      supported_os: ['Windows', 'Linux', 'macos'],
    })
  })

  it('saves a seeded node unchanged (its icon is a path on this site), refuses /\\host paths', async () => {
    const seeded = makeNode({ publisher, icon: '/icons/node-0.svg' })
    const { requests } = renderNodePage(seeded, true, {
      'GET /publishers/acme/nodes/demo-node/permissions': { status: 200, data: { canEdit: true } },
      'GET /nodes/demo-node/versions': { status: 200, data: [active] },
      'PUT /publishers/acme/nodes/demo-node': { status: 200, data: seeded },
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Edit node' }))
    const dialog = await screen.findByRole('dialog', { name: 'Edit Demo Node' })
    const icon = within(dialog).getByRole('textbox', { name: 'Icon URL (optional)' })
    // Browsers fetch `/\host/x` from another host: not a path on this site.
    fireEvent.change(icon, { target: { value: '/\\evil.example/x.png' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }))
    expect(within(dialog).getByText(/Enter a web address of an image/)).toBeInTheDocument()
    expect(requests.calls('PUT', '/publishers/acme/nodes/demo-node')).toHaveLength(0)
    fireEvent.change(icon, { target: { value: '/icons/node-0.svg' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(requests.calls('PUT', '/publishers/acme/nodes/demo-node')[0].body).toMatchObject({
      icon: '/icons/node-0.svg',
    })
  })

  it('deletes the node only after its id is typed', async () => {
    const { requests, router } = renderNodePage(makeNode({ publisher }), true, {
      'GET /publishers/acme/nodes/demo-node/permissions': { status: 200, data: { canEdit: true } },
      'GET /nodes/demo-node/versions': { status: 200, data: [active] },
      'DELETE /publishers/acme/nodes/demo-node': { status: 204 },
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Delete node' }))
    const dialog = await screen.findByRole('dialog', { name: 'Delete Demo Node?' })
    const confirm = within(dialog).getByRole('button', { name: 'Delete node' })
    expect(confirm).toBeDisabled()
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Type demo-node to confirm' }), {
      target: { value: 'demo-node' },
    })
    fireEvent.click(confirm)
    await waitFor(() => expect(router.push).toHaveBeenCalledWith('/nodes'))
    expect(requests.calls('DELETE', '/publishers/acme/nodes/demo-node')).toHaveLength(1)
  })

  it('unclaimed node: signed-in users claim it into one of their publishers', async () => {
    let claims = 0
    const { requests } = renderNodePage(makeNode({ publisher: { ...UNCLAIMED_PUBLISHER } }), true, {
      'GET /users/publishers/': { status: 200, data: [publisher, { id: 'zeta', name: 'Zeta' }] },
      'POST /publishers/zeta/nodes/demo-node/claim-my-node': () =>
        ++claims === 1
          ? {
              status: 403,
              data: {
                error: 'Forbidden',
                message: 'The token has no admin rights on the repository.',
              },
            }
          : { status: 204 },
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Claim this node' }))
    const dialog = await screen.findByRole('dialog', { name: 'Claim this node' })
    const chooser = await within(dialog).findByRole('combobox', { name: 'Publisher' })
    fireEvent.change(chooser, { target: { value: 'zeta' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Claim node' }))
    expect(within(dialog).getByText('Paste a GitHub token.')).toBeInTheDocument()

    fireEvent.change(within(dialog).getByLabelText('GitHub token'), {
      target: { value: 'ghp_abc' },
    })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Claim node' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The token has no admin rights on the repository.',
    )
    fireEvent.click(within(dialog).getByRole('button', { name: 'Claim node' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(
      requests.calls('POST', '/publishers/zeta/nodes/demo-node/claim-my-node').map((r) => r.body),
    ).toEqual([{ GH_TOKEN: 'ghp_abc' }, { GH_TOKEN: 'ghp_abc' }])
  })

  it('unclaimed node: no claim offer when signed out', async () => {
    renderNodePage(makeNode({ publisher: { ...UNCLAIMED_PUBLISHER } }), false)
    expect(await screen.findByRole('heading', { name: 'Demo Node' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Claim this node' })).not.toBeInTheDocument()
  })
})

describe('The owner watches a version go through the publishing pipeline', () => {
  beforeEach(() => jest.useFakeTimers())
  afterEach(() => jest.useRealTimers())

  it('a version being checked is asked again until it is Active, then the page follows', async () => {
    const checking = makeVersion({
      id: 'v2',
      version: '1.1.0',
      status: 'NodeVersionStatusPending',
      pipeline_state: 'checking',
    })
    const approved = { ...checking, status: 'NodeVersionStatusActive', pipeline_state: 'done' }
    let checks = 0
    // The owners' list (with review reasons): checking at first, Active from the second answer.
    const versions = ({ params }: FakeRequest): FakeResponse =>
      params?.include_status_reason
        ? { status: 200, data: ++checks === 1 ? [checking, active] : [approved, active] }
        : { status: 200, data: [approved, active] }
    const { requests, router } = renderNodePage(makeNode({ publisher }), true, {
      'GET /publishers/acme/nodes/demo-node/permissions': { status: 200, data: { canEdit: true } },
      'GET /nodes/demo-node/versions': versions,
      'GET /nodes/demo-node': {
        status: 200,
        data: makeNode({ publisher, latest_version: makeVersion({ version: '1.1.0' }) }),
      },
    })
    const ownerCalls = () =>
      requests
        .calls('GET', '/nodes/demo-node/versions')
        .filter((request) => request.params?.include_status_reason)
    const item = () =>
      screen.getByRole('heading', { level: 3, name: '1.1.0' }).closest('li') as HTMLElement

    expect(await screen.findByText('Checking…')).toBeInTheDocument()
    expect(within(item()).getByText(/being checked and scanned/)).toBeInTheDocument()
    expect(ownerCalls()).toHaveLength(1)
    expect(router.replace).not.toHaveBeenCalled()

    // No reload: the next poll, 1.5 s later, brings the decision.
    await act(() => jest.advanceTimersByTimeAsync(1500))
    await waitFor(() => expect(within(item()).getByRole('status')).toHaveTextContent('Active'))
    expect(screen.queryByText('Checking…')).toBeNull()

    // The node page follows: its queries are fetched again and its props reloaded.
    await waitFor(() =>
      expect(router.replace).toHaveBeenCalledWith('/nodes/demo-node', undefined, {
        scroll: false,
        unstable_skipClientCache: true,
      }),
    )
    expect(requests.calls('GET', '/nodes/demo-node').length).toBeGreaterThan(0)

    // Nothing is on its way any more: polling stops.
    const settled = ownerCalls().length
    await act(() => jest.advanceTimersByTimeAsync(10_000))
    expect(ownerCalls()).toHaveLength(settled)
    expect(router.replace).toHaveBeenCalledTimes(1)
  })

  it('nothing on its way: no polling at all', async () => {
    const { requests } = renderNodePage(makeNode({ publisher }), true, {
      'GET /publishers/acme/nodes/demo-node/permissions': { status: 200, data: { canEdit: true } },
      'GET /nodes/demo-node/versions': {
        status: 200,
        data: [{ ...active, pipeline_state: 'done' }],
      },
    })
    await waitFor(() => expect(requests.calls('GET', '/nodes/demo-node/versions')).toHaveLength(1))
    expect(await screen.findByRole('button', { name: 'Deprecate version 1.0.0' })).toBeVisible()
    await act(() => jest.advanceTimersByTimeAsync(10_000))
    expect(requests.calls('GET', '/nodes/demo-node/versions')).toHaveLength(1)
  })
})
