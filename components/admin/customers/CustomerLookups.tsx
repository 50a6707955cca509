// A customer's newest provider lookups through the proxy (GET /admin/proxy-lookups?customer_id=):
// when, which provider and path, the status answered, the outcome and how long it took.
import { useTranslation } from 'next-i18next/pages'
import { breakable } from '@/components/common/BreakableText'
import { AdminTable, CELL } from '@/components/admin/nodes/AdminTable'
import { LoadError } from '@/components/manage/fields'
import { MUTED } from '@/components/manage/styles'
import { Badge, type BadgeTone } from '@/components/node/Badge'
import { formatDateTime, formatNumber } from '@/components/node/format'
import { useListProxyLookups } from '@/src/api/generated/admin/admin'
import { ProxyLookupOutcome, type ProxyLookup } from '@/src/api/generated/model'
import { RECENT_LOOKUPS } from './customer-url'

const OUTCOME_TONES: Record<ProxyLookupOutcome, BadgeTone> = {
  answered: 'green',
  not_configured: 'gray',
  timeout: 'yellow',
  unreachable: 'red',
  bad_answer: 'red',
}

const OUTCOMES: readonly string[] = Object.values(ProxyLookupOutcome)

export function CustomerLookups({ customerId }: { customerId: string }) {
  const { t, i18n } = useTranslation('common')
  const lookups = useListProxyLookups({ customer_id: customerId, limit: RECENT_LOOKUPS })

  if (lookups.isPending) {
    return (
      <p role="status" className={MUTED}>
        {t('admin.customers.lookups.loading')}
      </p>
    )
  }
  if (lookups.isError) {
    return (
      <LoadError
        message={t('admin.customers.lookups.loadError')}
        error={lookups.error}
        onRetry={() => void lookups.refetch()}
        className="space-y-2"
        size="sm"
      />
    )
  }
  const { total } = lookups.data
  const shown = lookups.data.lookups
  if (shown.length === 0) return <p className={MUTED}>{t('admin.customers.lookups.empty')}</p>
  return (
    <>
      {total > shown.length && (
        <p className={`mb-2 text-sm ${MUTED}`}>
          {t('admin.customers.lookups.newest', {
            shown: formatNumber(shown.length, i18n.language),
            total: formatNumber(total, i18n.language),
          })}
        </p>
      )}
      <LookupsTable lookups={shown} />
    </>
  )
}

function LookupsTable({ lookups }: { lookups: ProxyLookup[] }) {
  const { t, i18n } = useTranslation('common')
  const locale = i18n.language
  return (
    <AdminTable
      caption={t('admin.customers.lookups.caption')}
      minWidth="min-w-[44rem]"
      columns={[
        t('admin.customers.lookups.columns.when'),
        t('admin.customers.lookups.columns.provider'),
        t('admin.customers.lookups.columns.path'),
        t('admin.customers.lookups.columns.status'),
        t('admin.customers.lookups.columns.outcome'),
        t('admin.customers.lookups.columns.latency'),
      ]}
    >
      {lookups.map((lookup) => (
        <tr key={lookup.id}>
          <td className={`${CELL} whitespace-nowrap`}>
            <time dateTime={lookup.createdAt}>
              {formatDateTime(lookup.createdAt, locale, 'utc')}
            </time>
          </td>
          <td className={CELL}>{lookup.provider}</td>
          <td className={`${CELL} font-mono text-xs break-words`}>{breakable(lookup.path)}</td>
          <td className={`${CELL} tabular-nums`}>{lookup.status}</td>
          <td className={CELL}>
            <Badge tone={OUTCOME_TONES[lookup.outcome] ?? 'gray'}>
              {OUTCOMES.includes(lookup.outcome)
                ? t(`admin.customers.lookups.outcomes.${lookup.outcome}`)
                : lookup.outcome}
            </Badge>
          </td>
          <td className={`${CELL} whitespace-nowrap tabular-nums`}>
            {t('admin.customers.lookups.latency', { ms: formatNumber(lookup.latency_ms, locale) })}
          </td>
        </tr>
      ))}
    </AdminTable>
  )
}
