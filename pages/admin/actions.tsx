// The audit log of admin actions, with filters in the address and undo.
import { AdminPage } from '@/components/admin/AdminPage'
import { AuditLog } from '@/components/admin/actions/AuditLog'
import { translationsOnly } from '@/src/lib/page-props'
import { ADMIN_PATHS } from '@/src/lib/paths'

export default function AdminActionsPage() {
  return (
    <AdminPage section="actions" path={ADMIN_PATHS.actions}>
      {() => <AuditLog />}
    </AdminPage>
  )
}

AdminActionsPage.requiresAuth = true

export const getServerSideProps = translationsOnly
