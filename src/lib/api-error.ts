// What a failed API call means for a person: the server's `{error, message}` message when it
// sent one, otherwise a translated explanation by status (or a network failure).
import { isAxiosError } from 'axios'

/** The HTTP status of a failed call, if the server answered. */
export function errorStatus(error: unknown): number | undefined {
  return isAxiosError(error) ? error.response?.status : undefined
}

/** The server's own message (`ErrorResponse.message`), if any. */
export function serverMessage(error: unknown): string | undefined {
  if (!isAxiosError(error)) return undefined
  const data: unknown = error.response?.data
  if (data && typeof data === 'object' && 'message' in data) {
    const { message } = data as { message: unknown }
    if (typeof message === 'string' && message.trim()) return message
  }
  return undefined
}

/** The translate function of `useTranslation`. */
export type Translate = (key: string, options?: Record<string, unknown>) => string

export function apiErrorMessage(error: unknown, t: Translate): string {
  const message = serverMessage(error)
  if (message) return message
  if (isAxiosError(error) && !error.response) return t('manage.errors.network')
  switch (errorStatus(error)) {
    case 401:
      return t('manage.errors.unauthorized')
    case 403:
      return t('manage.errors.forbidden')
    case 404:
      return t('manage.errors.notFound')
    default:
      return t('manage.errors.generic')
  }
}
