// Customers (GET /customers, admins only): searched by part of their email (debounced as typed,
// at once on Enter), newest first, a page at a time; the search and page live in the address.
// Each row links to the customer's page (balance, ledger, lookups).
import { keepPreviousData } from '@tanstack/react-query'
import { Button } from 'flowbite-react'
import Link from 'next/link'
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { useEffect, useEffectEvent, useState, type FormEvent } from 'react'
import { breakable } from '@/components/common/BreakableText'
import { AdminTable, CELL } from '@/components/admin/nodes/AdminTable'
import { LoadError, TextField } from '@/components/manage/fields'
import { LINK, MUTED } from '@/components/manage/styles'
import { Badge } from '@/components/node/Badge'
import { formatDate, formatNumber } from '@/components/node/format'
import { Pagination, usePageInRange } from '@/components/nodes/Pagination'
import { useListCustomers } from '@/src/api/generated/customers/customers'
import type { Customer, ListCustomersParams } from '@/src/api/generated/model'
import { SEARCH_DEBOUNCE_MS } from '@/src/lib/constants'
import {
  CUSTOMERS_PAGE_SIZE,
  EMAIL_SEARCH_MAX_LENGTH,
  customerHref,
  customerListHref,
  readCustomerListState,
  type CustomerListState,
} from './customer-url'

export interface EmailSearchProps {
  /** The email text of the address. */
  value: string
  /** Called with the new text (trimmed): SEARCH_DEBOUNCE_MS after typing stops, at once on Enter. */
  onSearch: (email: string) => void
}

/**
 * The email search. The field keeps its own text while typing and reports it debounced; when the
 * address changes from outside (back, a link) the field follows it.
 */
export function EmailSearch({ value, onSearch }: EmailSearchProps) {
  const { t } = useTranslation('common')
  const [text, setText] = useState(value)
  // The address text last seen, and the text last reported (null once the address has it).
  const [seen, setSeen] = useState(value)
  const [reported, setReported] = useState<string | null>(null)
  if (value !== seen) {
    setSeen(value)
    setReported(null)
    if (value !== reported) setText(value)
  }

  const report = useEffectEvent((email: string) => {
    setReported(email)
    onSearch(email)
  })

  useEffect(() => {
    const email = text.trim()
    if (email === value || email === reported) return
    const timer = setTimeout(() => report(email), SEARCH_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [text, value, reported])

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const email = text.trim()
    if (email !== value && email !== reported) {
      setReported(email)
      onSearch(email)
    }
  }

  return (
    <form
      role="search"
      aria-label={t('admin.customers.search.landmark')}
      onSubmit={submit}
      className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-end"
    >
      <TextField
        className="min-w-0 flex-1"
        label={t('admin.customers.search.label')}
        type="search"
        value={text}
        maxLength={EMAIL_SEARCH_MAX_LENGTH}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        placeholder={t('admin.customers.search.placeholder')}
        onChange={(event) => setText(event.target.value)}
      />
      <Button type="submit" color="blue">
        {t('admin.customers.search.submit')}
      </Button>
    </form>
  )
}

/** The API's parameters for the list's state. */
export function customerListParams({ email, page }: CustomerListState): ListCustomersParams {
  return email ? { email, page, limit: CUSTOMERS_PAGE_SIZE } : { page, limit: CUSTOMERS_PAGE_SIZE }
}

export function AdminCustomers() {
  const { t, i18n } = useTranslation('common')
  const router = useRouter()
  const state = readCustomerListState(router.query)
  const customers = useListCustomers(customerListParams(state), {
    query: { enabled: router.isReady, placeholderData: keepPreviousData },
  })
  const hrefFor = (page: number) => customerListHref({ ...state, page })
  // Only a page's own answer can say it is beyond the last (not the previous one kept meanwhile).
  usePageInRange(
    state.page,
    customers.isPlaceholderData ? undefined : customers.data?.totalPages,
    hrefFor,
    true,
  )

  const search = (email: string) =>
    void router.replace(customerListHref({ email, page: 1 }), undefined, {
      shallow: true,
      scroll: false,
    })

  const results = () => {
    if (customers.isPending) {
      return (
        <p role="status" className={MUTED}>
          {t('admin.customers.loading')}
        </p>
      )
    }
    if (customers.isError) {
      return (
        <LoadError
          message={t('admin.customers.loadError')}
          error={customers.error}
          onRetry={() => void customers.refetch()}
          className="space-y-2"
          size="sm"
        />
      )
    }
    const { total, totalPages } = customers.data
    const count = {
      count: total,
      formatted: formatNumber(total, i18n.language),
      email: state.email,
    }
    return (
      <>
        <p className={`mb-2 text-sm ${MUTED}`} aria-live="polite">
          {state.email ? t('admin.customers.matching', count) : t('admin.customers.total', count)}
        </p>
        {customers.data.customers.length === 0 ? (
          <p className={MUTED}>
            {state.email
              ? t('admin.customers.emptyFiltered', { email: state.email })
              : t('admin.customers.empty')}
          </p>
        ) : (
          <CustomersTable customers={customers.data.customers} />
        )}
        <Pagination
          page={Math.min(state.page, Math.max(totalPages, 1))}
          totalPages={totalPages}
          hrefFor={hrefFor}
          shallow
        />
      </>
    )
  }

  return (
    <>
      <p className={`mb-4 ${MUTED}`}>{t('admin.customers.intro')}</p>
      <EmailSearch value={state.email} onSearch={search} />
      {results()}
    </>
  )
}

function CustomersTable({ customers }: { customers: Customer[] }) {
  const { t, i18n } = useTranslation('common')
  return (
    <AdminTable
      caption={t('admin.customers.tableCaption')}
      minWidth="min-w-[36rem]"
      columns={[
        t('admin.customers.columns.email'),
        t('admin.customers.columns.name'),
        t('admin.customers.columns.credit'),
        t('admin.customers.columns.created'),
      ]}
    >
      {customers.map((customer) => (
        <tr key={customer.id}>
          <th scope="row" className={`${CELL} font-normal`}>
            <Link href={customerHref(customer.id)} className={`${LINK} break-words`}>
              {customer.email ? breakable(customer.email) : t('admin.customers.noEmail')}
            </Link>
          </th>
          <td className={`${CELL} break-words`}>
            {customer.name || <span className={MUTED}>—</span>}
            {customer.is_admin && (
              <span className="ml-2">
                <Badge tone="blue">{t('admin.customers.admin')}</Badge>
              </span>
            )}
          </td>
          <td className={CELL}>
            <Badge tone={customer.has_fund ? 'green' : 'gray'}>
              {t(customer.has_fund ? 'admin.customers.funds.yes' : 'admin.customers.funds.no')}
            </Badge>
          </td>
          <td className={`${CELL} whitespace-nowrap`}>
            {formatDate(customer.createdAt, i18n.language) ?? '—'}
          </td>
        </tr>
      ))}
    </AdminTable>
  )
}
