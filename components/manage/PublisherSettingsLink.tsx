// "Settings" on a publisher's public page, for its owners: asked in the browser once someone
// is signed in, so the server-rendered page is the same for everyone.
import Link from 'next/link'
import { useTranslation } from 'next-i18next/pages'
import { useGetPermissionOnPublisher } from '@/src/api/generated/publishers/publishers'
import { useAuth } from '@/src/lib/auth'
import { useTranslationSections } from '@/src/lib/translation-sections'
import { SECONDARY_LINK } from './styles'
import { publisherSettingsPath } from '@/src/lib/paths'

export function PublisherSettingsLink({ publisherId }: { publisherId: string }) {
  const { t } = useTranslation('common')
  const { user } = useAuth()
  const { data } = useGetPermissionOnPublisher(publisherId, {
    query: { enabled: Boolean(user && publisherId) },
  })
  // Its text is one that public pages load only when needed.
  const ready = useTranslationSections(data?.canEdit ? ['manage'] : [])
  if (!user || !data?.canEdit || !ready) return null
  return (
    <Link href={publisherSettingsPath(publisherId)} className={SECONDARY_LINK}>
      {t('manage.yourNodes.settings')}
    </Link>
  )
}
