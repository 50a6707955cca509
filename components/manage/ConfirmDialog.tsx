// Confirmation of a destructive action; with `confirmText`, the person must type that text
// (e.g. the id of what is deleted) before the button is enabled.
import { useTranslation } from 'next-i18next/pages'
import { useState, type FormEvent, type ReactNode } from 'react'
import { FormDialog } from './Dialog'
import { FormMessage, TextField } from './fields'

export interface ConfirmDialogProps {
  open: boolean
  onClose: () => void
  title: string
  children: ReactNode
  confirmLabel: string
  onConfirm: () => void
  pending?: boolean
  error?: string
  /** Text to type before confirming. */
  confirmText?: string
}

export function ConfirmDialog(props: ConfirmDialogProps) {
  // Mounted only while open, so the typed text starts empty each time.
  return props.open ? <ConfirmDialogContent {...props} /> : null
}

function ConfirmDialogContent({
  onClose,
  title,
  children,
  confirmLabel,
  onConfirm,
  pending = false,
  error,
  confirmText,
}: ConfirmDialogProps) {
  const { t } = useTranslation('common')
  const [typed, setTyped] = useState('')
  const confirmed = confirmText === undefined || typed.trim() === confirmText
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (confirmed && !pending) onConfirm()
  }
  return (
    <FormDialog
      onClose={onClose}
      title={title}
      label={confirmLabel}
      pendingLabel={t('manage.confirm.working')}
      pending={pending}
      disabled={!confirmed}
      color="red"
      onSubmit={submit}
    >
      <ConfirmBody>{children}</ConfirmBody>
      {confirmText !== undefined && (
        <TextField
          label={t('manage.confirm.typeToConfirm', { value: confirmText })}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
        />
      )}
      {error && <FormMessage kind="error">{error}</FormMessage>}
    </FormDialog>
  )
}

/** What a confirmation is about, above its fields. */
export function ConfirmBody({ children }: { children: ReactNode }) {
  return <div className="text-sm text-gray-800 dark:text-gray-200">{children}</div>
}
