import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { TokensSection } from '@/components/manage/TokensSection'
import type { PersonalAccessToken } from '@/src/api/generated/model'
import { renderWithProviders } from '../../test-utils'
import { fakeApi } from './fake-api'

jest.mock('@/src/lib/firebase', () => ({
  getFirebaseAuth: () => ({ authStateReady: () => Promise.resolve(), currentUser: null }),
}))

const SECRET = 'cr_pat_3f9a0c12b7de_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG'
const listed: PersonalAccessToken[] = [
  {
    id: '7d0c7f3e-0000-4000-8000-000000000001',
    name: 'laptop',
    description: 'My laptop',
    createdAt: '2026-01-05T10:00:00Z',
    expiresAt: null,
    lastUsedAt: null,
    token: 'cr_pat_3f9a0c12b7de_…',
  },
]

function api() {
  return fakeApi({
    'GET /publishers/acme/tokens': { status: 200, data: listed },
    'POST /publishers/acme/tokens': ({ body }) => ({
      status: 201,
      data: {
        id: '7d0c7f3e-0000-4000-8000-000000000002',
        name: (body as { name: string }).name,
        createdAt: '2026-02-01T00:00:00Z',
        expiresAt: null,
        token: SECRET,
      },
    }),
    'DELETE /publishers/acme/tokens/7d0c7f3e-0000-4000-8000-000000000001': { status: 204 },
  })
}

function mockClipboard(writeText: jest.Mock) {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
}

describe('TokensSection', () => {
  it('lists tokens masked, with name, description, dates and never-used', async () => {
    api()
    renderWithProviders(<TokensSection publisherId="acme" />)
    const list = await screen.findByRole('list', { name: 'Personal access tokens' })
    expect(within(list).getByRole('heading', { name: 'laptop' })).toBeInTheDocument()
    expect(within(list).getByText('My laptop')).toBeInTheDocument()
    expect(within(list).getByText('cr_pat_3f9a0c12b7de_…')).toBeInTheDocument()
    expect(within(list).getByText('Jan 5, 2026')).toBeInTheDocument()
    expect(within(list).getAllByText('Never')).toHaveLength(2)
  })

  it('requires a name, then shows the secret once with a warning and a copy button', async () => {
    const requests = api()
    const writeText = jest.fn(() => Promise.resolve())
    mockClipboard(writeText)
    const { queryClient } = renderWithProviders(<TokensSection publisherId="acme" />)
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }))
    const dialog = await screen.findByRole('dialog', { name: 'Create a personal access token' })
    const name = within(dialog).getByRole('textbox', { name: 'Token name' })
    await waitFor(() => expect(name).toHaveFocus())

    fireEvent.click(within(dialog).getByRole('button', { name: 'Create token' }))
    expect(within(dialog).getByText('Enter a name for the token.')).toBeInTheDocument()
    expect(name).toHaveAttribute('aria-invalid', 'true')
    expect(requests.calls('POST', '/publishers/acme/tokens')).toHaveLength(0)

    fireEvent.change(name, { target: { value: 'ci' } })
    const expiry = within(dialog).getByRole('combobox', { name: 'Expires after' })
    expect(
      within(expiry)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['30 days', '90 days', '365 days', 'Never expires'])
    fireEvent.change(expiry, { target: { value: '30' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create token' }))

    const shown = await screen.findByRole('dialog', { name: 'Your new token' })
    expect(requests.calls('POST', '/publishers/acme/tokens')[0].body).toEqual({
      name: 'ci',
      expires_in_days: 30,
    })
    expect(within(shown).getByText(SECRET)).toBeInTheDocument()
    expect(within(shown).getByRole('alert')).toHaveTextContent('It will not be shown again.')
    fireEvent.click(within(shown).getByRole('button', { name: 'Copy token' }))
    expect(writeText).toHaveBeenCalledWith(SECRET)
    await waitFor(() => expect(within(shown).getByRole('status')).toHaveTextContent('Copied'))

    fireEvent.click(within(shown).getByRole('button', { name: 'Done' }))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(document.body).not.toHaveTextContent(SECRET)
    // Nothing keeps the secret: not the query cache, and the mutation is gone from its cache.
    const kept = (data: unknown[]) => JSON.stringify(data).includes(SECRET)
    await waitFor(() =>
      expect(
        kept(
          queryClient
            .getMutationCache()
            .getAll()
            .map((m) => m.state.data),
        ),
      ).toBe(false),
    )
    expect(
      kept(
        queryClient
          .getQueryCache()
          .getAll()
          .map((q) => q.state.data),
      ),
    ).toBe(false)

    // Opening the modal again starts empty, without the secret.
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }))
    const again = await screen.findByRole('dialog', { name: 'Create a personal access token' })
    expect(within(again).getByRole('textbox', { name: 'Token name' })).toHaveValue('')
    expect(document.body).not.toHaveTextContent(SECRET)
  })

  it('sends no expiry for "Never expires" and closes on Escape', async () => {
    const requests = api()
    renderWithProviders(<TokensSection publisherId="acme" />)
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }))
    const dialog = await screen.findByRole('dialog', { name: 'Create a personal access token' })
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Token name' }), {
      target: { value: 'forever' },
    })
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Expires after' }), {
      target: { value: 'never' },
    })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create token' }))
    const shown = await screen.findByRole('dialog', { name: 'Your new token' })
    expect(requests.calls('POST', '/publishers/acme/tokens')[0].body).toEqual({
      name: 'forever',
      expires_in_days: null,
    })
    fireEvent.keyDown(within(shown).getByRole('button', { name: 'Done' }), { key: 'Escape' })
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(document.body).not.toHaveTextContent(SECRET)
  })

  it('deletes a token after confirmation', async () => {
    const requests = api()
    renderWithProviders(<TokensSection publisherId="acme" />)
    fireEvent.click(await screen.findByRole('button', { name: 'Delete the token laptop' }))
    const dialog = await screen.findByRole('dialog', { name: 'Delete the token laptop?' })
    expect(requests.calls('DELETE', `/publishers/acme/tokens/${listed[0].id}`)).toHaveLength(0)
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(requests.calls('DELETE', `/publishers/acme/tokens/${listed[0].id}`)).toHaveLength(1)
  })
})
