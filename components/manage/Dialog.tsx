// A modal dialog on flowbite-react's Modal: named by its title, focus moved inside and kept
// there (returned to the opener on close), Escape and the footer buttons close it.
import { Modal, ModalBody, ModalFooter, ModalHeader } from 'flowbite-react'
import type { KeyboardEvent, ReactNode, RefObject } from 'react'

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
    <Modal show={open} onClose={onClose} size={size} initialFocus={initialFocus}>
      <div onKeyDown={onKeyDown} className="flex max-h-[90dvh] flex-col">
        <ModalHeader>{title}</ModalHeader>
        <ModalBody>{children}</ModalBody>
        {footer && <ModalFooter className="flex flex-wrap justify-end gap-2">{footer}</ModalFooter>}
      </div>
    </Modal>
  )
}
