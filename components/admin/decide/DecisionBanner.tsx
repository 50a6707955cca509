// What the last decision did, shown where the admin decided (the notifications of
// src/lib/notify.ts only carry errors and no buttons): the outcome, and for a batch an Undo
// (POST /admin/batches/{batchId}/undo) that reverts every version of it in one transaction.
import { useQueryClient } from '@tanstack/react-query'
import { Button } from 'flowbite-react'
import { useTranslation } from 'next-i18next/pages'
import { useEffect, useRef, useState } from 'react'
import { useUndoAdminBatch } from '@/src/api/generated/admin/admin'
import { apiErrorMessage } from '@/src/lib/api-error'
import { decisionKey, type DecisionResult } from './DecisionDialog'
import { invalidateAfterDecision } from '@/src/api/invalidation'

export interface DecisionBannerProps {
  result: DecisionResult
  onDismiss: () => void
}

/** The sentence that says what was decided, e.g. "Flagged 3 versions." */
export function useDecisionSummary(): (result: DecisionResult) => string {
  const { t } = useTranslation('common')
  return (result) => {
    const key = decisionKey(result.status)
    const [first] = result.targets
    return result.targets.length === 1 && first
      ? t(`admin.decide.doneOne.${key}`, { node: first.node_id, version: first.version })
      : t(`admin.decide.doneMany.${key}`, { count: result.targets.length })
  }
}

export function DecisionBanner(props: DecisionBannerProps) {
  // A new decision replaces the banner, so its Undo state starts over.
  const { result } = props
  const key = [result.status, result.batchId ?? '', ...result.targets.map((target) => target.id)]
  return <DecisionBannerContent key={key.join(' ')} {...props} />
}

function DecisionBannerContent({ result, onDismiss }: DecisionBannerProps) {
  const { t } = useTranslation('common')
  const queryClient = useQueryClient()
  const summary = useDecisionSummary()
  const undo = useUndoAdminBatch()
  const [undone, setUndone] = useState(false)
  const [error, setError] = useState<string>()
  const ref = useRef<HTMLDivElement>(null)

  // Brought into view: the admin may have decided far down the list.
  useEffect(() => {
    ref.current?.scrollIntoView?.({ block: 'nearest' })
  }, [])

  const onUndo = () => {
    if (!result.batchId || undo.isPending) return
    setError(undefined)
    undo.mutate(
      { batchId: result.batchId },
      {
        onSuccess: () => {
          setUndone(true)
          void invalidateAfterDecision(
            queryClient,
            result.targets.map((target) => target.node_id),
          )
        },
        onError: (cause) => setError(apiErrorMessage(cause, t)),
      },
    )
  }

  return (
    <div
      ref={ref}
      className="mb-4 flex flex-wrap items-center gap-3 rounded-lg border border-green-300 bg-green-50 p-3 text-sm text-green-900 dark:border-green-700 dark:bg-green-950 dark:text-green-100"
    >
      <p role="status" className="min-w-0 flex-1 break-words">
        {undone ? t('admin.decide.undone', { count: result.targets.length }) : summary(result)}
      </p>
      {result.batchId && !undone && (
        <Button size="xs" color="light" onClick={onUndo} disabled={undo.isPending}>
          {undo.isPending ? t('admin.decide.undoing') : t('admin.decide.undo')}
        </Button>
      )}
      <Button size="xs" color="light" onClick={onDismiss}>
        {t('admin.decide.dismiss')}
      </Button>
      {error && (
        <p role="alert" className="w-full font-medium text-red-800 dark:text-red-300">
          {error}
        </p>
      )}
    </div>
  )
}
