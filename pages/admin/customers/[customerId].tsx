// One customer: balance, "Record credit", the ledger and the newest provider lookups.
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { AdminPage } from '@/components/admin/AdminPage'
import { CustomerDetail } from '@/components/admin/customers/CustomerDetail'
import { customerHref } from '@/components/admin/customers/customer-url'
import { translationsOnly } from '@/src/lib/page-props'
import { paramOf } from '@/src/lib/route-params'

export default function AdminCustomerPage() {
  const { t } = useTranslation('common')
  const router = useRouter()
  const customerId = paramOf(router.query.customerId)
  return (
    <AdminPage
      section="customers"
      title={t('admin.customers.detail.title')}
      path={customerHref(customerId)}
    >
      {() => (customerId ? <CustomerDetail key={customerId} customerId={customerId} /> : null)}
    </AdminPage>
  )
}

AdminCustomerPage.requiresAuth = true

export const getServerSideProps = translationsOnly
