// The Admin Dashboard's overview (/admin): what needs attention, as counts that each open the
// matching filtered list, and the newest admin actions with a way to the full audit log.
import Link from 'next/link'
import { useTranslation } from 'next-i18next/pages'
import { ActionsTable } from '@/components/admin/actions/ActionsTable'
import { LoadError } from '@/components/manage/fields'
import { LINK, MUTED } from '@/components/manage/styles'
import { formatNumber } from '@/components/node/format'
import { useGetAdminOverview, useListAdminActions } from '@/src/api/generated/admin/admin'
import type { AdminOverview as OverviewCounts } from '@/src/api/generated/model'
import { ADMIN_PATHS } from '@/src/lib/paths'

/** How many of the newest actions the overview shows. */
export const RECENT_ACTIONS = 10
const DAY_MS = 24 * 60 * 60 * 1000

function withQuery(path: string, query: Record<string, string>): string {
  return `${path}?${new URLSearchParams(query).toString()}`
}

interface CountCard {
  key: keyof OverviewCounts
  label: string
  href: string
  /** Highlighted while not zero: work waiting for an admin. */
  urgent?: boolean
}

/** The cards and the filtered lists they open; `countedAt` is when the counts were made. */
export function overviewCards(countedAt: number, label: (key: string) => string): CountCard[] {
  return [
    {
      key: 'pending',
      label: label('pending'),
      href: withQuery(ADMIN_PATHS.queue, { status: 'pending' }),
      urgent: true,
    },
    {
      key: 'flagged',
      label: label('flagged'),
      href: withQuery(ADMIN_PATHS.queue, { status: 'flagged' }),
      urgent: true,
    },
    {
      key: 'published_last_24h',
      label: label('published'),
      href: withQuery(ADMIN_PATHS.queue, {
        status: 'all',
        after: new Date(countedAt - DAY_MS).toISOString(),
        sort: 'newest',
      }),
    },
    {
      key: 'banned_nodes',
      label: label('bannedNodes'),
      href: withQuery(ADMIN_PATHS.nodes, { banned: '1' }),
    },
    {
      key: 'banned_publishers',
      label: label('bannedPublishers'),
      href: withQuery(ADMIN_PATHS.publishers, { banned: '1' }),
    },
  ]
}

function CountCards() {
  const { t, i18n } = useTranslation('common')
  const overview = useGetAdminOverview()
  if (overview.isPending) {
    return (
      <p role="status" className={MUTED}>
        {t('admin.overview.loading')}
      </p>
    )
  }
  if (overview.isError) {
    return (
      <LoadError
        message={t('admin.overview.loadError')}
        error={overview.error}
        onRetry={() => void overview.refetch()}
      />
    )
  }
  const cards = overviewCards(overview.dataUpdatedAt, (key) => t(`admin.overview.${key}`))
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
      {cards.map((card) => {
        const value = overview.data[card.key]
        const urgent = card.urgent && value > 0
        return (
          <li key={card.key}>
            <Link
              href={card.href}
              className={`flex h-full flex-col gap-1 rounded-lg border bg-white p-4 hover:bg-gray-50 focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none dark:bg-gray-800 dark:hover:bg-gray-700 ${
                urgent
                  ? 'border-yellow-400 dark:border-yellow-500'
                  : 'border-gray-200 dark:border-gray-700'
              }`}
            >
              <span className="text-3xl font-bold text-gray-900 tabular-nums dark:text-white">
                {formatNumber(value, i18n.language)}
              </span>
              <span className="text-sm font-medium text-gray-700 dark:text-gray-300">
                {card.label}
              </span>
            </Link>
          </li>
        )
      })}
    </ul>
  )
}

function RecentActions() {
  const { t } = useTranslation('common')
  const actions = useListAdminActions({ page: 1, limit: RECENT_ACTIONS })
  if (actions.isPending) {
    return (
      <p role="status" className={MUTED}>
        {t('admin.overview.recentLoading')}
      </p>
    )
  }
  if (actions.isError) {
    return (
      <LoadError
        message={t('admin.overview.recentError')}
        error={actions.error}
        onRetry={() => void actions.refetch()}
      />
    )
  }
  if (actions.data.actions.length === 0) {
    return <p className={MUTED}>{t('admin.overview.recentEmpty')}</p>
  }
  return <ActionsTable actions={actions.data.actions} caption={t('admin.overview.recentCaption')} />
}

export function AdminOverview() {
  const { t } = useTranslation('common')
  return (
    <>
      <section aria-labelledby="admin-overview-counts">
        <h2 id="admin-overview-counts" className="sr-only">
          {t('admin.overview.countsTitle')}
        </h2>
        <CountCards />
      </section>
      <section aria-labelledby="admin-overview-recent" className="mt-10">
        <div className="mb-4 flex flex-wrap items-baseline justify-between gap-2">
          <h2
            id="admin-overview-recent"
            className="text-xl font-semibold text-gray-900 dark:text-white"
          >
            {t('admin.overview.recentTitle')}
          </h2>
          <Link href={ADMIN_PATHS.actions} className={LINK}>
            {t('admin.overview.fullLog')}
          </Link>
        </div>
        <RecentActions />
      </section>
    </>
  )
}
