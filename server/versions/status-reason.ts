// `status_reason` keeps today's registry's JSON shapes, so its admin tools read ours unchanged:
// a JSON array of findings when the scan flagged a version (server/pipeline/process-version.ts),
// and `{message, by, statusHistory: [{status, message, by}], batchId?}` when an admin decided.
import type { NodeVersionStatus } from '../db/schema'

interface StatusChange {
  status: NodeVersionStatus
  message: string
  by: string
}

export interface AdminDecision {
  message: string
  by: string
  statusHistory: StatusChange[]
  batchId?: string
}

function isStatusChange(value: unknown): value is StatusChange {
  return (
    typeof value === 'object' &&
    value !== null &&
    'status' in value &&
    'message' in value &&
    'by' in value &&
    typeof value.status === 'string' &&
    typeof value.message === 'string' &&
    typeof value.by === 'string'
  )
}

/** The admin decisions recorded in a `status_reason` so far (none for other shapes). */
export function decisionHistory(statusReason: string): StatusChange[] {
  try {
    const parsed: unknown = JSON.parse(statusReason)
    if (typeof parsed !== 'object' || parsed === null || !('statusHistory' in parsed)) return []
    const history = parsed.statusHistory
    return Array.isArray(history) ? history.filter(isStatusChange) : []
  } catch {
    return []
  }
}

/** The `status_reason` of an admin's decision, keeping the decisions made before it. */
export function adminDecisionReason(
  previous: string,
  change: StatusChange,
  batchId?: string,
): string {
  const decision: AdminDecision = {
    message: change.message,
    by: change.by,
    statusHistory: [...decisionHistory(previous), change],
    ...(batchId ? { batchId } : {}),
  }
  return JSON.stringify(decision)
}
