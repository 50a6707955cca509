// The customer's own account page (/account), rendered whole for a signed-in user against the fake
// API: balance and ledger, API keys created (the key shown once) and deleted (after a
// confirmation), the first screen of someone without a credit account, and API errors.
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import AccountPage from '@/pages/account'
import type { ApiKey, Balance, CustomerEventListResponse } from '@/src/api/generated/model'
import { createCustomerApiKeyBody } from '@/src/api/generated/rules.zod'
import type { FakeRoutes } from '../components/manage/fake-api'
import { makeEvent, renderAdminPage } from './admin/customers-fixtures'

jest.mock('@/src/lib/firebase', () => ({
  getFirebaseAuth: () => ({ authStateReady: () => Promise.resolve(), currentUser: null }),
}))

const SECRET = 'comfy_k1a2b3c4_0123456789abcdefghijklmnopqrstuvwxyzABCD'
const laptop: ApiKey = {
  id: 'a0000000-0000-4000-8000-000000000001',
  name: 'laptop',
  description: 'My laptop',
  key_prefix: 'comfy_f00d',
  createdAt: '2026-01-05T10:00:00Z',
}

const topUp = makeEvent(
  1,
  'credit_added',
  { amount_micros: 25_000_000, balance_micros: 25_000_000, description: 'Top-up' },
  '2026-01-02T09:00:00.000Z',
)
const usage = makeEvent(
  2,
  'api_usage',
  { amount_micros: -5_000_000, balance_micros: 20_000_000, description: 'Kling video' },
  '2026-01-03T09:00:00.000Z',
)

function events(page: number): CustomerEventListResponse {
  return { events: [usage, topUp], total: 42, page, limit: 20, totalPages: 3 }
}

/** A customer with a balance, a ledger of three pages and keys that follow creates and deletes. */
function accountApi(overrides: FakeRoutes = {}): FakeRoutes {
  const keys: ApiKey[] = [laptop]
  return {
    'GET /customers/balance': {
      status: 200,
      data: { amount_micros: 20_000_000, currency: 'usd' } satisfies Balance,
    },
    'GET /customers/events': ({ params }) => ({
      status: 200,
      data: events(Number(params?.page ?? 1)),
    }),
    'GET /customers/api-keys': () => ({ status: 200, data: [...keys] }),
    'POST /customers/api-keys': ({ body }) => {
      // The body must be what the contract accepts.
      const sent = createCustomerApiKeyBody.parse(body)
      const created: ApiKey = {
        id: 'a0000000-0000-4000-8000-000000000002',
        name: sent.name,
        key_prefix: SECRET.slice(0, 14),
        createdAt: '2026-02-01T00:00:00Z',
      }
      keys.unshift(created)
      return { status: 201, data: { ...created, key: SECRET } }
    },
    [`DELETE /customers/api-keys/${laptop.id}`]: () => {
      keys.splice(
        keys.findIndex((key) => key.id === laptop.id),
        1,
      )
      return { status: 204 }
    },
    ...overrides,
  }
}

function renderAccount(routes: FakeRoutes = accountApi(), query: Record<string, string> = {}) {
  return renderAdminPage(<AccountPage />, {
    pathname: '/account',
    asPath: '/account',
    query,
    routes,
    admin: false,
  })
}

const section = (name: string) => screen.getByRole('region', { name })

describe('/account', () => {
  it('shows the balance and the ledger, a page at a time', async () => {
    const { api } = renderAccount(accountApi(), { page: '2' })
    expect(screen.getByRole('heading', { level: 1, name: 'Your account' })).toBeInTheDocument()
    expect(await within(section('Credit balance')).findByText('$20.00')).toBeInTheDocument()

    const history = section('History')
    const table = await within(history).findByRole('table', {
      name: 'Your account’s history, newest first',
    })
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows).toHaveLength(2)
    expect(rows[0]).toHaveTextContent('Usage')
    expect(rows[0]).toHaveTextContent('-$5.00')
    expect(rows[0]).toHaveTextContent('Kling video')
    expect(rows[1]).toHaveTextContent('+$25.00')
    expect(within(history).getByText('42 events')).toBeInTheDocument()
    // The page of the address is asked for, and the pages link to the account's own address.
    expect(api.calls('GET', '/customers/events')[0].params).toEqual({ page: 2, limit: 20 })
    const pages = within(history).getByRole('navigation')
    expect(within(pages).getByRole('link', { name: /3/ })).toHaveAttribute(
      'href',
      '/account?page=3',
    )
  })

  it('shows a created key once, with a warning and a copy button, and never after closing', async () => {
    const { api } = renderAccount()
    const keys = section('API keys')
    expect(await within(keys).findByRole('heading', { name: 'laptop' })).toBeInTheDocument()
    expect(within(keys).getByText('comfy_f00d…')).toBeInTheDocument()

    fireEvent.click(within(keys).getByRole('button', { name: 'Create API key' }))
    const form = await screen.findByRole('dialog', { name: 'Create an API key' })
    const name = within(form).getByRole('textbox', { name: 'Key name' })
    // No name: explained at the field, nothing sent.
    fireEvent.click(within(form).getByRole('button', { name: 'Create API key' }))
    expect(name).toHaveAttribute('aria-invalid', 'true')
    expect(name).toHaveAccessibleDescription(
      'For example the computer that runs ComfyUI. Enter a name for the key.',
    )
    expect(api.calls('POST', '/customers/api-keys')).toHaveLength(0)

    fireEvent.change(name, { target: { value: 'studio' } })
    fireEvent.click(within(form).getByRole('button', { name: 'Create API key' }))
    const shown = await screen.findByRole('dialog', { name: 'Your new API key' })
    expect(within(shown).getByRole('alert')).toHaveTextContent('You won’t see it again.')
    expect(within(shown).getByText(SECRET)).toBeInTheDocument()
    expect(within(shown).getByRole('button', { name: 'Copy key' })).toBeInTheDocument()
    expect(api.calls('POST', '/customers/api-keys')[0].body).toEqual({ name: 'studio' })

    fireEvent.click(within(shown).getByRole('button', { name: 'Done' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    // The list shows the new key by its prefix; the key itself is nowhere on the page.
    expect(await within(keys).findByRole('heading', { name: 'studio' })).toBeInTheDocument()
    expect(screen.queryByText(SECRET)).not.toBeInTheDocument()
    expect(document.body.textContent).not.toContain(SECRET)
  })

  it('asks before deleting a key, then removes it', async () => {
    const { api } = renderAccount()
    const keys = section('API keys')
    fireEvent.click(await within(keys).findByRole('button', { name: 'Delete the API key laptop' }))
    const confirm = await screen.findByRole('dialog', { name: 'Delete the API key laptop?' })
    expect(confirm).toHaveTextContent('This cannot be undone.')
    expect(api.calls('DELETE', `/customers/api-keys/${laptop.id}`)).toHaveLength(0)

    // Cancelling deletes nothing.
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(api.calls('DELETE', `/customers/api-keys/${laptop.id}`)).toHaveLength(0)

    fireEvent.click(within(keys).getByRole('button', { name: 'Delete the API key laptop' }))
    const again = await screen.findByRole('dialog', { name: 'Delete the API key laptop?' })
    fireEvent.click(within(again).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(api.calls('DELETE', `/customers/api-keys/${laptop.id}`)).toHaveLength(1)
    expect(await within(keys).findByText('No API keys yet.')).toBeInTheDocument()
  })

  it('shows the API’s refusals and failures as messages', async () => {
    renderAccount(
      accountApi({
        'GET /customers/events': {
          status: 500,
          data: { error: 'Internal', message: 'The database is busy.' },
        },
        'POST /customers/api-keys': {
          status: 400,
          data: { error: 'BadRequest', message: 'The name is already used by another key.' },
        },
        [`DELETE /customers/api-keys/${laptop.id}`]: {
          status: 404,
          data: { error: 'NotFound', message: 'No such API key.' },
        },
      }),
    )
    const history = section('History')
    expect(await within(history).findByRole('alert')).toHaveTextContent(
      'The ledger could not be loaded.',
    )

    const keys = section('API keys')
    fireEvent.click(within(keys).getByRole('button', { name: 'Create API key' }))
    const form = await screen.findByRole('dialog', { name: 'Create an API key' })
    fireEvent.change(within(form).getByRole('textbox', { name: 'Key name' }), {
      target: { value: 'studio' },
    })
    fireEvent.click(within(form).getByRole('button', { name: 'Create API key' }))
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'The name is already used by another key.',
    )
    fireEvent.click(within(form).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())

    fireEvent.click(within(keys).getByRole('button', { name: 'Delete the API key laptop' }))
    const confirm = await screen.findByRole('dialog', { name: 'Delete the API key laptop?' })
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }))
    expect(await within(confirm).findByRole('alert')).toHaveTextContent('No such API key.')
    // The key is still listed.
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(within(keys).getByRole('heading', { name: 'laptop' })).toBeInTheDocument()
  })

  it('offers someone without a credit account to open one', async () => {
    let opened = false
    const { api } = renderAccount(
      accountApi({
        'GET /customers/balance': () =>
          opened
            ? { status: 200, data: { amount_micros: 0, currency: 'usd' } satisfies Balance }
            : { status: 404, data: { error: 'NotFound', message: 'No credit account.' } },
        'GET /customers/api-keys': { status: 200, data: [] },
        'GET /customers/me': () => {
          opened = true
          return {
            status: 200,
            data: { id: '6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f', createdAt: '2026-02-01T00:00:00Z' },
          }
        },
      }),
    )
    const open = await screen.findByRole('region', { name: 'No credit account yet' })
    expect(screen.queryByRole('region', { name: 'History' })).not.toBeInTheDocument()
    expect(within(section('API keys')).getByText('No API keys yet.')).toBeInTheDocument()
    expect(api.calls('GET', '/customers/me')).toHaveLength(0)

    fireEvent.click(within(open).getByRole('button', { name: 'Open my credit account' }))
    const balance = await screen.findByRole('region', { name: 'Credit balance' })
    expect(await within(balance).findByText('$0.00')).toBeInTheDocument()
    expect(api.calls('GET', '/customers/me')).toHaveLength(1)
    expect(screen.getByRole('region', { name: 'History' })).toBeInTheDocument()
  })
})
