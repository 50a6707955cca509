import type { ReactNode } from 'react'

export type BadgeTone = 'green' | 'gray' | 'red' | 'yellow' | 'blue'

// Text and background pairs with at least 4.5:1 contrast in light and dark mode.
const TONES: Record<BadgeTone, string> = {
  green: 'bg-green-100 text-green-900 dark:bg-green-900 dark:text-green-100',
  gray: 'bg-gray-200 text-gray-900 dark:bg-gray-700 dark:text-gray-100',
  red: 'bg-red-100 text-red-900 dark:bg-red-900 dark:text-red-100',
  yellow: 'bg-yellow-100 text-yellow-900 dark:bg-yellow-900 dark:text-yellow-100',
  blue: 'bg-blue-100 text-blue-900 dark:bg-blue-900 dark:text-blue-100',
}

export function Badge({ tone, children }: { tone: BadgeTone; children: ReactNode }) {
  return (
    <span
      className={`inline-flex items-center rounded px-2 py-0.5 text-xs font-medium ${TONES[tone]}`}
    >
      {children}
    </span>
  )
}
