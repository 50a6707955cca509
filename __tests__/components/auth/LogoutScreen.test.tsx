// The logout screen (seed section 2) by its strings: one Logout button, "Logging out..." while
// working, then home; a failure shows "Logout Error:{message}" and the button comes back.
import { act, fireEvent, screen } from '@testing-library/react'
import { LogoutScreen } from '@/components/auth/LogoutScreen'
import { Toasts } from '@/components/common/Toasts'
import type { AuthUser } from '@/src/lib/auth'
import { makeTestQueryClient, renderWithProviders } from '../../test-utils'

const user: AuthUser = { uid: 'u1', email: 'bo@example.com', displayName: null, photoURL: null }

describe('the logout screen', () => {
  afterEach(() => {
    localStorage.clear()
    sessionStorage.clear()
  })

  it('has a single Logout button that reads "Logging out..." while working, then goes home', async () => {
    localStorage.setItem('comfy-registry-signed-in', '1')
    localStorage.setItem('comfy-registry-cache', '{}')
    localStorage.setItem('i18nextLng', 'en')
    sessionStorage.setItem('comfy-registry-id-token', 'token')
    const queryClient = makeTestQueryClient()
    queryClient.setQueryData(['/users'], { id: 'u1' })
    let finish!: () => void
    const signOut = jest.fn(() => new Promise<void>((resolve) => (finish = resolve)))
    const onLoggedOut = jest.fn()
    renderWithProviders(<LogoutScreen onLoggedOut={onLoggedOut} />, {
      auth: { user, signOut },
      queryClient,
    })

    expect(screen.getAllByRole('button')).toHaveLength(1)
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }))
    expect(screen.getByRole('button', { name: 'Logging out...' })).toBeDisabled()
    expect(onLoggedOut).not.toHaveBeenCalled()

    await act(async () => finish())
    expect(signOut).toHaveBeenCalledTimes(1)
    expect(onLoggedOut).toHaveBeenCalledTimes(1)
    expect(queryClient.getQueryData(['/users'])).toBeUndefined()
    expect(sessionStorage.length).toBe(0)
    // Only the language choice is kept; the signed-in hint and the cache are gone.
    expect(Object.keys(localStorage)).toEqual(['i18nextLng'])
  })

  it('a failure toasts "Logout Error:{message}" and offers the button again', async () => {
    const signOut = jest.fn(() => Promise.reject(new Error('network down')))
    const onLoggedOut = jest.fn()
    renderWithProviders(
      <>
        <LogoutScreen onLoggedOut={onLoggedOut} />
        <Toasts />
      </>,
      { auth: { user, signOut } },
    )
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Logout' }))
    })
    expect(await screen.findByText('Logout Error:network down')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Logout' })).toBeEnabled()
    expect(onLoggedOut).not.toHaveBeenCalled()
  })

  it('is translated', () => {
    renderWithProviders(<LogoutScreen onLoggedOut={() => {}} />, { auth: { user }, locale: 'fr' })
    expect(screen.getByRole('heading', { name: 'Se déconnecter' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Déconnexion' })).toBeInTheDocument()
  })
})
