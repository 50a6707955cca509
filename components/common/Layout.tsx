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
      <a
        href={`#${CONTENT_ID}`}
        className="sr-only rounded-lg bg-white px-4 py-2 text-blue-800 focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:outline-2 focus:outline-blue-600 dark:bg-gray-800 dark:text-blue-300"
      >
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
