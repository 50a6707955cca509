// Reading failed API calls without importing axios (which loads lazily, see mutator.ts).

/** The HTTP status of a failed API call, or undefined when the server never answered. */
export function httpStatusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('response' in error)) return undefined
  const { response } = error as { response?: { status?: unknown } }
  return typeof response?.status === 'number' ? response.status : undefined
}
