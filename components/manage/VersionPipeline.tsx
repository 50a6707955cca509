// What the owners of a version see about its way to the registry: a state badge (waiting for the
// upload, being checked, Active, Flagged, waiting for an admin…) that is announced when it
// changes, and why it has its status: the checks' findings worst first (file, line and the
// offending code, always as text), an admin's decision with its history, or a plain reason. On an
// Active version, the registry standards the scan found it breaking.
import { useTranslation } from 'next-i18next/pages'
import { useId } from 'react'
import { breakable } from '@/components/common/BreakableText'
import { Badge, type BadgeTone } from '@/components/node/Badge'
import { NodeVersionStatus, type NodeVersion, type ScanFinding } from '@/src/api/generated/model'
import { versionReason, type StatusChange } from '@/src/lib/status-reason'
import { ownerVersionState, type OwnerVersionState } from '@/src/lib/version-state'
import { FindingItem, findingKey, findingPlace } from './FindingItem'
import { MUTED } from './styles'

const STATE_TONES: Record<OwnerVersionState, BadgeTone> = {
  awaitingUpload: 'gray',
  checking: 'blue',
  active: 'green',
  flagged: 'red',
  review: 'yellow',
  banned: 'red',
  deleted: 'gray',
}

/** The version's state; a live region, so a change while the owner watches is announced. */
export function VersionStateBadge({ version }: { version: NodeVersion }) {
  const { t } = useTranslation('common')
  const state = ownerVersionState(version)
  return (
    <span role="status" className="inline-flex">
      <Badge tone={STATE_TONES[state]}>{t(`manage.pipeline.state.${state}`)}</Badge>
    </span>
  )
}

/** `file:line` as findings name their place; the archive itself when there is no file. */
function Location({ finding }: { finding: ScanFinding }) {
  const { t } = useTranslation('common')
  if (!finding.file_path) return <>{t('manage.pipeline.wholeArchive')}</>
  return <code className="font-mono break-words">{breakable(findingPlace(finding))}</code>
}

/** The heading level of the findings: below the version's own heading on the node page (h3). */
type FindingsHeading = 'h3' | 'h4'

function Findings({
  findings,
  heading: Heading,
  title,
}: {
  findings: ScanFinding[]
  heading: FindingsHeading
  title: string
}) {
  const headingId = useId()
  return (
    <section aria-labelledby={headingId} className="mt-3">
      <Heading id={headingId} className="text-sm font-semibold">
        {title}
      </Heading>
      <ol className="mt-2 space-y-2">
        {findings.map((finding, index) => (
          <FindingItem
            key={findingKey(finding, index)}
            finding={finding}
            head={
              <span className="min-w-0 break-words">{finding.message || finding.issue_type}</span>
            }
          >
            <p className={`mt-1 text-xs ${MUTED}`}>
              <Location finding={finding} />
              {finding.issue_type && (
                <span className="ml-2 font-mono break-words">
                  ({breakable(finding.issue_type)})
                </span>
              )}
            </p>
          </FindingItem>
        ))}
      </ol>
    </section>
  )
}

function DecisionHistory({ history }: { history: StatusChange[] }) {
  const { t } = useTranslation('common')
  return (
    <details className="mt-1 text-sm">
      <summary className="cursor-pointer">{t('manage.pipeline.history')}</summary>
      <ol className="mt-1 list-decimal space-y-1 pl-6">
        {history.map((change, index) => (
          <li key={index}>
            {t('manage.pipeline.historyEntry', {
              status: t(`node.versions.status.${change.status}`, { defaultValue: change.status }),
              message: change.message,
              by: change.by,
            })}
          </li>
        ))}
      </ol>
    </details>
  )
}

/** Why the version has its status, and what the checks found, for its owners. */
export function VersionStatusDetails({
  version,
  findingsHeading = 'h4',
}: {
  version: NodeVersion
  /** h3 where the version has no heading of its own (a row of Your Nodes under its h2). */
  findingsHeading?: FindingsHeading
}) {
  const { t } = useTranslation('common')
  const state = ownerVersionState(version)
  const { findings, reason } = versionReason(version)
  // An Active version is installable; what its owners still need to see is which published
  // standards it breaks (the scan keeps such versions Active by default).
  const standards = findings.filter((finding) => finding.kind === 'standard')
  const hint =
    state === 'awaitingUpload' || state === 'checking' || state === 'review' || state === 'flagged'
      ? t(`manage.pipeline.hint.${state}`)
      : undefined
  const extractFailed =
    version.comfy_node_extract_status === 'failed' &&
    version.status !== NodeVersionStatus.NodeVersionStatusDeleted
  return (
    <div className="mt-1 text-sm">
      {hint && <p className={MUTED}>{hint}</p>}
      {reason?.kind === 'text' && (
        <p className={`mt-1 break-words ${MUTED}`}>
          {t('node.versions.reason', { reason: reason.text })}
        </p>
      )}
      {reason?.kind === 'decision' && (
        <div className="mt-1">
          {reason.message && (
            <p className="break-words">
              {t('manage.pipeline.decision', { message: reason.message })}
            </p>
          )}
          {reason.by && (
            <p className={MUTED}>{t('manage.pipeline.decidedBy', { by: reason.by })}</p>
          )}
          {reason.history.length > 1 && <DecisionHistory history={reason.history} />}
        </div>
      )}
      {extractFailed && (
        <p className={`mt-1 break-words ${MUTED}`}>
          {version.comfy_node_extract_reason
            ? t('manage.pipeline.extractFailed', { reason: version.comfy_node_extract_reason })
            : t('manage.pipeline.extractFailedNoReason')}
        </p>
      )}
      {findings.length > 0 && state !== 'active' && (
        <Findings
          findings={findings}
          heading={findingsHeading}
          title={t('manage.pipeline.findingsTitle', { count: findings.length })}
        />
      )}
      {standards.length > 0 && state === 'active' && (
        <Findings
          findings={standards}
          heading={findingsHeading}
          title={t('manage.pipeline.standardsTitle', { count: standards.length })}
        />
      )}
    </div>
  )
}
