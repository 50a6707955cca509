// A commit's CI results: its header (hash, message, author, time, branch), then its workflows,
// each with one card per operating system: status, machine, versions, duration, video memory
// and the output images (served by the API, whose origin the site's CSP allows for images).
import { useTranslation } from 'next-i18next/pages'
import { useId } from 'react'
import { formatDateTime } from '@/components/node/format'
import type { GitCommit, WorkflowResult } from '@/src/api/generated/model'
import { CiStatus, osName } from './CiStatus'
import { shortHash } from './ci-address'
import { formatDuration, formatVram } from './format'

/** The results of each workflow (by name), in the order the API gave them (by system). */
export function byWorkflow(results: readonly WorkflowResult[]): [string, WorkflowResult[]][] {
  const groups = new Map<string, WorkflowResult[]>()
  for (const result of results) {
    const name = result.workflow_name ?? ''
    groups.set(name, [...(groups.get(name) ?? []), result])
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b))
}

const IMAGE_FILE = /\.(png|jpe?g|webp|gif|avif)$/i

/** An output file's address when it is http(s), with its file name; else undefined. */
export function outputFile(
  value: string,
): { url: string; name: string; image: boolean } | undefined {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return undefined
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
  const last = url.pathname.split('/').pop() ?? ''
  let name = last
  try {
    name = decodeURIComponent(last)
  } catch {
    // A malformed escape: the name as it is.
  }
  return { url: url.href, name: name || url.href, image: IMAGE_FILE.test(url.pathname) }
}

/** Shown output images' box, in CSS pixels (they keep their proportions inside it). */
const IMAGE_SIZE = 256

const TERM = 'text-gray-600 dark:text-gray-300'
const VALUE = 'font-medium text-gray-900 break-words dark:text-white'

function NotReported() {
  const { t } = useTranslation('common')
  return (
    <>
      <span aria-hidden="true">–</span>
      <span className="sr-only">{t('ci.detail.notReported')}</span>
    </>
  )
}

function Fact({ term, value }: { term: string; value: string | undefined }) {
  return (
    <div className="flex justify-between gap-3 py-1">
      <dt className={TERM}>{term}</dt>
      <dd className={`${VALUE} text-right`}>{value || <NotReported />}</dd>
    </div>
  )
}

function ResultCard({ result, headingId }: { result: WorkflowResult; headingId: string }) {
  const { t, i18n } = useTranslation('common')
  const locale = i18n.language
  const os = osName(result.operating_system, t)
  const running = result.end_time === undefined
  const duration = running
    ? t('ci.detail.running')
    : formatDuration(result.start_time, result.end_time, locale)
  const files = (result.output_files ?? []).flatMap((value) => outputFile(value) ?? [])
  return (
    <li className="flex min-w-0 flex-col rounded-lg border border-gray-200 bg-white p-4 dark:border-gray-700 dark:bg-gray-900">
      <article aria-labelledby={headingId} className="min-w-0">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 id={headingId} className="text-base font-semibold text-gray-900 dark:text-white">
            {os}
          </h3>
          <CiStatus status={result.status} withText />
        </div>
        <dl className="mt-3 divide-y divide-gray-100 text-sm dark:divide-gray-800">
          <Fact term={t('ci.detail.gpu')} value={result.gpu_type} />
          <Fact term={t('ci.detail.python')} value={result.python_version} />
          <Fact term={t('ci.detail.pytorch')} value={result.pytorch_version} />
          <Fact term={t('ci.detail.cuda')} value={result.cuda_version} />
          <Fact term={t('ci.detail.duration')} value={duration} />
          <Fact term={t('ci.detail.avgVram')} value={formatVram(result.avg_vram, locale)} />
          <Fact term={t('ci.detail.peakVram')} value={formatVram(result.peak_vram, locale)} />
        </dl>
        {files.length > 0 && (
          <div className="mt-4">
            <h4 className="text-sm font-semibold text-gray-900 dark:text-white">
              {t('ci.detail.outputs')}
            </h4>
            <ul className="mt-2 flex flex-wrap gap-3">
              {files.map((file, index) => (
                <li key={file.url} className={file.image ? 'w-64 max-w-full' : 'min-w-0'}>
                  {file.image ? (
                    <a
                      href={file.url}
                      className="block rounded focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none"
                    >
                      {/* eslint-disable-next-line @next/next/no-img-element -- served by the API, any size */}
                      <img
                        src={file.url}
                        alt={t('ci.detail.outputAlt', {
                          workflow: result.workflow_name ?? '',
                          os,
                          number: index + 1,
                        })}
                        width={IMAGE_SIZE}
                        height={IMAGE_SIZE}
                        loading="lazy"
                        decoding="async"
                        className="block h-auto w-full rounded border border-gray-200 bg-gray-100 object-contain dark:border-gray-700 dark:bg-gray-800"
                      />
                    </a>
                  ) : (
                    <a
                      href={file.url}
                      className="text-sm break-all text-blue-700 underline hover:no-underline dark:text-blue-300"
                    >
                      {file.name}
                    </a>
                  )}
                </li>
              ))}
            </ul>
          </div>
        )}
      </article>
    </li>
  )
}

export function CommitHeader({ commit, repo }: { commit: GitCommit; repo: string }) {
  const { t, i18n } = useTranslation('common')
  const message = commit.commit_name?.split('\n')[0]
  return (
    <header>
      <p className="text-sm font-medium text-gray-700 dark:text-gray-300">{repo}</p>
      <h1 className="mt-1 text-3xl font-bold tracking-tight text-gray-900 dark:text-white">
        {t('ci.detail.title', { hash: shortHash(commit.commit_hash) })}
      </h1>
      {message && (
        <p className="mt-2 text-lg break-words text-gray-800 dark:text-gray-200">{message}</p>
      )}
      <dl className="mt-4 grid gap-x-8 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <dt className={TERM}>{t('ci.table.author')}</dt>
          <dd className={VALUE}>{commit.author || <NotReported />}</dd>
        </div>
        <div>
          <dt className={TERM}>{t('ci.table.time')}</dt>
          <dd className={VALUE}>
            {commit.timestamp ? (
              <time dateTime={commit.timestamp}>
                {formatDateTime(commit.timestamp, i18n.language, 'utc')}
              </time>
            ) : (
              <NotReported />
            )}
          </dd>
        </div>
        <div>
          <dt className={TERM}>{t('ci.detail.branch')}</dt>
          <dd className={VALUE}>{commit.branch_name || <NotReported />}</dd>
        </div>
        <div className="min-w-0">
          <dt className={TERM}>{t('ci.detail.hash')}</dt>
          <dd className={`${VALUE} font-mono text-xs break-all`}>{commit.commit_hash}</dd>
        </div>
      </dl>
    </header>
  )
}

export function CommitResults({ results }: { results: WorkflowResult[] }) {
  const { t } = useTranslation('common')
  const id = useId()
  return (
    <div className="mt-8 space-y-10">
      {byWorkflow(results).map(([workflow, group], w) => (
        <section key={workflow} aria-labelledby={`${id}-${w}`}>
          <h2
            id={`${id}-${w}`}
            className="text-xl font-semibold break-words text-gray-900 dark:text-white"
          >
            {workflow || t('ci.detail.unnamedWorkflow')}
          </h2>
          <ul className="mt-4 grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3">
            {group.map((result) => (
              <ResultCard key={result.id} result={result} headingId={`${id}-${w}-${result.id}`} />
            ))}
          </ul>
        </section>
      ))}
    </div>
  )
}
