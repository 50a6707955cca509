// The 404 page in the visitor's language: a way home and a node search.
import type { GetStaticProps } from 'next'
import { useTranslation } from 'next-i18next/pages'
import { NotFoundContent } from '@/components/common/NotFoundContent'
import { Seo } from '@/components/common/Seo'
import { publicTranslations } from '@/src/lib/public-translations'
import { CONTAINER_CLASS } from '@/components/common/Container'

export default function NotFoundPage() {
  const { t } = useTranslation('common')
  return (
    <>
      <Seo title={t('notFound.title')} description={t('notFound.body')} path="/404" noindex />
      <main id="main-content" className={`${CONTAINER_CLASS} py-16 text-center`}>
        <NotFoundContent />
      </main>
    </>
  )
}

export const getStaticProps: GetStaticProps = async ({ locale }) => ({
  props: await publicTranslations(locale),
})
