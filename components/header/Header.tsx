// The page header (seed section 2): logo and "Comfy Registry" linking home, Documentation
// (Simplified-Chinese docs for zh locales), the community chat, language, dark mode, and either
// Login/Signup (with the current path as fromUrl) or the user menu. Below the md breakpoint it
// stays one row in every language: the logo, the user menu and a Menu button that opens the
// other links and controls (SiteMenu).
import Link from 'next/link'
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { CONTAINER_CLASS } from '@/components/common/Container'
import { LanguagePicker } from '@/components/common/LanguagePicker'
import { ThemeToggle } from '@/components/common/ThemeToggle'
import { DOCS_URL, DOCS_URL_ZH } from '@/src/lib/constants'
import { useAuth } from '@/src/lib/auth'
import { BookIcon, ChatIcon, LogoIcon } from './icons'
import { ICON_BUTTON_CLASS } from './MenuButton'
import { AuthLinks } from './AuthLinks'
import { SiteMenu } from './SiteMenu'
import { UserMenu } from './UserMenu'

/** The registry documentation for a locale: Simplified Chinese for any `zh…` locale. */
export function docsUrlFor(locale: string | undefined): string {
  return locale?.toLowerCase().startsWith('zh') ? DOCS_URL_ZH : DOCS_URL
}

/** The current page's path (and query), without the hash, for `fromUrl`. */
export function currentPath(asPath: string): string {
  return asPath.split('#')[0] || '/'
}

export function Header() {
  const { t } = useTranslation()
  const router = useRouter()
  const { user, loading } = useAuth()
  const fromUrl = currentPath(router.asPath)

  return (
    <header className="border-b border-gray-200 bg-white dark:border-gray-700 dark:bg-gray-900">
      <nav
        aria-label={t('header.nav')}
        className={`${CONTAINER_CLASS} relative flex items-center justify-between gap-2 py-2`}
      >
        <Link
          href="/"
          className="flex shrink-0 items-center gap-2 rounded-lg text-lg font-bold whitespace-nowrap text-gray-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:text-white"
        >
          <LogoIcon />
          <span>Comfy Registry</span>
        </Link>
        <div className="ml-auto flex items-center gap-1">
          {/* From md up everything is in the row; below, these are in the Menu (SiteMenu). */}
          <div className="hidden items-center gap-1 md:flex">
            <a href={docsUrlFor(router.locale)} className={ICON_BUTTON_CLASS}>
              <BookIcon />
              <span className="text-sm whitespace-nowrap">{t('header.documentation')}</span>
            </a>
            {/* eslint-disable-next-line @next/next/no-html-link-for-pages -- a redirect to the chat (next.config.js), not a page */}
            <a href="/discord" className={ICON_BUTTON_CLASS} aria-label={t('header.discord')}>
              <ChatIcon />
            </a>
            <LanguagePicker />
            <ThemeToggle />
            {!loading && !user && <AuthLinks fromUrl={fromUrl} />}
          </div>
          {loading ? (
            <span className="hidden h-10 w-40 md:inline-block" aria-hidden="true" />
          ) : (
            user && <UserMenu user={user} />
          )}
          <SiteMenu
            docsUrl={docsUrlFor(router.locale)}
            fromUrl={!loading && !user ? fromUrl : null}
          />
        </div>
      </nav>
    </header>
  )
}
