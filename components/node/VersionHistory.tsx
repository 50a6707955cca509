// The node's versions as the API lists them (newest first), each with its changelog and badges.
// Owners' pages replace the status badge and its reason with the publishing pipeline's state and
// findings (components/manage/VersionPipeline.tsx), loaded for them only.
import { useTranslation } from 'next-i18next/pages'
import { useId, type ReactNode } from 'react'
import { RenderedMarkdown } from '@/components/common/RenderedMarkdown'
import type { NodeVersion } from '@/src/api/generated/model'
import { NodeVersionStatus } from '@/src/api/generated/model/nodeVersionStatus'
import { statusReasonText } from '@/src/lib/status-reason-text'
import { Badge, type BadgeTone } from './Badge'
import { formatDate } from './format'
import { VersionDeprecationMessage } from './Deprecation'
import { LoadRestNotice, SHOW_MORE_BUTTON_CLASS, type LoadRest } from './LoadRest'
import { Provenance } from './Provenance'

const STATUS_TONES: Record<NodeVersionStatus, BadgeTone> = {
  [NodeVersionStatus.NodeVersionStatusActive]: 'green',
  [NodeVersionStatus.NodeVersionStatusPending]: 'yellow',
  [NodeVersionStatus.NodeVersionStatusFlagged]: 'yellow',
  [NodeVersionStatus.NodeVersionStatusBanned]: 'red',
  [NodeVersionStatus.NodeVersionStatusDeleted]: 'gray',
}

export interface VersionHistoryProps {
  versions: NodeVersion[]
  /** The version string of the node's latest version, marked "Latest". */
  latestVersion?: string
  /**
   * Changelogs rendered on the server (`markdownHtml`), by version id. Versions without one (an
   * owner's Pending or Flagged versions) are rendered in the browser by the same renderer.
   */
  changelogHtml?: Record<string, string>
  /** Controls shown under each version (the owner's management buttons). */
  renderActions?: (version: NodeVersion) => ReactNode
  /** Replaces the status badge of each version (the owner's pipeline state). */
  renderStatus?: (version: NodeVersion) => ReactNode
  /** Replaces the reason shown under each version (the owner's findings and decisions). */
  renderDetails?: (version: NodeVersion) => ReactNode
  /** Older versions exist than `versions` holds: "Show all versions" loads them with `rest`. */
  more?: boolean
  rest?: LoadRest
}

/** A readable reason: plain text or an admin's message; never findings or raw JSON. */
function StatusReasonText({ reason }: { reason: string | undefined }) {
  const { t } = useTranslation('common')
  const text = statusReasonText(reason)
  if (!text) return null
  return (
    <p className="mt-1 text-sm break-words text-gray-700 dark:text-gray-300">
      {t('node.versions.reason', { reason: text })}
    </p>
  )
}

/** The archive checks and the security scan found nothing in this version. */
export function ChecksPassed() {
  const { t } = useTranslation('common')
  return (
    <span title={t('node.versions.checksPassedHint')}>
      <Badge tone="green">
        <svg aria-hidden="true" viewBox="0 0 16 16" className="mr-1 h-3 w-3" fill="currentColor">
          <path d="M6.2 11.6 2.6 8l1.1-1.1 2.5 2.5 6.1-6.1L13.4 4.4z" />
        </svg>
        {t('node.versions.checksPassed')}
        <span className="sr-only">: {t('node.versions.checksPassedHint')}</span>
      </Badge>
    </span>
  )
}

export function VersionHistory({
  versions,
  latestVersion,
  changelogHtml,
  renderActions,
  renderStatus,
  renderDetails,
  more = false,
  rest,
}: VersionHistoryProps) {
  const { t, i18n } = useTranslation('common')
  const id = useId()
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-xl font-semibold">
        {t('node.versions.title')}
      </h2>
      {versions.length === 0 ? (
        <p className="mt-2 text-gray-700 dark:text-gray-300">{t('node.versions.none')}</p>
      ) : (
        <ol id={`${id}-list`} className="mt-3 space-y-4">
          {versions.map((version) => (
            <li
              key={version.id}
              className="rounded-lg border border-gray-200 p-4 dark:border-gray-700"
            >
              <div className="flex flex-wrap items-center gap-2">
                <h3 className="font-mono text-base font-semibold">{version.version}</h3>
                {version.version === latestVersion && (
                  <Badge tone="blue">{t('node.versions.latest')}</Badge>
                )}
                {renderStatus ? (
                  renderStatus(version)
                ) : (
                  <Badge tone={STATUS_TONES[version.status] ?? 'gray'}>
                    {t(`node.versions.status.${version.status}`)}
                  </Badge>
                )}
                {version.deprecated && <Badge tone="red">{t('node.versions.deprecated')}</Badge>}
                {version.checks_passed === true && <ChecksPassed />}
                <time
                  dateTime={version.createdAt}
                  className="ml-auto text-sm text-gray-700 dark:text-gray-300"
                >
                  {formatDate(version.createdAt, i18n.language)}
                </time>
              </div>
              {version.deprecated && <VersionDeprecationMessage version={version} />}
              <Provenance provenance={version.provenance} />
              {renderDetails ? (
                renderDetails(version)
              ) : (
                <StatusReasonText reason={version.status_reason} />
              )}
              {version.changelog?.trim() ? (
                <RenderedMarkdown
                  html={changelogHtml?.[version.id]}
                  source={version.changelog}
                  headingLevel={4}
                  className="mt-2 text-sm"
                />
              ) : (
                <p className="mt-2 text-sm text-gray-700 dark:text-gray-300">
                  {t('node.versions.noChangelog')}
                </p>
              )}
              {renderActions?.(version)}
            </li>
          ))}
        </ol>
      )}
      {rest && <LoadRestNotice rest={rest} />}
      {more && rest && !rest.loading && (
        <button
          type="button"
          aria-expanded={false}
          aria-controls={`${id}-list`}
          onClick={rest.load}
          className={SHOW_MORE_BUTTON_CLASS}
        >
          {t('node.versions.showAll')}
        </button>
      )}
    </section>
  )
}
