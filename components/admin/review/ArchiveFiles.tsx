// The files of the version's archive and what changed since the node's previous version with an
// archive. Paths open the file viewer. "No archive yet" (404) and "the archive failed the
// checks" (409) are answers, shown as messages.
import { useTranslation } from 'next-i18next/pages'
import { useMemo, type ReactNode } from 'react'
import { Badge } from '@/components/node/Badge'
import type { AdminVersionFiles } from '@/src/api/generated/model'
import { apiErrorMessage, errorStatus } from '@/src/lib/api-error'
import { formatBytes } from '@/components/node/format'
import { breakable } from '@/components/common/BreakableText'
import { LOCATION_BUTTON, MUTED, SECTION, SECTION_TITLE } from './styles'

export interface ArchiveFilesProps {
  data: AdminVersionFiles | undefined
  isPending: boolean
  error: unknown
  /** The file shown in the viewer, marked in the table. */
  selectedFile: string | undefined
  onOpen: (file: string) => void
}

/** Lists longer than this start folded, so a big change does not push the table far down. */
const OPEN_LIST_LIMIT = 20

function FileButton({
  path,
  selected,
  onOpen,
}: {
  path: string
  selected: boolean
  onOpen: (file: string) => void
}) {
  const { t } = useTranslation('common')
  return (
    <button
      type="button"
      className={`text-left ${LOCATION_BUTTON} ${selected ? 'font-semibold' : ''}`}
      aria-label={t('admin.review.findings.open', { file: path })}
      aria-current={selected ? 'true' : undefined}
      onClick={() => onOpen(path)}
    >
      {breakable(path)}
    </button>
  )
}

function ChangeList({
  label,
  paths,
  render,
}: {
  label: string
  paths: string[]
  render: (path: string) => ReactNode
}) {
  if (paths.length === 0) return null
  return (
    <details open={paths.length <= OPEN_LIST_LIMIT} className="mt-3">
      <summary className="cursor-pointer font-medium">{label}</summary>
      <ul className="mt-1 space-y-1 pl-4 text-sm">
        {paths.map((path) => (
          <li key={path} className="break-words">
            {render(path)}
          </li>
        ))}
      </ul>
    </details>
  )
}

function ChangesSummary({
  data,
  selectedFile,
  onOpen,
}: Pick<ArchiveFilesProps, 'selectedFile' | 'onOpen'> & { data: AdminVersionFiles }) {
  const { t } = useTranslation('common')
  const { previous_version: previous, diff } = data
  const open = (path: string) => (
    <FileButton path={path} selected={path === selectedFile} onOpen={onOpen} />
  )
  return (
    <div className="mt-3">
      <h3 className="text-base font-semibold">
        {previous
          ? t('admin.review.changes.title', { version: previous })
          : t('admin.review.changes.titleFirst')}
      </h3>
      {!previous || !diff ? (
        <p className={`mt-1 text-sm ${MUTED}`}>{t('admin.review.changes.firstVersion')}</p>
      ) : diff.added.length + diff.removed.length + diff.changed.length === 0 ? (
        <p className={`mt-1 text-sm ${MUTED}`}>{t('admin.review.changes.none')}</p>
      ) : (
        <>
          <ChangeList
            label={t('admin.review.changes.added', { count: diff.added.length })}
            paths={diff.added}
            render={open}
          />
          <ChangeList
            label={t('admin.review.changes.changed', { count: diff.changed.length })}
            paths={diff.changed}
            render={open}
          />
          <ChangeList
            label={t('admin.review.changes.removed', { count: diff.removed.length })}
            paths={diff.removed}
            render={(path) => <code className="font-mono">{path}</code>}
          />
        </>
      )}
    </div>
  )
}

function FilesTable({
  data,
  selectedFile,
  onOpen,
}: Pick<ArchiveFilesProps, 'selectedFile' | 'onOpen'> & { data: AdminVersionFiles }) {
  const { t, i18n } = useTranslation('common')
  const files = useMemo(
    () => [...data.files].sort((a, b) => a.path.localeCompare(b.path)),
    [data.files],
  )
  const added = useMemo(() => new Set(data.diff?.added), [data.diff])
  const changed = useMemo(() => new Set(data.diff?.changed), [data.diff])
  return (
    <div className="mt-4">
      <h3 className="text-base font-semibold">{t('admin.review.files.listTitle')}</h3>
      <p className={`mt-1 text-sm ${MUTED}`}>
        {t('admin.review.files.count', {
          count: files.length,
          size: formatBytes(data.archive_size, i18n.language),
        })}
      </p>
      <div className="mt-2 overflow-x-auto">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{t('admin.review.files.caption')}</caption>
          <thead className="border-b border-gray-200 text-xs text-gray-700 uppercase dark:border-gray-700 dark:text-gray-300">
            <tr>
              <th scope="col" className="py-2 pr-3">
                {t('admin.review.files.path')}
              </th>
              <th scope="col" className="py-2 text-right whitespace-nowrap">
                {t('admin.review.files.size')}
              </th>
            </tr>
          </thead>
          <tbody>
            {files.map((file) => {
              const selected = file.path === selectedFile
              const mark = added.has(file.path)
                ? 'added'
                : changed.has(file.path)
                  ? 'changed'
                  : undefined
              return (
                <tr
                  key={file.path}
                  className={`border-b border-gray-100 last:border-0 dark:border-gray-700 ${
                    selected ? 'bg-blue-50 dark:bg-blue-950' : ''
                  }`}
                >
                  <td className="py-1.5 pr-3">
                    <span className="inline-flex flex-wrap items-center gap-2">
                      <FileButton path={file.path} selected={selected} onOpen={onOpen} />
                      {mark && (
                        <Badge tone={mark === 'added' ? 'green' : 'yellow'}>
                          {t(`admin.review.files.${mark}`)}
                        </Badge>
                      )}
                    </span>
                  </td>
                  <td className="py-1.5 text-right whitespace-nowrap">
                    {formatBytes(file.size, i18n.language)}
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
    </div>
  )
}

export function ArchiveFiles({ data, isPending, error, selectedFile, onOpen }: ArchiveFilesProps) {
  const { t } = useTranslation('common')
  let body: ReactNode
  if (data) {
    body = (
      <>
        <ChangesSummary data={data} selectedFile={selectedFile} onOpen={onOpen} />
        <FilesTable data={data} selectedFile={selectedFile} onOpen={onOpen} />
      </>
    )
  } else if (isPending) {
    body = (
      <p role="status" className={`mt-2 ${MUTED}`}>
        {t('admin.review.files.loading')}
      </p>
    )
  } else {
    const status = errorStatus(error)
    body = (
      <p className={`mt-2 ${MUTED}`}>
        {status === 404
          ? t('admin.review.files.noArchive')
          : status === 409
            ? t('admin.review.files.failedChecks')
            : t('admin.review.files.error', { message: apiErrorMessage(error, t) })}
      </p>
    )
  }
  return (
    <section aria-labelledby="review-files" className={SECTION}>
      <h2 id="review-files" className={SECTION_TITLE}>
        {t('admin.review.files.title')}
      </h2>
      {body}
    </section>
  )
}
