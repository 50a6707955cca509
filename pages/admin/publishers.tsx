import { AdminPage } from '@/components/admin/AdminPage'
import { AdminPublishers } from '@/components/admin/publishers/AdminPublishers'
import { translationsOnly } from '@/src/lib/page-props'
import { ADMIN_PATHS } from '@/src/lib/paths'

export default function AdminPublishersPage() {
  return (
    <AdminPage section="publishers" path={ADMIN_PATHS.publishers}>
      {() => <AdminPublishers />}
    </AdminPage>
  )
}
AdminPublishersPage.requiresAuth = true
export const getServerSideProps = translationsOnly
