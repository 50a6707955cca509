// The audit log as a read-only table: when, who, what, on which subject, the change, the reason
// and the batch; each person, subject and batch links to the log filtered by it. Shared by the
// audit log page (with its Undo buttons in `renderControls`) and the overview's recent actions.
import Link from 'next/link'
import { useTranslation } from 'next-i18next/pages'
import type { ReactNode } from 'react'
import { breakable } from '@/components/common/BreakableText'
import { Badge } from '@/components/node/Badge'
import { formatDateTime } from '@/components/node/format'
import { LINK, MUTED } from '@/components/manage/styles'
import { AdminActionKind, type AdminAction } from '@/src/api/generated/model'
import type { Translate } from '@/src/lib/api-error'
import { describeChange, kindLabel, subjectHref } from './format'
import { auditLogHref } from './log-state'

export interface ActionsTableProps {
  actions: AdminAction[]
  /** Names the table for assistive technology. */
  caption: string
  /** The Undo buttons of a row; no Undo column when absent. */
  renderControls?: (action: AdminAction) => ReactNode
}

const CELL = 'px-3 py-3 align-top'
const HEAD = 'px-3 py-2 text-left font-semibold whitespace-nowrap'

/** A batch id is a uuid; its first block tells batches apart on one page. */
export function shortBatch(batchId: string): string {
  return batchId.slice(0, 8)
}

function Arrow() {
  const { t } = useTranslation('common')
  return (
    <>
      <span aria-hidden="true"> → </span>
      <span className="sr-only"> {t('admin.actions.changedTo')} </span>
    </>
  )
}

function ChangeCell({ action, t }: { action: AdminAction; t: Translate }) {
  const change = describeChange(action, t)
  if (change.kind === 'value') {
    return (
      <span className="whitespace-nowrap">
        {change.from}
        <Arrow />
        <strong className="font-semibold">{change.to}</strong>
      </span>
    )
  }
  if (change.fields.length === 0)
    return <span className={MUTED}>{t('admin.actions.noChange')}</span>
  return (
    <ul className="space-y-1">
      {change.fields.map((field) => (
        <li key={field.label} className="break-words">
          <span className={MUTED}>{field.label}:</span>{' '}
          {field.from !== undefined && (
            <>
              {field.from}
              <Arrow />
            </>
          )}
          <strong className="font-semibold">{field.to}</strong>
        </li>
      ))}
    </ul>
  )
}

function ActionCell({
  action,
  undone,
  t,
  locale,
}: {
  action: AdminAction
  /** The action this `undo` reverted, when it is on the same page. */
  undone?: AdminAction
  t: Translate
  locale: string
}) {
  return (
    <div className="space-y-1">
      <div className="font-medium text-gray-900 dark:text-white">{kindLabel(action.action, t)}</div>
      {action.undone_by && <Badge tone="yellow">{t('admin.actions.undone')}</Badge>}
      {action.action === AdminActionKind.undo && (
        <div className={`text-xs ${MUTED}`}>
          {undone
            ? t('admin.actions.undoes', {
                kind: kindLabel(undone.action, t),
                when: formatDateTime(undone.created_at, locale, 'utc'),
              })
            : t('admin.actions.undoesEarlier')}
        </div>
      )}
    </div>
  )
}

export function ActionsTable({ actions, caption, renderControls }: ActionsTableProps) {
  const { t, i18n } = useTranslation('common')
  const locale = i18n.language
  const byId = new Map(actions.map((action) => [action.id, action]))
  return (
    <div
      className="overflow-x-auto rounded-lg border border-gray-200 focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none dark:border-gray-700"
      role="region"
      aria-label={caption}
      tabIndex={0}
    >
      <table className="w-full min-w-[60rem] text-sm text-gray-800 dark:text-gray-200">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-gray-50 text-xs text-gray-700 uppercase dark:bg-gray-700 dark:text-gray-200">
          <tr>
            <th scope="col" className={HEAD}>
              {t('admin.actions.columns.when')}
            </th>
            <th scope="col" className={HEAD}>
              {t('admin.actions.columns.who')}
            </th>
            <th scope="col" className={HEAD}>
              {t('admin.actions.columns.action')}
            </th>
            <th scope="col" className={HEAD}>
              {t('admin.actions.columns.subject')}
            </th>
            <th scope="col" className={HEAD}>
              {t('admin.actions.columns.change')}
            </th>
            <th scope="col" className={HEAD}>
              {t('admin.actions.columns.reason')}
            </th>
            <th scope="col" className={HEAD}>
              {t('admin.actions.columns.batch')}
            </th>
            {renderControls && (
              <th scope="col" className={HEAD}>
                {t('admin.actions.columns.undo')}
              </th>
            )}
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-200 bg-white dark:divide-gray-700 dark:bg-gray-800">
          {actions.map((action) => {
            const href = subjectHref(action)
            const subject = action.subject_label || action.subject_id
            return (
              <tr key={action.id}>
                <td className={`${CELL} whitespace-nowrap`}>
                  <time dateTime={action.created_at}>
                    {formatDateTime(action.created_at, locale, 'utc')}
                  </time>
                </td>
                <td className={`${CELL} break-words`}>
                  <Link
                    href={auditLogHref({ actor: action.actor_email })}
                    shallow
                    className={LINK}
                    aria-label={t('admin.actions.actorLink', { actor: action.actor_email })}
                  >
                    {breakable(action.actor_email)}
                  </Link>
                </td>
                <td className={CELL}>
                  <ActionCell
                    action={action}
                    undone={action.undoes ? byId.get(action.undoes) : undefined}
                    t={t}
                    locale={locale}
                  />
                </td>
                <td className={`${CELL} break-words`}>
                  <div>
                    {href ? (
                      <Link href={href} className={LINK}>
                        {breakable(subject)}
                      </Link>
                    ) : (
                      breakable(subject)
                    )}
                  </div>
                  <Link
                    href={auditLogHref({ subject: action.subject_id })}
                    shallow
                    className={`text-xs ${LINK}`}
                    aria-label={t('admin.actions.historyLink', { subject })}
                  >
                    {t('admin.actions.history')}
                  </Link>
                </td>
                <td className={CELL}>
                  <ChangeCell action={action} t={t} />
                </td>
                <td className={`${CELL} max-w-xs break-words whitespace-pre-line`}>
                  {action.reason || <span className={MUTED}>{t('admin.actions.none')}</span>}
                </td>
                <td className={`${CELL} whitespace-nowrap`}>
                  {action.batch_id ? (
                    <Link
                      href={auditLogHref({ batch: action.batch_id })}
                      shallow
                      className={`font-mono ${LINK}`}
                      aria-label={t('admin.actions.batchLink', {
                        batch: shortBatch(action.batch_id),
                      })}
                    >
                      {shortBatch(action.batch_id)}
                    </Link>
                  ) : (
                    <span className={MUTED}>{t('admin.actions.none')}</span>
                  )}
                </td>
                {renderControls && <td className={CELL}>{renderControls(action)}</td>}
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}
