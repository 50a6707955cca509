// One finding of the archive checks, as its owners (the version's status details) and admins
// (the review view) see it: the severity, what each view puts beside it, the registry standard
// the rule enforces with what to change, and the offending code, always as text.
import { useTranslation } from 'next-i18next/pages'
import type { ReactNode } from 'react'
import { Badge, type BadgeTone } from '@/components/node/Badge'
import type { ScanFinding, ScanFindingSeverity } from '@/src/api/generated/model'

export const SEVERITY_TONES: Record<ScanFindingSeverity, BadgeTone> = {
  critical: 'red',
  high: 'red',
  medium: 'yellow',
  low: 'gray',
}

/** The finding's place as findings name it: `file:line`, or the file alone. */
export function findingPlace(finding: ScanFinding): string {
  return finding.line_number > 0 ? `${finding.file_path}:${finding.line_number}` : finding.file_path
}

/** A list key: one check can report the same place more than once. */
export function findingKey(finding: ScanFinding, index: number): string {
  return `${finding.issue_type}-${finding.file_path}-${finding.line_number}-${index}`
}

export interface FindingItemProps {
  finding: ScanFinding
  /** Beside the severity. */
  head: ReactNode
  /** Between the severity's line and the code. */
  children?: ReactNode
}

/** A list item: give it `key={findingKey(finding, index)}`. */
export function FindingItem({ finding, head, children }: FindingItemProps) {
  const { t } = useTranslation('common')
  return (
    <li className="rounded-md border border-gray-200 p-3 text-sm dark:border-gray-700">
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={SEVERITY_TONES[finding.severity]}>
          {t(`manage.pipeline.severity.${finding.severity}`)}
        </Badge>
        {head}
      </div>
      {children}
      <FindingStandard finding={finding} />
      {finding.code_snippet && (
        <pre className="mt-2 rounded bg-gray-100 p-2 text-xs break-words whitespace-pre-wrap text-gray-900 dark:bg-gray-900 dark:text-gray-100">
          <code>{finding.code_snippet}</code>
        </pre>
      )}
    </li>
  )
}

/**
 * Whether the finding is about malicious code or a registry standard, which standard (linked to
 * where it is published) and what to change. Nothing for findings without a standard.
 */
function FindingStandard({ finding }: { finding: ScanFinding }) {
  const { t } = useTranslation('common')
  const { standard, kind } = finding
  if (!standard) return null
  return (
    <div className="mt-2 text-xs text-gray-700 dark:text-gray-300">
      <p className="break-words">
        {kind && (
          <>
            <Badge tone={kind === 'malicious' ? 'red' : 'yellow'}>
              {t(`manage.pipeline.kind.${kind}`)}
            </Badge>{' '}
          </>
        )}
        {t('manage.pipeline.standard')}{' '}
        <a
          href={standard.url}
          target="_blank"
          rel="noopener noreferrer"
          className="text-blue-800 underline dark:text-blue-300"
        >
          {standard.title}
        </a>
      </p>
      {standard.remedy && (
        <p className="mt-1 break-words">
          {t('manage.pipeline.remedy', { remedy: standard.remedy })}
        </p>
      )}
    </div>
  )
}
