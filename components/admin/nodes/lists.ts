// Lists typed as text (admin tags, preempted ComfyUI node names), cleaned as the API cleans them
// (server/http/validate.ts labelList): trimmed, without empties or repeats, case kept.
import type { Translate } from '@/src/lib/api-error'

/** Comma-separated entries. */
export function parseCommaList(value: string): string[] {
  return [
    ...new Set(
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    ),
  ]
}

/** One entry per line (ComfyUI class names may contain commas and spaces). */
export function parseLineList(value: string): string[] {
  return [
    ...new Set(
      value
        .split('\n')
        .map((entry) => entry.trim())
        .filter(Boolean),
    ),
  ]
}

/** A list's problem against the contract's limits (maxItems, an entry's maxLength). */
export function listProblem(
  entries: string[],
  { maxItems, maxLength }: { maxItems: number; maxLength: number },
  t: Translate,
): string | undefined {
  if (entries.length > maxItems) return t('admin.nodes.fields.tooMany', { max: maxItems })
  const tooLong = entries.find((entry) => entry.length > maxLength)
  if (tooLong !== undefined)
    return t('admin.nodes.fields.entryTooLong', { max: maxLength, entry: tooLong })
  return undefined
}

export function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((entry, index) => entry === b[index])
}
