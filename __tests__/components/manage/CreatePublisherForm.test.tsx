import { fireEvent, screen, waitFor } from '@testing-library/react'
import { CreatePublisherForm } from '@/components/manage/CreatePublisherForm'
import { renderWithProviders } from '../../test-utils'
import { fakeApi, type FakeRequest } from './fake-api'

jest.mock('@/src/lib/firebase', () => ({
  getFirebaseAuth: () => ({ authStateReady: () => Promise.resolve(), currentUser: null }),
}))

/** The server's verdicts: `acme` is taken, `admin` reserved, bad patterns refused. */
function validate({ params }: FakeRequest) {
  const username = String(params?.username)
  if (username === 'acme')
    return { status: 200, data: { isAvailable: false, message: "'acme' is taken." } }
  if (username === 'admin')
    return { status: 200, data: { isAvailable: false, message: "'admin' is reserved." } }
  if (!/^[a-z][a-z0-9-]*$/.test(username)) {
    return {
      status: 200,
      data: { isAvailable: false, message: 'A publisher id starts with a lowercase letter.' },
    }
  }
  return { status: 200, data: { isAvailable: true } }
}

const idField = () => screen.getByRole('textbox', { name: 'Publisher ID' })
const submitButton = () => screen.getByRole('button', { name: 'Create publisher' })

describe('CreatePublisherForm', () => {
  it('checks the id once typing pauses and shows the server message, tied to the field', async () => {
    const api = fakeApi({ 'GET /publishers/validate': validate })
    renderWithProviders(<CreatePublisherForm />)
    for (const value of ['a', 'ac', 'acm', 'acme'])
      fireEvent.change(idField(), { target: { value } })
    expect(screen.getByRole('status')).toHaveTextContent('Checking availability…')
    expect(submitButton()).toBeDisabled()

    expect(await screen.findByText("'acme' is taken.")).toBeInTheDocument()
    // Debounced: only the last value was sent.
    expect(api.calls('GET', '/publishers/validate').map((call) => call.params)).toEqual([
      { username: 'acme' },
    ])
    const error = screen.getByText("'acme' is taken.")
    expect(idField()).toHaveAttribute('aria-invalid', 'true')
    expect(idField().getAttribute('aria-describedby')).toContain(error.id)
    expect(submitButton()).toBeDisabled()
  })

  it.each([
    ['admin', "'admin' is reserved."],
    ['Bad_Id', 'A publisher id starts with a lowercase letter.'],
  ])('refuses %s with the server message', async (value, message) => {
    fakeApi({ 'GET /publishers/validate': validate })
    renderWithProviders(<CreatePublisherForm />)
    fireEvent.change(idField(), { target: { value } })
    expect(await screen.findByText(message)).toBeInTheDocument()
    expect(submitButton()).toBeDisabled()
  })

  it('announces a free id, asks for the display name, then creates and opens the settings', async () => {
    const api = fakeApi({
      'GET /publishers/validate': validate,
      'POST /publishers': ({ body }) => ({ status: 201, data: { ...(body as object) } }),
    })
    const { router } = renderWithProviders(<CreatePublisherForm />)
    fireEvent.change(idField(), { target: { value: 'my-studio' } })
    expect(await screen.findByText('my-studio is available.')).toBeInTheDocument()
    expect(submitButton()).toBeEnabled()

    fireEvent.click(submitButton())
    const nameField = screen.getByRole('textbox', { name: 'Display name' })
    expect(screen.getByText('Enter a display name.')).toBeInTheDocument()
    expect(nameField).toHaveAttribute('aria-invalid', 'true')
    expect(api.calls('POST', '/publishers')).toHaveLength(0)

    fireEvent.change(nameField, { target: { value: '  My Studio ' } })
    fireEvent.change(screen.getByRole('textbox', { name: 'Website (optional)' }), {
      target: { value: 'not a url' },
    })
    fireEvent.click(submitButton())
    expect(
      screen.getByText('Enter a full web address starting with https:// or http://.'),
    ).toBeInTheDocument()
    expect(api.calls('POST', '/publishers')).toHaveLength(0)

    fireEvent.change(screen.getByRole('textbox', { name: 'Website (optional)' }), {
      target: { value: 'https://studio.example' },
    })
    fireEvent.click(submitButton())
    await waitFor(() => expect(router.push).toHaveBeenCalledWith('/publishers/my-studio/settings'))
    expect(api.calls('POST', '/publishers')[0].body).toEqual({
      id: 'my-studio',
      name: 'My Studio',
      website: 'https://studio.example',
    })
  })

  it('shows the server refusal of the create call', async () => {
    fakeApi({
      'GET /publishers/validate': validate,
      'POST /publishers': {
        status: 409,
        data: { error: 'Conflict', message: "The publisher id 'late' was just taken." },
      },
    })
    const { router } = renderWithProviders(<CreatePublisherForm />)
    fireEvent.change(idField(), { target: { value: 'late' } })
    await screen.findByText('late is available.')
    fireEvent.change(screen.getByRole('textbox', { name: 'Display name' }), {
      target: { value: 'Late' },
    })
    fireEvent.click(submitButton())
    expect(await screen.findByRole('alert')).toHaveTextContent(
      "The publisher id 'late' was just taken.",
    )
    expect(router.push).not.toHaveBeenCalled()
  })
})
