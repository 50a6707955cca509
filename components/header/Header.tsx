// The page header (seed section 2): logo and "Comfy Registry" linking home, Documentation
// (Simplified-Chinese docs for zh locales), the community chat, language, dark mode, and either
// Login/Signup (with the current path as fromUrl) or the user menu.
import Link from 'next/link'
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { LanguagePicker } from '@/components/common/LanguagePicker'
import { ThemeToggle } from '@/components/common/ThemeToggle'
import { DOCS_URL, DOCS_URL_ZH } from '@/src/lib/constants'
import { useAuth } from '@/src/lib/auth'
import { BookIcon, ChatIcon, LogoIcon } from './icons'
import { ICON_BUTTON_CLASS } from './MenuButton'
import { UserMenu } from './UserMenu'

/** The registry documentation for a locale: Simplified Chinese for any `zh…` locale. */
export function docsUrlFor(locale: string | undefined): string {
  return locale?.toLowerCase().startsWith('zh') ? DOCS_URL_ZH : DOCS_URL
}

/** The current page's path (and query), without the hash, for `fromUrl`. */
export function currentPath(asPath: string): string {
  return asPath.split('#')[0] || '/'
}

const BUTTON_CLASS =
  'inline-flex h-10 items-center rounded-lg px-3 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:focus-visible:outline-blue-400'

export function Header() {
  const { t } = useTranslation()
  const router = useRouter()
  const { user, loading } = useAuth()
  const fromUrl = currentPath(router.asPath)

  return (
    <header className="border-b border-gray-200 bg-white dark:border-gray-700 dark:bg-gray-900">
      <nav
        aria-label={t('header.nav')}
        className="relative mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-2 gap-y-2 px-4 py-2"
      >
        <Link
          href="/"
          className="flex items-center gap-2 rounded-lg text-lg font-bold text-gray-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:text-white"
        >
          <LogoIcon />
          <span>Comfy Registry</span>
        </Link>
        <div className="ml-auto flex flex-wrap items-center justify-end gap-1">
          <a href={docsUrlFor(router.locale)} className={ICON_BUTTON_CLASS}>
            <BookIcon />
            <span className="sr-only sm:not-sr-only sm:text-sm">{t('header.documentation')}</span>
          </a>
          <a href="/discord" className={ICON_BUTTON_CLASS} aria-label={t('header.discord')}>
            <ChatIcon />
          </a>
          <LanguagePicker />
          <ThemeToggle />
          {loading ? (
            <span className="inline-block h-10 w-40" aria-hidden="true" />
          ) : user ? (
            <UserMenu user={user} />
          ) : (
            <>
              <Link
                href={{ pathname: '/auth/login', query: { fromUrl } }}
                className={`${BUTTON_CLASS} text-gray-800 hover:bg-gray-100 dark:text-gray-100 dark:hover:bg-gray-700`}
              >
                {t('header.login')}
              </Link>
              <Link
                href={{ pathname: '/auth/signup', query: { fromUrl } }}
                className={`${BUTTON_CLASS} bg-blue-700 text-white hover:bg-blue-800 dark:bg-blue-600 dark:hover:bg-blue-700`}
              >
                {t('header.signup')}
              </Link>
            </>
          )}
        </div>
      </nav>
    </header>
  )
}
