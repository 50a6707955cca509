// "Your Nodes" (signed in only): the user's publishers and their nodes.
import { useTranslation } from 'next-i18next/pages'
import { Seo } from '@/components/common/Seo'
import { RequireAuth } from '@/components/auth/RequireAuth'
import { YourNodes } from '@/components/manage/YourNodes'
import { translationsOnly } from '@/src/lib/page-props'

export default function YourNodesPage() {
  const { t } = useTranslation('common')
  return (
    <>
      <Seo
        title={t('manage.yourNodes.title')}
        description={t('manage.yourNodes.intro')}
        path="/nodes"
        noindex
      />
      <main id="main-content" className="mx-auto w-full max-w-5xl px-4 py-8 sm:px-6">
        <RequireAuth>{() => <YourNodes />}</RequireAuth>
      </main>
    </>
  )
}

YourNodesPage.requiresAuth = true

export const getServerSideProps = translationsOnly
