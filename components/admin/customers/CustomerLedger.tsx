// A customer's ledger (GET /customers/{customerId}/events; the customer's own, GET
// /customers/events, on their account page): newest first, filtered by event type and paged, both
// kept in the address (`?type=&page=`).
import { keepPreviousData, type UseQueryResult } from '@tanstack/react-query'
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { AdminTable, CELL } from '@/components/admin/nodes/AdminTable'
import { LoadError, SelectField } from '@/components/manage/fields'
import { MUTED } from '@/components/manage/styles'
import { Badge, type BadgeTone } from '@/components/node/Badge'
import { formatDateTime, formatNumber } from '@/components/node/format'
import { Pagination, usePageInRange } from '@/components/nodes/Pagination'
import { useGetCustomerEventsById } from '@/src/api/generated/customers/customers'
import {
  CustomerEventType,
  EventFilterParameter,
  type CustomerEvent,
  type CustomerEventListResponse,
  type GetCustomerEventsByIdParams,
} from '@/src/api/generated/model'
import { formatCredits } from '@/src/lib/credits'
import {
  LEDGER_PAGE_SIZE,
  customerHref,
  isEventType,
  readLedgerState,
  type LedgerState,
} from './customer-url'
import { eventTypeLabel, ledgerEntry } from './ledger'

const TONES: Record<string, BadgeTone> = {
  [CustomerEventType.credit_added]: 'green',
  [CustomerEventType.refund]: 'green',
  [CustomerEventType.api_usage]: 'yellow',
  [CustomerEventType.adjustment]: 'blue',
}

export function ledgerParams({ type, page }: LedgerState): GetCustomerEventsByIdParams {
  return type ? { page, limit: LEDGER_PAGE_SIZE, filter: type } : { page, limit: LEDGER_PAGE_SIZE }
}

export interface CustomerLedgerProps {
  customerId: string
  /** The balance's currency, for showing amounts. */
  currency?: string
}

/** An admin's view of a customer's ledger. */
export function CustomerLedger({ customerId, currency }: CustomerLedgerProps) {
  const { t } = useTranslation('common')
  const router = useRouter()
  const state = readLedgerState(router.query)
  const events = useGetCustomerEventsById(customerId, ledgerParams(state), {
    query: { enabled: router.isReady, placeholderData: keepPreviousData },
  })
  return (
    <LedgerView
      events={events}
      state={state}
      hrefFor={(ledger) => customerHref(customerId, ledger)}
      currency={currency}
      caption={t('admin.customers.ledger.caption')}
    />
  )
}

export interface LedgerViewProps {
  /** The page of events of `state` (the previous page kept while the next one loads). */
  events: UseQueryResult<CustomerEventListResponse, unknown>
  state: LedgerState
  /** The address of the ledger in another state (filter and page live in the address). */
  hrefFor: (state: LedgerState) => string
  currency?: string
  /** The table's caption: whose ledger it is. */
  caption: string
}

/** A ledger, whoever's it is: the event-type filter, the table and its pages. */
export function LedgerView({ events, state, hrefFor, currency, caption }: LedgerViewProps) {
  const { t, i18n } = useTranslation('common')
  const router = useRouter()
  const pageHref = (page: number) => hrefFor({ ...state, page })
  // Only a page's own answer can say it is beyond the last (not the previous one kept meanwhile).
  usePageInRange(
    state.page,
    events.isPlaceholderData ? undefined : events.data?.totalPages,
    pageHref,
    true,
  )

  const filter = (value: string) =>
    void router.replace(
      hrefFor({ type: isEventType(value) ? value : undefined, page: 1 }),
      undefined,
      { shallow: true, scroll: false },
    )

  const body = () => {
    if (events.isPending) {
      return (
        <p role="status" className={MUTED}>
          {t('admin.customers.ledger.loading')}
        </p>
      )
    }
    if (events.isError) {
      return (
        <LoadError
          message={t('admin.customers.ledger.loadError')}
          error={events.error}
          onRetry={() => void events.refetch()}
          className="space-y-2"
          size="sm"
        />
      )
    }
    const { total, totalPages } = events.data
    if (events.data.events.length === 0) {
      return (
        <p className={MUTED}>
          {state.type
            ? t('admin.customers.ledger.emptyFiltered')
            : t('admin.customers.ledger.empty')}
        </p>
      )
    }
    return (
      <>
        <p className={`mb-2 text-sm ${MUTED}`} aria-live="polite">
          {t('admin.customers.ledger.total', {
            count: total,
            formatted: formatNumber(total, i18n.language),
          })}
        </p>
        <LedgerTable events={events.data.events} currency={currency} caption={caption} />
        <Pagination
          page={Math.min(state.page, Math.max(totalPages, 1))}
          totalPages={totalPages}
          hrefFor={pageHref}
          shallow
        />
      </>
    )
  }

  return (
    <>
      <div className="mb-4 max-w-xs">
        <SelectField
          label={t('admin.customers.ledger.filter')}
          value={state.type ?? ''}
          onChange={(event) => filter(event.target.value)}
        >
          <option value="">{t('admin.customers.ledger.allTypes')}</option>
          {Object.values(EventFilterParameter).map((type) => (
            <option key={type} value={type}>
              {eventTypeLabel(type, t)}
            </option>
          ))}
        </SelectField>
      </div>
      {body()}
    </>
  )
}

function LedgerTable({
  events,
  currency,
  caption,
}: {
  events: CustomerEvent[]
  currency?: string
  caption: string
}) {
  const { t, i18n } = useTranslation('common')
  const locale = i18n.language
  return (
    <AdminTable
      caption={caption}
      minWidth="min-w-[44rem]"
      columns={[
        t('admin.customers.ledger.columns.when'),
        t('admin.customers.ledger.columns.type'),
        t('admin.customers.ledger.columns.amount'),
        t('admin.customers.ledger.columns.balance'),
        t('admin.customers.ledger.columns.description'),
      ]}
    >
      {events.map((event) => {
        const entry = ledgerEntry(event)
        return (
          <tr key={event.id}>
            <td className={`${CELL} whitespace-nowrap`}>
              <time dateTime={event.createdAt}>
                {formatDateTime(event.createdAt, locale, 'utc')}
              </time>
            </td>
            <td className={CELL}>
              <Badge tone={TONES[event.event_type] ?? 'gray'}>
                {eventTypeLabel(event.event_type, t)}
              </Badge>
            </td>
            <td className={`${CELL} whitespace-nowrap tabular-nums`}>
              {entry.amountMicros === undefined
                ? '—'
                : formatCredits(entry.amountMicros, locale, { currency, signed: true })}
            </td>
            <td className={`${CELL} whitespace-nowrap tabular-nums`}>
              {entry.balanceMicros === undefined
                ? '—'
                : formatCredits(entry.balanceMicros, locale, { currency })}
            </td>
            <td className={`${CELL} break-words`}>
              {entry.description ?? ''}
              {entry.apiKeyName && (
                <span className={`block text-xs ${MUTED}`}>
                  {t('admin.customers.ledger.apiKey', { name: entry.apiKeyName })}
                </span>
              )}
              {!entry.description && !entry.apiKeyName && <span className={MUTED}>—</span>}
            </td>
          </tr>
        )
      })}
    </AdminTable>
  )
}
