import { screen } from '@testing-library/react'
import { loginUrlFor, RequireAuth } from '@/components/auth/RequireAuth'
import type { AuthUser } from '@/src/lib/auth'
import { renderWithProviders } from '../../test-utils'

const ada: AuthUser = { uid: 'u1', email: 'ada@example.com', displayName: 'Ada', photoURL: null }

describe('RequireAuth (signed-in pages)', () => {
  it('sends a signed-out visitor to the login page with the current path and query', () => {
    const { router } = renderWithProviders(<RequireAuth>{() => <p>private</p>}</RequireAuth>, {
      router: { pathname: '/nodes', asPath: '/nodes?page=2#top' },
    })
    expect(router.replace).toHaveBeenCalledWith('/auth/login?fromUrl=%2Fnodes%3Fpage%3D2')
    expect(screen.queryByText('private')).not.toBeInTheDocument()
    expect(screen.getByRole('status')).toHaveTextContent('Redirecting to the login page…')
  })

  it('waits while the sign-in state is unknown: no redirect, a loading state', () => {
    const { router } = renderWithProviders(<RequireAuth>{() => <p>private</p>}</RequireAuth>, {
      auth: { loading: true },
    })
    expect(router.replace).not.toHaveBeenCalled()
    expect(screen.getByRole('status')).toHaveTextContent('Loading…')
    expect(screen.queryByText('private')).not.toBeInTheDocument()
  })

  it('shows the page to a signed-in user, with the user', () => {
    const { router } = renderWithProviders(
      <RequireAuth>{(user) => <p>private of {user.email}</p>}</RequireAuth>,
      { auth: { user: ada } },
    )
    expect(screen.getByText('private of ada@example.com')).toBeInTheDocument()
    expect(router.replace).not.toHaveBeenCalled()
  })

  it('builds the login address from a path alone', () => {
    expect(loginUrlFor('/publishers/acme/settings')).toBe(
      '/auth/login?fromUrl=%2Fpublishers%2Facme%2Fsettings',
    )
  })
})
