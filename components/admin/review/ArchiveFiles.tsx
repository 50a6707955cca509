// The files of the version's archive as a folder tree, and what changed since the node's previous
// version with an archive. Paths open the file viewer. "No archive yet" (404) and "the archive failed the
// checks" (409) are answers, shown as messages.
import { useTranslation } from 'next-i18next/pages'
import { useId, useMemo, useState, type ReactNode } from 'react'
import { Badge } from '@/components/node/Badge'
import type { AdminVersionFiles } from '@/src/api/generated/model'
import { apiErrorMessage, errorStatus } from '@/src/lib/api-error'
import { formatBytes } from '@/components/node/format'
import { breakable } from '@/components/common/BreakableText'
import { Button } from 'flowbite-react'
import {
  allFolderPaths,
  buildFileTree,
  folderPathsOf,
  initiallyOpenFolders,
  type FileTreeFile,
  type FileTreeFolder,
} from './review-utils'
import { LOCATION_BUTTON, MUTED, SECTION, SECTION_TITLE } from './styles'

export interface ArchiveFilesProps {
  data: AdminVersionFiles | undefined
  isPending: boolean
  error: unknown
  /** The file shown in the viewer, marked in the table. */
  selectedFile: string | undefined
  onOpen: (file: string) => void
  /** The archive paths of the version's findings (one entry per finding): their folders open. */
  flaggedFiles?: string[]
}

/** Lists longer than this start folded, so a big change does not push the table far down. */
const OPEN_LIST_LIMIT = 20

function FileButton({
  path,
  label = path,
  selected,
  onOpen,
}: {
  path: string
  /** What is shown (a file's name in the tree); the accessible name always has the path. */
  label?: string
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
      {breakable(label)}
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

interface TreeProps {
  selectedFile: string | undefined
  onOpen: (file: string) => void
  open: Set<string>
  toggle: (folder: string) => void
  added: Set<string>
  changed: Set<string>
  /** How many findings each file has. */
  findings: Map<string, number>
}

const ROW = 'flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-1'

function FileRow({ file, ...props }: TreeProps & { file: FileTreeFile }) {
  const { t, i18n } = useTranslation('common')
  const selected = file.path === props.selectedFile
  const mark = props.added.has(file.path)
    ? 'added'
    : props.changed.has(file.path)
      ? 'changed'
      : undefined
  const found = props.findings.get(file.path) ?? 0
  return (
    <li className={`${ROW} rounded px-1 ${selected ? 'bg-blue-50 dark:bg-blue-950' : ''}`}>
      <span className="inline-flex min-w-0 flex-wrap items-center gap-2">
        <FileButton path={file.path} label={file.name} selected={selected} onOpen={props.onOpen} />
        {mark && (
          <Badge tone={mark === 'added' ? 'green' : 'yellow'}>
            {t(`admin.review.files.${mark}`)}
          </Badge>
        )}
        {found > 0 && <Badge tone="red">{t('admin.review.files.flagged', { count: found })}</Badge>}
      </span>
      <span className={`whitespace-nowrap ${MUTED}`}>{formatBytes(file.size, i18n.language)}</span>
    </li>
  )
}

function FolderRow({ folder, ...props }: TreeProps & { folder: FileTreeFolder }) {
  const { t, i18n } = useTranslation('common')
  const expanded = props.open.has(folder.path)
  const listId = `archive-folder-${useId()}`
  const found = [...props.findings].reduce(
    (sum, [path, count]) => sum + (path.startsWith(folder.path) ? count : 0),
    0,
  )
  return (
    <li>
      <div className={ROW}>
        <span className="inline-flex min-w-0 flex-wrap items-center gap-2">
          <button
            type="button"
            aria-expanded={expanded}
            aria-controls={expanded ? listId : undefined}
            onClick={() => props.toggle(folder.path)}
            className="inline-flex min-w-0 cursor-pointer items-center gap-1 rounded text-left font-mono font-medium break-words text-gray-900 hover:underline focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none dark:text-white"
          >
            <span aria-hidden="true" className="inline-block w-4 shrink-0 text-center">
              {expanded ? '▾' : '▸'}
            </span>
            <span className="min-w-0">{breakable(`${folder.name}/`)}</span>
          </button>
          {found > 0 && (
            <Badge tone="red">{t('admin.review.files.flagged', { count: found })}</Badge>
          )}
        </span>
        <span className={`whitespace-nowrap ${MUTED}`}>
          {t('admin.review.files.folderSummary', {
            count: folder.files,
            size: formatBytes(folder.size, i18n.language),
          })}
        </span>
      </div>
      {expanded && (
        <ul
          id={listId}
          className="ml-2 border-l border-gray-200 pl-3 sm:ml-3 sm:pl-4 dark:border-gray-700"
        >
          <TreeEntries folder={folder} {...props} />
        </ul>
      )}
    </li>
  )
}

function TreeEntries({ folder, ...props }: TreeProps & { folder: FileTreeFolder }) {
  return folder.children.map((child) =>
    child.kind === 'folder' ? (
      <FolderRow key={child.path} folder={child} {...props} />
    ) : (
      <FileRow key={child.path} file={child} {...props} />
    ),
  )
}

/**
 * The archive's files as a folder tree: the first level shows, deeper folders start collapsed
 * except those holding a file with findings (and a lone folder wrapping the whole archive); the
 * file opened in the viewer has its folders opened.
 */
function FilesTree({
  data,
  selectedFile,
  onOpen,
  flaggedFiles,
}: Pick<ArchiveFilesProps, 'selectedFile' | 'onOpen' | 'flaggedFiles'> & {
  data: AdminVersionFiles
}) {
  const { t, i18n } = useTranslation('common')
  const tree = useMemo(() => buildFileTree(data.files), [data.files])
  const findings = useMemo(() => {
    const counts = new Map<string, number>()
    for (const path of flaggedFiles ?? []) counts.set(path, (counts.get(path) ?? 0) + 1)
    return counts
  }, [flaggedFiles])
  const [open, setOpen] = useState(() => initiallyOpenFolders(tree, findings.keys()))
  const openFoldersOf = (paths: Iterable<string>) =>
    setOpen((before) => new Set([...before, ...[...paths].flatMap(folderPathsOf)]))
  // Folders of a file opened from elsewhere (a finding, a shared link) open with it, and those
  // of findings that arrive later (a version still being checked).
  const [shown, setShown] = useState(selectedFile)
  if (shown !== selectedFile) {
    setShown(selectedFile)
    if (selectedFile) openFoldersOf([selectedFile])
  }
  const flaggedKey = [...findings.keys()].join('\n')
  const [flaggedShown, setFlaggedShown] = useState(flaggedKey)
  if (flaggedShown !== flaggedKey) {
    setFlaggedShown(flaggedKey)
    openFoldersOf(findings.keys())
  }
  const added = useMemo(() => new Set(data.diff?.added), [data.diff])
  const changed = useMemo(() => new Set(data.diff?.changed), [data.diff])
  const toggle = (folder: string) =>
    setOpen((before) => {
      const after = new Set(before)
      if (!after.delete(folder)) after.add(folder)
      return after
    })
  const props = { selectedFile, onOpen, open, toggle, added, changed, findings }
  const hasFolders = tree.children.some((child) => child.kind === 'folder')
  return (
    <div className="mt-4">
      <h3 className="text-base font-semibold" id="review-files-tree">
        {t('admin.review.files.listTitle')}
      </h3>
      <p className={`mt-1 text-sm ${MUTED}`}>
        {t('admin.review.files.count', {
          count: tree.files,
          size: formatBytes(data.archive_size, i18n.language),
        })}
      </p>
      {hasFolders && (
        <p className="mt-2 flex flex-wrap gap-2">
          <Button color="light" size="xs" onClick={() => setOpen(new Set(allFolderPaths(tree)))}>
            {t('admin.review.files.expandAll')}
          </Button>
          <Button color="light" size="xs" onClick={() => setOpen(new Set())}>
            {t('admin.review.files.collapseAll')}
          </Button>
        </p>
      )}
      <ul aria-labelledby="review-files-tree" className="mt-2 text-sm">
        <TreeEntries folder={tree} {...props} />
      </ul>
    </div>
  )
}

export function ArchiveFiles({
  data,
  isPending,
  error,
  selectedFile,
  onOpen,
  flaggedFiles,
}: ArchiveFilesProps) {
  const { t } = useTranslation('common')
  let body: ReactNode
  if (data) {
    body = (
      <>
        <ChangesSummary data={data} selectedFile={selectedFile} onOpen={onOpen} />
        <FilesTree
          data={data}
          selectedFile={selectedFile}
          onOpen={onOpen}
          flaggedFiles={flaggedFiles}
        />
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
