// The whole node page body: header, status notice, install box, details, compatibility, tags,
// description, README, downloads over time, comfy nodes and version history.
import Link from 'next/link'
import { useTranslation } from 'next-i18next/pages'
import { useId, useState, type ReactNode, type SyntheticEvent } from 'react'
import { breakable } from '@/components/common/BreakableText'
import { deferred } from '@/components/common/deferred'
import { RenderedMarkdown } from '@/components/common/RenderedMarkdown'
import type {
  ComfyNodeListResponse,
  Node,
  NodeDailyDownloads,
  NodeVersion,
} from '@/src/api/generated/model'
import { NodeStatus } from '@/src/api/generated/model/nodeStatus'
import { PublisherStatus } from '@/src/api/generated/model/publisherStatus'
import { compatibilityNames, type CompatibilityKind } from '@/src/lib/compatibility'
import { httpUrl } from '@/src/lib/seo'
import { nodeFeedPath, publisherPath } from '@/src/lib/paths'
import { FeedLink } from '@/components/common/FeedLink'
import { FALLBACK_IMAGE, imageSource } from '@/src/lib/field-rules'
import { claimedPublisher } from '@/src/lib/unclaimed'
import { formatDate, formatNumber } from './format'
import { InstallBox } from './InstallBox'
import type { LoadRest } from './LoadRest'
import { Readme, type ReadmeFirstPart } from './Readme'
import { LicenseValue } from './LicenseValue'
import { DeprecatedInstallNotice, NodeDeprecatedBanner } from './Deprecation'
import { installChoice } from '@/src/lib/install-choice'

/** The node's markdown, rendered and sanitised on the server (`markdownHtml`). */
export interface NodeMarkdown {
  description: string | null
  /** Changelog HTML by version id. */
  changelogs: Record<string, string>
  /** The first part of the latest version's README, when it has one. */
  readme?: ReadmeFirstPart | null
}

export interface NodeViewProps {
  node: Node
  /** The versions shown: the newest ones, or all of them (node-lists.ts). */
  versions?: NodeVersion[]
  /** Older versions exist: "Show all versions" loads them with `versionsRest`. */
  moreVersions?: boolean
  versionsRest?: LoadRest
  /** The latest version's comfy nodes loaded so far, with their total. */
  comfyNodes?: Pick<ComfyNodeListResponse, 'comfy_nodes' | 'total'>
  comfyNodesRest?: LoadRest
  markdown?: NodeMarkdown
  /** Downloads per day over the last DOWNLOAD_HISTORY_DAYS (the chart shows 30 or 90 of them). */
  downloadHistory?: NodeDailyDownloads
  /** Shown under the node's header: the owner's controls or "Claim this node". */
  management?: ReactNode
  /** The owner's controls of each version. */
  versionActions?: (version: NodeVersion) => ReactNode
  /** The owner's view of each version's state, instead of its public status badge. */
  versionStatus?: (version: NodeVersion) => ReactNode
  /** The owner's view of why each version has its status (findings, decisions). */
  versionDetails?: (version: NodeVersion) => ReactNode
  /** A version the visitor asked for (`?version=`): offered even when deprecated. */
  requestedVersion?: string
}

const LINK = 'text-blue-700 underline hover:no-underline dark:text-blue-300'

// Below the fold: the downloads chart, the README badges, the comfy nodes and the version history
// come in chunks of their own, out of the page's first-load JavaScript, server-rendered like the
// rest (components/common/deferred.tsx). One chunk for the four (fewer requests, better gzip).
const DownloadsChart = deferred(() =>
  import(/* webpackChunkName: "node-below-fold" */ './DownloadsChart').then(
    (module) => module.DownloadsChart,
  ),
)
const ReadmeBadges = deferred(() =>
  import(/* webpackChunkName: "node-below-fold" */ './ReadmeBadges').then(
    (module) => module.ReadmeBadges,
  ),
)
const ComfyNodeList = deferred(() =>
  import(/* webpackChunkName: "node-below-fold" */ './ComfyNodeList').then(
    (module) => module.ComfyNodeList,
  ),
)
const VersionHistory = deferred(() =>
  import(/* webpackChunkName: "node-below-fold" */ './VersionHistory').then(
    (module) => module.VersionHistory,
  ),
)

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId()
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      <div className="mt-2">{children}</div>
    </section>
  )
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 border-b border-gray-200 py-2 text-sm last:border-b-0 dark:border-gray-700">
      <dt className="text-gray-700 dark:text-gray-300">{label}</dt>
      <dd className="min-w-0 text-right font-medium break-words">{children}</dd>
    </div>
  )
}

export function NodeStatusNotice({ node }: { node: Node }) {
  const { t } = useTranslation('common')
  const kind =
    node.status === NodeStatus.NodeStatusBanned
      ? 'banned'
      : node.status === NodeStatus.NodeStatusDeleted
        ? 'deleted'
        : undefined
  if (!kind) return null
  return (
    <div
      role="alert"
      className="mb-6 rounded-lg border border-red-300 bg-red-50 p-4 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100"
    >
      <p className="font-semibold">{t(`node.${kind}.title`)}</p>
      <p className="mt-1 text-sm">{t(`node.${kind}.body`)}</p>
      {node.status_detail && (
        <p className="mt-1 text-sm">{t('node.statusReason', { reason: node.status_detail })}</p>
      )}
    </div>
  )
}

export function NodeView({
  node,
  versions,
  moreVersions,
  versionsRest,
  comfyNodes,
  comfyNodesRest,
  markdown,
  downloadHistory,
  management,
  versionActions,
  versionStatus,
  versionDetails,
  requestedVersion,
}: NodeViewProps) {
  const { t, i18n } = useTranslation('common')
  const locale = i18n.language
  const [iconFailed, setIconFailed] = useState(false)
  const latest = node.latest_version ?? undefined
  const publisher = claimedPublisher(node)
  const installable = node.status === NodeStatus.NodeStatusActive && latest !== undefined
  // Never a deprecated version unless asked for by version (src/lib/install-choice.ts).
  const choice = installChoice(latest, versions, requestedVersion)
  // Badges only for what the public sees (a banned publisher's nodes are hidden from it).
  const publiclyVisible =
    node.status === NodeStatus.NodeStatusActive &&
    node.publisher?.status !== PublisherStatus.PublisherStatusBanned
  const repository = httpUrl(node.repository)
  const os = node.supported_os?.length ? node.supported_os : latest?.supported_os
  const accelerators = node.supported_accelerators?.length
    ? node.supported_accelerators
    : latest?.supported_accelerators
  const comfyui = node.supported_comfyui_version || latest?.supported_comfyui_version
  const frontend =
    node.supported_comfyui_frontend_version || latest?.supported_comfyui_frontend_version
  const icon = iconFailed ? FALLBACK_IMAGE : imageSource(node.icon)
  const onIconError = (event: SyntheticEvent<HTMLImageElement>) => {
    if (event.currentTarget.getAttribute('src') !== FALLBACK_IMAGE) setIconFailed(true)
  }
  const list = (kind: CompatibilityKind, values: string[] | undefined) =>
    values?.length ? compatibilityNames(kind, values, t).join(', ') : t('node.anyValue')
  const author = node.author?.trim()

  return (
    <>
      <NodeStatusNotice node={node} />
      <NodeDeprecatedBanner node={node} />
      <div className="flex items-start gap-4">
        {/* eslint-disable-next-line @next/next/no-img-element -- icons come from anywhere */}
        <img
          src={icon}
          alt=""
          width={64}
          height={64}
          onError={onIconError}
          className="h-16 w-16 shrink-0 rounded-lg bg-gray-100 object-cover dark:bg-gray-700"
        />
        <div className="min-w-0">
          <h1 className="text-2xl font-bold break-words sm:text-3xl">{node.name}</h1>
          <p className="mt-1 font-mono text-sm break-words text-gray-700 dark:text-gray-300">
            {breakable(node.id)}
          </p>
          <p className="mt-1 text-sm">
            <span className="text-gray-700 dark:text-gray-300">{t('node.publisher')}: </span>
            {publisher ? (
              <Link href={publisherPath(publisher.id)} className={LINK}>
                {publisher.name}
              </Link>
            ) : (
              t('node.unclaimed')
            )}
          </p>
          {node.status === NodeStatus.NodeStatusActive && (
            <p className="mt-1">
              <FeedLink
                path={nodeFeedPath(node.id)}
                title={t('seo.nodeFeedTitle', { name: node.name })}
              />
            </p>
          )}
        </div>
      </div>
      {management}

      <div className="mt-8 grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="space-y-6 lg:col-start-2 lg:row-start-1">
          {installable && choice ? (
            <InstallBox
              nodeId={node.id}
              version={choice.version.version}
              pinned={choice.pinned}
              downloadUrl={httpUrl(choice.version.downloadUrl)}
              notice={<DeprecatedInstallNotice latest={latest} choice={choice} />}
            />
          ) : installable ? (
            <div className="rounded-lg border border-gray-200 bg-gray-50 p-4 dark:border-gray-700 dark:bg-gray-800">
              <p className="font-semibold">{t('node.install.title')}</p>
              <DeprecatedInstallNotice latest={latest} choice={choice} />
            </div>
          ) : (
            node.status === NodeStatus.NodeStatusActive && (
              <div className="rounded-lg border border-gray-200 bg-gray-50 p-4 dark:border-gray-700 dark:bg-gray-800">
                <p className="font-semibold">{t('node.noVersion')}</p>
                <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">
                  {t('node.noVersionHint')}
                </p>
              </div>
            )
          )}

          <Section title={t('node.details')}>
            <dl>
              <Fact label={t('node.latestVersion')}>
                {latest ? (
                  <span className="font-mono">{latest.version}</span>
                ) : (
                  t('node.notSpecified')
                )}
              </Fact>
              {latest && (
                <Fact label={t('node.released')}>
                  <time dateTime={latest.createdAt}>{formatDate(latest.createdAt, locale)}</time>
                </Fact>
              )}
              {author && <Fact label={t('node.author')}>{author}</Fact>}
              <Fact label={t('node.downloads')}>{formatNumber(node.downloads, locale)}</Fact>
              <Fact label={t('node.stars')}>{formatNumber(node.github_stars, locale)}</Fact>
              <Fact label={t('node.license')}>
                <LicenseValue node={node} />
              </Fact>
              {repository && (
                <Fact label={t('node.repository')}>
                  <a href={repository} target="_blank" rel="noopener noreferrer" className={LINK}>
                    {breakable(repository.replace(/^https?:\/\//, '').replace(/\/$/, ''))}
                    <span className="sr-only"> {t('node.newTab')}</span>
                  </a>
                </Fact>
              )}
            </dl>
          </Section>

          <Section title={t('node.compatibility')}>
            <dl>
              <Fact label={t('node.supportedOs')}>{list('os', os)}</Fact>
              <Fact label={t('node.accelerators')}>{list('accelerator', accelerators)}</Fact>
              <Fact label={t('node.comfyuiVersion')}>{comfyui || t('node.anyValue')}</Fact>
              <Fact label={t('node.frontendVersion')}>{frontend || t('node.anyValue')}</Fact>
            </dl>
          </Section>

          {node.tags && node.tags.length > 0 && (
            <Section title={t('node.tags')}>
              <ul className="flex flex-wrap gap-2">
                {node.tags.map((tag) => (
                  <li key={tag}>
                    <Link
                      href={{ pathname: '/', query: { tags: tag } }}
                      className="inline-flex rounded-full bg-gray-200 px-3 py-1 text-xs font-medium text-gray-900 hover:bg-gray-300 focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none dark:bg-gray-700 dark:text-gray-100 dark:hover:bg-gray-600"
                    >
                      {tag}
                    </Link>
                  </li>
                ))}
              </ul>
            </Section>
          )}

          {publiclyVisible && (
            <Section title={t('node.badges.title')}>
              <ReadmeBadges nodeId={node.id} />
            </Section>
          )}
        </div>

        <div className="min-w-0 space-y-10 lg:col-start-1 lg:row-start-1">
          <Section title={t('node.description')}>
            {node.description?.trim() ? (
              <RenderedMarkdown html={markdown?.description} source={node.description} />
            ) : (
              <p className="text-gray-700 dark:text-gray-300">{t('node.noDescription')}</p>
            )}
          </Section>
          {latest && markdown?.readme && (
            <Section title={t('node.readme')}>
              <Readme nodeId={node.id} version={latest.version} first={markdown.readme} />
            </Section>
          )}
          {downloadHistory && (
            <Section title={t('node.downloadsChart.title')}>
              <DownloadsChart history={downloadHistory} />
            </Section>
          )}
          {latest && comfyNodes && (
            <ComfyNodeList
              comfyNodes={comfyNodes.comfy_nodes}
              total={comfyNodes.total}
              rest={comfyNodesRest}
            />
          )}
          {versions && (
            <VersionHistory
              versions={versions}
              latestVersion={latest?.version}
              changelogHtml={markdown?.changelogs}
              renderActions={versionActions}
              renderStatus={versionStatus}
              renderDetails={versionDetails}
              more={moreVersions}
              rest={versionsRest}
            />
          )}
        </div>
      </div>
    </>
  )
}
