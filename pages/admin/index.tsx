// The Admin Dashboard's overview: counts of what needs attention and the newest admin actions.
import { AdminPage } from '@/components/admin/AdminPage'
import { AdminOverview } from '@/components/admin/overview/AdminOverview'
import { translationsOnly } from '@/src/lib/page-props'
import { ADMIN_PATHS } from '@/src/lib/paths'

export default function AdminOverviewPage() {
  return (
    <AdminPage section="overview" path={ADMIN_PATHS.overview}>
      {() => <AdminOverview />}
    </AdminPage>
  )
}

AdminOverviewPage.requiresAuth = true

export const getServerSideProps = translationsOnly
