import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { AdminPublishers } from '@/components/admin/publishers/AdminPublishers'
import type { Publisher } from '@/src/api/generated/model'
import { isAdminOnlyQuery } from '@/src/api/persist'
import { UNCLAIMED_PUBLISHER } from '@/src/lib/constants'
import type { FakeResponse, FakeRoutes } from '../manage/fake-api'
import { renderAdmin } from './fixtures'

jest.mock('@/src/lib/firebase', () => ({
  getFirebaseAuth: () => ({ authStateReady: () => Promise.resolve(), currentUser: null }),
}))

const acme: Publisher = {
  id: 'acme',
  name: 'Acme Studio',
  status: 'PublisherStatusActive',
  createdAt: '2024-03-01T10:00:00Z',
}
const evil: Publisher = {
  id: 'evil-corp',
  name: 'Evil Corp',
  status: 'PublisherStatusBanned',
  createdAt: '2024-05-01T10:00:00Z',
}
const unclaimed: Publisher = {
  id: UNCLAIMED_PUBLISHER.id,
  name: UNCLAIMED_PUBLISHER.name,
  status: 'PublisherStatusActive',
  createdAt: '2023-01-01T00:00:00Z',
}

function renderPublishers(
  routes: FakeRoutes = {},
  query: Record<string, string> = {},
  publishers: Publisher[] = [acme, evil, unclaimed],
) {
  return renderAdmin(<AdminPublishers />, {
    path: '/admin/publishers',
    query,
    routes: { 'GET /publishers': { status: 200, data: publishers }, ...routes },
  })
}

const rowOf = async (id: string) =>
  (await screen.findByRole('link', { name: id })).closest('tr') as HTMLElement

describe('AdminPublishers', () => {
  it('lists every publisher, newest first, with status, date and actions', async () => {
    const { api, queryClient } = renderPublishers()
    const evilRow = await rowOf('evil-corp')
    // Banned publishers are listed only for admins asking for them.
    expect(api.calls('GET', '/publishers').map((call) => call.params)).toEqual([
      { include_banned: true },
    ])
    const rows = screen.getAllByRole('row').slice(1)
    expect(rows.map((row) => within(row).getAllByRole('link')[0].textContent)).toEqual([
      'evil-corp',
      'acme',
      UNCLAIMED_PUBLISHER.id,
    ])
    expect(within(evilRow).getByRole('link', { name: 'evil-corp' })).toHaveAttribute(
      'href',
      '/publishers/evil-corp',
    )
    expect(within(evilRow).getByText('Banned')).toBeInTheDocument()
    expect(within(evilRow).getByText('May 1, 2024')).toBeInTheDocument()
    expect(within(evilRow).getByRole('button', { name: 'Unban evil-corp' })).toBeInTheDocument()
    expect(within(evilRow).getByRole('link', { name: 'Versions of evil-corp' })).toHaveAttribute(
      'href',
      '/admin/versions?publisher=evil-corp&status=all',
    )
    expect(screen.getByText('3 publishers')).toBeInTheDocument()

    // The reserved publisher of unclaimed nodes cannot be banned: no button.
    const reserved = await rowOf(UNCLAIMED_PUBLISHER.id)
    expect(within(reserved).queryByRole('button')).not.toBeInTheDocument()
    expect(
      within(reserved).getByText('Reserved for unclaimed nodes: cannot be banned.'),
    ).toBeInTheDocument()

    // The admin's list (banned publishers included) is never persisted.
    const keys = queryClient
      .getQueryCache()
      .getAll()
      .map((query) => query.queryKey)
    expect(keys).toEqual([['/publishers', { include_banned: true }]])
    expect(isAdminOnlyQuery(keys[0])).toBe(true)
  })

  it.each([
    [{ q: 'EVIL' }, ['evil-corp']],
    [{ q: 'studio' }, ['acme']],
    [{ banned: '1' }, ['evil-corp']],
    [{ q: 'acme', banned: '1' }, []],
  ])('filters by the address %p', async (query, ids) => {
    renderPublishers({}, query)
    await screen.findByText(/matching publisher/)
    expect(
      screen
        .queryAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('link')[0].textContent),
    ).toEqual(ids)
  })

  it('pages 50 at a time, the page from the address', async () => {
    const many = Array.from({ length: 120 }, (_, index) => ({
      id: `p-${String(index).padStart(3, '0')}`,
      name: `Publisher ${index}`,
      status: 'PublisherStatusActive' as const,
    }))
    renderPublishers({}, { page: '3' }, many)
    await rowOf('p-100')
    expect(screen.getAllByRole('row')).toHaveLength(21)
    expect(screen.getByRole('link', { name: 'Page 2' })).toHaveAttribute(
      'href',
      '/admin/publishers?page=2',
    )
  })

  it('refuses a ban without a reason, then bans with the reason', async () => {
    const { api, router } = renderPublishers({
      'PUT /admin/publishers/acme': {
        status: 200,
        data: { ...acme, status: 'PublisherStatusBanned' },
      },
    })
    fireEvent.click(within(await rowOf('acme')).getByRole('button', { name: 'Ban acme' }))
    const dialog = await screen.findByRole('dialog')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Ban publisher' }))
    expect(within(dialog).getByText('Write a reason: a ban needs one.')).toBeInTheDocument()
    expect(api.calls('PUT', '/admin/publishers/acme')).toHaveLength(0)

    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Reason' }), {
      target: { value: 'Spam nodes' },
    })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Ban publisher' }))
    expect(await screen.findByText('acme is banned.')).toBeInTheDocument()
    expect(api.calls('PUT', '/admin/publishers/acme').map((call) => call.body)).toEqual([
      { status: 'PublisherStatusBanned', status_reason: 'Spam nodes' },
    ])
    // The list is asked again (invalidated after the ban).
    await waitFor(() => expect(api.calls('GET', '/publishers')).toHaveLength(2))
    expect(router.replace).not.toHaveBeenCalled()
  })

  it('unbans without a reason and shows the API refusal', async () => {
    let answer: FakeResponse = {
      status: 403,
      data: { error: 'Forbidden', message: 'Only registry admins can do this.' },
    }
    const { api } = renderPublishers({ 'PUT /admin/publishers/evil-corp': () => answer })
    fireEvent.click(
      within(await rowOf('evil-corp')).getByRole('button', { name: 'Unban evil-corp' }),
    )
    const dialog = await screen.findByRole('dialog')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Unban publisher' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Only registry admins can do this.',
    )
    answer = { status: 200, data: { ...evil, status: 'PublisherStatusActive' } }
    fireEvent.click(within(dialog).getByRole('button', { name: 'Unban publisher' }))
    expect(await screen.findByText('evil-corp is active again.')).toBeInTheDocument()
    expect(api.calls('PUT', '/admin/publishers/evil-corp').at(-1)?.body).toEqual({
      status: 'PublisherStatusActive',
    })
  })

  it('searches by typing and keeps banned only in the address', async () => {
    const { router } = renderPublishers({}, { banned: '1' })
    await rowOf('evil-corp')
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search publishers' }), {
      target: { value: 'corp' },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Search' }))
    expect(router.replace).toHaveBeenLastCalledWith(
      { pathname: '/admin/publishers', query: { q: 'corp', banned: '1' } },
      undefined,
      { shallow: true, scroll: false },
    )
  })
})
