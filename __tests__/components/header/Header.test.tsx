import { act, fireEvent, screen, within } from '@testing-library/react'
import { Header } from '@/components/header/Header'
import { avatarInitial } from '@/components/header/UserMenu'
import { getGetUserQueryKey } from '@/src/api/generated/users/users'
import type { AuthUser } from '@/src/lib/auth'
import { makeTestQueryClient, renderWithProviders } from '../../test-utils'

const ada: AuthUser = {
  uid: 'uid-ada',
  email: 'ada@example.com',
  displayName: 'Ada Lovelace',
  photoURL: null,
}

function withProfile(isAdmin: boolean) {
  const queryClient = makeTestQueryClient()
  queryClient.setQueryData(getGetUserQueryKey(), {
    id: ada.uid,
    email: ada.email ?? undefined,
    isApproved: true,
    isAdmin,
  })
  return queryClient
}

const press = (key: string) => fireEvent.keyDown(document.activeElement ?? document.body, { key })

async function openUserMenu(name: string) {
  fireEvent.click(screen.getByRole('button', { name }))
  return screen.getByRole('menu')
}

describe('Header (seed section 2)', () => {
  it('shows the logo text "Comfy Registry" linking home, docs and the chat link', () => {
    renderWithProviders(<Header />)
    expect(screen.getByRole('link', { name: 'Comfy Registry' })).toHaveAttribute('href', '/')
    expect(screen.getByRole('link', { name: 'Documentation' })).toHaveAttribute(
      'href',
      'https://docs.comfy.org/registry/overview',
    )
    expect(screen.getByRole('link', { name: 'Community chat on Discord' })).toHaveAttribute(
      'href',
      '/discord',
    )
  })

  it('links the Simplified-Chinese documentation when the locale starts with zh', () => {
    renderWithProviders(<Header />, { locale: 'zh' })
    expect(screen.getByRole('link', { name: '文档' })).toHaveAttribute(
      'href',
      'https://docs.comfy.org/zh-CN/registry/overview',
    )
  })

  it('logged out: Login and Signup carry the current path as fromUrl', () => {
    renderWithProviders(<Header />, {
      router: { pathname: '/nodes/[nodeId]', asPath: '/nodes/comfy-ab?tab=versions#top' },
    })
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute(
      'href',
      '/auth/login?fromUrl=%2Fnodes%2Fcomfy-ab%3Ftab%3Dversions',
    )
    expect(screen.getByRole('link', { name: 'Signup' })).toHaveAttribute(
      'href',
      '/auth/signup?fromUrl=%2Fnodes%2Fcomfy-ab%3Ftab%3Dversions',
    )
    expect(screen.queryByTestId('avatar-initial')).not.toBeInTheDocument()
  })

  it('shows neither Login nor the user menu while the sign-in state is unknown', () => {
    renderWithProviders(<Header />, { auth: { loading: true } })
    expect(screen.queryByRole('link', { name: 'Login' })).not.toBeInTheDocument()
    expect(screen.queryByTestId('avatar-initial')).not.toBeInTheDocument()
  })

  it('logged in: the menu has a header with name and email, Your Nodes, Your account, a divider, Logout', async () => {
    renderWithProviders(<Header />, { auth: { user: ada }, queryClient: withProfile(false) })
    expect(screen.queryByRole('link', { name: 'Login' })).not.toBeInTheDocument()
    expect(screen.getByText('Ada Lovelace')).toBeInTheDocument()
    const menu = await openUserMenu('Ada Lovelace')
    expect(within(menu).getByText('ada@example.com')).toBeInTheDocument()
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Your Nodes', 'Your account', 'Logout'])
    expect(within(menu).getByRole('menuitem', { name: 'Your Nodes' })).toHaveAttribute(
      'href',
      '/nodes',
    )
    expect(within(menu).getByRole('menuitem', { name: 'Your account' })).toHaveAttribute(
      'href',
      '/account',
    )
    expect(within(menu).getByRole('separator')).toBeInTheDocument()
    expect(within(menu).getByRole('menuitem', { name: 'Your Nodes' })).toHaveFocus()
  })

  it('logged in as an admin: Admin Dashboard comes after Your account', async () => {
    renderWithProviders(<Header />, { auth: { user: ada }, queryClient: withProfile(true) })
    const menu = await openUserMenu('Ada Lovelace')
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Your Nodes', 'Your account', 'Admin Dashboard', 'Logout'])
    expect(within(menu).getByRole('menuitem', { name: 'Admin Dashboard' })).toHaveAttribute(
      'href',
      '/admin',
    )
  })

  it('the menu is usable by keyboard: arrows move, Escape closes and returns focus', async () => {
    renderWithProviders(<Header />, { auth: { user: ada }, queryClient: withProfile(true) })
    const button = screen.getByRole('button', { name: 'Ada Lovelace' })
    button.focus()
    press('ArrowDown')
    expect(screen.getByRole('menuitem', { name: 'Your Nodes' })).toHaveFocus()
    press('ArrowDown')
    expect(screen.getByRole('menuitem', { name: 'Your account' })).toHaveFocus()
    press('ArrowDown')
    expect(screen.getByRole('menuitem', { name: 'Admin Dashboard' })).toHaveFocus()
    press('ArrowUp')
    press('ArrowUp')
    press('ArrowUp')
    expect(screen.getByRole('menuitem', { name: 'Logout' })).toHaveFocus()
    press('Escape')
    expect(screen.queryByRole('menu')).not.toBeInTheDocument()
    expect(button).toHaveFocus()
  })

  it('shows the email when there is no display name', () => {
    renderWithProviders(<Header />, {
      auth: { user: { ...ada, displayName: null } },
      queryClient: withProfile(false),
    })
    expect(screen.getByRole('button', { name: 'ada@example.com' })).toHaveTextContent(
      'ada@example.com',
    )
  })

  it('avatar: the photo, else the first initial, else "U"', () => {
    const { unmount } = renderWithProviders(<Header />, {
      auth: { user: { ...ada, photoURL: 'https://example.com/ada.png' } },
      queryClient: withProfile(false),
    })
    expect(screen.getByTestId('avatar-photo')).toHaveAttribute('src', 'https://example.com/ada.png')
    unmount()

    renderWithProviders(<Header />, { auth: { user: ada }, queryClient: withProfile(false) })
    expect(screen.getByTestId('avatar-initial')).toHaveTextContent(/^A$/)

    expect(avatarInitial({ displayName: null, email: 'zoe@example.com' })).toBe('Z')
    expect(avatarInitial({ displayName: 'élodie', email: null })).toBe('É')
    expect(avatarInitial({ displayName: null, email: null })).toBe('U')
    expect(avatarInitial({ displayName: '', email: '' })).toBe('U')
  })

  it('Logout signs out, then resets and clears the cache, then clears storage', async () => {
    const order: string[] = []
    const queryClient = withProfile(false)
    jest.spyOn(queryClient, 'resetQueries').mockImplementation(async () => {
      order.push('resetQueries')
    })
    jest.spyOn(queryClient, 'clear').mockImplementation(() => void order.push('clear'))
    const clearLocal = jest.spyOn(Storage.prototype, 'clear')
    clearLocal.mockImplementation(function (this: Storage) {
      order.push(this === window.localStorage ? 'localStorage.clear' : 'sessionStorage.clear')
    })
    const signOut = jest.fn(async () => void order.push('signOut'))

    renderWithProviders(<Header />, { auth: { user: ada, signOut }, queryClient })
    const menu = await openUserMenu('Ada Lovelace')
    await act(async () => {
      fireEvent.click(within(menu).getByRole('menuitem', { name: 'Logout' }))
    })

    expect(order).toEqual([
      'signOut',
      'resetQueries',
      'clear',
      'localStorage.clear',
      'sessionStorage.clear',
    ])
    clearLocal.mockRestore()
  })
})
