// Every publisher, banned ones included (GET /publishers?include_banned=true answers admins with
// all of them, as one array), filtered here by id or name and "banned only", and paged here.
// Ban (reason required) or unban through PUT /admin/publishers/{id}; the reserved publisher of
// unclaimed nodes cannot be banned (the API answers 409), so it has no button.
import { useQueryClient } from '@tanstack/react-query'
import { Button } from 'flowbite-react'
import Link from 'next/link'
import { useTranslation } from 'next-i18next/pages'
import { useState } from 'react'
import { breakable } from '@/components/common/BreakableText'
import { AdminListFilterBar } from '@/components/admin/nodes/AdminListFilterBar'
import { AdminTable, CELL } from '@/components/admin/nodes/AdminTable'
import { invalidateAfterPublisherChange } from '@/src/api/invalidation'
import { adminListHref, useAdminListFilters } from '@/components/admin/nodes/list-filters'
import { StatusChangeDialog } from '@/components/admin/nodes/StatusChangeDialog'
import { FormMessage, LoadError } from '@/components/manage/fields'
import { LINK, MUTED } from '@/components/manage/styles'
import { Badge } from '@/components/node/Badge'
import { formatDate, formatNumber } from '@/components/node/format'
import { Pagination } from '@/components/nodes/Pagination'
import { useAdminUpdatePublisher } from '@/src/api/generated/admin/admin'
import { PublisherStatus, type Publisher } from '@/src/api/generated/model'
import { useListPublishers } from '@/src/api/generated/publishers/publishers'
import { adminUpdatePublisherBodyStatusReasonMax } from '@/src/api/generated/rules.zod'
import { apiErrorMessage } from '@/src/lib/api-error'
import { UNCLAIMED_PUBLISHER } from '@/src/lib/constants'
import { ADMIN_PATHS, publisherPath } from '@/src/lib/paths'

export const ADMIN_PUBLISHERS_PAGE_SIZE = 50

/** The review queue filtered to one publisher, every status. */
export function publisherVersionsHref(publisherId: string): string {
  return `${ADMIN_PATHS.queue}?${new URLSearchParams({ publisher: publisherId, status: 'all' })}`
}

const isBanned = (publisher: Publisher) =>
  publisher.status === PublisherStatus.PublisherStatusBanned

/** Publishers whose id or name contains `q` (any case), banned only if asked, newest first. */
export function filterPublishers(publishers: Publisher[], q: string, banned: boolean): Publisher[] {
  const text = q.toLowerCase()
  return publishers
    .filter(
      (publisher) =>
        (!banned || isBanned(publisher)) &&
        (!text ||
          publisher.id.toLowerCase().includes(text) ||
          publisher.name.toLowerCase().includes(text)),
    )
    .sort(
      (a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? '') || a.id.localeCompare(b.id),
    )
}

type PublisherAction = { kind: 'ban' | 'unban'; publisher: Publisher }

export function AdminPublishers() {
  const { t, i18n } = useTranslation('common')
  const [action, setAction] = useState<PublisherAction>()
  const [notice, setNotice] = useState<string>()
  const { filters, setFilters } = useAdminListFilters(() => setNotice(undefined))
  // include_banned in the generated key also keeps this admin-only answer out of the persisted
  // cache (src/api/persist.ts).
  const publishers = useListPublishers({ include_banned: true })

  const filterBar = (
    <AdminListFilterBar section="publishers" filters={filters} onChange={setFilters} />
  )

  if (publishers.isPending) {
    return (
      <>
        {filterBar}
        <p role="status" className={MUTED}>
          {t('manage.loading')}
        </p>
      </>
    )
  }
  if (publishers.isError) {
    return (
      <>
        {filterBar}
        <LoadError
          message={t('admin.publishers.loadError')}
          error={publishers.error}
          onRetry={() => void publishers.refetch()}
          className="space-y-2"
          size="sm"
        />
      </>
    )
  }

  const matching = filterPublishers(publishers.data, filters.q, filters.banned)
  const totalPages = Math.max(1, Math.ceil(matching.length / ADMIN_PUBLISHERS_PAGE_SIZE))
  const page = Math.min(filters.page, totalPages)
  const shown = matching.slice(
    (page - 1) * ADMIN_PUBLISHERS_PAGE_SIZE,
    page * ADMIN_PUBLISHERS_PAGE_SIZE,
  )
  const count = { count: matching.length, formatted: formatNumber(matching.length, i18n.language) }

  return (
    <>
      <p className={`mb-4 ${MUTED}`}>{t('admin.publishers.intro')}</p>
      {filterBar}
      <div aria-live="polite" className="mb-4 empty:hidden">
        {notice && <FormMessage kind="success">{notice}</FormMessage>}
      </div>
      <p className={`mb-2 text-sm ${MUTED}`} aria-live="polite">
        {filters.q || filters.banned
          ? t('admin.publishers.matching', count)
          : t('admin.publishers.total', count)}
      </p>
      {shown.length === 0 ? (
        <p className={MUTED}>{t('admin.publishers.empty')}</p>
      ) : (
        <PublishersTable publishers={shown} onAction={setAction} />
      )}
      <Pagination
        page={page}
        totalPages={totalPages}
        hrefFor={(target) => adminListHref(ADMIN_PATHS.publishers, { ...filters, page: target })}
        shallow
      />
      {action && (
        <PublisherStatusDialog
          {...action}
          onClose={() => setAction(undefined)}
          onDone={(publisher) => {
            setAction(undefined)
            setNotice(t(`admin.publishers.${action.kind}.done`, { id: publisher.id }))
          }}
        />
      )}
    </>
  )
}

function PublishersTable({
  publishers,
  onAction,
}: {
  publishers: Publisher[]
  onAction: (action: PublisherAction) => void
}) {
  const { t, i18n } = useTranslation('common')
  return (
    <AdminTable
      caption={t('admin.publishers.tableCaption')}
      minWidth="min-w-[40rem]"
      columns={[
        t('admin.publishers.columns.id'),
        t('admin.publishers.columns.name'),
        t('admin.publishers.columns.status'),
        t('admin.publishers.columns.created'),
        t('admin.publishers.columns.actions'),
      ]}
    >
      {publishers.map((publisher) => {
        const banned = isBanned(publisher)
        const reserved = publisher.id === UNCLAIMED_PUBLISHER.id
        return (
          <tr key={publisher.id}>
            <th scope="row" className={`${CELL} font-normal`}>
              <Link href={publisherPath(publisher.id)} className={`${LINK} font-mono break-words`}>
                {breakable(publisher.id)}
              </Link>
            </th>
            <td className={`${CELL} break-words`}>{publisher.name}</td>
            <td className={CELL}>
              <Badge tone={banned ? 'red' : 'green'}>
                {t(banned ? 'admin.publishers.status.banned' : 'admin.publishers.status.active')}
              </Badge>
            </td>
            <td className={`${CELL} whitespace-nowrap`}>
              {formatDate(publisher.createdAt, i18n.language) ?? '—'}
            </td>
            <td className={CELL}>
              <div className="flex flex-wrap items-center gap-2">
                {reserved ? (
                  <span className={`text-xs ${MUTED}`}>{t('admin.publishers.reserved')}</span>
                ) : (
                  <Button
                    size="xs"
                    color={banned ? 'blue' : 'red'}
                    onClick={() => onAction({ kind: banned ? 'unban' : 'ban', publisher })}
                    aria-label={t(
                      banned
                        ? 'admin.publishers.actions.unbanOf'
                        : 'admin.publishers.actions.banOf',
                      { id: publisher.id },
                    )}
                  >
                    {t(banned ? 'admin.publishers.actions.unban' : 'admin.publishers.actions.ban')}
                  </Button>
                )}
                <Link
                  href={publisherVersionsHref(publisher.id)}
                  className={`${LINK} text-xs`}
                  aria-label={t('admin.publishers.actions.versionsOf', { id: publisher.id })}
                >
                  {t('admin.publishers.actions.versions')}
                </Link>
              </div>
            </td>
          </tr>
        )
      })}
    </AdminTable>
  )
}

function PublisherStatusDialog({
  kind,
  publisher,
  onClose,
  onDone,
}: PublisherAction & { onClose: () => void; onDone: (publisher: Publisher) => void }) {
  const { t } = useTranslation('common')
  const queryClient = useQueryClient()
  const update = useAdminUpdatePublisher()
  const confirm = (reason: string) =>
    update.mutate(
      {
        publisherId: publisher.id,
        data: {
          status:
            kind === 'ban'
              ? PublisherStatus.PublisherStatusBanned
              : PublisherStatus.PublisherStatusActive,
          ...(reason ? { status_reason: reason } : {}),
        },
      },
      {
        onSuccess: (saved) => {
          void invalidateAfterPublisherChange(queryClient)
          onDone(saved)
        },
      },
    )
  return (
    <StatusChangeDialog
      onClose={onClose}
      kind={kind}
      title={t(`admin.publishers.${kind}.title`, { id: publisher.id })}
      confirmLabel={t(`admin.publishers.${kind}.confirm`)}
      reasonLabel={t(`admin.publishers.${kind}.reason`)}
      reasonHint={t(`admin.publishers.${kind}.reasonHint`)}
      reasonMissing={t('admin.publishers.ban.reasonMissing')}
      reasonMax={adminUpdatePublisherBodyStatusReasonMax}
      pending={update.isPending}
      error={update.isError ? apiErrorMessage(update.error, t) : undefined}
      onConfirm={confirm}
    >
      <p>{t(`admin.publishers.${kind}.body`, { name: publisher.name, id: publisher.id })}</p>
    </StatusChangeDialog>
  )
}
