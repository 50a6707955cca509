import { AdminPage } from '@/components/admin/AdminPage'
import { AddNodeForm } from '@/components/admin/nodes/AddNodeForm'
import { translationsOnly } from '@/src/lib/page-props'
import { ADMIN_PATHS } from '@/src/lib/paths'

export default function AdminAddNodePage() {
  return (
    <AdminPage section="addNode" path={ADMIN_PATHS.addNode}>
      {() => <AddNodeForm />}
    </AdminPage>
  )
}
AdminAddNodePage.requiresAuth = true
export const getServerSideProps = translationsOnly
