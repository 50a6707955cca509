import type { Node } from '@/src/api/generated/model'
import Link from 'next/link'
import { useTranslation } from 'next-i18next/pages'
import { summary } from '@/src/lib/markdown'

export function NodeCard({ node }: { node: Node }) {
  const { t, i18n } = useTranslation('common')
  const number = new Intl.NumberFormat(i18n.language)
  return (
    <article className="flex flex-col gap-2 rounded-lg border border-gray-200 bg-white p-4 shadow-sm dark:border-gray-700 dark:bg-gray-800">
      <div className="flex items-center gap-3">
        {/* eslint-disable-next-line @next/next/no-img-element -- small local SVG icons */}
        <img
          src={node.icon || '/icons/node-0.svg'}
          alt=""
          width={40}
          height={40}
          className="h-10 w-10 rounded"
        />
        <div className="min-w-0">
          <h2 className="truncate text-base font-semibold">
            <Link href={`/nodes/${encodeURIComponent(node.id)}`} className="hover:underline">
              {node.name}
            </Link>
          </h2>
          {node.publisher && (
            <p className="truncate text-sm text-gray-600 dark:text-gray-300">
              {t('nodes.byPublisher', { publisher: node.publisher.name })}
            </p>
          )}
        </div>
      </div>
      <p className="text-sm text-gray-700 dark:text-gray-200">{summary(node.description)}</p>
      <dl className="mt-auto flex flex-wrap gap-x-4 gap-y-1 text-xs text-gray-600 dark:text-gray-300">
        {node.latest_version && (
          <div>
            <dt className="inline">{t('nodes.version')} </dt>
            <dd className="inline font-medium">{node.latest_version.version}</dd>
          </div>
        )}
        <div>
          <dt className="inline">{t('nodes.downloads')} </dt>
          <dd className="inline font-medium">{number.format(node.downloads ?? 0)}</dd>
        </div>
        <div>
          <dt className="inline">{t('nodes.stars')} </dt>
          <dd className="inline font-medium">{number.format(node.github_stars ?? 0)}</dd>
        </div>
      </dl>
    </article>
  )
}
