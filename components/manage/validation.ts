// Client-side checks of the management forms, with the contract's limits and the API's own
// field rules (src/lib/field-rules.ts), so mistakes are explained before a request is sent and
// whatever the API accepts the forms accept. The server checks everything again.
import type { Translate } from '@/src/lib/api-error'
import { URL_MAX_LENGTH } from './limits'
import { isHttpUrl, isImageReference, isSupportContact } from '@/src/lib/field-rules'

export { isEmail } from '@/src/lib/field-rules'

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

/** An optional image: empty, a full http(s) URL or a path on this site (`/icons/x.svg`). */
export function imageProblem(value: string, t: Translate): string | undefined {
  const trimmed = value.trim()
  if (!trimmed) return undefined
  if (trimmed.length > URL_MAX_LENGTH) {
    return t('manage.form.tooLong', { max: URL_MAX_LENGTH })
  }
  return isImageReference(trimmed) ? undefined : t('manage.form.invalidImage')
}

/** An optional support contact: empty, an email address or a web address. */
export function supportProblem(value: string, t: Translate): string | undefined {
  const trimmed = value.trim()
  if (!trimmed || isSupportContact(trimmed)) return undefined
  return t('manage.form.invalidSupport')
}

/** True when no field has a problem. */
export function noProblems(problems: Record<string, string | undefined>): boolean {
  return Object.values(problems).every((problem) => !problem)
}
