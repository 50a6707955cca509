// The review queue's keyboard shortcuts, on the whole document so they work wherever the focus
// is on the page: j/k or ArrowDown/ArrowUp move, x or Space select, a/f/b decide, Enter opens.
// They stay out of the way while the admin types, in a dialog, and with modifier keys held.
import { useEffect, useRef } from 'react'
import { NodeVersionStatus } from '@/src/api/generated/model'
import type { DecisionStatus } from '@/components/admin/decide/DecisionDialog'

export interface QueueShortcutHandlers {
  /** False while something else owns the keyboard (an open dialog). */
  enabled: boolean
  move: (delta: 1 | -1) => void
  toggle: () => void
  decide: (status: DecisionStatus) => void
  open: () => void
}

const NOT_TYPING = new Set(['checkbox', 'radio', 'button', 'submit', 'reset'])

/** Whether the key belongs to a control the person is typing in. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable) return true
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true
  return target instanceof HTMLInputElement && !NOT_TYPING.has(target.type)
}

/** Whether the key activates the focused control by itself (a button, link or checkbox). */
function activatesControl(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLButtonElement ||
    target instanceof HTMLAnchorElement ||
    target instanceof HTMLInputElement
  )
}

/** Whether Space does something of its own on the focused control (links only scroll). */
function spaceActivates(target: EventTarget | null): boolean {
  return target instanceof HTMLButtonElement || target instanceof HTMLInputElement
}

const DECISIONS: Record<string, DecisionStatus> = {
  a: NodeVersionStatus.NodeVersionStatusActive,
  f: NodeVersionStatus.NodeVersionStatusFlagged,
  b: NodeVersionStatus.NodeVersionStatusBanned,
}

export function useQueueShortcuts(handlers: QueueShortcutHandlers): void {
  // The latest handlers, read when a key arrives, so the listener is added once.
  const latest = useRef(handlers)
  useEffect(() => {
    latest.current = handlers
  })

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const { enabled, move, toggle, decide, open } = latest.current
      if (!enabled || event.defaultPrevented) return
      if (event.ctrlKey || event.metaKey || event.altKey) return
      const target = event.target
      if (isTyping(target)) return
      if (target instanceof Element && target.closest('[role="dialog"]')) return

      const key = event.key.length === 1 ? event.key.toLowerCase() : event.key
      if (key === 'j' || key === 'ArrowDown') {
        event.preventDefault()
        move(1)
      } else if (key === 'k' || key === 'ArrowUp') {
        event.preventDefault()
        move(-1)
      } else if (key === 'x' || (key === ' ' && !spaceActivates(target))) {
        event.preventDefault()
        toggle()
      } else if (key in DECISIONS && !event.shiftKey) {
        event.preventDefault()
        decide(DECISIONS[key])
      } else if (key === 'Enter' && !activatesControl(target)) {
        event.preventDefault()
        open()
      }
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [])
}
