// The React Query client with the spec's rules: retry up to 3 times but never on 404,
// stale at once, kept for 24 hours. Refetching on mount waits for the first page load to settle
// (first-load-refresh.ts).
import { QueryClient } from '@tanstack/react-query'
import { refetchOnMount } from '@/src/api/first-load-refresh'
import { errorStatus } from '@/src/lib/api-error'
import { QUERY_GC_TIME_MS, QUERY_MAX_RETRIES, QUERY_STALE_TIME_MS } from '@/src/lib/constants'

export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  if (errorStatus(error) === 404) return false
  return failureCount < QUERY_MAX_RETRIES
}

export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetryQuery,
        staleTime: QUERY_STALE_TIME_MS,
        gcTime: QUERY_GC_TIME_MS,
        refetchOnMount,
      },
    },
  })
}
