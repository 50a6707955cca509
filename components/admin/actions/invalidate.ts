// What an undo makes stale. The generic write invalidation (src/api/invalidation.ts) only covers
// the undo's own path, but an undo can restore any version's status, a node's ban or admin
// fields, or a publisher's ban: every admin list, the overview's counts, the audit log, and the
// version, node and publisher lists and pages.
import type { QueryClient } from '@tanstack/react-query'

const STALE_PREFIXES = ['/admin/', '/versions', '/nodes', '/publishers']

function isStale(path: string): boolean {
  return STALE_PREFIXES.some(
    (prefix) => path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`),
  )
}

export async function invalidateAfterUndo(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({
    predicate: ({ queryKey }) => typeof queryKey[0] === 'string' && isStale(queryKey[0]),
  })
}
