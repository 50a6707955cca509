// A modal dialog on flowbite-react's Modal: named by its title, focus moved inside and kept
// there (returned to the opener on close), Escape and the footer buttons close it.
// The site's adjustments of flowbite's modal theme are provided here, the one place that renders
// a Modal, and not in _app: flowbite's ThemeProvider brings two versions of tailwind-merge, which
// every public page would otherwise download (docs/ARCHITECTURE.md, "Page weight").
import { Button, Modal, ModalBody, ModalFooter, ModalHeader, ThemeProvider } from 'flowbite-react'
import { SITE_THEME } from '@/components/common/theme'
import { useTranslation } from 'next-i18next/pages'
import { useId, type FormEvent, type KeyboardEvent, type ReactNode, type RefObject } from 'react'

export interface DialogProps {
  open: boolean
  onClose: () => void
  title: string
  children: ReactNode
  /** The action buttons. */
  footer?: ReactNode
  /** The element focused when the dialog opens (default: the first focusable one). */
  initialFocus?: RefObject<HTMLElement | null>
  size?: 'md' | 'lg' | 'xl' | '2xl' | '3xl'
}

export function Dialog({
  open,
  onClose,
  title,
  children,
  footer,
  initialFocus,
  size = 'lg',
}: DialogProps) {
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation()
      onClose()
    }
  }
  return (
    <ThemeProvider theme={SITE_THEME}>
      <Modal show={open} onClose={onClose} size={size} initialFocus={initialFocus}>
        <div onKeyDown={onKeyDown} className="flex max-h-[90dvh] flex-col">
          <ModalHeader>{title}</ModalHeader>
          <ModalBody>{children}</ModalBody>
          {footer && (
            <ModalFooter className="flex flex-wrap justify-end gap-2">{footer}</ModalFooter>
          )}
        </div>
      </Modal>
    </ThemeProvider>
  )
}

export interface FormDialogActionsProps {
  /** The id of the dialog's form, which the submit button submits. */
  formId: string
  onCancel: () => void
  label: string
  /** The submit button's text while the request runs. */
  pendingLabel: string
  pending: boolean
  disabled?: boolean
  color?: 'blue' | 'red'
  /** False hides the submit button (nothing to submit yet). */
  submit?: boolean
}

/** The footer of a dialog with a form: Cancel, then the form's submit button. */
export function FormDialogActions({
  formId,
  onCancel,
  label,
  pendingLabel,
  pending,
  disabled = false,
  color = 'blue',
  submit = true,
}: FormDialogActionsProps) {
  const { t } = useTranslation('common')
  return (
    <>
      <Button color="light" onClick={onCancel}>
        {t('manage.form.cancel')}
      </Button>
      {submit && (
        <Button type="submit" form={formId} color={color} disabled={pending || disabled}>
          {pending ? pendingLabel : label}
        </Button>
      )}
    </>
  )
}

export interface FormDialogProps
  extends
    Omit<DialogProps, 'open' | 'footer'>,
    Omit<FormDialogActionsProps, 'formId' | 'onCancel' | 'label' | 'pendingLabel' | 'submit'> {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void
  /** The submit button's text (default: Save). */
  label?: string
  /** Its text while the request runs (default: Saving…). */
  pendingLabel?: string
  /** The form's classes (its spacing). */
  formClassName?: string
}

/**
 * A dialog around one form, its footer Cancel and the form's submit button. Mount it only while
 * open: what is typed starts afresh each time.
 */
export function FormDialog({
  onClose,
  title,
  children,
  initialFocus,
  size,
  onSubmit,
  label,
  pendingLabel,
  pending,
  disabled,
  color,
  formClassName = 'space-y-4',
}: FormDialogProps) {
  const { t } = useTranslation('common')
  const formId = useId()
  return (
    <Dialog
      open
      onClose={onClose}
      title={title}
      initialFocus={initialFocus}
      size={size}
      footer={
        <FormDialogActions
          formId={formId}
          onCancel={onClose}
          label={label ?? t('manage.form.save')}
          pendingLabel={pendingLabel ?? t('manage.form.saving')}
          pending={pending}
          disabled={disabled}
          color={color}
        />
      }
    >
      <form id={formId} onSubmit={onSubmit} noValidate className={formClassName}>
        {children}
      </form>
    </Dialog>
  )
}
