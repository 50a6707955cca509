// How a version was published (contract: VersionProvenance): from a GitHub Actions workflow
// through trusted publishing, or with a personal access token. Shown on the node page and in the
// admin review; see docs/PUBLISHING.md.
import { useTranslation } from 'next-i18next/pages'
import type { VersionProvenance } from '@/src/api/generated/model'

const LINK = 'text-blue-700 underline hover:no-underline dark:text-blue-300'
const GITHUB = 'https://github.com'

/** The first seven characters of a commit, as GitHub shows it. */
export function shortCommit(sha: string): string {
  return sha.slice(0, 7)
}

/** Only https links are rendered: the fields come from a token's claims. */
function safeUrl(url: string | undefined): string | undefined {
  return url && /^https:\/\//.test(url) ? url : undefined
}

export function Provenance({
  provenance,
  showTokenName = false,
}: {
  provenance: VersionProvenance | undefined
  /** Admins see which token published; visitors only that one did. */
  showTokenName?: boolean
}) {
  const { t } = useTranslation('common')
  if (!provenance || provenance.method === 'unknown') return null
  if (provenance.method === 'token') {
    return (
      <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">
        {showTokenName && provenance.token_name
          ? t('node.provenance.tokenNamed', { name: provenance.token_name })
          : t('node.provenance.token')}
      </p>
    )
  }
  const repository = provenance.repository ?? ''
  const commit = provenance.commit_sha ?? ''
  const runUrl = safeUrl(provenance.run_url)
  return (
    <p className="mt-1 text-sm wrap-anywhere text-gray-700 dark:text-gray-300">
      <svg
        aria-hidden="true"
        viewBox="0 0 16 16"
        className="mr-1 inline h-4 w-4 align-text-bottom text-green-700 dark:text-green-400"
        fill="currentColor"
      >
        <path d="M8 1 2.5 3.2v4.2c0 3.3 2.3 6.3 5.5 7.1 3.2-.8 5.5-3.8 5.5-7.1V3.2zm-1 9.6L4.6 8.2l1-1L7 8.6l3.4-3.4 1 1z" />
      </svg>
      {t('node.provenance.workflow', {
        repository,
        commit: shortCommit(commit),
        workflow: provenance.workflow_filename ?? '',
      })}
      {provenance.environment
        ? ` ${t('node.provenance.environment', { environment: provenance.environment })}`
        : ''}
      {repository && commit && (
        <>
          {' · '}
          <a
            className={LINK}
            href={`${GITHUB}/${repository}/commit/${commit}`}
            rel="noopener noreferrer nofollow"
          >
            {t('node.provenance.commit')}
          </a>
        </>
      )}
      {runUrl && (
        <>
          {' · '}
          <a className={LINK} href={runUrl} rel="noopener noreferrer nofollow">
            {t('node.provenance.run')}
          </a>
        </>
      )}
    </p>
  )
}
