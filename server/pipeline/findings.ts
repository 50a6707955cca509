// What the publishing pipeline reports about an archive. A finding has the field names today's
// registry and its admin tools read from `status_reason` (a JSON array of findings); see
// `ScanFinding` in openapi.yml.
import type { FindingKind, Standard } from './standards'

export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const
export type Severity = (typeof SEVERITIES)[number]

/** Which part of the pipeline reported a finding. */
export type Scanner = 'archive-check' | 'static-scan' | 'dependency-scan' | 'pipeline'

export interface Finding {
  /** A stable rule id, e.g. `zip-path-traversal`, `exec-decoded-payload`. */
  issue_type: string
  severity: Severity
  /** Path inside the archive, '' when the finding is about the archive as a whole. */
  file_path: string
  /** 1-based; 0 when the finding has no line. */
  line_number: number
  /** The offending line(s), trimmed to at most 200 characters; '' when there is none. */
  code_snippet: string
  message: string
  scanner: Scanner
  /** Scan rules only: malicious code, or a breach of a published standard (see standards.ts). */
  kind?: FindingKind
  /** Scan rules only: the registry standard the rule enforces, with what to change. */
  standard?: Standard
}

/** The severity SCAN_FLAG_SEVERITY defaults to. */
export const DEFAULT_FLAG_SEVERITY: Severity = 'high'

/** Whether `severity` is at least `threshold`. */
export function atLeast(severity: Severity, threshold: Severity): boolean {
  return SEVERITIES.indexOf(severity) >= SEVERITIES.indexOf(threshold)
}

/** A snippet as findings carry it: one line of code, trimmed, at most 200 characters. */
export function snippet(line: string): string {
  const trimmed = line.trim()
  return trimmed.length > 200 ? `${trimmed.slice(0, 199)}…` : trimmed
}
