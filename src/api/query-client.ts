// The React Query clients. In the browser, the spec's rules: a query that failed with a server
// error (5xx) or no answer at all is retried up to 3 times, a refusal (any 4xx: 400, 404, …)
// never, since asking again gets the same answer; data is stale at once and kept for 24 hours.
// Refetching on mount waits for the first page load to settle (first-load-refresh.ts).
// On the server (prefetching a page), never a retry: a visitor would wait out the back-off before
// seeing the 404 or 500 page. See src/lib/ssr.ts.
import { QueryClient } from '@tanstack/react-query'
import { refetchOnMount } from '@/src/api/first-load-refresh'
import { errorStatus } from '@/src/lib/api-error'
import { QUERY_GC_TIME_MS, QUERY_MAX_RETRIES, QUERY_STALE_TIME_MS } from '@/src/lib/constants'

export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  const status = errorStatus(error)
  if (status !== undefined && status < 500) return false
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

/**
 * The client server rendering prefetches into, one per request: no retries (a failure answers
 * at once), and no garbage-collection timers (the client is dropped with the request; a 24-hour
 * timer would keep every request's cache alive that long).
 */
export function makeServerQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, staleTime: QUERY_STALE_TIME_MS, gcTime: Infinity },
    },
  })
}
