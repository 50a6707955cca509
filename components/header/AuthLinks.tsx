// Login and Signup, each carrying the current path as `fromUrl` (the header row and its Menu).
import Link from 'next/link'
import { useTranslation } from 'next-i18next/pages'

const BUTTON_CLASS =
  'inline-flex h-10 items-center justify-center rounded-lg px-3 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:focus-visible:outline-blue-400'

/** Login and Signup, each carrying the current path as `fromUrl`. */
export function AuthLinks({ fromUrl, className = '' }: { fromUrl: string; className?: string }) {
  const { t } = useTranslation()
  return (
    <>
      <Link
        href={{ pathname: '/auth/login', query: { fromUrl } }}
        className={`${BUTTON_CLASS} text-gray-800 hover:bg-gray-100 dark:text-gray-100 dark:hover:bg-gray-700 ${className}`}
      >
        {t('header.login')}
      </Link>
      <Link
        href={{ pathname: '/auth/signup', query: { fromUrl } }}
        className={`${BUTTON_CLASS} bg-blue-700 text-white hover:bg-blue-800 dark:bg-blue-600 dark:hover:bg-blue-700 ${className}`}
      >
        {t('header.signup')}
      </Link>
    </>
  )
}
