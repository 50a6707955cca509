// The server error page in the visitor's language.
import type { GetStaticProps } from 'next'
import Link from 'next/link'
import { useTranslation } from 'next-i18next/pages'
import { Seo } from '@/components/common/Seo'
import { publicTranslations } from '@/src/lib/public-translations'
import { CONTAINER_CLASS } from '@/components/common/Container'

export default function ServerErrorPage() {
  const { t } = useTranslation('common')
  return (
    <>
      <Seo title={t('errorPage.title')} description={t('errorPage.body')} path="/500" noindex />
      <main id="main-content" className={`${CONTAINER_CLASS} py-16 text-center`}>
        <p className="text-sm font-semibold text-red-700 dark:text-red-300">
          {t('errorPage.code', { code: 500 })}
        </p>
        <h1 className="mt-2 text-3xl font-bold">{t('errorPage.title')}</h1>
        <p className="mt-4 text-gray-700 dark:text-gray-300">{t('errorPage.body')}</p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <button
            type="button"
            onClick={() => window.location.reload()}
            className="rounded-lg border border-gray-300 bg-white px-5 py-2.5 text-sm font-medium text-gray-900 hover:bg-gray-100 focus:ring-4 focus:ring-gray-200 focus:outline-none dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100 dark:hover:bg-gray-700 dark:focus:ring-gray-700"
          >
            {t('errorPage.retry')}
          </button>
          <Link
            href="/"
            className="rounded-lg bg-blue-700 px-5 py-2.5 text-sm font-medium text-white hover:bg-blue-800 focus:ring-4 focus:ring-blue-300 focus:outline-none dark:bg-blue-600 dark:hover:bg-blue-700 dark:focus:ring-blue-800"
          >
            {t('errorPage.home')}
          </Link>
        </div>
      </main>
    </>
  )
}

export const getStaticProps: GetStaticProps = async ({ locale }) => ({
  props: await publicTranslations(locale),
})
