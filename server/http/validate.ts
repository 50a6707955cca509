// Field rules the contract's JSON schemas cannot express (blank names, URL shapes, list sizes);
// the URL and contact rules are src/lib/field-rules.ts, which the owners' forms use too.
// Every failure is a 400 whose message names the field, e.g. "Invalid field 'website': …".
import { isHttpUrl, isImageReference, isSupportContact } from '@/src/lib/field-rules'
import { badRequest } from './errors'

export const MAX_LIST_ITEMS = 50
export const MAX_LIST_ITEM_LENGTH = 100

export function invalidField(field: string, problem: string) {
  return badRequest(`Invalid field '${field}': ${problem}`)
}

/** Trimmed text; undefined stays undefined (an update leaves the field alone). */
export function text(value: string | undefined): string | undefined {
  return value === undefined ? undefined : value.trim()
}

export function nonBlank(field: string, value: string | undefined): string | undefined {
  const trimmed = text(value)
  if (trimmed === '') throw invalidField(field, 'it must not be empty.')
  return trimmed
}

/** '' (cleared) or an absolute http(s) URL. */
export function httpUrl(field: string, value: string | undefined): string | undefined {
  const trimmed = text(value)
  if (trimmed && !isHttpUrl(trimmed)) {
    throw invalidField(field, `'${trimmed}' is not an http(s) URL (e.g. https://example.com).`)
  }
  return trimmed
}

/** An image: an absolute http(s) URL or a path on this site ('/icons/x.svg'). */
export function imageUrl(field: string, value: string | undefined): string | undefined {
  const trimmed = text(value)
  if (trimmed && !isImageReference(trimmed)) {
    throw invalidField(
      field,
      `'${trimmed}' is neither an http(s) URL of an image nor a path on this site (e.g. /icons/node.svg).`,
    )
  }
  return trimmed
}

/** Support contact: an email address or an http(s) URL. */
export function supportContact(field: string, value: string | undefined): string | undefined {
  const trimmed = text(value)
  if (trimmed && !isSupportContact(trimmed)) {
    throw invalidField(field, 'enter an email address or an http(s) URL.')
  }
  return trimmed
}

/** A list of short labels: trimmed, empty ones dropped, duplicates removed, bounded. */
export function labelList(field: string, values: string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined
  const cleaned = [...new Set(values.map((value) => value.trim()).filter(Boolean))]
  if (cleaned.length > MAX_LIST_ITEMS) {
    throw invalidField(field, `at most ${MAX_LIST_ITEMS} entries are allowed.`)
  }
  const tooLong = cleaned.find((value) => value.length > MAX_LIST_ITEM_LENGTH)
  if (tooLong) {
    throw invalidField(field, `each entry has at most ${MAX_LIST_ITEM_LENGTH} characters.`)
  }
  return cleaned
}

/** Short free text with a length bound the contract does not state (e.g. version ranges). */
export function shortText(field: string, value: string | undefined, max = 200): string | undefined {
  const trimmed = text(value)
  if (trimmed !== undefined && trimmed.length > max) {
    throw invalidField(field, `at most ${max} characters are allowed.`)
  }
  return trimmed
}

/** Object without its undefined entries (so an update touches only the fields that were sent). */
export function defined<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, entry]) => entry !== undefined),
  ) as Partial<T>
}
