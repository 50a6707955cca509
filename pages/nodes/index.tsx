// "Your Nodes" (signed in only): the user's publishers and their nodes.
import { useTranslation } from 'next-i18next/pages'
import { Seo } from '@/components/common/Seo'
import { RequireAuth } from '@/components/auth/RequireAuth'
import { YourNodes } from '@/components/manage/YourNodes'
import { translationsOnly } from '@/src/lib/page-props'
import { CONTAINER_CLASS } from '@/components/common/Container'

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
      <main id="main-content" className={`${CONTAINER_CLASS} py-8 *:max-w-5xl`}>
        <RequireAuth>{() => <YourNodes />}</RequireAuth>
      </main>
    </>
  )
}

YourNodesPage.requiresAuth = true

export const getServerSideProps = translationsOnly
