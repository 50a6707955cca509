import { screen } from '@testing-library/react'
import type { ReactNode } from 'react'
import { FeedLink } from '@/components/common/FeedLink'
import { localizedUrl } from '@/src/lib/seo'
import { renderWithProviders } from '../../test-utils'

// next/head needs Next's head manager; here its children render in place (React moves a <link>
// into document.head).
jest.mock('next/head', () => ({
  __esModule: true,
  default: ({ children }: { children: ReactNode }) => <>{children}</>,
}))

describe('FeedLink', () => {
  it('announces the feed to feed readers and shows a link to it (default language)', () => {
    renderWithProviders(<FeedLink path="/nodes/demo/feed.xml" title="Demo & Co: versions" />)
    const alternate = document.querySelector('link[rel="alternate"]')
    expect(alternate).toHaveAttribute('type', 'application/rss+xml')
    expect(alternate).toHaveAttribute('title', 'Demo & Co: versions')
    expect(alternate).toHaveAttribute('href', localizedUrl('/nodes/demo/feed.xml'))
    const link = screen.getByRole('link', { name: 'RSS feed' })
    expect(link).toHaveAttribute('href', '/nodes/demo/feed.xml')
    expect(link.querySelector('svg')).toHaveAttribute('aria-hidden', 'true')
  })

  it("points at the feed in the page's language", () => {
    renderWithProviders(<FeedLink path="/publishers/acme/feed.xml" title="Acme" />, {
      locale: 'ko',
    })
    expect(document.querySelector('link[rel="alternate"]')).toHaveAttribute(
      'href',
      localizedUrl('/publishers/acme/feed.xml', 'ko'),
    )
    expect(screen.getByRole('link', { name: 'RSS 피드' })).toHaveAttribute(
      'href',
      '/ko/publishers/acme/feed.xml',
    )
  })
})
