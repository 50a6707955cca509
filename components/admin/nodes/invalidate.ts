// What an admin change of a node or a publisher makes stale. The generic write invalidation
// (src/api/invalidation.ts) only covers the written `/admin/...` path, but a ban or an edit
// changes the node lists and searches, the node's own queries, its publisher's lists, the review
// queue (it shows versions of Active nodes), the overview's counts and the audit log.
import type { QueryClient } from '@tanstack/react-query'

const ADMIN_VIEWS = (path: string) =>
  path === '/admin/overview' || path.startsWith('/admin/actions') || path.startsWith('/admin/nodes')

const NODE_LISTS = (path: string) =>
  path === '/nodes' || path === '/nodes/search' || path === '/versions'

function invalidate(queryClient: QueryClient, stale: (path: string) => boolean): Promise<void> {
  return queryClient.invalidateQueries({
    predicate: ({ queryKey }) => typeof queryKey[0] === 'string' && stale(queryKey[0]),
  })
}

/** After a node was created, edited, banned or unbanned. */
export function invalidateAfterNodeChange(
  queryClient: QueryClient,
  nodeId: string,
  publisherId?: string,
): Promise<void> {
  const node = `/nodes/${nodeId}`
  const publisherNodes = publisherId ? `/publishers/${publisherId}/nodes` : undefined
  return invalidate(
    queryClient,
    (path) =>
      ADMIN_VIEWS(path) ||
      NODE_LISTS(path) ||
      path === node ||
      path.startsWith(`${node}/`) ||
      (publisherNodes !== undefined && path.startsWith(publisherNodes)),
  )
}

/** After a publisher was banned or unbanned: its nodes appear or disappear everywhere. */
export function invalidateAfterPublisherChange(queryClient: QueryClient): Promise<void> {
  return invalidate(
    queryClient,
    (path) =>
      ADMIN_VIEWS(path) ||
      path === '/versions' ||
      path.startsWith('/nodes') ||
      path.startsWith('/publishers'),
  )
}
