// The README of the version the page shows. The server renders its first part (sanitised HTML,
// or plain text for README.rst/.txt); "Show the whole README" loads the rest from the API and
// renders it in the browser through the same sanitising <Markdown>.
import { useTranslation } from 'next-i18next/pages'
import { useId, useState } from 'react'
import { RenderedMarkdown } from '@/components/common/RenderedMarkdown'
import { useGetNodeVersionReadme } from '@/src/api/generated/versions/versions'
import { publicEnv } from '@/src/lib/public-env'
import { readmeLinks } from '@/src/lib/readme'

/** What the server rendered (pages/nodes/[nodeId].tsx). */
export interface ReadmeFirstPart {
  format: 'markdown' | 'text'
  /** Sanitised HTML of the first part (markdown). */
  html?: string
  /** The first part (plain text). */
  text?: string
  /** There is more than the first part. */
  more: boolean
  /** The registry keeps only the start of a very long README. */
  truncated: boolean
}

const BUTTON =
  'mt-4 rounded-lg border border-gray-300 px-4 py-2 text-sm font-medium hover:bg-gray-100 focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none dark:border-gray-600 dark:hover:bg-gray-700'

const TEXT = 'overflow-x-auto font-mono text-sm whitespace-pre-wrap break-words'

export function Readme({
  nodeId,
  version,
  first,
}: {
  nodeId: string
  version: string
  first: ReadmeFirstPart
}) {
  const { t } = useTranslation('common')
  const id = useId()
  const [expanded, setExpanded] = useState(false)
  const whole = useGetNodeVersionReadme(nodeId, version, { query: { enabled: expanded } })
  const full = expanded ? whole.data : undefined

  let body
  if (full) {
    body =
      full.format === 'markdown' ? (
        <RenderedMarkdown
          source={full.text}
          links={readmeLinks(publicEnv().apiUrl, nodeId, version, full.images)}
        />
      ) : (
        <pre className={TEXT}>{full.text}</pre>
      )
  } else if (first.format === 'markdown') {
    body = <RenderedMarkdown html={first.html} source="" />
  } else {
    body = <pre className={TEXT}>{first.text}</pre>
  }

  return (
    <div>
      <div id={id}>{body}</div>
      {expanded && whole.isPending && (
        <p role="status" className="mt-2 text-sm text-gray-700 dark:text-gray-300">
          {t('node.readmeLoading')}
        </p>
      )}
      {expanded && whole.isError && (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-300">
          {t('node.readmeFailed')}
        </p>
      )}
      {(full ? full.truncated : first.truncated && !first.more) && (
        <p className="mt-2 text-sm text-gray-700 dark:text-gray-300">{t('node.readmeTruncated')}</p>
      )}
      {first.more && (
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={id}
          onClick={() => setExpanded(!expanded)}
          className={BUTTON}
        >
          {expanded ? t('node.readmeLess') : t('node.readmeMore')}
        </button>
      )}
    </div>
  )
}
