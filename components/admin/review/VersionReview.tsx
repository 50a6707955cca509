// An admin's review of one version: what it is (node, publisher, status, archive), what the checks
// found (each finding opens its file at its line), the decisions made so far, its changelog and
// dependencies, the archive's files with the changes since the previous version, a read-only file
// viewer, and the decision buttons (also on the keys a / f / b).
import { Button } from 'flowbite-react'
import Link from 'next/link'
import { useTranslation } from 'next-i18next/pages'
import { useCallback, useEffect, useState, type ReactNode } from 'react'
import { Markdown } from '@/components/common/Markdown'
import { DecisionBanner } from '@/components/admin/decide/DecisionBanner'
import {
  DecisionDialog,
  type DecisionResult,
  type DecisionStatus,
} from '@/components/admin/decide/DecisionDialog'
import { FormMessage } from '@/components/manage/fields'
import { useArchiveDownload } from '@/components/manage/useArchiveDownload'
import { Badge, type BadgeTone } from '@/components/node/Badge'
import { formatBytes, formatDate } from '@/components/node/format'
import { useListAdminVersionFiles } from '@/src/api/generated/admin/admin'
import { useGetNode } from '@/src/api/generated/nodes/nodes'
import { useGetNodeVersion } from '@/src/api/generated/versions/versions'
import { NodeVersionStatus, PipelineState, type NodeVersion } from '@/src/api/generated/model'
import { apiErrorMessage, errorStatus } from '@/src/lib/api-error'
import { ADMIN_PATHS } from '@/src/lib/paths'
import { versionReason } from '@/src/lib/status-reason'
import { PIPELINE_POLL_MS, versionInProgress } from '@/src/lib/version-state'
import { ArchiveFiles } from './ArchiveFiles'
import { DecisionHistory } from './DecisionHistory'
import { FileViewer } from './FileViewer'
import { ReviewFindings } from './ReviewFindings'
import { isTypingTarget, resolveArchivePath, retryArchiveQuery } from './review-utils'
import { LINK, MUTED, SECTION, SECTION_TITLE } from './styles'
import { useFileSelection } from './useFileSelection'
import { breakable } from '@/components/common/BreakableText'
import { Provenance } from '@/components/node/Provenance'

export const STATUS_TONES: Record<NodeVersionStatus, BadgeTone> = {
  [NodeVersionStatus.NodeVersionStatusActive]: 'green',
  [NodeVersionStatus.NodeVersionStatusPending]: 'yellow',
  [NodeVersionStatus.NodeVersionStatusFlagged]: 'red',
  [NodeVersionStatus.NodeVersionStatusBanned]: 'red',
  [NodeVersionStatus.NodeVersionStatusDeleted]: 'gray',
}

interface DecisionButton {
  status: DecisionStatus
  key: 'a' | 'f' | 'b'
  label: 'approve' | 'flag' | 'ban'
  color: 'blue' | 'light' | 'red'
}

const DECISIONS: DecisionButton[] = [
  { status: NodeVersionStatus.NodeVersionStatusActive, key: 'a', label: 'approve', color: 'blue' },
  { status: NodeVersionStatus.NodeVersionStatusFlagged, key: 'f', label: 'flag', color: 'light' },
  { status: NodeVersionStatus.NodeVersionStatusBanned, key: 'b', label: 'ban', color: 'red' },
]

/** The queue filtered to this node's versions (every status). */
function nodeQueuePath(nodeId: string): string {
  return `${ADMIN_PATHS.queue}?${new URLSearchParams({ node: nodeId, status: 'all' })}`
}

function adminSearchPath(base: string, id: string): string {
  return `${base}?${new URLSearchParams({ q: id })}`
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className={`text-xs font-medium uppercase ${MUTED}`}>{label}</dt>
      <dd className="mt-0.5 break-words text-gray-900 dark:text-white">{children}</dd>
    </div>
  )
}

function Summary({ version, nodeId }: { version: NodeVersion; nodeId: string }) {
  const { t, i18n } = useTranslation('common')
  const node = useGetNode(nodeId)
  const archive = useArchiveDownload(version.node_id, version.version)
  const publisher = node.data?.publisher
  const pipeline = version.pipeline_state
  return (
    <section aria-labelledby="review-summary" className={SECTION}>
      <h2 id="review-summary" className="sr-only">
        {t('admin.review.facts.title')}
      </h2>
      <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <Fact label={t('admin.review.facts.node')}>
          <Link href={adminSearchPath(ADMIN_PATHS.nodes, version.node_id)} className={LINK}>
            {node.data?.name || version.node_id}
          </Link>{' '}
          <span className={`font-mono text-sm ${MUTED}`}>({version.node_id})</span>
        </Fact>
        <Fact label={t('admin.review.facts.publisher')}>
          {publisher ? (
            <Link href={adminSearchPath(ADMIN_PATHS.publishers, publisher.id)} className={LINK}>
              {publisher.name || publisher.id}
            </Link>
          ) : node.isPending ? (
            '…'
          ) : (
            t('admin.review.facts.unknown')
          )}
        </Fact>
        <Fact label={t('admin.review.facts.version')}>
          <span className="font-mono">{version.version}</span>
        </Fact>
        <Fact label={t('admin.review.facts.status')}>
          <span className="inline-flex flex-wrap gap-1">
            <Badge tone={STATUS_TONES[version.status] ?? 'gray'}>
              {t(`node.versions.status.${version.status}`)}
            </Badge>
            {version.deprecated && <Badge tone="gray">{t('node.versions.deprecated')}</Badge>}
            {pipeline && pipeline !== PipelineState.done && (
              <Badge tone="blue">{t(`admin.review.pipeline.${pipeline}`)}</Badge>
            )}
          </span>
        </Fact>
        <Fact label={t('admin.review.facts.published')}>
          <time dateTime={version.createdAt}>{formatDate(version.createdAt, i18n.language)}</time>
        </Fact>
        <Fact label={t('admin.review.facts.archive')}>
          {version.archive_size !== undefined
            ? formatBytes(version.archive_size, i18n.language)
            : t('admin.review.facts.sizeUnknown')}
          {version.downloadUrl && (
            <>
              {' · '}
              <button
                type="button"
                className={`cursor-pointer ${LINK} disabled:cursor-wait`}
                disabled={archive.pending}
                onClick={() => void archive.download()}
              >
                {archive.pending ? t('admin.review.downloading') : t('admin.review.download')}
              </button>
            </>
          )}
        </Fact>
        <Fact label={t('node.provenance.title')}>
          <Provenance provenance={version.provenance} showTokenName />
          {(!version.provenance || version.provenance.method === 'unknown') &&
            t('node.provenance.unknown')}
        </Fact>
      </dl>
      {archive.error !== undefined && (
        <div className="mt-3">
          <FormMessage kind="error">
            {t('admin.review.downloadError', { message: apiErrorMessage(archive.error, t) })}
          </FormMessage>
        </div>
      )}
    </section>
  )
}

function Decisions({ version }: { version: NodeVersion }) {
  const { t } = useTranslation('common')
  const [dialog, setDialog] = useState<DecisionStatus>()
  const [result, setResult] = useState<DecisionResult>()
  const dialogOpen = dialog !== undefined

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.repeat) return
      if (event.ctrlKey || event.metaKey || event.altKey) return
      if (isTypingTarget(event.target)) return
      // Any open dialog (ours or another) owns the keyboard.
      if (dialogOpen || document.querySelector('[role="dialog"]')) return
      const choice = DECISIONS.find((decision) => decision.key === event.key.toLowerCase())
      if (!choice) return
      event.preventDefault()
      setDialog(choice.status)
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [dialogOpen])

  return (
    <section aria-labelledby="review-decide" className={SECTION}>
      <h2 id="review-decide" className={SECTION_TITLE}>
        {t('admin.review.decide.title')}
      </h2>
      {result && (
        <div className="mt-3">
          <DecisionBanner result={result} onDismiss={() => setResult(undefined)} />
        </div>
      )}
      <div className="mt-3 flex flex-wrap gap-2">
        {DECISIONS.map((decision) => (
          <Button
            key={decision.status}
            color={decision.color}
            aria-keyshortcuts={decision.key}
            onClick={() => setDialog(decision.status)}
          >
            {t(`admin.review.decide.${decision.label}`)}
            <kbd
              aria-hidden="true"
              className="ml-2 rounded border border-current px-1.5 font-mono text-xs"
            >
              {decision.key.toUpperCase()}
            </kbd>
          </Button>
        ))}
      </div>
      <p className={`mt-2 text-sm ${MUTED}`}>{t('admin.review.decide.shortcuts')}</p>
      <DecisionDialog
        open={dialog !== undefined}
        onClose={() => setDialog(undefined)}
        targets={[{ node_id: version.node_id, version: version.version, id: version.id }]}
        initialStatus={dialog ?? NodeVersionStatus.NodeVersionStatusActive}
        onDecided={setResult}
      />
    </section>
  )
}

function ChangelogAndDependencies({ version }: { version: NodeVersion }) {
  const { t } = useTranslation('common')
  const dependencies = version.dependencies ?? []
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <section aria-labelledby="review-changelog" className={SECTION}>
        <h2 id="review-changelog" className={SECTION_TITLE}>
          {t('admin.review.changelog.title')}
        </h2>
        {version.changelog?.trim() ? (
          <Markdown className="mt-2 text-sm text-gray-900 dark:text-gray-100">
            {version.changelog}
          </Markdown>
        ) : (
          <p className={`mt-2 ${MUTED}`}>{t('admin.review.changelog.none')}</p>
        )}
      </section>
      <section aria-labelledby="review-dependencies" className={SECTION}>
        <h2 id="review-dependencies" className={SECTION_TITLE}>
          {t('admin.review.dependencies.title')}
        </h2>
        {dependencies.length > 0 ? (
          <ul className="mt-2 space-y-1 font-mono text-sm break-words text-gray-900 dark:text-gray-100">
            {dependencies.map((dependency, index) => (
              <li key={`${dependency}-${index}`}>{breakable(dependency)}</li>
            ))}
          </ul>
        ) : (
          <p className={`mt-2 ${MUTED}`}>{t('admin.review.dependencies.none')}</p>
        )}
      </section>
    </div>
  )
}

export interface VersionReviewProps {
  nodeId: string
  version: string
}

export function VersionReview({ nodeId, version: versionNumber }: VersionReviewProps) {
  const { t } = useTranslation('common')
  const versionQuery = useGetNodeVersion(nodeId, versionNumber, {
    query: {
      // A version still being checked is asked again, so the findings appear when they exist.
      refetchInterval: (query) =>
        query.state.data && versionInProgress(query.state.data) ? PIPELINE_POLL_MS : false,
    },
  })
  const files = useListAdminVersionFiles(nodeId, versionNumber, {
    query: { retry: retryArchiveQuery, enabled: versionQuery.isSuccess },
  })
  const [selection, select] = useFileSelection()
  const [focusRequest, setFocusRequest] = useState(0)

  const open = useCallback(
    (file: string, line: number) => {
      select({ file: resolveArchivePath(file, files.data?.files), line })
      setFocusRequest((count) => count + 1)
    },
    [select, files.data],
  )

  const back = (
    <p className="mb-4 flex flex-wrap gap-x-4 gap-y-1 text-sm">
      <Link href={ADMIN_PATHS.queue} className={LINK}>
        {t('admin.review.backToQueue')}
      </Link>
      <Link href={nodeQueuePath(nodeId)} className={LINK}>
        {t('admin.review.allVersions')}
      </Link>
    </p>
  )

  if (versionQuery.isPending) {
    return (
      <>
        {back}
        <p role="status" className={`py-8 text-center ${MUTED}`}>
          {t('admin.review.loading')}
        </p>
      </>
    )
  }
  if (versionQuery.isError) {
    const notFound = errorStatus(versionQuery.error) === 404
    return (
      <>
        {back}
        <div className="space-y-3">
          <FormMessage kind="error">
            {notFound
              ? t('admin.review.notFound', { node: nodeId, version: versionNumber })
              : t('admin.review.loadError', { message: apiErrorMessage(versionQuery.error, t) })}
          </FormMessage>
          {!notFound && (
            <Button color="light" onClick={() => void versionQuery.refetch()}>
              {t('admin.review.retry')}
            </Button>
          )}
        </div>
      </>
    )
  }

  const version = versionQuery.data
  const { findings, reason } = versionReason(version)
  return (
    <>
      {back}
      <div className="space-y-6">
        <Summary version={version} nodeId={nodeId} />
        <Decisions version={version} />
        <ReviewFindings findings={findings} onOpen={open} />
        <DecisionHistory reason={reason} />
        <ChangelogAndDependencies version={version} />
        <ArchiveFiles
          data={files.data}
          isPending={files.isPending}
          error={files.error}
          selectedFile={selection?.file}
          onOpen={(file) => open(file, 0)}
          flaggedFiles={findings.flatMap((finding) =>
            finding.file_path ? [resolveArchivePath(finding.file_path, files.data?.files)] : [],
          )}
        />
        <FileViewer
          nodeId={nodeId}
          version={versionNumber}
          selection={selection}
          focusRequest={focusRequest}
          onClose={() => select(undefined)}
        />
      </div>
    </>
  )
}
