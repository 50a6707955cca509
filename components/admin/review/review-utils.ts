// Small pure helpers of the review view: file paths, lines, retries and the URL's
// `?file=…&line=…` selection. Free of React so they are easy to test and reuse.
import { shouldRetryQuery } from '@/src/api/query-client'
import { errorStatus } from '@/src/lib/api-error'

/**
 * The archive path a finding means. Findings name entries as the archive does, but some checks
 * name a file without the archive's top-level folder (e.g. `pyproject.toml`); then the one file
 * whose path ends with it is meant. Unknown paths are kept (the file view says it is missing).
 */
export function resolveArchivePath(path: string, files: readonly { path: string }[] = []): string {
  if (files.some((file) => file.path === path)) return path
  const matches = files.filter((file) => file.path.endsWith(`/${path}`))
  return matches.length === 1 ? matches[0].path : path
}

/** A file's text as lines (any line ending); a final line break does not add an empty line. */
export function splitLines(text: string): string[] {
  const lines = text.split(/\r\n|\r|\n/)
  if (lines.length > 1 && lines.at(-1) === '') lines.pop()
  return lines
}

/**
 * Retries of the archive queries: a 4xx answer (no archive, failed checks, not text) is the
 * answer and is never asked again; network failures and 5xx follow the app's rule.
 */
export function retryArchiveQuery(failureCount: number, error: unknown): boolean {
  const status = errorStatus(error)
  if (status !== undefined && status < 500) return false
  return shouldRetryQuery(failureCount, error)
}

export interface FileSelection {
  file: string
  /** 1-based line to highlight; 0 for none. */
  line: number
}

function first(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? ''
}

/** The file and line named in the URL's query, if a file is named. */
export function selectionFromQuery(
  query: Record<string, string | string[] | undefined>,
): FileSelection | undefined {
  const file = first(query.file)
  if (!file) return undefined
  const line = Number.parseInt(first(query.line), 10)
  return { file, line: Number.isInteger(line) && line > 0 ? line : 0 }
}

/** Whether a key press happened while the person types into a field. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable) return true
  return (
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  )
}
