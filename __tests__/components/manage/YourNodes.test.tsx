import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { YourNodes } from '@/components/manage/YourNodes'
import { PUBLISHING_DOCS_URL, YOUR_NODES_PAGE_SIZE } from '@/src/lib/constants'
import { renderWithProviders } from '../../test-utils'
import { fakeApi, type FakeRequest } from './fake-api'

const sendVerificationEmail = jest.fn(() => Promise.resolve())
jest.mock('@/src/lib/firebase', () => ({
  getFirebaseAuth: () => ({ authStateReady: () => Promise.resolve(), currentUser: null }),
  sendVerificationEmail: () => sendVerificationEmail(),
}))

const carol = { uid: 'u-carol', email: 'carol@example.com', displayName: 'Carol', photoURL: null }

function nodesPage({ params }: FakeRequest) {
  const page = Number(params?.page)
  return {
    status: 200,
    data: {
      nodes: [{ id: `node-${page}`, name: `Node on page ${page}`, status: 'NodeStatusActive' }],
      total: 2 * YOUR_NODES_PAGE_SIZE,
      page,
      limit: YOUR_NODES_PAGE_SIZE,
      totalPages: 2,
    },
  }
}

describe('YourNodes', () => {
  it('without a publisher: a call to create one and how to publish from the CLI', async () => {
    fakeApi({ 'GET /users/publishers/': { status: 200, data: [] } })
    renderWithProviders(<YourNodes />)
    expect(
      await screen.findByRole('heading', { name: 'You do not have a publisher yet' }),
    ).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Create a publisher' })).toHaveAttribute(
      'href',
      '/publishers/create',
    )
    expect(screen.getByText('comfy node publish')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Read the publishing guide' })).toHaveAttribute(
      'href',
      PUBLISHING_DOCS_URL,
    )
  })

  it('lists each publisher with its nodes page by page; Settings only where the user may edit', async () => {
    const api = fakeApi({
      'GET /users/publishers/': {
        status: 200,
        data: [
          { id: 'acme', name: 'Acme' },
          { id: 'zeta', name: 'Zeta' },
        ],
      },
      'GET /publishers/acme/permissions': { status: 200, data: { canEdit: true } },
      'GET /publishers/zeta/permissions': { status: 200, data: { canEdit: false } },
      'GET /publishers/acme/nodes/v2': nodesPage,
      'GET /publishers/zeta/nodes/v2': {
        status: 200,
        data: { nodes: [], total: 0, page: 1, limit: YOUR_NODES_PAGE_SIZE, totalPages: 0 },
      },
    })
    renderWithProviders(<YourNodes />)
    const acme = await screen.findByRole('region', { name: 'Acme' })
    expect(await within(acme).findByRole('link', { name: 'Node on page 1' })).toHaveAttribute(
      'href',
      '/nodes/node-1',
    )
    expect(await within(acme).findByRole('link', { name: 'Settings of Acme' })).toHaveAttribute(
      'href',
      '/publishers/acme/settings',
    )
    const zeta = screen.getByRole('region', { name: 'Zeta' })
    expect(await within(zeta).findByText(/No nodes yet/)).toBeInTheDocument()
    expect(within(zeta).queryByRole('link', { name: 'Settings of Zeta' })).not.toBeInTheDocument()
    expect(api.calls('GET', '/publishers/acme/nodes/v2')[0].params).toEqual({
      page: 1,
      limit: YOUR_NODES_PAGE_SIZE,
      include_banned: true,
    })

    const pages = within(acme).getByRole('navigation', { name: 'Pages of the nodes of Acme' })
    expect(within(pages).getByRole('button', { name: 'Previous page' })).toBeDisabled()
    fireEvent.click(within(pages).getByRole('button', { name: 'Next page' }))
    expect(await within(acme).findByRole('link', { name: 'Node on page 2' })).toBeInTheDocument()
    await waitFor(() =>
      expect(within(pages).getByRole('button', { name: 'Next page' })).toBeDisabled(),
    )
  })

  it('shows a load failure with a retry', async () => {
    let calls = 0
    fakeApi({
      'GET /users/publishers/': () =>
        ++calls === 1
          ? { status: 500, data: { error: 'Internal', message: 'Database unavailable.' } }
          : { status: 200, data: [] },
    })
    renderWithProviders(<YourNodes />)
    expect(await screen.findByRole('alert')).toHaveTextContent('Database unavailable.')
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(
      await screen.findByRole('heading', { name: 'You do not have a publisher yet' }),
    ).toBeInTheDocument()
  })

  it('lists invitations; accepting one joins the publisher and refreshes the lists', async () => {
    let invitations = [
      {
        id: '7d1c9a52-0000-4000-8000-000000000003',
        publisher: { id: 'acme', name: 'Acme Nodes' },
        role: 'member',
        createdAt: '2026-11-01T00:00:00Z',
        expiresAt: '2026-12-01T00:00:00Z',
      },
    ]
    const api = fakeApi({
      'GET /users/publishers/': { status: 200, data: [] },
      'GET /users/invitations': () => ({ status: 200, data: invitations }),
      'POST /users/invitations/7d1c9a52-0000-4000-8000-000000000003': () => {
        invitations = []
        return { status: 200, data: { id: 'acme', name: 'Acme Nodes' } }
      },
    })
    renderWithProviders(<YourNodes />, { auth: { user: { ...carol, emailVerified: true } } })
    expect(await screen.findByText('Join Acme Nodes as Member')).toBeInTheDocument()
    expect(screen.getByText('Expires Dec 1, 2026')).toBeInTheDocument()
    fireEvent.click(screen.getByRole('button', { name: 'Accept invitation to Acme Nodes' }))
    await waitFor(() =>
      expect(screen.queryByText('Join Acme Nodes as Member')).not.toBeInTheDocument(),
    )
    expect(
      api.calls('POST', '/users/invitations/7d1c9a52-0000-4000-8000-000000000003'),
    ).toHaveLength(1)
    // The publishers are fetched again: the new one shows.
    expect(api.calls('GET', '/users/publishers/').length).toBeGreaterThanOrEqual(2)
  })

  it('with an unverified address: says why invitations need one and sends the verification email', async () => {
    const api = fakeApi({ 'GET /users/publishers/': { status: 200, data: [] } })
    renderWithProviders(<YourNodes />, { auth: { user: { ...carol, emailVerified: false } } })
    expect(await screen.findByText(/matched to verified email addresses/)).toBeInTheDocument()
    fireEvent.click(screen.getByRole('button', { name: 'Send verification email' }))
    expect(
      await screen.findByText(/A verification email is on its way to carol@example.com/),
    ).toBeInTheDocument()
    expect(sendVerificationEmail).toHaveBeenCalledTimes(1)
    expect(api.calls('GET', '/users/invitations')).toHaveLength(0)
  })

  describe('the state of each node’s latest upload', () => {
    beforeEach(() => jest.useFakeTimers())
    afterEach(() => jest.useRealTimers())

    it('shows it while it is checked, polls, and once Active the row shows the version', async () => {
      const uploaded = {
        id: 'v-2',
        version: '1.0.1',
        createdAt: '2024-03-06T12:00:00Z',
        node_id: 'node-1',
        status: 'NodeVersionStatusPending',
        pipeline_state: 'checking',
      }
      const older = { ...uploaded, id: 'v-1', version: '1.0.0', createdAt: '2024-03-05T12:00:00Z' }
      let checks = 0
      let approved = false
      const api = fakeApi({
        'GET /users/publishers/': { status: 200, data: [{ id: 'acme', name: 'Acme' }] },
        'GET /publishers/acme/permissions': { status: 200, data: { canEdit: true } },
        'GET /publishers/acme/nodes/v2': () => ({
          status: 200,
          data: {
            nodes: [
              {
                id: 'node-1',
                name: 'Node One',
                status: 'NodeStatusActive',
                latest_version: approved
                  ? { ...uploaded, status: 'NodeVersionStatusActive', pipeline_state: 'done' }
                  : { ...older, status: 'NodeVersionStatusActive', pipeline_state: 'done' },
              },
            ],
            total: 1,
            page: 1,
            limit: YOUR_NODES_PAGE_SIZE,
            totalPages: 1,
          },
        }),
        'GET /nodes/node-1/versions': () => {
          approved = ++checks > 1
          const state = approved
            ? { status: 'NodeVersionStatusActive', pipeline_state: 'done' }
            : { status: 'NodeVersionStatusPending', pipeline_state: 'checking' }
          return {
            status: 200,
            data: [
              { ...uploaded, ...state },
              { ...older, status: 'NodeVersionStatusActive', pipeline_state: 'done' },
            ],
          }
        },
      })
      renderWithProviders(<YourNodes />)
      const acme = await screen.findByRole('region', { name: 'Acme' })
      expect(await within(acme).findByText('Latest upload: 1.0.1')).toBeInTheDocument()
      expect(within(acme).getByRole('status')).toHaveTextContent('Checking…')
      expect(within(acme).getByText('Version 1.0.0')).toBeInTheDocument()
      expect(api.calls('GET', '/nodes/node-1/versions')[0].params).toEqual({
        statuses: [
          'NodeVersionStatusActive',
          'NodeVersionStatusPending',
          'NodeVersionStatusFlagged',
          'NodeVersionStatusBanned',
        ],
        include_status_reason: true,
      })

      await act(() => jest.advanceTimersByTimeAsync(1500))
      expect(await within(acme).findByText('Version 1.0.1')).toBeInTheDocument()
      expect(within(acme).queryByText('Latest upload: 1.0.1')).toBeNull()
      const settled = api.calls('GET', '/nodes/node-1/versions').length
      await act(() => jest.advanceTimersByTimeAsync(10_000))
      expect(api.calls('GET', '/nodes/node-1/versions')).toHaveLength(settled)
    })

    it('shows an admin’s decision on the latest upload with its reason and who made it', async () => {
      const decision = {
        message: 'Remove the telemetry call in __init__.py.',
        by: 'admin@example.com',
        statusHistory: [
          {
            status: 'NodeVersionStatusFlagged',
            message: 'Remove the telemetry call in __init__.py.',
            by: 'admin@example.com',
          },
        ],
      }
      fakeApi({
        'GET /users/publishers/': { status: 200, data: [{ id: 'acme', name: 'Acme' }] },
        'GET /publishers/acme/permissions': { status: 200, data: { canEdit: true } },
        'GET /publishers/acme/nodes/v2': {
          status: 200,
          data: {
            nodes: [{ id: 'node-1', name: 'Node One', status: 'NodeStatusActive' }],
            total: 1,
            page: 1,
            limit: YOUR_NODES_PAGE_SIZE,
            totalPages: 1,
          },
        },
        'GET /nodes/node-1/versions': {
          status: 200,
          data: [
            {
              id: 'v-1',
              version: '2.0.0',
              createdAt: '2024-03-06T12:00:00Z',
              node_id: 'node-1',
              status: 'NodeVersionStatusFlagged',
              pipeline_state: 'done',
              status_reason: JSON.stringify(decision),
              scan_findings: [
                {
                  issue_type: 'network-at-import',
                  severity: 'medium',
                  file_path: '__init__.py',
                  line_number: 3,
                  code_snippet: 'requests.get(TELEMETRY_URL)',
                  message: 'Contacts the network when imported.',
                  scanner: 'static-scan',
                },
              ],
            },
          ],
        },
      })
      renderWithProviders(<YourNodes />)
      const acme = await screen.findByRole('region', { name: 'Acme' })
      expect(await within(acme).findByText('Latest upload: 2.0.0')).toBeInTheDocument()
      expect(within(acme).getByRole('status')).toHaveTextContent('Flagged')
      expect(
        within(acme).getByText('Decision: Remove the telemetry call in __init__.py.'),
      ).toBeInTheDocument()
      expect(within(acme).getByText('Decided by admin@example.com')).toBeInTheDocument()
      // The findings' heading follows the publisher's h2 (no version heading in a row).
      expect(
        within(acme).getByRole('heading', { level: 3, name: /What the checks found/ }),
      ).toBeInTheDocument()
      // Never the raw JSON.
      expect(acme.textContent).not.toContain('statusHistory')
    })
  })
})
