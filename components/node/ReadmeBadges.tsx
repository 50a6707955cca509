// The node's badges (latest version, downloads) with the Markdown to put them in a README, each
// with a copy button; the copy is announced through one live region.
import { useTranslation } from 'next-i18next/pages'
import { useId } from 'react'
import { useCopyText } from '@/components/common/useCopyText'
import { nodePath } from '@/src/lib/paths'
import { publicEnv } from '@/src/lib/public-env'
import { localizedUrl } from '@/src/lib/seo'

export type BadgeKind = 'version' | 'downloads'

const BADGE_KINDS: readonly BadgeKind[] = ['version', 'downloads']

/** The badge's address on the API (GET /badges/{nodeId}/{kind}.svg). */
export function badgeUrl(nodeId: string, kind: BadgeKind, apiUrl = publicEnv().apiUrl): string {
  return `${apiUrl.replace(/\/+$/, '')}/badges/${encodeURIComponent(nodeId)}/${kind}.svg`
}

/** A README's Markdown: the badge, linking to the node's page. English, as the badge itself. */
export function badgeMarkdown(nodeId: string, kind: BadgeKind, apiUrl?: string, siteUrl?: string) {
  const alt = kind === 'version' ? 'Comfy Registry' : 'Comfy Registry downloads'
  return `[![${alt}](${badgeUrl(nodeId, kind, apiUrl)})](${localizedUrl(nodePath(nodeId), undefined, siteUrl)})`
}

const FIELD =
  'min-w-0 flex-1 rounded-md border border-gray-300 bg-white px-2 py-1.5 font-mono text-xs text-gray-900 dark:border-gray-600 dark:bg-gray-900 dark:text-gray-100'
const BUTTON =
  'rounded-md border border-gray-300 bg-white px-3 text-sm font-medium text-gray-900 hover:bg-gray-100 focus:ring-4 focus:ring-gray-200 focus:outline-none dark:border-gray-600 dark:bg-gray-900 dark:text-gray-100 dark:hover:bg-gray-700 dark:focus:ring-gray-700'

export function ReadmeBadges({ nodeId }: { nodeId: string }) {
  const { t } = useTranslation('common')
  const id = useId()
  const { state, copy } = useCopyText()
  return (
    <div className="space-y-4">
      <p className="text-sm text-gray-700 dark:text-gray-300">{t('node.badges.hint')}</p>
      {BADGE_KINDS.map((kind) => {
        const label = t(kind === 'version' ? 'node.badges.version' : 'node.badges.downloads')
        const field = `${id}-${kind}`
        const markdown = badgeMarkdown(nodeId, kind)
        return (
          <div key={kind} className="space-y-1.5">
            <label htmlFor={field} className="block text-sm font-medium">
              {label}
            </label>
            {/* eslint-disable-next-line @next/next/no-img-element -- an SVG from the API, not optimisable */}
            <img src={badgeUrl(nodeId, kind)} alt={label} height={20} loading="lazy" />
            <div className="flex items-stretch gap-2">
              <input
                id={field}
                type="text"
                readOnly
                value={markdown}
                onFocus={(event) => event.currentTarget.select()}
                className={FIELD}
              />
              <button
                type="button"
                onClick={() => void copy(markdown)}
                aria-describedby={field}
                className={BUTTON}
              >
                {t('node.badges.copy')}
              </button>
            </div>
          </div>
        )
      })}
      <p aria-live="polite" role="status" className="min-h-5 text-sm">
        {state === 'copied' && (
          <span className="text-green-800 dark:text-green-300">{t('node.badges.copied')}</span>
        )}
        {state === 'failed' && (
          <span className="text-red-700 dark:text-red-300">{t('node.badges.copyFailed')}</span>
        )}
      </p>
    </div>
  )
}
