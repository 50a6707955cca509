import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import AdminCustomersPage from '@/pages/admin/customers'
import type { Customer, CustomerListResponse } from '@/src/api/generated/model'
import { SEARCH_DEBOUNCE_MS } from '@/src/lib/constants'
import type { FakeResponse } from '../../components/manage/fake-api'
import { GRACE, LINUS, renderAdminPage } from './customers-fixtures'

jest.mock('@/src/lib/firebase', () => ({
  getFirebaseAuth: () => ({ authStateReady: () => Promise.resolve(), currentUser: null }),
}))

function page(customers: Customer[], extra: Partial<CustomerListResponse> = {}): FakeResponse {
  return {
    status: 200,
    data: { customers, total: customers.length, page: 1, limit: 25, totalPages: 1, ...extra },
  }
}

function renderList(query: Record<string, string> = {}, response = page([GRACE, LINUS])) {
  const search = new URLSearchParams(query).toString()
  return renderAdminPage(<AdminCustomersPage />, {
    pathname: '/admin/customers',
    asPath: search ? `/admin/customers?${search}` : '/admin/customers',
    query,
    routes: { 'GET /customers': response },
  })
}

const rowOf = async (email: string) => {
  const row = (await screen.findByRole('link', { name: email })).closest('tr')
  if (!row) throw new Error(`no row for ${email}`)
  return row
}

describe('/admin/customers', () => {
  it('lists customers with their credit and creation date, each linking to its page', async () => {
    const { api } = renderList()
    const grace = await rowOf('grace@example.com')
    expect(screen.getByRole('heading', { level: 1, name: 'Customers' })).toBeInTheDocument()
    expect(
      within(screen.getByRole('navigation', { name: 'Admin sections' })).getByRole('link', {
        name: 'Customers',
      }),
    ).toHaveAttribute('aria-current', 'page')
    expect(api.calls('GET', '/customers').map((call) => call.params)).toEqual([
      { page: 1, limit: 25 },
    ])
    expect(screen.getByText('2 customers')).toBeInTheDocument()

    expect(within(grace).getByRole('link', { name: 'grace@example.com' })).toHaveAttribute(
      'href',
      `/admin/customers/${GRACE.id}`,
    )
    expect(within(grace).getByText('Grace Hopper')).toBeInTheDocument()
    expect(within(grace).getByText('Has credit')).toBeInTheDocument()
    expect(within(grace).getByText('Mar 1, 2024')).toBeInTheDocument()

    const linus = await rowOf('linus@example.com')
    expect(within(linus).getByText('No credit')).toBeInTheDocument()
    expect(within(linus).getByText('Admin')).toBeInTheDocument()
  })

  it('searches by email once typing stops, and at once on Enter', async () => {
    const { router } = renderList()
    await rowOf('grace@example.com')
    const field = screen.getByRole('searchbox', { name: 'Search by email' })

    fireEvent.change(field, { target: { value: ' grace ' } })
    // Not on every keystroke: only once typing has stopped for the debounce delay.
    expect(router.replace).not.toHaveBeenCalled()
    await waitFor(
      () =>
        expect(router.replace).toHaveBeenCalledWith('/admin/customers?email=grace', undefined, {
          shallow: true,
          scroll: false,
        }),
      { timeout: SEARCH_DEBOUNCE_MS * 5 },
    )
    expect(router.replace).toHaveBeenCalledTimes(1)

    fireEvent.change(field, { target: { value: 'linus@' } })
    fireEvent.submit(field)
    expect(router.replace).toHaveBeenLastCalledWith('/admin/customers?email=linus%40', undefined, {
      shallow: true,
      scroll: false,
    })
    // The debounce has nothing left to send.
    await act(() => new Promise((resolve) => setTimeout(resolve, SEARCH_DEBOUNCE_MS * 2)))
    expect(router.replace).toHaveBeenCalledTimes(2)
  })

  it("asks for the address's email and page, and pages the list", async () => {
    const { api } = renderList(
      { email: 'grace', page: '2' },
      page([GRACE], { total: 26, page: 2, totalPages: 2 }),
    )
    await rowOf('grace@example.com')
    expect(api.calls('GET', '/customers')[0].params).toEqual({ email: 'grace', page: 2, limit: 25 })
    expect(screen.getByRole('searchbox', { name: 'Search by email' })).toHaveValue('grace')
    expect(
      screen.getByText('26 customers whose email contains “grace”', { exact: false }),
    ).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Page 1' })).toHaveAttribute(
      'href',
      '/admin/customers?email=grace',
    )
  })

  it('says when no email matches', async () => {
    renderList({ email: 'nobody' }, page([]))
    expect(await screen.findByText('No customer’s email contains “nobody”.')).toBeInTheDocument()
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
  })

  it('shows the API refusal with a retry', async () => {
    renderList(
      {},
      { status: 500, data: { error: 'Internal', message: 'The database is unavailable.' } },
    )
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The customers could not be loaded. The database is unavailable.',
    )
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument()
  })

  it('shows the 404 page to a signed-in non-admin and asks nothing of /customers', async () => {
    const { api } = renderAdminPage(<AdminCustomersPage />, {
      pathname: '/admin/customers',
      asPath: '/admin/customers',
      admin: false,
      routes: { 'GET /customers': page([GRACE]) },
    })
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument()
    expect(screen.queryByRole('navigation', { name: 'Admin sections' })).not.toBeInTheDocument()
    expect(api.calls('GET', '/customers')).toHaveLength(0)
  })
})
