// "What's new in ComfyUI": the latest releases of ComfyUI, its desktop app and its frontend, each
// with its project, version, attention, date and title, and its notes folded in a <details>.
// Notes come rendered and sanitised by the server (markdownHtml); a release the browser learns of
// later is rendered by the same sanitising renderer, loaded on demand (RenderedMarkdown).
import { useTranslation } from 'next-i18next/pages'
import { useId } from 'react'
import { RenderedMarkdown } from '@/components/common/RenderedMarkdown'
import { Badge, type BadgeTone } from '@/components/node/Badge'
import { formatDate } from '@/components/node/format'
import type { Release, ReleaseAttention } from '@/src/api/generated/model'

const ATTENTION_TONES: Record<ReleaseAttention, BadgeTone> = {
  high: 'red',
  medium: 'yellow',
  low: 'gray',
}

/**
 * The `count` most recently published releases, newest first. The API orders each project's
 * releases by version; across projects, the date is what "new" means. Undated ones come last.
 */
export function latestReleases(releases: readonly Release[], count: number): Release[] {
  const time = (release: Release) => {
    const value = release.published_at ? Date.parse(release.published_at) : Number.NaN
    return Number.isNaN(value) ? 0 : value
  }
  return [...releases].sort((a, b) => time(b) - time(a)).slice(0, count)
}

/** The heading level of the notes' own headings (under the release's h3). */
export const RELEASE_NOTES_HEADING_LEVEL = 4

export interface ReleaseNotesProps {
  releases: Release[] | undefined
  /** Notes rendered by the server, by release id. */
  notesHtml?: Record<string, string>
  isError?: boolean
}

export function ReleaseNotes({ releases, notesHtml = {}, isError = false }: ReleaseNotesProps) {
  const { t, i18n } = useTranslation('common')
  const headingId = useId()
  const locale = i18n.language

  return (
    <section aria-labelledby={headingId} className="mt-12">
      <h2 id={headingId} className="text-2xl font-bold text-gray-900 dark:text-white">
        {t('ci.releases.heading')}
      </h2>
      {!releases ? (
        <p className="mt-4 text-gray-700 dark:text-gray-300">
          {isError ? t('ci.releases.error') : t('ci.loading')}
        </p>
      ) : releases.length === 0 ? (
        <p className="mt-4 text-gray-700 dark:text-gray-300">{t('ci.releases.empty')}</p>
      ) : (
        <ul className="mt-4 space-y-4">
          {releases.map((release) => {
            const title = release.title?.trim() || release.version
            const date = formatDate(release.published_at, locale)
            const attention = release.attention
            return (
              <li
                key={release.id}
                className="rounded-lg border border-gray-200 bg-white p-4 dark:border-gray-700 dark:bg-gray-900"
              >
                <article aria-labelledby={`${headingId}-${release.id}`}>
                  <h3
                    id={`${headingId}-${release.id}`}
                    className="text-lg font-semibold break-words text-gray-900 dark:text-white"
                  >
                    {title}
                  </h3>
                  <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-gray-700 dark:text-gray-300">
                    <span>
                      {t(`ci.projects.${release.project}`, { defaultValue: release.project })}
                    </span>
                    <span className="font-mono">{release.version}</span>
                    {attention && (
                      <Badge tone={ATTENTION_TONES[attention]}>
                        {t(`ci.releases.attention.${attention}`)}
                      </Badge>
                    )}
                    {date && release.published_at && (
                      <time dateTime={release.published_at}>{date}</time>
                    )}
                  </p>
                  {release.content?.trim() && (
                    <details className="group mt-3">
                      <summary className="cursor-pointer rounded text-sm font-medium text-blue-700 hover:underline focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none dark:text-blue-300">
                        {t('ci.releases.notesFor', { title })}
                      </summary>
                      <RenderedMarkdown
                        html={notesHtml[String(release.id)]}
                        source={release.content}
                        headingLevel={RELEASE_NOTES_HEADING_LEVEL}
                        className="mt-3 text-gray-800 dark:text-gray-200"
                      />
                    </details>
                  )}
                </article>
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}
