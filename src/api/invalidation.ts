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

// Admin writes change more than their own path (the rule above): what else each makes stale.

/** Invalidates every cached query whose request path `stale` accepts. */
export async function invalidateWhere(
  queryClient: QueryClient,
  stale: (path: string) => boolean,
): Promise<void> {
  await queryClient.invalidateQueries({
    predicate: ({ queryKey }) => typeof queryKey[0] === 'string' && stale(queryKey[0]),
  })
}

/** Whether `path` is `prefix` or a path below it. */
const within = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`)

/** The overview's counts, the audit log and the admin node views. */
const isAdminView = (path: string) =>
  path === '/admin/overview' || path.startsWith('/admin/actions') || path.startsWith('/admin/nodes')

/**
 * After a decision on versions of `nodeIds`: every version list (the review queue too), the
 * admin views, the node list and those nodes' pages (their latest version).
 */
export function invalidateAfterDecision(
  queryClient: QueryClient,
  nodeIds: Iterable<string>,
): Promise<void> {
  const nodes = [...new Set(nodeIds)]
  return invalidateWhere(
    queryClient,
    (path) =>
      within(path, '/versions') ||
      isAdminView(path) ||
      path === '/nodes' ||
      nodes.some((nodeId) => within(path, `/nodes/${nodeId}`)),
  )
}

/**
 * After a node was created, edited, banned or unbanned: the admin views, the node lists and
 * searches, the review queue (it shows versions of Active nodes), the node's own queries and its
 * publisher's node lists.
 */
export function invalidateAfterNodeChange(
  queryClient: QueryClient,
  nodeId: string,
  publisherId?: string,
): Promise<void> {
  const publisherNodes = publisherId ? `/publishers/${publisherId}/nodes` : undefined
  return invalidateWhere(
    queryClient,
    (path) =>
      isAdminView(path) ||
      path === '/nodes' ||
      path === '/nodes/search' ||
      path === '/versions' ||
      within(path, `/nodes/${nodeId}`) ||
      (publisherNodes !== undefined && path.startsWith(publisherNodes)),
  )
}

/** After a publisher was banned or unbanned: its nodes appear or disappear everywhere. */
export function invalidateAfterPublisherChange(queryClient: QueryClient): Promise<void> {
  return invalidateWhere(
    queryClient,
    (path) =>
      isAdminView(path) ||
      path === '/versions' ||
      path.startsWith('/nodes') ||
      path.startsWith('/publishers'),
  )
}

/**
 * After an undo, which can restore any version's status, a node's ban or admin fields, or a
 * publisher's ban: every admin view, and the version, node and publisher lists and pages.
 */
export function invalidateAfterUndo(queryClient: QueryClient): Promise<void> {
  return invalidateWhere(
    queryClient,
    (path) =>
      path.startsWith('/admin/') ||
      within(path, '/versions') ||
      within(path, '/nodes') ||
      within(path, '/publishers'),
  )
}
