// What the public sees of deprecations: the banner of a deprecated node, the message under a
// deprecated version, and why the install box offers the version it does.
import Link from 'next/link'
import { useTranslation } from 'next-i18next/pages'
import { useId } from 'react'
import type { Node, NodeVersion } from '@/src/api/generated/model'
import { NodeVersionStatus } from '@/src/api/generated/model/nodeVersionStatus'
import type { InstallChoice } from '@/src/lib/install-choice'
import { nodePath } from '@/src/lib/paths'

export function NodeDeprecatedBanner({ node }: { node: Node }) {
  const { t } = useTranslation('common')
  const id = useId()
  if (!node.deprecated) return null
  const message = node.deprecation_message?.trim()
  return (
    <section
      aria-labelledby={id}
      className="mb-6 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50"
    >
      <h2 id={id} className="font-semibold">
        {t('deprecation.node.title')}
      </h2>
      <p className="mt-1 text-sm break-words whitespace-pre-line">
        {message || t('deprecation.node.noMessage')}
      </p>
    </section>
  )
}

/**
 * The message under a deprecated version, and a link that asks the install box for it anyway
 * (`?version=`: the box never offers a deprecated version unless asked by version).
 */
export function VersionDeprecationMessage({ version }: { version: NodeVersion }) {
  const { t } = useTranslation('common')
  const message = version.deprecation_message?.trim()
  const installable = version.status === NodeVersionStatus.NodeVersionStatusActive
  if (!message && !installable) return null
  return (
    <p className="mt-1 text-sm break-words text-red-800 dark:text-red-200">
      {message && t('deprecation.version.message', { message })}
      {message && installable && ' '}
      {installable && (
        <Link
          href={`${nodePath(version.node_id)}?version=${encodeURIComponent(version.version)}`}
          scroll={false}
          className="whitespace-nowrap text-blue-700 underline hover:no-underline dark:text-blue-300"
          aria-label={t('deprecation.version.installAnywayOf', { version: version.version })}
        >
          {t('deprecation.version.installAnyway')}
        </Link>
      )}
    </p>
  )
}

/** Why the box offers its version: the latest is deprecated, or the one asked for is. */
export function DeprecatedInstallNotice({
  latest,
  choice,
}: {
  latest: NodeVersion | undefined
  choice: InstallChoice | undefined
}) {
  const { t } = useTranslation('common')
  const className = 'mt-2 text-sm break-words text-amber-900 dark:text-amber-200'
  if (!latest) return null
  if (!choice) return <p className={className}>{t('deprecation.install.allDeprecated')}</p>
  const offered = choice.version
  if (choice.requested && offered.deprecated) {
    const message = offered.deprecation_message?.trim()
    return (
      <p className={className}>
        {message
          ? t('deprecation.install.requestedDeprecatedWhy', { version: offered.version, message })
          : t('deprecation.install.requestedDeprecated', { version: offered.version })}
      </p>
    )
  }
  if (!choice.requested && latest.deprecated) {
    return (
      <p className={className}>
        {t('deprecation.install.latestDeprecated', {
          latest: latest.version,
          version: offered.version,
        })}
      </p>
    )
  }
  return null
}
