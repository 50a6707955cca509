// Client-side checks of the management forms, mirroring the contract's limits so mistakes are
// explained before a request is sent. The server checks everything again.
import type { Translate } from '@/src/lib/api-error'
import { EMAIL_MAX_LENGTH, URL_MAX_LENGTH } from '@/src/lib/constants'

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'https:' || url.protocol === 'http:'
  } catch {
    return false
  }
}

export function isEmail(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)
}

/** A text's problem: missing (with the field's own message) or too long. */
export function textProblem(
  value: string,
  { max, required }: { max: number; required?: string },
  t: Translate,
): string | undefined {
  if (required && !value.trim()) return required
  if (value.length > max) return t('manage.form.tooLong', { max })
  return undefined
}

/** An optional web address: empty, or a full http(s) URL. */
export function urlProblem(value: string, t: Translate): string | undefined {
  const trimmed = value.trim()
  if (!trimmed) return undefined
  if (trimmed.length > URL_MAX_LENGTH) {
    return t('manage.form.tooLong', { max: URL_MAX_LENGTH })
  }
  return isHttpUrl(trimmed) ? undefined : t('manage.form.invalidUrl')
}

/** An optional support contact: empty, an email address or a web address. */
export function supportProblem(value: string, t: Translate): string | undefined {
  const trimmed = value.trim()
  if (!trimmed || isEmail(trimmed.replace(/^mailto:/, '')) || isHttpUrl(trimmed)) return undefined
  return t('manage.form.invalidSupport')
}

/** True when no field has a problem. */
export function noProblems(problems: Record<string, string | undefined>): boolean {
  return Object.values(problems).every((problem) => !problem)
}
