// The scan outcome of a queue row. Its times and sizes use components/node/format.ts.
import type { NodeVersion, ScanFindingSeverity } from '@/src/api/generated/model'
import { sortFindings } from '@/src/lib/status-reason'

export type ScanOutcome =
  | { kind: 'unknown' }
  | { kind: 'clean' }
  | { kind: 'findings'; count: number; worst: ScanFindingSeverity }

export function scanOutcome(version: Pick<NodeVersion, 'scan_findings'>): ScanOutcome {
  const findings = version.scan_findings
  if (!findings) return { kind: 'unknown' }
  const [worst] = sortFindings(findings)
  return worst
    ? { kind: 'findings', count: findings.length, worst: worst.severity }
    : { kind: 'clean' }
}
