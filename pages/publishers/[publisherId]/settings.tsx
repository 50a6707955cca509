// A publisher's settings (signed in; owners can change them): profile, members, tokens, deletion.
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { Seo } from '@/components/common/Seo'
import { RequireAuth } from '@/components/auth/RequireAuth'
import { PublisherSettings } from '@/components/manage/PublisherSettings'
import { translationsOnly } from '@/src/lib/page-props'
import { paramOf } from '@/src/lib/route-params'
import { publisherSettingsPath } from '@/src/lib/paths'
import { CONTAINER_CLASS } from '@/components/common/Container'

export default function PublisherSettingsPage() {
  const { t } = useTranslation('common')
  const router = useRouter()
  const publisherId = paramOf(router.query.publisherId)
  return (
    <>
      <Seo
        title={t('manage.settings.titleFallback')}
        description={t('manage.settings.titleFallback')}
        path={publisherSettingsPath(publisherId)}
        noindex
      />
      <main id="main-content" className={`${CONTAINER_CLASS} py-8 *:max-w-4xl`}>
        <RequireAuth>
          {(user) =>
            publisherId ? (
              <PublisherSettings publisherId={publisherId} currentUserId={user.uid} />
            ) : null
          }
        </RequireAuth>
      </main>
    </>
  )
}

PublisherSettingsPage.requiresAuth = true

export const getServerSideProps = translationsOnly
