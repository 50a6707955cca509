import Link from 'next/link'
import { useTranslation } from 'next-i18next/pages'
import { memo, useState, type SyntheticEvent } from 'react'
import { breakable } from '@/components/common/BreakableText'
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

/**
 * The least of `description` whose summary is the card's summary, in one pass: the summary itself
 * when it reads back unchanged (plain prose does), else the whole description.
 */
export function summarySource(description: string | undefined): string | undefined {
  if (!description) return description
  const shown = summary(description)
  return summary(shown) === shown ? shown : description
}

/**
 * What a card reads of a node (here and in matchReason). Server-rendered lists keep only this in
 * their page data, a third of the full node; the browser's refresh after load brings the rest
 * (docs/ARCHITECTURE.md "Page weight").
 */
export function cardFields(node: Node, query = ''): Node {
  const version = node.latest_version
  const fields: Node = {
    id: node.id,
    name: node.name,
    // A search's card may say the description matched (matchReason): then it keeps all of it.
    description: query ? node.description : summarySource(node.description),
    icon: node.icon,
    deprecated: node.deprecated,
    tags: node.tags,
    downloads: node.downloads,
    github_stars: node.github_stars,
    comfy_nodes_matched: node.comfy_nodes_matched,
    status: node.status,
    publisher: { id: node.publisher.id, name: node.publisher.name },
    latest_version: version && {
      id: version.id,
      version: version.version,
      createdAt: version.createdAt,
      status: version.status,
      node_id: version.node_id,
    },
  }
  // Page data is JSON: fields the node does not have are left out, not undefined.
  return JSON.parse(JSON.stringify(fields)) as Node
}

function NodeCardView({ node, headingLevel = 3, query = '' }: NodeCardProps) {
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

  // One class per element, styled in styles/globals.css (.node-card): a listing has 24 cards.
  return (
    <article className="node-card">
      <div className="nc-head">
        {/* eslint-disable-next-line @next/next/no-img-element -- small icons from anywhere */}
        <img
          src={icon}
          alt=""
          width={48}
          height={48}
          loading="lazy"
          decoding="async"
          onError={onIconError}
          className="nc-icon"
        />
        <div className="nc-title">
          <Heading className="nc-name">
            {/* The link covers the whole card (after:inset-0); the publisher link sits above it. */}
            <Link href={nodePath(node.id)} prefetch={false} className="nc-link">
              {breakable(node.name)}
            </Link>
            {node.deprecated && (
              // Badge's red tone (components/node/Badge.tsx), as one class.
              <span className="nc-badge">{t('deprecation.badge')}</span>
            )}
          </Heading>
          {publisher && (
            <p className="nc-by">
              {byline[0]}
              <Link href={publisherPath(publisher.id)} prefetch={false} className="nc-publisher">
                {byline[1]}
              </Link>
              {byline[2]}
            </p>
          )}
        </div>
      </div>
      {description && <p className="nc-description">{description}</p>}
      {matched > 0 && (
        <p className="nc-match">{t('nodes.comfyNodesMatched', { count: matched })}</p>
      )}
      {reason && <p className="nc-match">{t(`nodes.matchReason.${reason.kind}`, reason)}</p>}
      <dl className="nc-stats">
        {node.latest_version && (
          <div>
            <dt>{t('nodes.version')}</dt>
            <dd>{node.latest_version.version}</dd>
          </div>
        )}
        <div>
          {/* The icon is drawn by styles/globals.css (.nc-downloads::before). */}
          <dt className="nc-downloads">
            <span className="sr-only">{t('nodes.downloads')}</span>
          </dt>
          <dd>{formatNumber(node.downloads, i18n.language)}</dd>
        </div>
        <div>
          <dt className="nc-stars">
            <span className="sr-only">{t('nodes.stars')}</span>
          </dt>
          <dd>{formatNumber(node.github_stars, i18n.language)}</dd>
        </div>
      </dl>
    </article>
  )
}

/** What a card shows of its props: equal for the trimmed node of the page data and the whole one. */
const shownOf = ({ node, headingLevel, query }: NodeCardProps) =>
  JSON.stringify([cardFields(node, query), headingLevel, query])

/**
 * A card re-renders only when what it shows changed: the refresh after load replaces each node of
 * the page data (cardFields) with the whole node, which reads the same (docs/ARCHITECTURE.md
 * "Blocking time").
 */
export const NodeCard = memo(NodeCardView, (before, after) => {
  if (before.node === after.node)
    return before.query === after.query && before.headingLevel === after.headingLevel
  return shownOf(before) === shownOf(after)
})
