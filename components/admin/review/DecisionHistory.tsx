// Why the version has its status: the last admin decision (its reason and who made it) and every
// status change recorded in `status_reason` (src/lib/status-reason.ts reads it safely).
import { useTranslation } from 'next-i18next/pages'
import type { Translate } from '@/src/lib/api-error'
import type { VersionReason } from '@/src/lib/status-reason'
import { MUTED, SECTION, SECTION_TITLE } from './styles'

function statusName(t: Translate, status: string) {
  return t(`node.versions.status.${status}`, { defaultValue: status })
}

export function DecisionHistory({ reason }: { reason: VersionReason['reason'] }) {
  const { t } = useTranslation('common')
  return (
    <section aria-labelledby="review-decision" className={SECTION}>
      <h2 id="review-decision" className={SECTION_TITLE}>
        {t('admin.review.decision.title')}
      </h2>
      {!reason && <p className={`mt-2 ${MUTED}`}>{t('admin.review.decision.none')}</p>}
      {reason?.kind === 'text' && (
        <p className="mt-2 break-words">
          {t('admin.review.decision.reason', { reason: reason.text })}
        </p>
      )}
      {reason?.kind === 'decision' && (
        <>
          <h3 className="mt-3 text-base font-semibold">{t('admin.review.decision.current')}</h3>
          <p className="mt-1 break-words">
            {reason.message
              ? t('admin.review.decision.reason', { reason: reason.message })
              : t('admin.review.decision.noReason')}
          </p>
          {reason.by && (
            <p className={`mt-1 text-sm break-words ${MUTED}`}>
              {t('admin.review.decision.by', { by: reason.by })}
            </p>
          )}
          {reason.history.length > 0 && (
            <>
              <h3 className="mt-4 text-base font-semibold">{t('admin.review.decision.history')}</h3>
              <ol className="mt-2 list-decimal space-y-2 pl-6 text-sm">
                {reason.history.map((change, index) => (
                  <li key={index} className="break-words">
                    <span className="font-medium">{statusName(t, change.status)}</span>
                    {' — '}
                    {change.message || t('admin.review.decision.noReason')}
                    {change.by && (
                      <span className={MUTED}>
                        {' '}
                        ({t('admin.review.decision.by', { by: change.by })})
                      </span>
                    )}
                  </li>
                ))}
              </ol>
            </>
          )}
        </>
      )}
    </section>
  )
}
