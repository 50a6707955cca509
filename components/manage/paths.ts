// Addresses of the publisher pages, shared by the management components (kept apart from the
// components so a public page can link to them without loading any management UI).

export const CREATE_PUBLISHER_PATH = '/publishers/create'

export function publisherPath(id: string): string {
  return `/publishers/${encodeURIComponent(id)}`
}

export function publisherSettingsPath(id: string): string {
  return `${publisherPath(id)}/settings`
}
