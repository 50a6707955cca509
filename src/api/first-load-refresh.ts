// Server-rendered pages arrive with their data in the query cache, and that data is stale at once
// (stale time 0, seed section 9). Left alone, every query of a freshly hydrated page would refetch
// while React is still hydrating it: axios loads, the API is called and the results are compared,
// all during the page's busiest moment. Instead, refetching on mount stays off until the page has
// loaded and the browser is idle; then the queries on screen are refreshed once, and from then on
// (client-side navigations) queries refetch on mount as usual. Queries without data still load at
// once: `refetchOnMount` only concerns queries that already hold data.
import type { Query, QueryClient } from '@tanstack/react-query'
import { FIRST_LOAD_REFRESH_MAX_WAIT_MS } from '@/src/lib/constants'

let firstLoadDone = typeof window === 'undefined'

/** The query client's `refetchOnMount`: false until the first page load has settled. */
export function refetchOnMount(): boolean {
  return firstLoadDone
}

function whenIdle(run: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(run, { timeout: FIRST_LOAD_REFRESH_MAX_WAIT_MS })
    return () => window.cancelIdleCallback(handle)
  }
  const timer = window.setTimeout(run, 0)
  return () => window.clearTimeout(timer)
}

const after = (ms: number) => new Promise((resolve) => window.setTimeout(resolve, ms))

/** How long the other queries wait for the first one's answer (a failing API retries for seconds). */
const FIRST_ANSWER_WAIT_MS = 1_000

/**
 * The stale queries on screen, refetched one a task: sent together, building their requests was
 * one long task on the node page (158–293 ms with 4x CPU: docs/ARCHITECTURE.md "Blocking time").
 * The first goes alone until it has answered (FIRST_ANSWER_WAIT_MS at most): it loads the API
 * client (axios), which the others would otherwise all wait for and then be sent together. In a
 * hidden tab, where timers are slowed down and nobody waits on the page, all at once.
 */
async function refreshOneATask(client: QueryClient): Promise<void> {
  if (document.hidden) {
    await client.refetchQueries({ type: 'active', stale: true })
    return
  }
  const refetch = (query: Query) =>
    client.refetchQueries({ queryKey: query.queryKey, exact: true, type: 'active', stale: true })
  const [first, ...rest] = client.getQueryCache().findAll({ type: 'active', stale: true })
  if (!first) return
  await Promise.race([refetch(first), after(FIRST_ANSWER_WAIT_MS)])
  for (const [i, query] of rest.entries()) {
    if (i > 0) await after(0)
    void refetch(query)
  }
}

/**
 * After the window's load event and the next idle moment, turns refetching on mount back on and
 * refreshes the stale queries on screen. Returns a function that cancels what has not run yet.
 */
export function refreshAfterFirstLoad(client: QueryClient): () => void {
  if (firstLoadDone) return () => undefined
  let cancelIdle = () => undefined as void
  const onIdle = () => {
    firstLoadDone = true
    void refreshOneATask(client)
  }
  const onLoad = () => {
    cancelIdle = whenIdle(onIdle)
  }
  if (document.readyState === 'complete') onLoad()
  else window.addEventListener('load', onLoad, { once: true })
  return () => {
    window.removeEventListener('load', onLoad)
    cancelIdle()
  }
}

/** For tests: back to the state of a page that has not finished loading. */
export function resetFirstLoadForTests(): void {
  firstLoadDone = false
}
