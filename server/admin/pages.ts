// After an admin's change, the public pages it touches are regenerated at once, as the owners'
// edits and the pipeline do (server/pipeline/page-refresh.ts): the node's page when its status,
// admin fields or versions changed, and every Active node's page of a publisher banned or
// unbanned (they disappear or come back). Called after the change is committed, without
// delaying the answer; the publisher and home listings are rendered per request and need nothing.
import { and, eq, inArray } from 'drizzle-orm'
import { nodes } from '../db/schema'
import type { RequestContext } from '../http/context'
import { nodePagesRefresher } from '../pipeline/page-refresh'

export interface ChangedPages {
  nodeIds?: Iterable<string>
  publisherIds?: Iterable<string>
}

/**
 * Regenerates the pages; the promise (which never rejects) is for tests: handlers do not wait.
 * Does nothing when the website is not configured (WEB_INTERNAL_URL, REVALIDATE_SECRET).
 */
export function refreshChangedPages(
  context: RequestContext,
  changed: ChangedPages,
  log: (message: string) => void = () => undefined,
): Promise<void> {
  const refresh = nodePagesRefresher(context.deps.config, log)
  if (!refresh) return Promise.resolve()
  const nodeIds = [...(changed.nodeIds ?? [])]
  const publisherIds = [...new Set(changed.publisherIds ?? [])]
  return (async () => {
    if (publisherIds.length > 0) {
      const rows = await context.deps.db
        .select({ id: nodes.id })
        .from(nodes)
        .where(and(inArray(nodes.publisherId, publisherIds), eq(nodes.status, 'NodeStatusActive')))
      nodeIds.push(...rows.map((row) => row.id))
    }
    await refresh(nodeIds)
  })().catch((error: unknown) => log(`Could not refresh the changed pages: ${String(error)}`))
}
