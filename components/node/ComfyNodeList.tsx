// The ComfyUI node classes in the latest version: name, category and description.
import { useTranslation } from 'next-i18next/pages'
import { useId } from 'react'
import type { ComfyNode } from '@/src/api/generated/model'

export function ComfyNodeList({ comfyNodes, total }: { comfyNodes: ComfyNode[]; total: number }) {
  const { t } = useTranslation('common')
  const id = useId()
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-xl font-semibold">
        {t('node.comfyNodes.title')}
      </h2>
      {comfyNodes.length === 0 ? (
        <p className="mt-2 text-gray-700 dark:text-gray-300">{t('node.comfyNodes.none')}</p>
      ) : (
        <>
          <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">
            {t('node.comfyNodes.count', { count: total })}
          </p>
          <ul className="mt-3 grid gap-3 sm:grid-cols-2">
            {comfyNodes.map((comfyNode) => (
              <li
                key={comfyNode.comfy_node_name}
                className="rounded-lg border border-gray-200 p-3 dark:border-gray-700"
              >
                <h3 className="font-mono text-sm font-semibold break-all">
                  {comfyNode.comfy_node_name}
                </h3>
                {comfyNode.category && (
                  <p className="mt-1 text-xs text-gray-700 dark:text-gray-300">
                    {t('node.comfyNodes.category', { category: comfyNode.category })}
                  </p>
                )}
                {comfyNode.description && (
                  <p className="mt-1 text-sm text-gray-800 dark:text-gray-200">
                    {comfyNode.description}
                  </p>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  )
}
