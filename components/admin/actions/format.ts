// How an audit row reads for people: its kind, the page of its subject, and its change. The
// recorded values are status names (versions, publishers), `{status, status_detail}` (node bans)
// or JSON objects of fields (node admin fields, node creation); an undo has them swapped.
import type { AdminAction, AdminActionKind } from '@/src/api/generated/model'
import type { Translate } from '@/src/lib/api-error'
import { adminReviewPath, nodePath, publisherPath } from '@/src/lib/paths'

/** Translation keys of the action kinds (i18next keys cannot contain the kinds' dots). */
const KIND_KEYS: Record<AdminActionKind, string> = {
  'version.status': 'versionStatus',
  'node.create': 'nodeCreate',
  'node.update': 'nodeUpdate',
  'node.ban': 'nodeBan',
  'node.unban': 'nodeUnban',
  'publisher.ban': 'publisherBan',
  'publisher.unban': 'publisherUnban',
  undo: 'undo',
}

export function kindLabel(kind: AdminActionKind, t: Translate): string {
  return t(`admin.actions.kinds.${KIND_KEYS[kind]}`)
}

/** The version a `node@version` label names (node ids never contain `@`). */
export function parseVersionLabel(label: string): { nodeId: string; version: string } | null {
  const at = label.indexOf('@')
  if (at <= 0 || at === label.length - 1) return null
  return { nodeId: label.slice(0, at), version: label.slice(at + 1) }
}

/** Where the subject of an action is seen: a version's review, a node's or publisher's page. */
export function subjectHref(action: AdminAction): string | undefined {
  switch (action.subject_type) {
    case 'node_version': {
      const version = parseVersionLabel(action.subject_label)
      return version ? adminReviewPath(version.nodeId, version.version) : undefined
    }
    case 'node':
      return nodePath(action.subject_id)
    case 'publisher':
      return publisherPath(action.subject_id)
    default:
      return undefined
  }
}

const STATUSES: readonly string[] = [
  'NodeVersionStatusActive',
  'NodeVersionStatusPending',
  'NodeVersionStatusFlagged',
  'NodeVersionStatusBanned',
  'NodeVersionStatusDeleted',
  'NodeStatusActive',
  'NodeStatusBanned',
  'NodeStatusDeleted',
  'PublisherStatusActive',
  'PublisherStatusBanned',
]

const FIELDS: readonly string[] = [
  'tags_admin',
  'search_ranking',
  'preempted_comfy_node_names',
  'category',
  'publisher_id',
  'repository',
]

/** A status name as people say it; other text as it is. */
export function statusLabel(value: string, t: Translate): string {
  return STATUSES.includes(value) ? t(`admin.actions.status.${value}`) : value
}

function parseObject(text: string): Record<string, unknown> | null {
  if (!text.trim().startsWith('{')) return null
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null
  } catch {
    return null
  }
}

function fieldValue(value: unknown, t: Translate): string {
  const none = t('admin.actions.none')
  if (value === null || value === undefined || value === '') return none
  if (Array.isArray(value)) return value.length ? value.map(String).join(', ') : none
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return String(value)
  }
  return JSON.stringify(value)
}

export interface FieldChange {
  label: string
  /** Absent when there was nothing before (a creation). */
  from?: string
  to: string
}

export type Change =
  { kind: 'value'; from: string; to: string } | { kind: 'fields'; fields: FieldChange[] }

function plainValue(text: string, t: Translate): string {
  const object = parseObject(text)
  if (object && typeof object.status === 'string') return statusLabel(object.status, t)
  return text.trim() ? statusLabel(text, t) : t('admin.actions.none')
}

/** What an action changed: one value (a status) or the fields that differ. */
export function describeChange(
  action: Pick<AdminAction, 'from_value' | 'to_value'>,
  t: Translate,
): Change {
  const from = parseObject(action.from_value)
  const to = parseObject(action.to_value)
  const isFields = (object: Record<string, unknown> | null) =>
    object !== null && typeof object.status !== 'string'
  if (!isFields(from) && !isFields(to)) {
    return {
      kind: 'value',
      from: plainValue(action.from_value, t),
      to: plainValue(action.to_value, t),
    }
  }
  const keys = [...new Set([...Object.keys(to ?? {}), ...Object.keys(from ?? {})])]
  const fields: FieldChange[] = []
  for (const key of keys) {
    const after = fieldValue(to?.[key], t)
    const label = FIELDS.includes(key) ? t(`admin.actions.fields.${key}`) : key
    if (!from) {
      fields.push({ label, to: after })
      continue
    }
    const before = fieldValue(from[key], t)
    if (before !== after) fields.push({ label, from: before, to: after })
  }
  return { kind: 'fields', fields }
}
