// Tells the website to regenerate a node's page when a version becomes Active, so the public
// page shows it within seconds instead of after its cache time. The website accepts the shared
// REVALIDATE_SECRET as proof (pages/api/revalidate/nodes/[nodeId].ts). Best effort: a website
// that is down only means the page refreshes at its usual time.
import type { ServerConfig } from '../config'

export const REVALIDATE_SECRET_HEADER = 'x-revalidate-secret'

export function nodePageRefresher(
  config: Pick<ServerConfig, 'webUrl' | 'revalidateSecret'>,
  log: (message: string) => void = () => undefined,
): ((nodeId: string) => void) | undefined {
  const { webUrl, revalidateSecret } = config
  if (!webUrl || !revalidateSecret) return undefined
  return (nodeId) => {
    fetch(`${webUrl}/api/revalidate/nodes/${encodeURIComponent(nodeId)}`, {
      method: 'POST',
      headers: { [REVALIDATE_SECRET_HEADER]: revalidateSecret },
      signal: AbortSignal.timeout(10_000),
    })
      .then((answer) => {
        if (!answer.ok) log(`The website answered ${answer.status} to refreshing node ${nodeId}.`)
      })
      .catch((error: unknown) =>
        log(`Could not refresh the page of node ${nodeId}: ${String(error)}`),
      )
  }
}
