import { screen } from '@testing-library/react'
import { Layout, showsHeader } from '@/components/common/Layout'
import { renderWithProviders } from '../../test-utils'

describe('page frame (seed section 2)', () => {
  it('has the header on every page except /auth/login and /auth/signup', () => {
    expect(showsHeader('/')).toBe(true)
    expect(showsHeader('/nodes/[nodeId]', '/nodes/comfy-ab')).toBe(true)
    expect(showsHeader('/auth/login', '/auth/login?fromUrl=%2F')).toBe(false)
    expect(showsHeader('/auth/signup', '/auth/signup')).toBe(false)
    expect(showsHeader('/404', '/auth/login/')).toBe(false)
  })

  it('renders header, content and footer with their landmarks', () => {
    renderWithProviders(
      <Layout>
        <main>page</main>
      </Layout>,
    )
    expect(screen.getByRole('banner')).toBeInTheDocument()
    expect(screen.getByRole('main')).toHaveTextContent('page')
    expect(screen.getByRole('contentinfo')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveAttribute(
      'href',
      '#content',
    )
    expect(screen.getByRole('link', { name: 'Publishing guide' })).toHaveAttribute(
      'href',
      'https://docs.comfy.org/registry/publishing',
    )
    expect(screen.getByRole('link', { name: 'API contract (OpenAPI)' })).toHaveAttribute(
      'href',
      'http://localhost:8080/openapi',
    )
  })

  it('starts with the styled skip link, which targets the focusable content wrapper', () => {
    const { container } = renderWithProviders(
      <Layout>
        <main>page</main>
      </Layout>,
    )
    const skip = screen.getByRole('link', { name: 'Skip to content' })
    // The first focusable element of the page, styled by .skip-link (styles/globals.css).
    expect(container.querySelector('a, button')).toBe(skip)
    expect(skip).toHaveClass('skip-link')
    const target = document.getElementById('content')
    expect(target).toHaveAttribute('tabindex', '-1')
    expect(target).toContainElement(screen.getByRole('main'))
  })

  it('has no header on the login page', () => {
    renderWithProviders(
      <Layout>
        <main>login</main>
      </Layout>,
      { router: { pathname: '/auth/login', asPath: '/auth/login?fromUrl=%2F' } },
    )
    expect(screen.queryByRole('banner')).not.toBeInTheDocument()
    expect(screen.getByRole('contentinfo')).toBeInTheDocument()
  })
})
