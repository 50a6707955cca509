// Formatting of the queue's cells: the upload time (with the time of day, in the admin's own
// zone: the dashboard renders in the browser only), archive sizes and the scan outcome.
import type { NodeVersion, ScanFindingSeverity } from '@/src/api/generated/model'
import { sortFindings } from '@/src/lib/status-reason'

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>()

export function formatDateTime(value: string, locale: string): string {
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return value
  let format = dateTimeFormats.get(locale)
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' })
    dateTimeFormats.set(locale, format)
  }
  return format.format(date)
}

const BYTE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const

/** Bytes in the largest decimal unit that keeps the number at least 1 ("1.4 MB"). */
export function formatBytes(bytes: number, locale: string): string {
  let value = bytes
  let unit = 0
  while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000
    unit += 1
  }
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: BYTE_UNITS[unit],
    unitDisplay: 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(value)
}

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
