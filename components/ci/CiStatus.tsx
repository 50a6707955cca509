// A CI status as a mark (✓ completed, ✗ failed, … running) on a tinted badge, with its word for
// screen readers, or in full (`withText`). Text and background pairs keep 4.5:1 contrast in
// light and dark mode (the tones of components/node/Badge.tsx).
import { useTranslation } from 'next-i18next/pages'
import type { Translate } from '@/src/lib/api-error'

export type CiStatusKind = 'completed' | 'failed' | 'started' | 'unknown'

/** The API's status words; anything else is shown as unknown. */
export function statusKind(status: string | undefined): CiStatusKind {
  return status === 'completed' || status === 'failed' || status === 'started' ? status : 'unknown'
}

const LOOKS: Record<CiStatusKind, { mark: string; tone: string }> = {
  completed: {
    mark: '✓',
    tone: 'bg-green-100 text-green-900 dark:bg-green-900 dark:text-green-100',
  },
  failed: { mark: '✗', tone: 'bg-red-100 text-red-900 dark:bg-red-900 dark:text-red-100' },
  started: {
    mark: '…',
    tone: 'bg-yellow-100 text-yellow-900 dark:bg-yellow-900 dark:text-yellow-100',
  },
  unknown: { mark: '?', tone: 'bg-gray-200 text-gray-900 dark:bg-gray-700 dark:text-gray-100' },
}

export interface CiStatusProps {
  status: string | undefined
  /** The word shown beside the mark (else it is for screen readers only). */
  withText?: boolean
}

export function CiStatus({ status, withText = false }: CiStatusProps) {
  const { t } = useTranslation('common')
  const kind = statusKind(status)
  const { mark, tone } = LOOKS[kind]
  const word =
    kind === 'unknown' && status ? t('ci.status.other', { status }) : t(`ci.status.${kind}`)
  return (
    <span
      className={`inline-flex min-w-7 items-center justify-center gap-1 rounded px-2 py-0.5 text-sm font-semibold ${tone}`}
    >
      <span aria-hidden="true">{mark}</span>
      <span className={withText ? 'text-xs font-medium' : 'sr-only'}>{word}</span>
    </span>
  )
}

/** An operating system's name ("macOS"), or the API's word for one this site does not know. */
export function osName(os: string | undefined, t: Translate): string {
  return os ? t(`filters.osName.${os}`, { defaultValue: os }) : t('ci.unknownOs')
}
