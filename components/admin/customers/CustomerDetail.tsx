// One customer (admins only): who they are (GET /customers/{id}), their balance (…/balance), the
// "Record credit" form, their ledger (…/events) and their newest provider lookups.
import type { UseQueryResult } from '@tanstack/react-query'
import Link from 'next/link'
import { useTranslation } from 'next-i18next/pages'
import type { ReactNode } from 'react'
import { breakable } from '@/components/common/BreakableText'
import { FormMessage, LoadError } from '@/components/manage/fields'
import { CARD, LINK, MUTED } from '@/components/manage/styles'
import { Badge } from '@/components/node/Badge'
import { formatDate } from '@/components/node/format'
import {
  useGetCustomerBalanceById,
  useGetCustomerById,
} from '@/src/api/generated/customers/customers'
import type { Balance, Customer } from '@/src/api/generated/model'
import { errorStatus } from '@/src/lib/api-error'
import { formatCredits } from '@/src/lib/credits'
import { ADMIN_PATHS } from '@/src/lib/paths'
import { CustomerLedger } from './CustomerLedger'
import { CustomerLookups } from './CustomerLookups'
import { isCustomerId } from './customer-url'
import { RecordCreditForm } from './RecordCreditForm'

const SECTION_TITLE = 'mb-4 text-xl font-semibold text-gray-900 dark:text-white'

export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className={`text-xs font-medium uppercase ${MUTED}`}>{label}</dt>
      <dd className="mt-0.5 break-words text-gray-900 dark:text-white">{children}</dd>
    </div>
  )
}

export function Section({
  id,
  title,
  children,
}: {
  id: string
  title: string
  children: ReactNode
}) {
  return (
    <section aria-labelledby={id} className={CARD}>
      <h2 id={id} className={SECTION_TITLE}>
        {title}
      </h2>
      {children}
    </section>
  )
}

export function CustomerDetail({ customerId }: { customerId: string }) {
  const { t } = useTranslation('common')
  const valid = isCustomerId(customerId)
  const customer = useGetCustomerById(customerId, { query: { enabled: valid } })

  const back = (
    <p className="mb-4 text-sm">
      <Link href={ADMIN_PATHS.customers} className={LINK}>
        {t('admin.customers.detail.back')}
      </Link>
    </p>
  )

  if (!valid || (customer.isError && errorStatus(customer.error) === 404)) {
    return (
      <>
        {back}
        <FormMessage kind="error">{t('admin.customers.detail.notFound')}</FormMessage>
      </>
    )
  }
  if (customer.isPending) {
    return (
      <>
        {back}
        <p role="status" className={MUTED}>
          {t('admin.customers.detail.loading')}
        </p>
      </>
    )
  }
  if (customer.isError) {
    return (
      <>
        {back}
        <LoadError
          message={t('admin.customers.detail.loadError')}
          error={customer.error}
          onRetry={() => void customer.refetch()}
        />
      </>
    )
  }
  return (
    <>
      {back}
      <CustomerSections customer={customer.data} />
    </>
  )
}

function CustomerSections({ customer }: { customer: Customer }) {
  const { t, i18n } = useTranslation('common')
  const balance = useGetCustomerBalanceById(customer.id)
  const currency = balance.data?.currency
  return (
    <div className="space-y-6">
      <div className="grid gap-6 lg:grid-cols-2">
        <Section id="customer-facts" title={t('admin.customers.detail.facts')}>
          <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <Fact label={t('admin.customers.detail.email')}>
              {customer.email ? breakable(customer.email) : '—'}
            </Fact>
            <Fact label={t('admin.customers.detail.name')}>
              {customer.name || '—'}
              {customer.is_admin && (
                <span className="ml-2">
                  <Badge tone="blue">{t('admin.customers.admin')}</Badge>
                </span>
              )}
            </Fact>
            <Fact label={t('admin.customers.detail.created')}>
              {formatDate(customer.createdAt, i18n.language) ?? '—'}
            </Fact>
            <Fact label={t('admin.customers.detail.id')}>
              <span className="font-mono text-sm">{breakable(customer.id)}</span>
            </Fact>
          </dl>
        </Section>
        <Section id="customer-balance" title={t('admin.customers.balance.title')}>
          <BalanceBody balance={balance} />
        </Section>
      </div>
      <Section id="customer-record" title={t('admin.customers.record.title')}>
        <p className={`mb-4 text-sm ${MUTED}`}>{t('admin.customers.record.intro')}</p>
        <RecordCreditForm customerId={customer.id} currency={currency} />
      </Section>
      <Section id="customer-ledger" title={t('admin.customers.ledger.title')}>
        <CustomerLedger customerId={customer.id} currency={currency} />
      </Section>
      <Section id="customer-lookups" title={t('admin.customers.lookups.title')}>
        <CustomerLookups customerId={customer.id} />
      </Section>
    </div>
  )
}

/** A balance query's state: loading, failed (with a retry) or the amounts. */
export function BalanceBody({ balance }: { balance: UseQueryResult<Balance, unknown> }) {
  const { t } = useTranslation('common')
  if (balance.isPending) {
    return (
      <p role="status" className={MUTED}>
        {t('admin.customers.balance.loading')}
      </p>
    )
  }
  if (balance.isError) {
    return (
      <LoadError
        message={t('admin.customers.balance.loadError')}
        error={balance.error}
        onRetry={() => void balance.refetch()}
        className="space-y-2"
        size="sm"
      />
    )
  }
  return <BalanceFacts balance={balance.data} />
}

function BalanceFacts({ balance }: { balance: Balance }) {
  const { t, i18n } = useTranslation('common')
  const money = (micros: number) =>
    formatCredits(micros, i18n.language, { currency: balance.currency })
  return (
    <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2">
      <div className="min-w-0 sm:col-span-2">
        <dt className={`text-xs font-medium uppercase ${MUTED}`}>
          {t('admin.customers.balance.total')}
        </dt>
        <dd
          className="mt-0.5 text-3xl font-bold break-words text-gray-900 tabular-nums dark:text-white"
          aria-live="polite"
        >
          {money(balance.amount_micros)}
        </dd>
      </div>
      {balance.prepaid_balance_micros !== undefined && (
        <Fact label={t('admin.customers.balance.prepaid')}>
          {money(balance.prepaid_balance_micros)}
        </Fact>
      )}
      {balance.cloud_credit_balance_micros !== undefined && (
        <Fact label={t('admin.customers.balance.cloud')}>
          {money(balance.cloud_credit_balance_micros)}
        </Fact>
      )}
    </dl>
  )
}
