// Ban or unban (a node or a publisher) with the reason: required to ban, so a ban without one is
// refused here with a message and nothing is sent (the API refuses it too, 400); optional to unban.
import { useTranslation } from 'next-i18next/pages'
import { useState, type FormEvent, type ReactNode } from 'react'
import { ConfirmBody } from '@/components/manage/ConfirmDialog'
import { FormDialog } from '@/components/manage/Dialog'
import { FormMessage, TextAreaField } from '@/components/manage/fields'

export interface StatusChangeDialogProps {
  onClose: () => void
  /** Ban (reason required) or unban (reason optional). */
  kind: 'ban' | 'unban'
  title: string
  /** What happens, shown above the reason. */
  children: ReactNode
  confirmLabel: string
  reasonLabel: string
  reasonHint: string
  /** Shown when a ban is sent without a reason. */
  reasonMissing: string
  /** The contract's longest reason. */
  reasonMax: number
  pending: boolean
  /** The API's refusal, if any. */
  error?: string
  onConfirm: (reason: string) => void
}

/** Mount it only while open: the reason starts empty each time. */
export function StatusChangeDialog({
  onClose,
  kind,
  title,
  children,
  confirmLabel,
  reasonLabel,
  reasonHint,
  reasonMissing,
  reasonMax,
  pending,
  error,
  onConfirm,
}: StatusChangeDialogProps) {
  const { t } = useTranslation('common')
  const [reason, setReason] = useState('')
  const [submitted, setSubmitted] = useState(false)
  const trimmed = reason.trim()
  const problem =
    kind === 'ban' && !trimmed
      ? reasonMissing
      : reason.length > reasonMax
        ? t('manage.form.tooLong', { max: reasonMax })
        : undefined

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSubmitted(true)
    if (problem || pending) return
    onConfirm(trimmed)
  }

  return (
    <FormDialog
      onClose={onClose}
      title={title}
      label={confirmLabel}
      pendingLabel={t('manage.confirm.working')}
      pending={pending}
      color={kind === 'ban' ? 'red' : 'blue'}
      onSubmit={submit}
    >
      <ConfirmBody>{children}</ConfirmBody>
      <TextAreaField
        label={reasonLabel}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        required={kind === 'ban'}
        optional={kind === 'unban'}
        rows={3}
        hint={`${reasonHint} ${t('manage.form.charCount', { length: reason.length, max: reasonMax })}`}
        error={submitted ? problem : undefined}
      />
      {error && <FormMessage kind="error">{error}</FormMessage>}
    </FormDialog>
  )
}
