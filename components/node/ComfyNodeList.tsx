// The ComfyUI node classes in the latest version: display name, class name, category,
// description, and the inputs and outputs read from the pack's INPUT_TYPES and RETURN_TYPES.
// A pack may hold hundreds of classes: the first ones are shown (and server-rendered), the rest
// loaded and shown on demand (node-lists.ts), keeping the page's HTML small.
import { useTranslation } from 'next-i18next/pages'
import { useId, useState } from 'react'
import { breakable } from '@/components/common/BreakableText'
import type { ComfyNode } from '@/src/api/generated/model'
import { parseInputs, parseOutputs, type SocketType } from './comfy-node-io'
import { LoadRestNotice, SHOW_MORE_BUTTON_CLASS, type LoadRest } from './LoadRest'
import { COMFY_NODES_SHOWN } from './node-lists'

const MUTED = 'text-gray-700 dark:text-gray-300'

function TypeName({ type }: { type: SocketType }) {
  const { t } = useTranslation('common')
  if (type.kind === 'type')
    return <span className="font-mono">{breakable(type.name, { camelCase: true })}</span>
  if (type.kind === 'choices') {
    return <span>{t('node.comfyNodes.choices', { count: type.count })}</span>
  }
  return <span className={MUTED}>{t('node.comfyNodes.dynamic')}</span>
}

function Sockets({ comfyNode }: { comfyNode: ComfyNode }) {
  const { t } = useTranslation('common')
  const inputs = parseInputs(comfyNode.input_types)
  const outputs = parseOutputs(comfyNode.return_types, comfyNode.return_names)
  if (!inputs?.length && !outputs?.length) return null
  return (
    <div className="mt-2 grid gap-2 text-xs sm:grid-cols-2">
      {inputs && inputs.length > 0 && (
        <div className="min-w-0">
          <h4 className="font-semibold">{t('node.comfyNodes.inputs')}</h4>
          <ul className="mt-1 space-y-0.5">
            {inputs.map((input) => (
              <li key={`${input.optional ? 'o' : 'r'}-${input.name}`} className="break-words">
                <span className="font-mono font-medium">
                  {breakable(input.name, { camelCase: true })}
                </span>{' '}
                <TypeName type={input.type} />
                {input.optional && (
                  <span className={`ml-1 italic ${MUTED}`}>({t('node.comfyNodes.optional')})</span>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
      {outputs && outputs.length > 0 && (
        <div className="min-w-0">
          <h4 className="font-semibold">{t('node.comfyNodes.outputs')}</h4>
          <ul className="mt-1 space-y-0.5">
            {outputs.map((output, index) => (
              <li key={index} className="break-words">
                <TypeName type={output.type} />
                {output.name && (
                  <span className="ml-1">{breakable(output.name, { camelCase: true })}</span>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  )
}

function ComfyNodeItem({ comfyNode }: { comfyNode: ComfyNode }) {
  const { t } = useTranslation('common')
  const displayName = comfyNode.display_name?.trim()
  return (
    <li className="min-w-0 rounded-lg border border-gray-200 p-3 dark:border-gray-700">
      <h3
        className={
          displayName
            ? 'text-sm font-semibold break-words'
            : 'font-mono text-sm font-semibold break-words'
        }
      >
        {displayName || breakable(comfyNode.comfy_node_name, { camelCase: true })}
      </h3>
      {displayName && displayName !== comfyNode.comfy_node_name && (
        <p className={`font-mono text-xs break-words ${MUTED}`}>
          {breakable(comfyNode.comfy_node_name, { camelCase: true })}
        </p>
      )}
      {comfyNode.category && (
        <p className={`mt-1 text-xs break-words ${MUTED}`}>
          {t('node.comfyNodes.category', { category: comfyNode.category })}
        </p>
      )}
      {comfyNode.description && (
        <p className="mt-1 text-sm break-words text-gray-800 dark:text-gray-200">
          {comfyNode.description}
        </p>
      )}
      <Sockets comfyNode={comfyNode} />
    </li>
  )
}

export interface ComfyNodeListProps {
  /** The classes loaded so far: the first ones, or all of them once asked for. */
  comfyNodes: ComfyNode[]
  /** How many classes the version has. */
  total: number
  /** Loads the classes not yet loaded (when `comfyNodes` holds fewer than `total`). */
  rest?: LoadRest
}

export function ComfyNodeList({ comfyNodes, total, rest }: ComfyNodeListProps) {
  const { t } = useTranslation('common')
  const id = useId()
  const [showAll, setShowAll] = useState(false)
  const shown = showAll ? comfyNodes : comfyNodes.slice(0, COMFY_NODES_SHOWN)
  const hidden = Math.max(total, comfyNodes.length) > COMFY_NODES_SHOWN
  const toggle = () => {
    if (!showAll && comfyNodes.length < total) rest?.load()
    setShowAll((current) => !current)
  }
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-xl font-semibold">
        {t('node.comfyNodes.title')}
      </h2>
      {comfyNodes.length === 0 ? (
        <p className={`mt-2 ${MUTED}`}>{t('node.comfyNodes.none')}</p>
      ) : (
        <>
          <p className={`mt-1 text-sm ${MUTED}`}>{t('node.comfyNodes.count', { count: total })}</p>
          <ul id={`${id}-list`} className="mt-3 grid gap-3 sm:grid-cols-2">
            {shown.map((comfyNode) => (
              <ComfyNodeItem key={comfyNode.comfy_node_name} comfyNode={comfyNode} />
            ))}
          </ul>
          {showAll && rest && <LoadRestNotice rest={rest} />}
          {hidden && (
            <button
              type="button"
              aria-expanded={showAll}
              aria-controls={`${id}-list`}
              onClick={toggle}
              className={SHOW_MORE_BUTTON_CLASS}
            >
              {showAll
                ? t('node.comfyNodes.showFewer')
                : t('node.comfyNodes.showAll', { total: Math.max(total, comfyNodes.length) })}
            </button>
          )}
        </>
      )}
    </section>
  )
}
