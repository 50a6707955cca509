// Customers: every credit account, searched by email, each linking to its page.
import { AdminPage } from '@/components/admin/AdminPage'
import { AdminCustomers } from '@/components/admin/customers/AdminCustomers'
import { translationsOnly } from '@/src/lib/page-props'
import { ADMIN_PATHS } from '@/src/lib/paths'

export default function AdminCustomersPage() {
  return (
    <AdminPage section="customers" path={ADMIN_PATHS.customers}>
      {() => <AdminCustomers />}
    </AdminPage>
  )
}

AdminCustomersPage.requiresAuth = true

export const getServerSideProps = translationsOnly
