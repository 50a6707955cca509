// The audit log's filters and page, read from and written to its address
// (`/admin/actions?action=&actor=&subject=&batch=&page=`), so reload, back and links from other
// admin pages keep them. Pure functions, no UI.
import {
  AdminActionKind,
  type AdminAction,
  type ListAdminActionsParams,
} from '@/src/api/generated/model'
import { ADMIN_PATHS } from '@/src/lib/paths'

/** Rows per page of the audit log. */
export const AUDIT_LOG_PAGE_SIZE = 25
/** The highest page number taken from an address (the API's own limit). */
const MAX_PAGE = 100_000
/** The API's limits on the free-text filters. */
export const ACTOR_MAX_LENGTH = 320
export const SUBJECT_MAX_LENGTH = 200

export interface AuditLogFilters {
  action?: AdminActionKind
  actor?: string
  subject?: string
  batch?: string
}

export interface AuditLogState extends AuditLogFilters {
  page: number
}

type UrlQuery = Record<string, string | string[] | undefined>

const KINDS: readonly string[] = Object.values(AdminActionKind)

export function isActionKind(value: string): value is AdminActionKind {
  return KINDS.includes(value)
}

function first(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value)?.trim() ?? ''
}

/** Reads the state from `router.query`; unknown kinds and bad pages are dropped. */
export function parseAuditLogState(query: UrlQuery): AuditLogState {
  const action = first(query.action)
  const actor = first(query.actor).slice(0, ACTOR_MAX_LENGTH)
  const subject = first(query.subject).slice(0, SUBJECT_MAX_LENGTH)
  const batch = first(query.batch)
  const page = Number(first(query.page))
  return {
    action: isActionKind(action) ? action : undefined,
    actor: actor || undefined,
    subject: subject || undefined,
    batch: batch || undefined,
    page: Number.isInteger(page) && page >= 1 && page <= MAX_PAGE ? page : 1,
  }
}

/** The address of a state: only the filters that are set, and the page when past the first. */
export function auditLogHref(state: Partial<AuditLogState>): string {
  const params = new URLSearchParams()
  if (state.action) params.set('action', state.action)
  if (state.actor) params.set('actor', state.actor)
  if (state.subject) params.set('subject', state.subject)
  if (state.batch) params.set('batch', state.batch)
  if (state.page && state.page > 1) params.set('page', String(state.page))
  const search = params.toString()
  return search ? `${ADMIN_PATHS.actions}?${search}` : ADMIN_PATHS.actions
}

/** The API's parameters for a state (unset filters are left out). */
export function auditLogParams(state: AuditLogState): ListAdminActionsParams {
  const params: ListAdminActionsParams = { page: state.page, limit: AUDIT_LOG_PAGE_SIZE }
  if (state.action) params.action = state.action
  if (state.actor) params.actor = state.actor
  if (state.subject) params.subject_id = state.subject
  if (state.batch) params.batch_id = state.batch
  return params
}

export function hasFilters(state: AuditLogFilters): boolean {
  return Boolean(state.action || state.actor || state.subject || state.batch)
}

/** Whether the API can undo an action: not an undo, not a creation, not already undone. */
export function canUndo(action: AdminAction): boolean {
  return (
    action.action !== AdminActionKind.undo &&
    action.action !== AdminActionKind.nodecreate &&
    !action.undone_by
  )
}
