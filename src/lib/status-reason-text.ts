// The shapes of a version's `status_reason` without the scan findings' reader, which
// src/lib/status-reason.ts adds: the public node page needs only the readable part (a plain-text
// reason or an admin's message), so it does not load the findings' code (docs/ARCHITECTURE.md
// "Page weight").

export interface StatusChange {
  status: string
  message: string
  by: string
}

/** A `status_reason` read, with its findings as `readFindings` reads them. */
export type StatusReasonOf<Finding> =
  | { kind: 'none' }
  | { kind: 'findings'; findings: Finding[] }
  | { kind: 'decision'; message: string; by: string; history: StatusChange[] }
  | { kind: 'text'; text: string }

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function text(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

function statusChangeOf(value: unknown): StatusChange | undefined {
  if (!isRecord(value) || typeof value.status !== 'string') return undefined
  return { status: value.status, message: text(value.message), by: text(value.by) }
}

/**
 * Reads a `status_reason` of any age and shape; garbage becomes `none`. A JSON array is findings:
 * `readFindings` keeps the ones that say something (none left: `none`).
 */
export function readStatusReason<Finding>(
  reason: string | undefined | null,
  readFindings: (list: unknown[]) => Finding[],
): StatusReasonOf<Finding> {
  const trimmed = reason?.trim() ?? ''
  if (!trimmed) return { kind: 'none' }
  let parsed: unknown
  try {
    parsed = JSON.parse(trimmed)
  } catch {
    // Plain text, unless it is broken JSON, which is never shown.
    return /^[[{]/.test(trimmed) ? { kind: 'none' } : { kind: 'text', text: trimmed }
  }
  if (parsed === null) return { kind: 'none' }
  if (Array.isArray(parsed)) {
    const findings = readFindings(parsed)
    return findings.length > 0 ? { kind: 'findings', findings } : { kind: 'none' }
  }
  if (isRecord(parsed)) {
    const history = Array.isArray(parsed.statusHistory)
      ? parsed.statusHistory.map(statusChangeOf).filter((change) => change !== undefined)
      : []
    const last = history.at(-1)
    const message = text(parsed.message).trim() || last?.message.trim() || ''
    const by = text(parsed.by).trim() || last?.by.trim() || ''
    if (!message && !by && history.length === 0) return { kind: 'none' }
    return { kind: 'decision', message, by, history }
  }
  // A JSON string is read again (it may hold an encoded shape); a number or boolean is text
  // someone wrote, e.g. "42".
  return typeof parsed === 'string'
    ? readStatusReason(parsed, readFindings)
    : { kind: 'text', text: trimmed }
}

/** What anyone may read of a `status_reason`: plain text or an admin's message, else ''. */
export function statusReasonText(reason: string | undefined | null): string {
  const parsed = readStatusReason(reason, () => [])
  return parsed.kind === 'text' ? parsed.text : parsed.kind === 'decision' ? parsed.message : ''
}
