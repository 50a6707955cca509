// What a failed API call means for a person: the server's `{error, message}` message when it
// sent one, otherwise a translated explanation by status (or a network failure).
// Errors are read by shape, not with axios's helpers: axios loads with the first request (see
// src/api/mutator.ts) and must not be pulled into pages through this module.

interface FailedCall {
  isAxiosError: true
  response?: { status?: unknown; data?: unknown; headers?: unknown }
}

function isFailedCall(error: unknown): error is FailedCall {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { isAxiosError?: unknown }).isAxiosError === true
  )
}

/** The HTTP status of a failed call, or undefined when the server never answered. */
export function errorStatus(error: unknown): number | undefined {
  const status = isFailedCall(error) ? error.response?.status : undefined
  return typeof status === 'number' ? status : undefined
}

/** The server's own message (`ErrorResponse.message`), if any. */
export function serverMessage(error: unknown): string | undefined {
  if (!isFailedCall(error)) return undefined
  const data: unknown = error.response?.data
  if (data && typeof data === 'object' && 'message' in data) {
    const { message } = data as { message: unknown }
    if (typeof message === 'string' && message.trim()) return message
  }
  return undefined
}

/** The translate function of `useTranslation`. */
export type Translate = (key: string, options?: Record<string, unknown>) => string

/** Whole seconds from a 429's Retry-After header, if it sent one. */
function retryAfterSeconds(error: FailedCall): number | undefined {
  const headers = error.response?.headers
  const value: unknown =
    typeof headers === 'object' && headers !== null
      ? Reflect.get(headers, 'retry-after')
      : undefined
  const seconds = Number(value)
  return value !== undefined && Number.isInteger(seconds) && seconds > 0 ? seconds : undefined
}

export function apiErrorMessage(error: unknown, t: Translate): string {
  // Rate limited (server/http/rate-limits.ts): said in the reader's language, with the wait.
  if (isFailedCall(error) && errorStatus(error) === 429) {
    const seconds = retryAfterSeconds(error)
    return seconds
      ? t('manage.errors.tooManyRequests', { seconds })
      : t('manage.errors.tooManyRequestsWait')
  }
  const message = serverMessage(error)
  if (message) return message
  if (isFailedCall(error) && !error.response) return t('manage.errors.network')
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
