// The page frame: a skip link, the header (except on the sign-in pages), the page, the footer.
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import type { ReactNode } from 'react'
import { Header } from '@/components/header/Header'
import { ROUTES_WITHOUT_HEADER } from '@/src/lib/constants'
import { Footer } from './Footer'

export const CONTENT_ID = 'content'

/** False on the sign-in pages, by route or by address (also while such a page is missing). */
export function showsHeader(pathname: string, asPath: string = pathname): boolean {
  const path = asPath.split(/[?#]/)[0].replace(/\/+$/, '') || '/'
  return !(ROUTES_WITHOUT_HEADER as readonly string[]).some(
    (route) => route === pathname || route === path,
  )
}

export function Layout({ children }: { children: ReactNode }) {
  const { t } = useTranslation()
  const { pathname, asPath } = useRouter()
  return (
    <div className="flex min-h-screen flex-col">
      {/* The first stop of Tab on every page: out of sight until focused (styles/globals.css). */}
      <a href={`#${CONTENT_ID}`} className="skip-link">
        {t('common.skipToContent')}
      </a>
      {showsHeader(pathname, asPath) && <Header />}
      <div id={CONTENT_ID} tabIndex={-1} className="flex-1 focus:outline-none">
        {children}
      </div>
      <Footer />
    </div>
  )
}
