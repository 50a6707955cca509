// The admin's decision on one or more versions: approve, flag or ban, with the reason shown to
// the publishers. One version goes through PUT /admin/nodes/{id}/versions/{v}; several through
// one POST /admin/versions/decisions (one transaction and one audit batch, which can be undone).
import { useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'next-i18next/pages'
import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react'
import { FormDialog } from '@/components/manage/Dialog'
import { FormMessage, RadioGroupField, TextAreaField } from '@/components/manage/fields'
import { useAdminDecideVersions, useAdminUpdateNodeVersion } from '@/src/api/generated/admin/admin'
import { NodeVersionStatus } from '@/src/api/generated/model'
import { apiErrorMessage } from '@/src/lib/api-error'
import { invalidateAfterDecision } from '@/src/api/invalidation'
import { breakable } from '@/components/common/BreakableText'

export interface DecisionTarget {
  node_id: string
  version: string
  id: string
}

export type DecisionStatus =
  'NodeVersionStatusActive' | 'NodeVersionStatusFlagged' | 'NodeVersionStatusBanned'

/** What was decided; `batchId` only for a batch (several versions), which can be undone. */
export interface DecisionResult {
  batchId?: string
  status: DecisionStatus
  targets: DecisionTarget[]
}

export interface DecisionDialogProps {
  open: boolean
  onClose: () => void
  targets: DecisionTarget[]
  initialStatus: DecisionStatus
  onDecided?: (result: DecisionResult) => void
}

/** The contract's limits (openapi.yml AdminVersionDecisionsRequest). */
export const DECISION_BATCH_MAX = 200
export const DECISION_REASON_MAX = 1000
/** How many of the targets the dialog names before "and N more". */
const TARGETS_SHOWN = 8

export const DECISION_STATUSES: readonly DecisionStatus[] = [
  NodeVersionStatus.NodeVersionStatusActive,
  NodeVersionStatus.NodeVersionStatusFlagged,
  NodeVersionStatus.NodeVersionStatusBanned,
]

/** The translation key part of a decision: active, flagged, banned. */
export function decisionKey(status: DecisionStatus): 'active' | 'flagged' | 'banned' {
  switch (status) {
    case NodeVersionStatus.NodeVersionStatusActive:
      return 'active'
    case NodeVersionStatus.NodeVersionStatusFlagged:
      return 'flagged'
    default:
      return 'banned'
  }
}

export function DecisionDialog(props: DecisionDialogProps) {
  // Mounted only while open, so each opening starts from `initialStatus` and an empty reason.
  return props.open ? <DecisionDialogContent {...props} /> : <></>
}

function DecisionDialogContent({
  onClose,
  targets,
  initialStatus,
  onDecided,
}: DecisionDialogProps) {
  const { t } = useTranslation('common')
  const reasonRef = useRef<HTMLTextAreaElement>(null)
  const queryClient = useQueryClient()
  const [status, setStatus] = useState<DecisionStatus>(initialStatus)
  const [reason, setReason] = useState('')
  const [problem, setProblem] = useState<string>()
  const [formError, setFormError] = useState<string>()
  const single = useAdminUpdateNodeVersion()
  const batch = useAdminDecideVersions()
  const pending = single.isPending || batch.isPending

  const key = decisionKey(status)
  const reasonRequired = status !== NodeVersionStatus.NodeVersionStatusActive
  const trimmed = reason.trim()

  const succeed = (batchId: string | undefined) => {
    void invalidateAfterDecision(
      queryClient,
      targets.map((target) => target.node_id),
    )
    onDecided?.({ batchId, status, targets })
    onClose()
  }
  const fail = (error: unknown) => setFormError(apiErrorMessage(error, t))

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (pending) return
    setFormError(undefined)
    // The queue never offers these; the dialog still refuses what the API would.
    if (targets.length === 0) return setFormError(t('admin.decide.noTargets'))
    if (targets.length > DECISION_BATCH_MAX) {
      return setFormError(t('admin.decide.tooMany', { max: DECISION_BATCH_MAX }))
    }
    if (reasonRequired && !trimmed) return setProblem(t('admin.decide.reasonRequired'))
    if (trimmed.length > DECISION_REASON_MAX) {
      return setProblem(t('admin.decide.reasonTooLong', { max: DECISION_REASON_MAX }))
    }
    setProblem(undefined)
    if (targets.length === 1) {
      const [target] = targets
      single.mutate(
        {
          nodeId: target.node_id,
          versionNumber: target.version,
          data: { status, ...(trimmed ? { status_reason: trimmed } : {}) },
        },
        { onSuccess: () => succeed(undefined), onError: fail },
      )
    } else {
      batch.mutate(
        {
          data: {
            versions: targets.map(({ node_id, version }) => ({ node_id, version })),
            status,
            ...(trimmed ? { reason: trimmed } : {}),
          },
        },
        { onSuccess: (answer) => succeed(answer.batch_id), onError: fail },
      )
    }
  }

  // Ctrl/Cmd+Enter in the reason submits, so a decision needs no mouse.
  const onReasonKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault()
      event.currentTarget.form?.requestSubmit()
    }
  }

  const shown = targets.slice(0, TARGETS_SHOWN)
  return (
    <FormDialog
      onClose={onClose}
      title={t('admin.decide.title', { count: targets.length })}
      initialFocus={reasonRef}
      label={t(`admin.decide.submit.${key}`, { count: targets.length })}
      pendingLabel={t('admin.decide.working')}
      pending={pending}
      color={status === NodeVersionStatus.NodeVersionStatusActive ? 'blue' : 'red'}
      onSubmit={submit}
      formClassName="space-y-5"
    >
      <div>
        <p className="text-sm text-gray-700 dark:text-gray-300">
          {t('admin.decide.versions', { count: targets.length })}
        </p>
        <ul className="mt-1 max-h-40 space-y-0.5 overflow-y-auto font-mono text-sm break-words text-gray-900 dark:text-gray-100">
          {shown.map((target) => (
            <li key={target.id}>{breakable(`${target.node_id}@${target.version}`)}</li>
          ))}
        </ul>
        {targets.length > shown.length && (
          <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">
            {t('admin.decide.andMore', { count: targets.length - shown.length })}
          </p>
        )}
      </div>

      <RadioGroupField
        legend={t('admin.decide.decision')}
        options={DECISION_STATUSES.map((option) => ({
          value: option,
          label: t(`admin.decide.option.${decisionKey(option)}`),
          hint: t(`admin.decide.optionHint.${decisionKey(option)}`),
        }))}
        value={status}
        onChange={(option) => {
          setStatus(option)
          setProblem(undefined)
        }}
      />

      <TextAreaField
        ref={reasonRef}
        label={t('admin.decide.reason')}
        optional={!reasonRequired}
        required={reasonRequired}
        value={reason}
        onChange={(event) => {
          setReason(event.target.value)
          if (problem) setProblem(undefined)
        }}
        onKeyDown={onReasonKeyDown}
        maxLength={DECISION_REASON_MAX}
        hint={t('admin.decide.reasonHint', {
          length: reason.length,
          max: DECISION_REASON_MAX,
        })}
        error={problem}
      />

      {formError && <FormMessage kind="error">{formError}</FormMessage>}
    </FormDialog>
  )
}
