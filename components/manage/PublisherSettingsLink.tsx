// "Settings" on a publisher's public page, for its owners: asked in the browser once someone
// is signed in, so the server-rendered page is the same for everyone.
import Link from 'next/link'
import { useTranslation } from 'next-i18next/pages'
import { useGetPermissionOnPublisher } from '@/src/api/generated/publishers/publishers'
import { useAuth } from '@/src/lib/auth'
import { SECONDARY_LINK } from './styles'
import { publisherSettingsPath } from './YourNodes'

export function PublisherSettingsLink({ publisherId }: { publisherId: string }) {
  const { t } = useTranslation('common')
  const { user } = useAuth()
  const { data } = useGetPermissionOnPublisher(publisherId, {
    query: { enabled: Boolean(user && publisherId) },
  })
  if (!user || !data?.canEdit) return null
  return (
    <Link href={publisherSettingsPath(publisherId)} className={SECONDARY_LINK}>
      {t('manage.yourNodes.settings')}
    </Link>
  )
}
