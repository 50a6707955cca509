// A version's README on the node page: where its files are served, how its relative references
// resolve (images of the archive load from the API; anything else relative is dropped), and the
// first part the server renders (the rest is loaded on "Show more", so the page stays light).
import type { MarkdownLinks } from '@/components/common/Markdown'
import { packagePath } from './package-path'

/** The API address of a file of a version's archive (getNodeVersionFile). */
export function versionFileUrl(apiUrl: string, nodeId: string, version: string, path: string) {
  const base = `${apiUrl.replace(/\/+$/, '')}/nodes/${encodeURIComponent(nodeId)}`
  return `${base}/versions/${encodeURIComponent(version)}/file?path=${encodeURIComponent(path)}`
}

/** How the README's links resolve: its recorded images to the API, other relative ones nowhere. */
export function readmeLinks(
  apiUrl: string,
  nodeId: string,
  version: string,
  images: readonly string[],
): MarkdownLinks {
  const served = new Set(images)
  const prefix = versionFileUrl(apiUrl, nodeId, version, '')
  return {
    resolve(value) {
      const path = packagePath(value)
      return path !== null && served.has(path)
        ? versionFileUrl(apiUrl, nodeId, version, path)
        : undefined
    },
    loads: (src) => src.startsWith(prefix),
  }
}

/**
 * The start of a README of at most `maxChars`, cut at a blank line outside fenced code (or, for
 * plain text, at a line end), and whether anything was left out.
 */
export function firstPart(text: string, maxChars: number): { text: string; more: boolean } {
  if (text.length <= maxChars) return { text, more: false }
  let cut = -1
  let inFence = false
  let at = 0
  for (const line of text.split('\n')) {
    const end = at + line.length
    if (end > maxChars) break
    if (/^\s{0,3}(```|~~~)/.test(line)) inFence = !inFence
    else if (!inFence && line.trim() === '') cut = at
    at = end + 1
  }
  if (cut <= 0) cut = text.lastIndexOf('\n', maxChars)
  if (cut <= 0) cut = maxChars
  return { text: text.slice(0, cut).trimEnd(), more: true }
}
