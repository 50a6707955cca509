// The review of one version (admins only): findings, decisions, files and the decision buttons.
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { AdminPage } from '@/components/admin/AdminPage'
import { VersionReview } from '@/components/admin/review/VersionReview'
import { translationsOnly } from '@/src/lib/page-props'
import { adminReviewPath } from '@/src/lib/paths'
import { paramOf } from '@/src/lib/route-params'

export default function AdminVersionReviewPage() {
  const { t } = useTranslation('common')
  const router = useRouter()
  const nodeId = paramOf(router.query.nodeId)
  const version = paramOf(router.query.version)
  return (
    <AdminPage
      section="queue"
      title={t('admin.review.title', { node: nodeId, version })}
      path={adminReviewPath(nodeId, version)}
    >
      {() =>
        nodeId && version ? (
          <VersionReview key={`${nodeId}@${version}`} nodeId={nodeId} version={version} />
        ) : null
      }
    </AdminPage>
  )
}

AdminVersionReviewPage.requiresAuth = true

export const getServerSideProps = translationsOnly
