// Copying a text to the clipboard with a short-lived "copied" / "failed" state, for a live region.
import { useEffect, useRef, useState } from 'react'

/** How long the "Copied" confirmation stays on screen. */
export const COPIED_RESET_MS = 3000

export type CopyState = 'idle' | 'copied' | 'failed'

export function useCopyText(): { state: CopyState; copy: (text: string) => Promise<void> } {
  const [state, setState] = useState<CopyState>('idle')
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)

  useEffect(() => () => clearTimeout(timer.current), [])

  async function copy(text: string) {
    clearTimeout(timer.current)
    try {
      await navigator.clipboard.writeText(text)
      setState('copied')
      timer.current = setTimeout(() => setState('idle'), COPIED_RESET_MS)
    } catch {
      setState('failed')
    }
  }

  return { state, copy }
}
