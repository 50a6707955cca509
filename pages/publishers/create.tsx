// Create a publisher (signed in only).
import Link from 'next/link'
import { useTranslation } from 'next-i18next/pages'
import { Seo } from '@/components/common/Seo'
import { RequireAuth } from '@/components/auth/RequireAuth'
import { CreatePublisherForm } from '@/components/manage/CreatePublisherForm'
import { LINK, MUTED } from '@/components/manage/styles'
import { translationsOnly } from '@/src/lib/page-props'
import { CONTAINER_CLASS } from '@/components/common/Container'

export default function CreatePublisherPage() {
  const { t } = useTranslation('common')
  return (
    <>
      <Seo
        title={t('manage.createPublisher.title')}
        description={t('manage.createPublisher.intro')}
        path="/publishers/create"
        noindex
      />
      <main id="main-content" className={`${CONTAINER_CLASS} py-8 *:max-w-2xl`}>
        <p className="text-sm">
          <Link href="/nodes" className={LINK}>
            {t('manage.backToYourNodes')}
          </Link>
        </p>
        <h1 className="mt-2 text-2xl font-bold sm:text-3xl">{t('manage.createPublisher.title')}</h1>
        <p className={`mt-2 ${MUTED}`}>{t('manage.createPublisher.intro')}</p>
        <RequireAuth>{() => <CreatePublisherForm />}</RequireAuth>
      </main>
    </>
  )
}

CreatePublisherPage.requiresAuth = true

export const getServerSideProps = translationsOnly
