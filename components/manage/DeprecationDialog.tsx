// Deprecating a version or a whole node: a small form for the message (why, and what to use
// instead); the caller sends it (updateNodeVersion or updateNode) and closes the dialog.
import { useTranslation } from 'next-i18next/pages'
import { useState, type FormEvent } from 'react'
import { FormDialog } from './Dialog'
import { FormMessage, TextAreaField } from './fields'
import { DEPRECATION_MESSAGE_MAX_LENGTH } from './limits'
import { textProblem } from './validation'

export interface DeprecationDialogProps {
  title: string
  pending: boolean
  /** The API's refusal, shown in the dialog. */
  error?: string
  onSubmit: (message: string) => void
  onClose: () => void
}

export function DeprecationDialog({
  title,
  pending,
  error,
  onSubmit,
  onClose,
}: DeprecationDialogProps) {
  const { t } = useTranslation('common')
  const [message, setMessage] = useState('')
  const problem = textProblem(message, { max: DEPRECATION_MESSAGE_MAX_LENGTH }, t)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (problem || pending) return
    onSubmit(message.trim())
  }
  return (
    <FormDialog
      onClose={onClose}
      title={title}
      label={t('deprecation.manage.submit')}
      pendingLabel={t('deprecation.manage.submitting')}
      color="red"
      pending={pending}
      disabled={Boolean(problem)}
      onSubmit={submit}
    >
      <TextAreaField
        label={t('deprecation.manage.message')}
        optional
        value={message}
        onChange={(event) => setMessage(event.target.value)}
        rows={4}
        hint={t('deprecation.manage.messageHint', { max: DEPRECATION_MESSAGE_MAX_LENGTH })}
        error={problem}
      />
      {error && <FormMessage kind="error">{error}</FormMessage>}
    </FormDialog>
  )
}
