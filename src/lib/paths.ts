// Addresses of the site's node and publisher pages (without a language prefix), in one place for
// links, canonical URLs, sitemaps and the feed. Free of UI code, so any page can use them.

export const CREATE_PUBLISHER_PATH = '/publishers/create'

/** The signed-in customer's own account: credit balance, ledger and API keys. */
export const ACCOUNT_PATH = '/account'

export function nodePath(id: string): string {
  return `/nodes/${encodeURIComponent(id)}`
}

export function publisherPath(id: string): string {
  return `/publishers/${encodeURIComponent(id)}`
}

export function publisherSettingsPath(id: string): string {
  return `${publisherPath(id)}/settings`
}

/** The Admin Dashboard's sections and their addresses. */
export const ADMIN_PATHS = {
  overview: '/admin',
  queue: '/admin/versions',
  nodes: '/admin/nodes',
  publishers: '/admin/publishers',
  customers: '/admin/customers',
  addNode: '/admin/nodes/new',
  actions: '/admin/actions',
} as const

export type AdminSection = keyof typeof ADMIN_PATHS

/** An admin's review of one version. */
export function adminReviewPath(nodeId: string, version: string): string {
  return `/admin/versions/${encodeURIComponent(nodeId)}/${encodeURIComponent(version)}`
}

/** The RSS feed of a node's versions. */
export function nodeFeedPath(id: string): string {
  return `${nodePath(id)}/feed.xml`
}

/** The RSS feed of a publisher's new versions. */
export function publisherFeedPath(id: string): string {
  return `${publisherPath(id)}/feed.xml`
}
