// The install command with a copy button (announced through a live region) and the download of
// the offered archive: the latest version, or the one NodeView chose past deprecated versions
// (src/lib/install-choice.ts), which the command then names.
import { useTranslation } from 'next-i18next/pages'
import { useId, type ReactNode } from 'react'
import { breakable } from '@/components/common/BreakableText'
import { useCopyText } from '@/components/common/useCopyText'

export { COPIED_RESET_MS } from '@/components/common/useCopyText'

/** `id@version` pins a version (comfy-cli passes the spec to ComfyUI-Manager, which reads it). */
export function installCommand(nodeId: string, pinnedVersion?: string): string {
  return `comfy node install ${nodeId}${pinnedVersion ? `@${pinnedVersion}` : ''}`
}

export interface InstallBoxProps {
  nodeId: string
  /** The version the command installs (the node's latest unless `pinned`). */
  version?: string
  /** The version is not the registry's latest: the command names it. */
  pinned?: boolean
  downloadUrl?: string
  /** Why this version (the latest is deprecated, or the one asked for is). */
  notice?: ReactNode
}

export function InstallBox({ nodeId, version, pinned, downloadUrl, notice }: InstallBoxProps) {
  const { t } = useTranslation('common')
  const id = useId()
  const { state, copy } = useCopyText()
  const command = installCommand(nodeId, pinned ? version : undefined)

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="rounded-lg border border-gray-200 bg-gray-50 p-4 dark:border-gray-700 dark:bg-gray-800"
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        {t('node.install.title')}
      </h2>
      <p id={`${id}-hint`} className="mt-1 text-sm text-gray-700 dark:text-gray-300">
        {t('node.install.hint')}
      </p>
      {version && (
        <p className="mt-1 text-sm">
          {t('node.install.version')} <span className="font-mono font-medium">{version}</span>
        </p>
      )}
      {notice}
      <div className="mt-3 flex items-stretch gap-2">
        {/* Wraps at spaces and the id's joints; only a joint-less run is split (last resort). */}
        <pre className="min-w-0 flex-1 rounded-md border border-gray-300 bg-white px-3 py-2 text-sm break-words whitespace-pre-wrap dark:border-gray-600 dark:bg-gray-900">
          <code id={`${id}-command`}>{breakable(command)}</code>
        </pre>
        <button
          type="button"
          onClick={() => void copy(command)}
          aria-describedby={`${id}-command`}
          className="rounded-md bg-blue-700 px-4 text-sm font-medium text-white hover:bg-blue-800 focus:ring-4 focus:ring-blue-300 focus:outline-none dark:bg-blue-600 dark:hover:bg-blue-700 dark:focus:ring-blue-800"
        >
          {t('node.install.copy')}
        </button>
      </div>
      <p aria-live="polite" role="status" className="mt-2 min-h-5 text-sm">
        {state === 'copied' && (
          <span className="text-green-800 dark:text-green-300">{t('node.install.copied')}</span>
        )}
        {state === 'failed' && (
          <span className="text-red-700 dark:text-red-300">{t('node.install.copyFailed')}</span>
        )}
      </p>
      {downloadUrl && (
        <a
          href={downloadUrl}
          download
          className="mt-2 inline-flex items-center rounded-md border border-gray-300 bg-white px-4 py-2 text-sm font-medium text-gray-900 hover:bg-gray-100 focus:ring-4 focus:ring-gray-200 focus:outline-none dark:border-gray-600 dark:bg-gray-900 dark:text-gray-100 dark:hover:bg-gray-700 dark:focus:ring-gray-700"
        >
          {pinned && version
            ? t('deprecation.install.download', { version })
            : t('node.install.download')}
        </a>
      )}
    </section>
  )
}
