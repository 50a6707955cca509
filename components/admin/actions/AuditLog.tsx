// The audit log (/admin/actions): every admin action, newest first, filtered by kind, admin,
// subject or batch (kept in the address), a page at a time; each action that can be undone has an
// Undo button (and a batch's actions an "Undo batch" one), each asking for confirmation first.
import { keepPreviousData, useQueryClient } from '@tanstack/react-query'
import { Button } from 'flowbite-react'
import Link from 'next/link'
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { useRef, useState, type FormEvent } from 'react'
import { ConfirmDialog } from '@/components/manage/ConfirmDialog'
import { FormMessage, LoadError, SelectField, TextField } from '@/components/manage/fields'
import { LINK, MUTED, SECONDARY_LINK } from '@/components/manage/styles'
import { formatDateTime, formatNumber } from '@/components/node/format'
import {
  useListAdminActions,
  useUndoAdminAction,
  useUndoAdminBatch,
} from '@/src/api/generated/admin/admin'
import { AdminActionKind, type AdminAction } from '@/src/api/generated/model'
import { apiErrorMessage, errorStatus, serverMessage, type Translate } from '@/src/lib/api-error'
import { ActionsTable, shortBatch } from './ActionsTable'
import { kindLabel } from './format'
import { invalidateAfterUndo } from '@/src/api/invalidation'
import {
  ACTOR_MAX_LENGTH,
  SUBJECT_MAX_LENGTH,
  auditLogHref,
  auditLogParams,
  canUndo,
  hasFilters,
  isActionKind,
  parseAuditLogState,
  type AuditLogFilters,
  type AuditLogState,
} from './log-state'

/** An undo refused with 409 (already undone, or changed since) says why, then the server's detail. */
export function undoErrorMessage(error: unknown, t: Translate): string {
  if (errorStatus(error) !== 409) return apiErrorMessage(error, t)
  const detail = serverMessage(error)
  return detail ? `${t('admin.actions.conflict')} ${detail}` : t('admin.actions.conflict')
}

function FiltersForm({
  filters,
  onApply,
}: {
  filters: AuditLogFilters
  onApply: (filters: AuditLogFilters) => void
}) {
  const { t } = useTranslation('common')
  const [action, setAction] = useState<string>(filters.action ?? '')
  const [actor, setActor] = useState(filters.actor ?? '')
  const [subject, setSubject] = useState(filters.subject ?? '')
  const [batch, setBatch] = useState(filters.batch ?? '')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onApply({
      action: isActionKind(action) ? action : undefined,
      actor: actor.trim() || undefined,
      subject: subject.trim() || undefined,
      batch: batch.trim() || undefined,
    })
  }
  return (
    <form
      role="search"
      aria-label={t('admin.actions.filters.label')}
      onSubmit={submit}
      className="mb-6 rounded-lg border border-gray-200 bg-white p-4 dark:border-gray-700 dark:bg-gray-800"
      noValidate
    >
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <SelectField
          label={t('admin.actions.filters.action')}
          value={action}
          onChange={(event) => setAction(event.target.value)}
        >
          <option value="">{t('admin.actions.filters.allKinds')}</option>
          {Object.values(AdminActionKind).map((kind) => (
            <option key={kind} value={kind}>
              {kindLabel(kind, t)}
            </option>
          ))}
        </SelectField>
        <TextField
          label={t('admin.actions.filters.actor')}
          value={actor}
          onChange={(event) => setActor(event.target.value)}
          maxLength={ACTOR_MAX_LENGTH}
          autoComplete="off"
          spellCheck={false}
        />
        <TextField
          label={t('admin.actions.filters.subject')}
          hint={t('admin.actions.filters.subjectHint')}
          value={subject}
          onChange={(event) => setSubject(event.target.value)}
          maxLength={SUBJECT_MAX_LENGTH}
          autoComplete="off"
          spellCheck={false}
        />
        <TextField
          label={t('admin.actions.filters.batch')}
          value={batch}
          onChange={(event) => setBatch(event.target.value)}
          autoComplete="off"
          spellCheck={false}
          className="font-mono"
        />
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-2">
        <Button type="submit">{t('admin.actions.filters.apply')}</Button>
        {hasFilters(filters) && (
          <Link href={auditLogHref({})} shallow className={SECONDARY_LINK}>
            {t('admin.actions.filters.clear')}
          </Link>
        )}
      </div>
    </form>
  )
}

function LogPagination({ state, totalPages }: { state: AuditLogState; totalPages: number }) {
  const { t } = useTranslation('common')
  if (totalPages <= 1) return null
  const { page } = state
  const disabled =
    'inline-flex h-9 cursor-not-allowed items-center justify-center rounded-lg border border-gray-200 bg-gray-50 px-3 text-sm font-medium text-gray-500 dark:border-gray-700 dark:bg-gray-800 dark:text-gray-400'
  return (
    <nav
      aria-label={t('admin.actions.pagination')}
      className="mt-4 flex flex-wrap items-center justify-between gap-2"
    >
      {page > 1 ? (
        <Link
          href={auditLogHref({ ...state, page: page - 1 })}
          shallow
          rel="prev"
          className={SECONDARY_LINK}
        >
          {t('admin.actions.previous')}
        </Link>
      ) : (
        <span aria-disabled="true" className={disabled}>
          {t('admin.actions.previous')}
        </span>
      )}
      <p className="text-sm text-gray-800 dark:text-gray-200" aria-live="polite">
        {t('admin.actions.pageOf', { page, totalPages })}
      </p>
      {page < totalPages ? (
        <Link
          href={auditLogHref({ ...state, page: page + 1 })}
          shallow
          rel="next"
          className={SECONDARY_LINK}
        >
          {t('admin.actions.next')}
        </Link>
      ) : (
        <span aria-disabled="true" className={disabled}>
          {t('admin.actions.next')}
        </span>
      )}
    </nav>
  )
}

type PendingUndo = { kind: 'action'; action: AdminAction } | { kind: 'batch'; batchId: string }

export function AuditLog() {
  const { t, i18n } = useTranslation('common')
  const router = useRouter()
  const queryClient = useQueryClient()
  const state = parseAuditLogState(router.query)
  const actions = useListAdminActions(auditLogParams(state), {
    query: { enabled: router.isReady, placeholderData: keepPreviousData },
  })
  const undoAction = useUndoAdminAction()
  const undoBatch = useUndoAdminBatch()
  const [pending, setPending] = useState<PendingUndo | null>(null)
  // The message of the last undo, for the address it was made on (gone once the filters change).
  const [notice, setNotice] = useState<{ text: string; href: string } | null>(null)
  const noticeRef = useRef<HTMLDivElement>(null)

  const applyFilters = (filters: AuditLogFilters) => {
    setNotice(null)
    void router.replace(auditLogHref(filters), undefined, { shallow: true, scroll: false })
  }

  const close = () => {
    setPending(null)
    undoAction.reset()
    undoBatch.reset()
  }

  // The row's button is gone once undone, so focus goes to the message that says it worked.
  const done = (message: string) => {
    setPending(null)
    setNotice({ text: message, href: auditLogHref(state) })
    void invalidateAfterUndo(queryClient)
    requestAnimationFrame(() => noticeRef.current?.focus())
  }

  const confirm = () => {
    if (pending?.kind === 'action') {
      undoAction.mutate(
        { actionId: pending.action.id },
        { onSuccess: () => done(t('admin.actions.undoDone')) },
      )
    } else if (pending?.kind === 'batch') {
      undoBatch.mutate(
        { batchId: pending.batchId },
        {
          onSuccess: (result) =>
            done(t('admin.actions.batchUndoDone', { count: result.actions.length })),
        },
      )
    }
  }

  const controls = (action: AdminAction) => {
    if (!canUndo(action)) return null
    const subject = action.subject_label || action.subject_id
    return (
      <div className="flex flex-col items-start gap-2">
        <Button
          size="xs"
          color="light"
          onClick={() => setPending({ kind: 'action', action })}
          aria-label={t('admin.actions.undoLabel', { kind: kindLabel(action.action, t), subject })}
        >
          {t('admin.actions.undo')}
        </Button>
        {action.batch_id && (
          <Button
            size="xs"
            color="light"
            onClick={() =>
              action.batch_id && setPending({ kind: 'batch', batchId: action.batch_id })
            }
            aria-label={t('admin.actions.undoBatchLabel', { batch: shortBatch(action.batch_id) })}
          >
            {t('admin.actions.undoBatch')}
          </Button>
        )}
      </div>
    )
  }

  const filters: AuditLogFilters = {
    action: state.action,
    actor: state.actor,
    subject: state.subject,
    batch: state.batch,
  }

  return (
    <>
      {/* Remounted when the address changes (e.g. a batch link), so the fields show its filters. */}
      <FiltersForm key={auditLogHref(filters)} filters={filters} onApply={applyFilters} />

      <div ref={noticeRef} tabIndex={-1} className="mb-4 empty:hidden focus:outline-none">
        {notice && notice.href === auditLogHref(state) && (
          <FormMessage kind="success">{notice.text}</FormMessage>
        )}
      </div>

      {actions.isPending ? (
        <p role="status" className={MUTED}>
          {t('admin.actions.loading')}
        </p>
      ) : actions.isError ? (
        <LoadError
          message={t('admin.actions.loadError')}
          error={actions.error}
          onRetry={() => void actions.refetch()}
        />
      ) : actions.data.actions.length === 0 ? (
        <p className={MUTED}>
          {actions.data.total > 0 ? (
            <Link href={auditLogHref({ ...state, page: 1 })} shallow className={LINK}>
              {t('admin.actions.firstPage')}
            </Link>
          ) : hasFilters(state) ? (
            t('admin.actions.emptyFiltered')
          ) : (
            t('admin.actions.empty')
          )}
        </p>
      ) : (
        <>
          <p className={`mb-2 text-sm ${MUTED}`}>
            {t('admin.actions.total', {
              count: actions.data.total,
              total: formatNumber(actions.data.total, i18n.language),
            })}
          </p>
          <ActionsTable
            actions={actions.data.actions}
            caption={t('admin.actions.caption')}
            renderControls={controls}
          />
          <LogPagination state={state} totalPages={actions.data.totalPages} />
        </>
      )}

      <ConfirmDialog
        open={pending !== null}
        onClose={close}
        title={
          pending?.kind === 'batch'
            ? t('admin.actions.confirmBatchTitle')
            : t('admin.actions.confirmTitle')
        }
        confirmLabel={
          pending?.kind === 'batch' ? t('admin.actions.undoBatch') : t('admin.actions.undo')
        }
        onConfirm={confirm}
        pending={undoAction.isPending || undoBatch.isPending}
        error={
          pending?.kind === 'batch'
            ? undoBatch.error
              ? undoErrorMessage(undoBatch.error, t)
              : undefined
            : undoAction.error
              ? undoErrorMessage(undoAction.error, t)
              : undefined
        }
      >
        {pending?.kind === 'action' && (
          <p>
            {t('admin.actions.confirmBody', {
              kind: kindLabel(pending.action.action, t),
              subject: pending.action.subject_label || pending.action.subject_id,
              when: formatDateTime(pending.action.created_at, i18n.language, 'utc'),
            })}
          </p>
        )}
        {pending?.kind === 'batch' && (
          <p>{t('admin.actions.confirmBatchBody', { batch: shortBatch(pending.batchId) })}</p>
        )}
      </ConfirmDialog>
    </>
  )
}
