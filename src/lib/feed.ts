// The RSS feeds (/feed.xml, /nodes/{id}/feed.xml, /publishers/{id}/feed.xml): their localized
// strings, their items and how they are sent. Server-only (reads the locale files from disk).
import fs from 'node:fs/promises'
import path from 'node:path'
import type { ServerResponse } from 'node:http'
import type { Node, NodeVersion } from '@/src/api/generated/model'
import { searchNodes } from '@/src/api/generated/nodes/nodes'
import { DEFAULT_LANGUAGE, LANGUAGES } from './constants'
import { changelogSummary } from './markdown'
import { nodePath } from './paths'
import type { FeedItem } from './seo'

/** Items in a feed: the newest versions. */
export const FEED_SIZE = 50
export const FEED_CACHE_CONTROL = 'public, s-maxage=600, stale-while-revalidate=3600'
/** Characters of a changelog's plain-text summary in an item's description. */
const DESCRIPTION_CHARS = 300

export interface FeedStrings {
  feedTitle: string
  feedDescription: string
  nodeFeedTitle: string
  nodeFeedDescription: string
  publisherFeedTitle: string
  publisherFeedDescription: string
}

/** The `seo` section of the locale's common.json (the default locale's for an unknown one). */
export async function feedStrings(locale: string): Promise<FeedStrings> {
  const known = LANGUAGES.some(({ code }) => code === locale) ? locale : DEFAULT_LANGUAGE
  const file = path.join(process.cwd(), 'public', 'locales', known, 'common.json')
  const json = JSON.parse(await fs.readFile(file, 'utf8')) as { seo: FeedStrings }
  return json.seo
}

/** i18next-style `{{name}}` placeholders filled in (the feeds are built without i18next). */
export function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, key: string) => values[key] ?? match)
}

/** One item per version of a node in `nodes`; versions of other nodes are left out. */
export function versionItems(versions: NodeVersion[], nodes: Map<string, Node>): FeedItem[] {
  return versions.flatMap((version) => {
    const node = nodes.get(version.node_id)
    if (!node) return []
    return [
      {
        title: `${node.name} ${version.version}`,
        path: nodePath(node.id),
        guid: `${node.id}@${version.version}`,
        date: version.createdAt,
        description: changelogSummary(version.changelog, DESCRIPTION_CHARS),
      },
    ]
  })
}

/** The nodes of `versions` the public can see, by id, in one search. */
export async function nodesOf(versions: NodeVersion[]): Promise<Map<string, Node>> {
  const ids = [...new Set(versions.map((version) => version.node_id))]
  const found = ids.length > 0 ? (await searchNodes({ node_id: ids, limit: FEED_SIZE })).nodes : []
  return new Map(found.map((node) => [node.id, node]))
}

export function sendFeed(res: ServerResponse, xml: string): void {
  res.setHeader('Content-Type', 'application/rss+xml; charset=utf-8')
  res.setHeader('Cache-Control', FEED_CACHE_CONTROL)
  res.end(xml)
}
