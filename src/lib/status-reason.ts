// What a version's `status_reason` says, read safely: the API keeps today's registry's shapes
// (openapi.yml `NodeVersion.status_reason`): a JSON array of scan findings (the scan flagged the
// version), a JSON object `{message, by, statusHistory, batchId?}` (an admin decided), plain text
// (older data) or ''. Anything else is dropped: raw JSON is never shown to anyone.
import type { NodeVersion, RegistryStandard, ScanFinding } from '@/src/api/generated/model'
import {
  isRecord,
  readStatusReason,
  text,
  type StatusChange,
  type StatusReasonOf,
} from './status-reason-text'
import { ScanFindingKind } from '@/src/api/generated/model/scanFindingKind'
import { ScanFindingScanner } from '@/src/api/generated/model/scanFindingScanner'
import { ScanFindingSeverity } from '@/src/api/generated/model/scanFindingSeverity'

export type { StatusChange }

export type StatusReason = StatusReasonOf<ScanFinding>

/** Worst first: the order findings are shown in. */
const SEVERITY_RANK: Record<ScanFindingSeverity, number> = {
  critical: 0,
  high: 1,
  medium: 2,
  low: 3,
}

function severityOf(value: unknown): ScanFindingSeverity {
  const known = Object.values(ScanFindingSeverity).find((severity) => severity === value)
  // A severity this site does not know is shown as medium rather than hidden or played down.
  return known ?? ScanFindingSeverity.medium
}

function scannerOf(value: unknown): ScanFindingScanner {
  return (
    Object.values(ScanFindingScanner).find((scanner) => scanner === value) ??
    ScanFindingScanner['static-scan']
  )
}

function kindOf(value: unknown): ScanFindingKind | undefined {
  return Object.values(ScanFindingKind).find((kind) => kind === value)
}

/** The standard a finding names, when it has a title and an https link; else undefined. */
function standardOf(value: unknown): RegistryStandard | undefined {
  if (!isRecord(value)) return undefined
  const title = text(value.title).trim()
  const url = text(value.url).trim()
  if (!title || !/^https:\/\/[^\s"<>]+$/.test(url)) return undefined
  return { id: text(value.id), title, url, remedy: text(value.remedy).trim() }
}

/** One finding from untrusted JSON; undefined when it says nothing (no message, no rule). */
function findingOf(value: unknown): ScanFinding | undefined {
  if (!isRecord(value)) return undefined
  const message = text(value.message).trim()
  const issueType = text(value.issue_type).trim()
  if (!message && !issueType) return undefined
  const line = value.line_number
  const kind = kindOf(value.kind)
  const standard = standardOf(value.standard)
  return {
    issue_type: issueType,
    severity: severityOf(value.severity),
    file_path: text(value.file_path),
    line_number: typeof line === 'number' && Number.isInteger(line) && line > 0 ? line : 0,
    code_snippet: text(value.code_snippet),
    message,
    scanner: scannerOf(value.scanner),
    ...(kind ? { kind } : {}),
    ...(standard ? { standard } : {}),
  }
}

/** Findings ordered worst first, then by file and line (a stable order for equal ones). */
export function sortFindings(findings: readonly ScanFinding[]): ScanFinding[] {
  return [...findings].sort(
    (a, b) =>
      SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
      a.file_path.localeCompare(b.file_path) ||
      a.line_number - b.line_number,
  )
}

/** Reads a `status_reason` of any age and shape; garbage becomes `none`. */
export function parseStatusReason(reason: string | undefined | null): StatusReason {
  return readStatusReason(reason, (list) =>
    sortFindings(list.map(findingOf).filter((finding) => finding !== undefined)),
  )
}

export interface VersionReason {
  /** The checks' findings, worst first (`scan_findings` when the API sent them). */
  findings: ScanFinding[]
  /** An admin's decision or a plain-text reason, when `status_reason` holds one. */
  reason: Exclude<StatusReason, { kind: 'none' } | { kind: 'findings' }> | undefined
}

/** What the owners of a version are told about its status. */
export function versionReason(
  version: Pick<NodeVersion, 'status_reason' | 'scan_findings'>,
): VersionReason {
  const parsed = parseStatusReason(version.status_reason)
  const sent = Array.isArray(version.scan_findings)
    ? version.scan_findings.map(findingOf).filter((finding) => finding !== undefined)
    : []
  const findings =
    sent.length > 0 ? sortFindings(sent) : parsed.kind === 'findings' ? parsed.findings : []
  const reason = parsed.kind === 'decision' || parsed.kind === 'text' ? parsed : undefined
  return { findings, reason }
}
