import { fireEvent, screen, within } from '@testing-library/react'
import { CONTAINER_CLASS } from '@/components/common/Container'
import { Footer } from '@/components/common/Footer'
import { Header } from '@/components/header/Header'
import type { AuthUser } from '@/src/lib/auth'
import { renderWithProviders } from '../../test-utils'

const longEmail = 'a-very-long-address-for-the-layout-check@subdomain.example-organisation.com'
const user: AuthUser = { uid: 'uid-long', email: longEmail, displayName: null, photoURL: null }

function panelOf(button: HTMLElement): HTMLElement {
  const id = button.getAttribute('aria-controls')
  const panel = id ? document.getElementById(id) : null
  if (!panel) throw new Error('the Menu button controls no element')
  return panel
}

describe('the header Menu (small screens)', () => {
  it('toggles its panel with aria-expanded, and Escape closes it and returns focus', () => {
    renderWithProviders(<Header />, { router: { asPath: '/?page=2' } })
    const button = screen.getByRole('button', { name: 'Menu' })
    const panel = panelOf(button)
    expect(button).toHaveAttribute('aria-expanded', 'false')
    expect(panel).not.toBeVisible()

    fireEvent.click(button)
    expect(button).toHaveAttribute('aria-expanded', 'true')
    expect(panel).toBeVisible()
    // Login and Signup (with fromUrl), Documentation, chat, dark mode and the languages.
    const inPanel = within(panel)
    expect(inPanel.getByRole('link', { name: 'Login' })).toHaveAttribute(
      'href',
      '/auth/login?fromUrl=%2F%3Fpage%3D2',
    )
    expect(inPanel.getByRole('link', { name: 'Signup' })).toBeInTheDocument()
    expect(inPanel.getByRole('link', { name: 'Documentation' })).toHaveAttribute(
      'href',
      'https://docs.comfy.org/registry/overview',
    )
    expect(inPanel.getByRole('link', { name: 'Community chat on Discord' })).toBeInTheDocument()
    expect(inPanel.getByRole('button', { name: 'Switch to dark mode' })).toBeInTheDocument()
    const languages = within(inPanel.getByRole('group', { name: 'Language' }))
    expect(languages.getAllByRole('button')).toHaveLength(7)
    expect(languages.getByRole('button', { name: 'English' })).toHaveAttribute(
      'aria-current',
      'true',
    )

    within(panel).getByRole('link', { name: 'Documentation' }).focus()
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' })
    expect(button).toHaveAttribute('aria-expanded', 'false')
    expect(panel).not.toBeVisible()
    expect(button).toHaveFocus()

    fireEvent.click(button)
    fireEvent.click(button)
    expect(button).toHaveAttribute('aria-expanded', 'false')
  })

  it('closes on a click outside it', () => {
    renderWithProviders(
      <>
        <Header />
        <p>outside</p>
      </>,
    )
    const button = screen.getByRole('button', { name: 'Menu' })
    fireEvent.click(button)
    fireEvent.pointerDown(screen.getByText('outside'))
    expect(button).toHaveAttribute('aria-expanded', 'false')
  })

  it('choosing a language switches to it and closes the Menu', () => {
    const { router } = renderWithProviders(<Header />, {
      router: { pathname: '/', asPath: '/?page=2' },
    })
    const button = screen.getByRole('button', { name: 'Menu' })
    fireEvent.click(button)
    fireEvent.click(within(panelOf(button)).getByRole('button', { name: 'Français' }))
    expect(router.replace).toHaveBeenCalledWith(expect.anything(), '/?page=2', { locale: 'fr' })
    expect(button).toHaveAttribute('aria-expanded', 'false')
  })

  it('is named in every language (here Russian)', () => {
    renderWithProviders(<Header />, { locale: 'ru' })
    expect(screen.getByRole('button', { name: 'Меню' })).toHaveAttribute('aria-expanded', 'false')
  })

  it('signed in: no Login in the Menu; the user menu keeps the whole email in a title', () => {
    renderWithProviders(<Header />, { auth: { user } })
    const button = screen.getByRole('button', { name: 'Menu' })
    fireEvent.click(button)
    expect(within(panelOf(button)).queryByRole('link', { name: 'Login' })).not.toBeInTheDocument()

    fireEvent.click(screen.getByRole('button', { name: longEmail }))
    const email = within(screen.getByRole('menu')).getByText(longEmail)
    expect(email).toHaveAttribute('title', longEmail)
    expect(email).toHaveClass('truncate')
  })
})

describe('one container for the frame', () => {
  it('the header and the footer use the shared container class', () => {
    renderWithProviders(
      <>
        <Header />
        <Footer />
      </>,
    )
    const classes = CONTAINER_CLASS.split(' ')
    expect(screen.getByRole('navigation', { name: 'Main' })).toHaveClass(...classes)
    expect(screen.getByRole('contentinfo').firstElementChild).toHaveClass(...classes)
  })
})
