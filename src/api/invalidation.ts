// Cache invalidation after writes (seed section 7): after a successful POST, the cached queries
// of that request path; after PUT, PATCH or DELETE, those of the path and of its parent path.
// Generated query keys are `[path, params?]`, so a path matches every key that starts with it.
import type { QueryClient } from '@tanstack/react-query'
import { onWriteSuccess, type WriteSuccess } from './mutator'

/** The request paths whose cached queries a successful write makes stale. */
export function pathsToInvalidate({ method, path }: WriteSuccess): string[] {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path
  if (method === 'POST') return [trimmed]
  const parent = trimmed.slice(0, trimmed.lastIndexOf('/'))
  return parent ? [trimmed, parent] : [trimmed]
}

export async function invalidateAfterWrite(
  queryClient: QueryClient,
  write: WriteSuccess,
): Promise<void> {
  await Promise.all(
    pathsToInvalidate(write).map((path) => queryClient.invalidateQueries({ queryKey: [path] })),
  )
}

/** Wires a client to the axios instance's write signal; returns a function that unwires it. */
export function connectInvalidation(queryClient: QueryClient): () => void {
  return onWriteSuccess((write) => void invalidateAfterWrite(queryClient, write))
}
