import Link from 'next/link'
import { useTranslation } from 'next-i18next/pages'
import { useState, type SyntheticEvent } from 'react'
import { breakable } from '@/components/common/BreakableText'
import { Badge } from '@/components/node/Badge'
import { formatNumber } from '@/components/node/format'
import type { Node } from '@/src/api/generated/model'
import { matchReason } from '@/src/lib/match-reason'
import { summary } from '@/src/lib/markdown'
import { nodePath, publisherPath } from '@/src/lib/paths'
import { FALLBACK_IMAGE, imageSource } from '@/src/lib/field-rules'
import { splitTagged } from '@/src/lib/tagged-text'
import { claimedPublisher } from '@/src/lib/unclaimed'

export interface NodeCardProps {
  node: Node
  /** Level of the node name's heading (3 under a page's h1 and a results h2). */
  headingLevel?: 2 | 3
  /** The search that found it: the card says why it matched when the name does not show it. */
  query?: string
}

function StatIcon({ path }: { path: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="h-3.5 w-3.5 shrink-0 fill-current">
      <path d={path} />
    </svg>
  )
}

const DOWNLOAD_ICON =
  'M10 2a1 1 0 0 1 1 1v7.59l2.3-2.3a1 1 0 1 1 1.4 1.42l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.42L9 10.6V3a1 1 0 0 1 1-1ZM3 14a1 1 0 0 1 1 1v1h12v-1a1 1 0 1 1 2 0v2a1 1 0 0 1-1 1H3a1 1 0 0 1-1-1v-2a1 1 0 0 1 1-1Z'
const STAR_ICON =
  'M9.05 2.93c.3-.92 1.6-.92 1.9 0l1.3 4.02h4.23c.97 0 1.37 1.24.59 1.81l-3.42 2.49 1.3 4.02c.3.92-.75 1.69-1.54 1.12L10 13.9l-3.42 2.49c-.78.57-1.84-.2-1.54-1.12l1.3-4.02-3.41-2.49c-.79-.57-.39-1.81.58-1.81h4.23l1.3-4.02Z'

export function NodeCard({ node, headingLevel = 3, query = '' }: NodeCardProps) {
  const { t, i18n } = useTranslation('common')
  const [iconFailed, setIconFailed] = useState(false)
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  const publisher = claimedPublisher(node)
  const icon = iconFailed ? FALLBACK_IMAGE : imageSource(node.icon)
  const onIconError = (event: SyntheticEvent<HTMLImageElement>) => {
    if (event.currentTarget.getAttribute('src') !== FALLBACK_IMAGE) setIconFailed(true)
  }
  const matched = node.comfy_nodes_matched ?? 0
  const reason = matchReason(node, query)
  const description = summary(node.description)
  // The name goes into a text node: React escapes it, so i18next must not.
  const byline = splitTagged(
    t('nodes.byPublisherLink', {
      publisher: publisher?.name || publisher?.id,
      interpolation: { escapeValue: false },
    }),
    'publisher',
  )

  return (
    <article className="relative flex w-full min-w-0 flex-col gap-3 rounded-lg border border-gray-200 bg-white p-4 shadow-sm transition focus-within:ring-2 focus-within:ring-blue-600 hover:border-blue-400 hover:shadow-md dark:border-gray-700 dark:bg-gray-800 dark:hover:border-blue-400">
      <div className="flex items-start gap-3">
        {/* eslint-disable-next-line @next/next/no-img-element -- small icons from anywhere */}
        <img
          src={icon}
          alt=""
          width={48}
          height={48}
          loading="lazy"
          decoding="async"
          onError={onIconError}
          className="h-12 w-12 shrink-0 rounded-md bg-gray-100 object-cover dark:bg-gray-700"
        />
        <div className="min-w-0 flex-1">
          <Heading className="text-base leading-6 font-semibold break-words">
            {/* The link covers the whole card (after:inset-0); the publisher link sits above it. */}
            <Link
              href={nodePath(node.id)}
              prefetch={false}
              className="inline-block text-gray-900 after:absolute after:inset-0 after:rounded-lg hover:underline focus:outline-none dark:text-white"
            >
              {breakable(node.name)}
            </Link>
            {node.deprecated && (
              <span className="ml-2 align-middle">
                <Badge tone="red">{t('deprecation.badge')}</Badge>
              </span>
            )}
          </Heading>
          {publisher && (
            <p className="truncate text-sm leading-6 text-gray-600 dark:text-gray-300">
              {byline[0]}
              <Link
                href={publisherPath(publisher.id)}
                prefetch={false}
                className="relative z-10 inline-block rounded-sm font-medium text-blue-700 hover:underline focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none dark:text-blue-300"
              >
                {byline[1]}
              </Link>
              {byline[2]}
            </p>
          )}
        </div>
      </div>
      {description && (
        <p className="line-clamp-3 text-sm text-gray-700 dark:text-gray-200">{description}</p>
      )}
      {matched > 0 && (
        <p className="text-xs font-medium text-emerald-800 dark:text-emerald-300">
          {t('nodes.comfyNodesMatched', { count: matched })}
        </p>
      )}
      {reason && (
        <p className="text-xs font-medium text-emerald-800 dark:text-emerald-300">
          {t(`nodes.matchReason.${reason.kind}`, reason)}
        </p>
      )}
      <dl className="mt-auto flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-gray-600 dark:text-gray-300">
        {node.latest_version && (
          <div className="flex items-center gap-1">
            <dt>{t('nodes.version')}</dt>
            <dd className="font-medium text-gray-800 dark:text-gray-100">
              {node.latest_version.version}
            </dd>
          </div>
        )}
        <div className="flex items-center gap-1">
          <dt className="flex items-center gap-1">
            <StatIcon path={DOWNLOAD_ICON} />
            <span className="sr-only">{t('nodes.downloads')}</span>
          </dt>
          <dd className="font-medium text-gray-800 dark:text-gray-100">
            {formatNumber(node.downloads, i18n.language)}
          </dd>
        </div>
        <div className="flex items-center gap-1">
          <dt className="flex items-center gap-1">
            <StatIcon path={STAR_ICON} />
            <span className="sr-only">{t('nodes.stars')}</span>
          </dt>
          <dd className="font-medium text-gray-800 dark:text-gray-100">
            {formatNumber(node.github_stars, i18n.language)}
          </dd>
        </div>
      </dl>
    </article>
  )
}
