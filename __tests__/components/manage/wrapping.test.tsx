// Long ids and emails on the owners' pages wrap at their joints (a <wbr> after `-`, `_`, `.`,
// `@`…), never with `break-all`, which splits every word anywhere; on a phone the name of a
// member or node gets its own line and the controls wrap below it (e2e/narrow.spec.ts measures
// the page at 360 px).
import { screen, within } from '@testing-library/react'
import { PublisherSettings } from '@/components/manage/PublisherSettings'
import { YourNodes } from '@/components/manage/YourNodes'
import { YOUR_NODES_PAGE_SIZE } from '@/src/lib/constants'
import { renderWithProviders } from '../../test-utils'
import { fakeApi } from './fake-api'

jest.mock('@/src/lib/firebase', () => ({
  getFirebaseAuth: () => ({ authStateReady: () => Promise.resolve(), currentUser: null }),
}))

const publisherId = 'a-publisher-with-a-rather-long-identifier'
const nodeId = 'comfyui_extremely-long.node-identifier-that-never-fits'
const email = 'first.second-third@subdomain.example-organisation.com'

describe('long ids and emails on the owners’ pages', () => {
  it('Your Nodes: the publisher and node ids wrap at their joints', async () => {
    fakeApi({
      'GET /users/publishers/': { status: 200, data: [{ id: publisherId, name: 'Long' }] },
      [`GET /publishers/${publisherId}/permissions`]: { status: 200, data: { canEdit: true } },
      [`GET /publishers/${publisherId}/nodes/v2`]: {
        status: 200,
        data: {
          nodes: [{ id: nodeId, name: 'Long node', status: 'NodeStatusActive' }],
          total: 1,
          page: 1,
          limit: YOUR_NODES_PAGE_SIZE,
          totalPages: 1,
        },
      },
      [`GET /nodes/${nodeId}/versions`]: { status: 200, data: [] },
    })
    const { container } = renderWithProviders(<YourNodes />)
    const region = await screen.findByRole('region', { name: 'Long' })
    await within(region).findByRole('link', { name: 'Long node' })
    const id = within(region).getByText(nodeId)
    expect(id.innerHTML).toBe(
      'comfyui_<wbr>extremely-<wbr>long.<wbr>node-<wbr>identifier-<wbr>that-<wbr>never-<wbr>fits',
    )
    expect(within(region).getByText(`@${publisherId}`).querySelectorAll('wbr')).toHaveLength(6)
    expect(container.querySelectorAll('.break-all')).toHaveLength(0)
    // The row's name block keeps at least 12rem, so on a phone the facts wrap below it.
    expect(id.parentElement).toHaveClass('min-w-48')
  })

  it('members: a long email wraps at its joints; the role and Remove wrap below the name', async () => {
    fakeApi({
      'GET /publishers/acme': {
        status: 200,
        data: {
          id: 'acme',
          name: 'Acme',
          members: [
            {
              id: 'm1',
              role: 'owner',
              user: { id: 'u-ada', email: 'ada@example.com', name: 'Ada' },
            },
            { id: 'm2', role: 'member', user: { id: 'u-long', email, name: 'Long Name' } },
          ],
          invitations: [{ id: 'i1', email: `invited.${email}`, role: 'member' }],
        },
      },
      'GET /publishers/acme/permissions': { status: 200, data: { canEdit: true } },
      'GET /publishers/acme/tokens': { status: 200, data: [] },
    })
    const { container } = renderWithProviders(
      <PublisherSettings publisherId="acme" currentUserId="u-ada" />,
    )
    const members = await screen.findByRole('region', { name: 'Members' })
    const address = within(members).getByText(email)
    expect(address.innerHTML).toBe(
      'first.<wbr>second-<wbr>third@<wbr>subdomain.<wbr>example-<wbr>organisation.<wbr>com',
    )
    expect(within(members).getByText(`invited.${email}`).querySelector('wbr')).not.toBeNull()
    expect(container.querySelectorAll('.break-all')).toHaveLength(0)
    expect(address.parentElement).toHaveClass('min-w-48')
    // Every member's controls stay reachable by name.
    expect(within(members).getByRole('combobox', { name: 'Role of Long Name' })).toBeEnabled()
    expect(within(members).getByRole('button', { name: 'Remove Long Name' })).toBeEnabled()
  })
})
