// What the 404 page says (a way home and a node search); also shown in place of pages a
// signed-in visitor may not see, such as the Admin Dashboard for non-admins.
import Link from 'next/link'
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { useId } from 'react'
import { DEFAULT_LANGUAGE } from '@/src/lib/constants'

export function NotFoundContent() {
  const { t } = useTranslation('common')
  const { locale = DEFAULT_LANGUAGE } = useRouter()
  const inputId = useId()
  // The home page searches with `?q=`; a plain form works without JavaScript too.
  const home = locale === DEFAULT_LANGUAGE ? '/' : `/${locale}`
  return (
    <div className="mx-auto w-full max-w-2xl text-center">
      <p className="text-sm font-semibold text-blue-700 dark:text-blue-300">{t('notFound.code')}</p>
      <h1 className="mt-2 text-3xl font-bold">{t('notFound.title')}</h1>
      <p className="mt-4 text-gray-700 dark:text-gray-300">{t('notFound.body')}</p>
      <p className="mt-8">
        <Link
          href="/"
          className="inline-flex rounded-lg bg-blue-700 px-5 py-2.5 text-sm font-medium text-white hover:bg-blue-800 focus:ring-4 focus:ring-blue-300 focus:outline-none dark:bg-blue-600 dark:hover:bg-blue-700 dark:focus:ring-blue-800"
        >
          {t('notFound.home')}
        </Link>
      </p>
      <form action={home} method="get" role="search" className="mt-10 text-left">
        <label htmlFor={inputId} className="block text-sm text-gray-700 dark:text-gray-300">
          {t('notFound.searchHint')}
        </label>
        <div className="mt-2 flex gap-2">
          <input
            id={inputId}
            name="q"
            type="search"
            autoComplete="off"
            className="min-w-0 flex-1 rounded-lg border border-gray-300 bg-white px-3 py-2 text-sm text-gray-900 focus:border-blue-600 focus:ring-2 focus:ring-blue-600 focus:outline-none dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100"
          />
          <button
            type="submit"
            className="rounded-lg border border-gray-300 bg-white px-4 py-2 text-sm font-medium text-gray-900 hover:bg-gray-100 focus:ring-4 focus:ring-gray-200 focus:outline-none dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100 dark:hover:bg-gray-700 dark:focus:ring-gray-700"
          >
            {t('notFound.searchButton')}
          </button>
        </div>
      </form>
    </div>
  )
}
