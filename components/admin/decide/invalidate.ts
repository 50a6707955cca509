// What an admin decision on versions makes stale. The generic write invalidation
// (src/api/invalidation.ts) only covers the written path, but a decision changes every version
// list, the nodes' pages (latest version), the overview's counts and the audit log.
import type { QueryClient } from '@tanstack/react-query'

function stalePath(path: string, nodeIds: ReadonlySet<string>): boolean {
  if (path === '/versions' || path.startsWith('/versions/')) return true
  if (path === '/admin/overview' || path.startsWith('/admin/actions')) return true
  if (path.startsWith('/admin/nodes') || path === '/nodes') return true
  for (const nodeId of nodeIds) {
    if (path === `/nodes/${nodeId}` || path.startsWith(`/nodes/${nodeId}/`)) return true
  }
  return false
}

/** Invalidates the cached queries a decision on versions of `nodeIds` changes. */
export async function invalidateAfterDecision(
  queryClient: QueryClient,
  nodeIds: Iterable<string>,
): Promise<void> {
  const nodes = new Set(nodeIds)
  await queryClient.invalidateQueries({
    predicate: ({ queryKey }) => typeof queryKey[0] === 'string' && stalePath(queryKey[0], nodes),
  })
}
