// One file of the archive, read-only: its text rendered as React text (escaped, never HTML),
// with line numbers; the selected line is highlighted and scrolled into view. Binary files (415)
// and files over the API's limit (`truncated`) are explained instead of shown.
import { useTranslation } from 'next-i18next/pages'
import { memo, useEffect, useMemo, useRef } from 'react'
import { useGetAdminVersionFile } from '@/src/api/generated/admin/admin'
import { apiErrorMessage, errorStatus } from '@/src/lib/api-error'
import { formatBytes } from '@/components/node/format'
import { retryArchiveQuery, splitLines, type FileSelection } from './review-utils'
import { MUTED, SECTION, SECTION_TITLE } from './styles'
import { breakable } from '@/components/common/BreakableText'

export interface FileViewerProps {
  nodeId: string
  version: string
  selection: FileSelection | undefined
  /** Bumped when a person opened a file, so focus follows them there (not on page load). */
  focusRequest: number
  onClose: () => void
}

const Line = memo(function Line({
  number,
  text,
  selected,
  highlightedLabel,
}: {
  number: number
  text: string
  selected: boolean
  highlightedLabel: string
}) {
  return (
    <span
      data-line={number}
      tabIndex={selected ? -1 : undefined}
      className={`flex focus:outline-none ${selected ? 'bg-yellow-100 dark:bg-yellow-900' : ''}`}
    >
      <span
        className={`sticky left-0 w-14 shrink-0 pr-3 text-right select-none ${
          selected
            ? 'bg-yellow-200 font-semibold text-gray-900 dark:bg-yellow-800 dark:text-white'
            : 'bg-gray-50 text-gray-600 dark:bg-gray-900 dark:text-gray-400'
        }`}
      >
        {selected && <span className="sr-only">{highlightedLabel} </span>}
        {number}
      </span>
      {/* A non-breaking space keeps empty lines one line high. */}
      <span className="pr-4 whitespace-pre">{text || '\u00a0'}</span>
    </span>
  )
})

function Lines({ text, line, focusRequest }: { text: string; line: number; focusRequest: number }) {
  const { t } = useTranslation('common')
  const lines = useMemo(() => splitLines(text), [text])
  const container = useRef<HTMLDivElement>(null)
  const focused = useRef(0)
  const highlightedLabel = t('admin.review.viewer.highlighted')

  useEffect(() => {
    const element = container.current?.querySelector<HTMLElement>(`[data-line="${line}"]`)
    if (!element) return
    // jsdom has no scrollIntoView; browsers do.
    element.scrollIntoView?.({ block: 'center' })
    if (focusRequest !== focused.current) {
      focused.current = focusRequest
      element.focus({ preventScroll: true })
    }
  }, [line, lines, focusRequest])

  return (
    <div
      ref={container}
      // Focusable so keyboard users can scroll long lines and long files.
      tabIndex={0}
      role="region"
      aria-label={t('admin.review.viewer.contents')}
      className="mt-3 max-h-[70vh] overflow-auto rounded border border-gray-200 bg-white text-gray-900 focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none dark:border-gray-700 dark:bg-gray-950 dark:text-gray-100"
    >
      <pre className="min-w-max py-2 font-mono text-xs leading-5">
        <code className="block">
          {lines.map((content, index) => (
            <Line
              key={index}
              number={index + 1}
              text={content}
              selected={index + 1 === line}
              highlightedLabel={highlightedLabel}
            />
          ))}
        </code>
      </pre>
    </div>
  )
}

export function FileViewer({ nodeId, version, selection, focusRequest, onClose }: FileViewerProps) {
  const { t, i18n } = useTranslation('common')
  const path = selection?.file ?? ''
  const file = useGetAdminVersionFile(
    nodeId,
    version,
    { path },
    { query: { enabled: Boolean(nodeId && version && path), retry: retryArchiveQuery } },
  )
  const sectionRef = useRef<HTMLElement>(null)
  const failed = file.isError ? errorStatus(file.error) : undefined

  // When a person opens a file that cannot be shown, focus goes to the viewer's message.
  const focused = useRef(0)
  useEffect(() => {
    if (focusRequest === focused.current || !selection) return
    if (file.isPending) return
    const showsLine = file.data && !file.data.truncated && selection.line > 0
    focused.current = focusRequest
    if (!showsLine) {
      sectionRef.current?.scrollIntoView?.({ block: 'start' })
      sectionRef.current?.focus({ preventScroll: true })
    }
  }, [focusRequest, selection, file.isPending, file.data])

  let body
  if (!selection) {
    body = <p className={`mt-2 ${MUTED}`}>{t('admin.review.viewer.empty')}</p>
  } else if (file.isPending) {
    body = (
      <p role="status" className={`mt-2 ${MUTED}`}>
        {t('admin.review.viewer.loading', { file: path })}
      </p>
    )
  } else if (file.isError) {
    body = (
      <p className={`mt-2 ${MUTED}`}>
        {failed === 415
          ? t('admin.review.viewer.notText', { file: path })
          : failed === 404
            ? t('admin.review.viewer.missing', { file: path })
            : failed === 409
              ? t('admin.review.files.failedChecks')
              : t('admin.review.viewer.error', { message: apiErrorMessage(file.error, t) })}
      </p>
    )
  } else if (file.data.truncated) {
    body = (
      <p className={`mt-2 ${MUTED}`}>
        {t('admin.review.viewer.tooLarge', {
          file: path,
          size: formatBytes(file.data.size, i18n.language),
        })}
      </p>
    )
  } else if (file.data.text === '') {
    body = <p className={`mt-2 ${MUTED}`}>{t('admin.review.viewer.emptyFile')}</p>
  } else {
    body = <Lines text={file.data.text} line={selection.line} focusRequest={focusRequest} />
  }

  return (
    <section
      ref={sectionRef}
      tabIndex={-1}
      aria-labelledby="review-viewer"
      className={`${SECTION} focus:outline-none`}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 id="review-viewer" className={`${SECTION_TITLE} min-w-0 break-words`}>
          {selection ? (
            <>
              <span className="sr-only">{t('admin.review.viewer.title')}: </span>
              <code className="font-mono text-lg">{breakable(path)}</code>
              {selection.line > 0 && (
                <span className={`ml-2 text-base font-normal ${MUTED}`}>
                  {t('admin.review.viewer.line', { line: selection.line })}
                </span>
              )}
            </>
          ) : (
            t('admin.review.viewer.title')
          )}
        </h2>
        {selection && (
          <button
            type="button"
            onClick={onClose}
            className="rounded-lg border border-gray-300 px-3 py-1 text-sm font-medium text-gray-900 hover:bg-gray-100 focus:ring-4 focus:ring-gray-200 focus:outline-none dark:border-gray-600 dark:text-white dark:hover:bg-gray-700 dark:focus:ring-gray-700"
          >
            {t('admin.review.viewer.close')}
          </button>
        )}
      </div>
      {body}
    </section>
  )
}
