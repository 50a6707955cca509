// What the archive checks and the security scan found, worst first. Each finding's place
// (file:line) opens that file in the file viewer at that line.
import { useTranslation } from 'next-i18next/pages'
import { FindingItem, findingKey, findingPlace } from '@/components/manage/FindingItem'
import type { ScanFinding } from '@/src/api/generated/model'
import { LOCATION_BUTTON, MUTED, SECTION, SECTION_TITLE } from './styles'
import { breakable } from '@/components/common/BreakableText'

export interface ReviewFindingsProps {
  /** Worst first (`versionReason`). */
  findings: ScanFinding[]
  onOpen: (file: string, line: number) => void
}

function Location({
  finding,
  onOpen,
}: {
  finding: ScanFinding
  onOpen: ReviewFindingsProps['onOpen']
}) {
  const { t } = useTranslation('common')
  if (!finding.file_path) return <span>{t('admin.review.findings.wholeArchive')}</span>
  return (
    <button
      type="button"
      className={LOCATION_BUTTON}
      aria-label={
        finding.line_number > 0
          ? t('admin.review.findings.openAt', {
              file: finding.file_path,
              line: finding.line_number,
            })
          : t('admin.review.findings.open', { file: finding.file_path })
      }
      onClick={() => onOpen(finding.file_path, finding.line_number)}
    >
      {breakable(findingPlace(finding))}
    </button>
  )
}

export function ReviewFindings({ findings, onOpen }: ReviewFindingsProps) {
  const { t } = useTranslation('common')
  return (
    <section aria-labelledby="review-findings" className={SECTION}>
      <h2 id="review-findings" className={SECTION_TITLE}>
        {t('admin.review.findings.title')}{' '}
        <span className={`text-base font-normal ${MUTED}`}>
          ({t('admin.review.findings.count', { count: findings.length })})
        </span>
      </h2>
      {findings.length === 0 ? (
        <p className={`mt-2 ${MUTED}`}>{t('admin.review.findings.none')}</p>
      ) : (
        <ol className="mt-3 space-y-3">
          {findings.map((finding, index) => (
            <FindingItem
              key={findingKey(finding, index)}
              finding={finding}
              head={
                <>
                  {finding.issue_type && (
                    <code className="font-mono text-xs break-words text-gray-900 dark:text-gray-100">
                      <span className="sr-only">{t('admin.review.findings.rule')} </span>
                      {breakable(finding.issue_type)}
                    </code>
                  )}
                  <span className="min-w-0 text-xs break-words">
                    <Location finding={finding} onOpen={onOpen} />
                  </span>
                </>
              }
            >
              {finding.message && <p className="mt-2 break-words">{finding.message}</p>}
            </FindingItem>
          ))}
        </ol>
      )}
    </section>
  )
}
