import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import AdminCustomerPage from '@/pages/admin/customers/[customerId]'
import type {
  Balance,
  CustomerEvent,
  CustomerEventListResponse,
  ProxyLookup,
} from '@/src/api/generated/model'
import { recordCustomerEventBody } from '@/src/api/generated/rules.zod'
import { notifyError } from '@/src/lib/notify'
import type { FakeRequest, FakeResponse, FakeRoutes } from '../../components/manage/fake-api'
import { GRACE, makeEvent, renderAdminPage } from './customers-fixtures'

jest.mock('@/src/lib/firebase', () => ({
  getFirebaseAuth: () => ({ authStateReady: () => Promise.resolve(), currentUser: null }),
}))
jest.mock('@/src/lib/notify', () => ({ notifyError: jest.fn(() => Promise.resolve()) }))

const ID = GRACE.id
const PATH = `/customers/${ID}`

const topUp = makeEvent(
  1,
  'credit_added',
  { amount_micros: 25_000_000, balance_micros: 25_000_000, description: 'Welcome bonus' },
  '2026-01-02T09:00:00.000Z',
)
const usage = makeEvent(
  2,
  'api_usage',
  {
    amount_micros: -5_000_000,
    balance_micros: 20_000_000,
    description: 'Kling video',
    api_key_name: 'studio',
  },
  '2026-01-03T09:00:00.000Z',
)

const lookup: ProxyLookup = {
  id: 'l0000000-0000-4000-8000-000000000001',
  user_id: 'grace-uid',
  customer_id: ID,
  email: GRACE.email,
  provider: 'kling',
  path: '/v1/videos/text2video',
  status: 504,
  outcome: 'timeout',
  latency_ms: 1500,
  createdAt: '2026-01-03T10:00:00.000Z',
}

function eventsPage(events: CustomerEvent[]): CustomerEventListResponse {
  return { events, total: events.length, page: 1, limit: 20, totalPages: 1 }
}

/** A fake customer whose balance and ledger follow the events recorded through the form. */
function ledgerApi(recordAnswer?: (request: FakeRequest) => FakeResponse) {
  let balance = 20_000_000
  const events = [usage, topUp]
  const routes: FakeRoutes = {
    [`GET ${PATH}`]: { status: 200, data: GRACE },
    [`GET ${PATH}/balance`]: () => ({
      status: 200,
      data: {
        amount_micros: balance,
        prepaid_balance_micros: balance - 1_500_000,
        cloud_credit_balance_micros: 1_500_000,
        currency: 'usd',
      } satisfies Balance,
    }),
    [`GET ${PATH}/events`]: () => ({ status: 200, data: eventsPage(events) }),
    'GET /admin/proxy-lookups': {
      status: 200,
      data: { lookups: [lookup], total: 14, page: 1, limit: 10, totalPages: 2 },
    },
    [`POST ${PATH}/events`]: (request) => {
      if (recordAnswer) return recordAnswer(request)
      // The body must be what the contract accepts.
      const body = recordCustomerEventBody.parse(request.body)
      balance += body.amount_micros
      const event = makeEvent(
        events.length + 1,
        body.event_type,
        { amount_micros: body.amount_micros, balance_micros: balance, description: 'x' },
        '2026-01-04T09:00:00.000Z',
      )
      events.unshift(event)
      return { status: 201, data: event }
    },
  }
  return routes
}

function renderDetail(routes: FakeRoutes = ledgerApi(), query: Record<string, string> = {}) {
  return renderAdminPage(<AdminCustomerPage />, {
    pathname: '/admin/customers/[customerId]',
    asPath: `/admin/customers/${ID}`,
    query: { customerId: ID, ...query },
    routes,
  })
}

const section = (name: string) => screen.getByRole('region', { name })

async function fillAndRecord(type: string, amount: string, reason: string) {
  const form = section('Record credit')
  fireEvent.change(within(form).getByLabelText('Type'), { target: { value: type } })
  fireEvent.change(within(form).getByLabelText('Amount (credits)'), { target: { value: amount } })
  fireEvent.change(within(form).getByLabelText('Reason'), { target: { value: reason } })
  fireEvent.click(within(form).getByRole('button', { name: 'Record' }))
}

beforeEach(() => jest.mocked(notifyError).mockClear())

describe('/admin/customers/[customerId]', () => {
  it('shows the customer, the balance, the ledger newest first and the lookups', async () => {
    const { api } = renderDetail()
    expect(await screen.findByText('grace@example.com')).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 1, name: 'Customer' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: '← All customers' })).toHaveAttribute(
      'href',
      '/admin/customers',
    )
    const facts = section('About this customer')
    expect(within(facts).getByText('Grace Hopper')).toBeInTheDocument()
    expect(within(facts).getByText('Mar 1, 2024')).toBeInTheDocument()

    const balance = section('Balance')
    expect(await within(balance).findByText('$20.00')).toBeInTheDocument()
    expect(within(balance).getByText('$18.50')).toBeInTheDocument()
    expect(within(balance).getByText('$1.50')).toBeInTheDocument()

    const ledger = section('Ledger')
    const table = await within(ledger).findByRole('table', {
      name: 'The customer’s ledger, newest first',
    })
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows.map((row) => within(row).getAllByRole('cell')[1].textContent)).toEqual([
      'Usage',
      'Top-up',
    ])
    expect(rows[0]).toHaveTextContent('-$5.00')
    expect(rows[0]).toHaveTextContent('$20.00')
    expect(rows[0]).toHaveTextContent('Kling video')
    expect(rows[0]).toHaveTextContent('Key “studio”')
    expect(rows[1]).toHaveTextContent('+$25.00')
    expect(rows[1]).toHaveTextContent('Welcome bonus')
    expect(api.calls('GET', `${PATH}/events`)[0].params).toEqual({ page: 1, limit: 20 })

    const lookups = section('Recent provider lookups')
    const lookupRow = (await within(lookups).findByText('kling')).closest('tr')
    expect(lookupRow).toHaveTextContent('504')
    expect(lookupRow).toHaveTextContent('Timed out')
    expect(lookupRow).toHaveTextContent('1,500 ms')
    expect(within(lookups).getByText('The newest 1 of 14.')).toBeInTheDocument()
    expect(api.calls('GET', '/admin/proxy-lookups')[0].params).toEqual({
      customer_id: ID,
      limit: 10,
    })
  })

  it('filters the ledger by type through the address', async () => {
    const { api, router } = renderDetail(ledgerApi(), { type: 'refund', page: '1' })
    const ledger = await screen.findByRole('region', { name: 'Ledger' })
    await within(ledger).findByRole('table')
    expect(api.calls('GET', `${PATH}/events`)[0].params).toEqual({
      page: 1,
      limit: 20,
      filter: 'refund',
    })
    const select = within(ledger).getByLabelText('Event type')
    expect(select).toHaveValue('refund')
    fireEvent.change(select, { target: { value: 'api_usage' } })
    expect(router.replace).toHaveBeenLastCalledWith(
      `/admin/customers/${ID}?type=api_usage`,
      undefined,
      { shallow: true, scroll: false },
    )
    fireEvent.change(select, { target: { value: '' } })
    expect(router.replace).toHaveBeenLastCalledWith(`/admin/customers/${ID}`, undefined, {
      shallow: true,
      scroll: false,
    })
  })

  it('records a top-up in exact micros, then refreshes the balance and the ledger', async () => {
    const { api } = renderDetail()
    await within(await screen.findByRole('region', { name: 'Balance' })).findByText('$20.00')
    const form = section('Record credit')
    fireEvent.change(within(form).getByLabelText('Amount (credits)'), {
      target: { value: '12.5' },
    })
    expect(form).toHaveTextContent('That is $12.50 (12,500,000 micro-credits).')

    await fillAndRecord('credit_added', '12.5', '  Conference prize  ')
    expect(await within(form).findByRole('status')).toHaveTextContent(
      'Recorded +$12.50. The balance is now $32.50.',
    )
    expect(api.calls('POST', `${PATH}/events`).map((call) => call.body)).toEqual([
      { event_type: 'credit_added', amount_micros: 12_500_000, reason: 'Conference prize' },
    ])
    // Balance and ledger asked again, and shown.
    await waitFor(() => expect(api.calls('GET', `${PATH}/balance`)).toHaveLength(2))
    await waitFor(() => expect(api.calls('GET', `${PATH}/events`)).toHaveLength(2))
    expect(await within(section('Balance')).findByText('$32.50')).toBeInTheDocument()
    const ledger = section('Ledger')
    await waitFor(() => expect(within(ledger).getAllByRole('row')).toHaveLength(4))
    expect(within(ledger).getAllByRole('row')[1]).toHaveTextContent('+$12.50')
    // The form is ready for the next entry.
    expect(within(form).getByLabelText('Amount (credits)')).toHaveValue('')
    expect(within(form).getByLabelText('Reason')).toHaveValue('')
    expect(notifyError).not.toHaveBeenCalled()
  })

  it('sends a signed adjustment, and tiny amounts without rounding', async () => {
    const { api } = renderDetail()
    await screen.findByRole('region', { name: 'Record credit' })
    await fillAndRecord('adjustment', '-2.5', 'Double charge')
    await within(section('Record credit')).findByRole('status')
    await fillAndRecord('refund', '0.000003', 'Rounding')
    await waitFor(() => expect(api.calls('POST', `${PATH}/events`)).toHaveLength(2))
    expect(api.calls('POST', `${PATH}/events`).map((call) => call.body)).toEqual([
      { event_type: 'adjustment', amount_micros: -2_500_000, reason: 'Double charge' },
      { event_type: 'refund', amount_micros: 3, reason: 'Rounding' },
    ])
  })

  it('refuses bad amounts and a missing reason before asking the API', async () => {
    const { api } = renderDetail()
    await screen.findByRole('region', { name: 'Record credit' })
    const form = section('Record credit')
    const amount = () => within(form).getByLabelText('Amount (credits)')

    await fillAndRecord('credit_added', '1.1234567', '')
    expect(amount()).toHaveAccessibleDescription(/At most 6 decimals/)
    expect(amount()).toHaveAttribute('aria-invalid', 'true')
    expect(within(form).getByLabelText('Reason')).toHaveAccessibleDescription(
      /Write a reason: every ledger entry needs one\./,
    )

    await fillAndRecord('credit_added', '-5', 'Oops')
    expect(amount()).toHaveAccessibleDescription(/only an adjustment can be negative/)
    await fillAndRecord('api_usage', 'abc', 'Oops')
    expect(amount()).toHaveAccessibleDescription(/Enter a number of credits such as 12\.5/)
    await fillAndRecord('refund', '0', 'Oops')
    expect(amount()).toHaveAccessibleDescription(/The amount cannot be zero\./)
    await fillAndRecord('adjustment', '1000000000.5', 'Oops')
    expect(amount()).toHaveAccessibleDescription(/At most \$1,000,000,000\.00 at once\./)
    expect(api.calls('POST', `${PATH}/events`)).toHaveLength(0)
  })

  it("shows a 409's message at the form and as a toast", async () => {
    const routes = ledgerApi(() => ({
      status: 409,
      data: { error: 'Conflict', message: 'The balance would go below zero (it is $20.00).' },
    }))
    const { api } = renderDetail(routes)
    await screen.findByRole('region', { name: 'Record credit' })
    await fillAndRecord('api_usage', '50', 'Big render')
    const form = section('Record credit')
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'Not recorded: The balance would go below zero (it is $20.00).',
    )
    expect(notifyError).toHaveBeenCalledWith(
      'Not recorded: The balance would go below zero (it is $20.00).',
    )
    expect(api.calls('POST', `${PATH}/events`)[0].body).toEqual({
      event_type: 'api_usage',
      amount_micros: 50_000_000,
      reason: 'Big render',
    })
    // Nothing changed: the balance is not asked again, and the typed values stay.
    expect(api.calls('GET', `${PATH}/balance`)).toHaveLength(1)
    expect(within(form).getByLabelText('Amount (credits)')).toHaveValue('50')
    // Editing clears the refusal.
    fireEvent.change(within(form).getByLabelText('Amount (credits)'), { target: { value: '5' } })
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument()
  })

  it('says so for an unknown customer', async () => {
    const routes = ledgerApi()
    routes[`GET ${PATH}`] = { status: 404, data: { error: 'NotFound', message: 'No customer.' } }
    const { api } = renderDetail(routes)
    expect(await screen.findByRole('alert')).toHaveTextContent('There is no customer with this id.')
    expect(api.calls('GET', `${PATH}/balance`)).toHaveLength(0)
  })

  it('asks nothing for an id that is not a uuid', async () => {
    const { api } = renderAdminPage(<AdminCustomerPage />, {
      pathname: '/admin/customers/[customerId]',
      asPath: '/admin/customers/not-an-id',
      query: { customerId: 'not-an-id' },
    })
    expect(await screen.findByRole('alert')).toHaveTextContent('There is no customer with this id.')
    expect(api.requests.map((request) => request.url)).toEqual(['/users'])
  })

  it('shows the 404 page to a signed-in non-admin', async () => {
    const { api } = renderAdminPage(<AdminCustomerPage />, {
      pathname: '/admin/customers/[customerId]',
      asPath: `/admin/customers/${ID}`,
      query: { customerId: ID },
      admin: false,
      routes: ledgerApi(),
    })
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument()
    expect(api.requests.map((request) => request.url)).toEqual(['/users'])
  })
})
