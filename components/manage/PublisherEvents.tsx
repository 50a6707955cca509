// The publisher's audit trail (owners): who added or removed trusted publishers and tokens, and
// how each version was published. Newest first, a page at a time (`listPublisherEvents`).
import { Button } from 'flowbite-react'
import { useTranslation } from 'next-i18next/pages'
import { useId, useState } from 'react'
import { formatDateTime } from '@/components/node/format'
import type { PublisherEventKind } from '@/src/api/generated/model'
import { useListPublisherEvents } from '@/src/api/generated/publishers/publishers'
import { apiErrorMessage } from '@/src/lib/api-error'
import { FormMessage } from './fields'
import { CARD, MUTED } from './styles'

export const EVENTS_PAGE_SIZE = 20

const KIND_KEYS: Record<PublisherEventKind, string> = {
  'trusted_publisher.add': 'manage.publisherEvents.kind.trustedPublisherAdd',
  'trusted_publisher.remove': 'manage.publisherEvents.kind.trustedPublisherRemove',
  'token.create': 'manage.publisherEvents.kind.tokenCreate',
  'token.delete': 'manage.publisherEvents.kind.tokenDelete',
  'version.publish': 'manage.publisherEvents.kind.versionPublish',
}

export function PublisherEvents({ publisherId }: { publisherId: string }) {
  const { t, i18n } = useTranslation('common')
  const headingId = useId()
  const [page, setPage] = useState(1)
  const events = useListPublisherEvents(
    publisherId,
    { page, limit: EVENTS_PAGE_SIZE },
    { query: { placeholderData: (previous) => previous } },
  )
  const data = events.data
  return (
    <section aria-labelledby={headingId} className={CARD}>
      <h2 id={headingId} className="text-xl font-semibold">
        {t('manage.publisherEvents.title')}
      </h2>
      <p className={`mt-1 text-sm ${MUTED}`}>{t('manage.publisherEvents.intro')}</p>
      {events.isPending ? (
        <p role="status" className={`mt-4 ${MUTED}`}>
          {t('manage.loading')}
        </p>
      ) : events.isError || !data ? (
        <div className="mt-4">
          <FormMessage kind="error">{apiErrorMessage(events.error, t)}</FormMessage>
        </div>
      ) : data.events.length === 0 ? (
        <p className={`mt-4 ${MUTED}`}>{t('manage.publisherEvents.none')}</p>
      ) : (
        <>
          <ol
            aria-labelledby={headingId}
            className="mt-3 divide-y divide-gray-200 dark:divide-gray-700"
          >
            {data.events.map((event) => (
              <li key={event.id} className="py-3 text-sm">
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <span className="font-semibold">{t(KIND_KEYS[event.kind])}</span>
                  <time dateTime={event.created_at} className={MUTED}>
                    {formatDateTime(event.created_at, i18n.language, 'local')}
                  </time>
                </div>
                {/* The detail names the node already. */}
                <p className="mt-1 break-words">{event.detail}</p>
                <p className={`mt-0.5 break-all ${MUTED}`}>
                  {t('manage.publisherEvents.by', { actor: event.actor })}
                </p>
              </li>
            ))}
          </ol>
          {data.totalPages > 1 && (
            <nav
              aria-label={t('manage.publisherEvents.pages')}
              className="mt-3 flex flex-wrap items-center gap-3"
            >
              <Button
                color="light"
                size="sm"
                disabled={page <= 1 || events.isFetching}
                onClick={() => setPage(page - 1)}
              >
                {t('manage.publisherEvents.newer')}
              </Button>
              <span className={`text-sm ${MUTED}`} aria-live="polite">
                {t('manage.publisherEvents.page', { page: data.page, pages: data.totalPages })}
              </span>
              <Button
                color="light"
                size="sm"
                disabled={page >= data.totalPages || events.isFetching}
                onClick={() => setPage(page + 1)}
              >
                {t('manage.publisherEvents.older')}
              </Button>
            </nav>
          )}
        </>
      )}
    </section>
  )
}
