import { AdminPage } from '@/components/admin/AdminPage'
import { AdminNodes } from '@/components/admin/nodes/AdminNodes'
import { translationsOnly } from '@/src/lib/page-props'
import { ADMIN_PATHS } from '@/src/lib/paths'

export default function AdminNodesPage() {
  return (
    <AdminPage section="nodes" path={ADMIN_PATHS.nodes}>
      {() => <AdminNodes />}
    </AdminPage>
  )
}
AdminNodesPage.requiresAuth = true
export const getServerSideProps = translationsOnly
