import { AdminPage } from '@/components/admin/AdminPage'
import { ReviewQueue } from '@/components/admin/queue/ReviewQueue'
import { ADMIN_PATHS } from '@/src/lib/paths'
import { translationsOnly } from '@/src/lib/page-props'

export default function AdminReviewQueuePage() {
  return (
    <AdminPage section="queue" path={ADMIN_PATHS.queue}>
      {() => <ReviewQueue />}
    </AdminPage>
  )
}

AdminReviewQueuePage.requiresAuth = true
export const getServerSideProps = translationsOnly
