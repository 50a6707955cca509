// A publisher's public profile and its nodes, one page at a time (`?page=` in the address).
import Link from 'next/link'
import { useTranslation } from 'next-i18next/pages'
import { useId, type ReactNode } from 'react'
import { breakable } from '@/components/common/BreakableText'
import { NodeCard } from '@/components/nodes/NodeCard'
import type { NodeListResponse, Publisher } from '@/src/api/generated/model'
import { PublisherStatus } from '@/src/api/generated/model/publisherStatus'
import { httpUrl } from '@/src/lib/seo'
import { imageSource } from '@/src/lib/field-rules'
import { publisherFeedPath } from '@/src/lib/paths'
import { FeedLink } from '@/components/common/FeedLink'

/** Nodes per page on a publisher's page. */
export const PUBLISHER_NODES_PAGE_SIZE = 12

const LINK = 'text-blue-700 underline hover:no-underline dark:text-blue-300'
const PAGE_LINK =
  'inline-flex h-10 items-center rounded-lg border border-gray-300 bg-white px-3 text-sm font-medium text-gray-800 hover:bg-gray-100 focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100 dark:hover:bg-gray-700'

/** A link target for the publisher's support contact: a URL, or an email address as mailto. */
export function supportHref(support: string): string | undefined {
  const value = support.trim()
  if (/^[^\s@/:]+@[^\s@/]+\.[^\s@/]+$/.test(value)) return `mailto:${value}`
  if (value.startsWith('mailto:')) return value
  return httpUrl(value)
}

function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  const { t } = useTranslation('common')
  const web = /^https?:/.test(href)
  return (
    <a
      href={href}
      {...(web ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
      className={`${LINK} break-words`}
    >
      {children}
      {web && <span className="sr-only"> {t('node.newTab')}</span>}
    </a>
  )
}

export interface PublisherViewProps {
  publisher: Publisher
  nodes?: NodeListResponse
  page: number
  /** Shown next to the publisher's name (the owners' Settings link). */
  actions?: ReactNode
}

export function PublisherView({ publisher, nodes, page, actions }: PublisherViewProps) {
  const { t } = useTranslation('common')
  const nodesId = useId()
  const website = httpUrl(publisher.website)
  const support = publisher.support ? supportHref(publisher.support) : undefined
  const source = httpUrl(publisher.source_code_repo)
  const members = (publisher.members ?? []).map((member) => ({
    id: member.id,
    name: member.user?.name?.trim() || t('publisher.unnamedMember'),
  }))
  const hrefFor = (target: number) => ({
    pathname: '/publishers/[publisherId]',
    query: target > 1 ? { publisherId: publisher.id, page: target } : { publisherId: publisher.id },
  })
  const totalPages = nodes?.totalPages ?? 0

  return (
    <>
      {publisher.status === PublisherStatus.PublisherStatusBanned && (
        <p
          role="alert"
          className="mb-6 rounded-lg border border-red-300 bg-red-50 p-4 font-semibold text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100"
        >
          {t('publisher.banned')}
        </p>
      )}
      <div className="flex flex-wrap items-start gap-4">
        {/* eslint-disable-next-line @next/next/no-img-element -- logos come from anywhere */}
        <img
          src={imageSource(publisher.logo)}
          alt=""
          width={64}
          height={64}
          className="h-16 w-16 shrink-0 rounded-full bg-gray-100 object-cover dark:bg-gray-700"
        />
        <div className="min-w-0 flex-1">
          <h1 className="text-2xl font-bold break-words sm:text-3xl">{publisher.name}</h1>
          <p className="mt-1 font-mono text-sm break-words text-gray-700 dark:text-gray-300">
            <span className="sr-only">{t('publisher.id')}: </span>
            {breakable(`@${publisher.id}`)}
          </p>
          {publisher.status !== PublisherStatus.PublisherStatusBanned && (
            <p className="mt-1">
              <FeedLink
                path={publisherFeedPath(publisher.id)}
                title={t('seo.publisherFeedTitle', { name: publisher.name })}
              />
            </p>
          )}
        </div>
        {actions}
      </div>
      {publisher.description && (
        <p className="mt-4 max-w-3xl whitespace-pre-line text-gray-800 dark:text-gray-200">
          {publisher.description}
        </p>
      )}

      <dl className="mt-6 grid gap-x-8 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
        {website && (
          <div>
            <dt className="text-gray-700 dark:text-gray-300">{t('publisher.website')}</dt>
            <dd className="font-medium">
              <ExternalLink href={website}>
                {breakable(website.replace(/^https?:\/\//, '').replace(/\/$/, ''))}
              </ExternalLink>
            </dd>
          </div>
        )}
        {publisher.support && (
          <div>
            <dt className="text-gray-700 dark:text-gray-300">{t('publisher.support')}</dt>
            <dd className="font-medium break-words">
              {support ? (
                <ExternalLink href={support}>
                  {breakable(
                    publisher.support.replace(/^(https?:\/\/|mailto:)/, '').replace(/\/$/, ''),
                  )}
                </ExternalLink>
              ) : (
                breakable(publisher.support)
              )}
            </dd>
          </div>
        )}
        {source && (
          <div>
            <dt className="text-gray-700 dark:text-gray-300">{t('publisher.sourceCode')}</dt>
            <dd className="font-medium">
              <ExternalLink href={source}>
                {breakable(source.replace(/^https?:\/\//, ''))}
              </ExternalLink>
            </dd>
          </div>
        )}
        <div>
          <dt className="text-gray-700 dark:text-gray-300">{t('publisher.members')}</dt>
          <dd className="font-medium">
            {members.length === 0 ? (
              t('publisher.noMembers')
            ) : (
              <ul>
                {members.map((member) => (
                  <li key={member.id}>{member.name}</li>
                ))}
              </ul>
            )}
          </dd>
        </div>
      </dl>

      <section aria-labelledby={nodesId} className="mt-10">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id={nodesId} className="text-xl font-semibold">
            {t('publisher.nodes')}
          </h2>
          {nodes && (
            <p className="text-sm text-gray-700 dark:text-gray-300">
              {t('publisher.nodesCount', { count: nodes.total })}
            </p>
          )}
        </div>
        {nodes && nodes.nodes.length === 0 ? (
          <p className="mt-4 text-gray-700 dark:text-gray-300">{t('publisher.noNodes')}</p>
        ) : (
          <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {nodes?.nodes.map((node) => (
              <li key={node.id} className="flex">
                <NodeCard node={node} headingLevel={3} />
              </li>
            ))}
          </ul>
        )}
        {totalPages > 1 && (
          <nav
            aria-label={t('publisher.pagination')}
            className="mt-8 flex items-center justify-between gap-2"
          >
            {page > 1 ? (
              <Link href={hrefFor(page - 1)} rel="prev" className={PAGE_LINK}>
                {t('publisher.previous')}
              </Link>
            ) : (
              <span />
            )}
            <p className="text-sm">{t('publisher.pageOf', { page, totalPages })}</p>
            {page < totalPages ? (
              <Link href={hrefFor(page + 1)} rel="next" className={PAGE_LINK}>
                {t('publisher.next')}
              </Link>
            ) : (
              <span />
            )}
          </nav>
        )}
      </section>
    </>
  )
}
