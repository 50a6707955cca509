// Tells the website to regenerate node pages, so the public page shows a change within seconds
// instead of after its cache time: when a version becomes Active (the pipeline), and after an
// admin's change to a node, its versions or its publisher (server/admin/pages.ts). Node pages are
// the only statically regenerated public pages; the others are rendered per request. The website
// accepts the shared REVALIDATE_SECRET as proof (pages/api/revalidate/nodes/[nodeId].ts). Best
// effort: a website that is down only means the page refreshes at its usual time.
import type { ServerConfig } from '../config'

export const REVALIDATE_SECRET_HEADER = 'x-revalidate-secret'

/** Pages regenerated at the same time by one refresher: each costs the website ~0.5 s of CPU. */
export const PAGE_REFRESH_CONCURRENCY = 2

type RefreshConfig = Pick<ServerConfig, 'webUrl' | 'revalidateSecret'>

/** One page; never rejects (failures are logged). */
function refreshOne(
  webUrl: string,
  secret: string,
  nodeId: string,
  log: (message: string) => void,
): Promise<void> {
  return fetch(`${webUrl}/api/revalidate/nodes/${encodeURIComponent(nodeId)}`, {
    method: 'POST',
    headers: { [REVALIDATE_SECRET_HEADER]: secret },
    signal: AbortSignal.timeout(10_000),
  })
    .then((answer) => {
      if (!answer.ok) log(`The website answered ${answer.status} to refreshing node ${nodeId}.`)
    })
    .catch((error: unknown) =>
      log(`Could not refresh the page of node ${nodeId}: ${String(error)}`),
    )
}

export function nodePageRefresher(
  config: RefreshConfig,
  log: (message: string) => void = () => undefined,
): ((nodeId: string) => void) | undefined {
  const { webUrl, revalidateSecret } = config
  if (!webUrl || !revalidateSecret) return undefined
  return (nodeId) => void refreshOne(webUrl, revalidateSecret, nodeId, log)
}

/**
 * Regenerates the pages of several nodes (each once, whatever the case of its id), at most
 * PAGE_REFRESH_CONCURRENCY at a time, so banning a publisher with many nodes does not swamp the
 * website. The promise settles when all are done (it never rejects).
 */
export function nodePagesRefresher(
  config: RefreshConfig,
  log: (message: string) => void = () => undefined,
): ((nodeIds: Iterable<string>) => Promise<void>) | undefined {
  const { webUrl, revalidateSecret } = config
  if (!webUrl || !revalidateSecret) return undefined
  return async (nodeIds) => {
    const unique: string[] = []
    const seen = new Set<string>()
    for (const id of nodeIds) {
      if (!seen.has(id.toLowerCase())) unique.push(id)
      seen.add(id.toLowerCase())
    }
    let next = 0
    const worker = async () => {
      while (next < unique.length) {
        await refreshOne(webUrl, revalidateSecret, unique[next++], log)
      }
    }
    await Promise.all(
      Array.from({ length: Math.min(PAGE_REFRESH_CONCURRENCY, unique.length) }, worker),
    )
  }
}
