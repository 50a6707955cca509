import { act, fireEvent, screen, within } from '@testing-library/react'
import { Toasts } from '@/components/common/Toasts'
import { Header } from '@/components/header/Header'
import { getGetUserQueryKey } from '@/src/api/generated/users/users'
import type { AuthUser } from '@/src/lib/auth'
import { makeTestQueryClient, renderWithProviders } from '../../test-utils'

const user: AuthUser = { uid: 'u1', email: 'bo@example.com', displayName: null, photoURL: null }

function seeded() {
  const queryClient = makeTestQueryClient()
  queryClient.setQueryData(getGetUserQueryKey(), { id: 'u1', isApproved: true, isAdmin: false })
  queryClient.setQueryData(['/nodes', { page: 1 }], { nodes: [] })
  return queryClient
}

async function clickLogout() {
  fireEvent.click(screen.getByRole('button', { name: 'bo@example.com' }))
  await act(async () => {
    fireEvent.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Logout' }))
  })
}

describe('Logout (seed sections 2 and 8)', () => {
  afterEach(() => {
    localStorage.clear()
    sessionStorage.clear()
  })

  it('empties the query cache and both storages, keeping language and theme choices', async () => {
    localStorage.setItem('comfy-registry-cache', '{}')
    localStorage.setItem('i18nextLng', 'ja')
    localStorage.setItem('flowbite-theme-mode', 'dark')
    sessionStorage.setItem('comfy-registry-id-token', 'token')
    const queryClient = seeded()
    const signOut = jest.fn(() => Promise.resolve())
    renderWithProviders(<Header />, { auth: { user, signOut }, queryClient })

    await clickLogout()

    expect(signOut).toHaveBeenCalledTimes(1)
    // (The still-mounted menu may observe /users again; no cached data survives.)
    expect(queryClient.getQueryData(['/nodes', { page: 1 }])).toBeUndefined()
    expect(queryClient.getQueryData(getGetUserQueryKey())).toBeUndefined()
    expect(localStorage.getItem('comfy-registry-cache')).toBeNull()
    expect(sessionStorage.getItem('comfy-registry-id-token')).toBeNull()
    expect(localStorage.getItem('i18nextLng')).toBe('ja')
    expect(localStorage.getItem('flowbite-theme-mode')).toBe('dark')
  })

  it('a failure shows the toast "Logout Error:{message}" and keeps everything', async () => {
    sessionStorage.setItem('comfy-registry-id-token', 'token')
    const queryClient = seeded()
    const signOut = jest.fn(() => Promise.reject(new Error('network down')))
    renderWithProviders(
      <>
        <Header />
        <Toasts />
      </>,
      { auth: { user, signOut }, queryClient },
    )

    await clickLogout()

    expect(await screen.findByText('Logout Error:network down')).toBeInTheDocument()
    expect(queryClient.getQueryData(['/nodes', { page: 1 }])).toEqual({ nodes: [] })
    expect(sessionStorage.getItem('comfy-registry-id-token')).toBe('token')
  })
})
