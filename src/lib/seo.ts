// Search-engine and sharing tags of a page, as a pure list the <Seo> component renders.
import nextI18nextConfig from '@/next-i18next.config'
import { DEFAULT_LANGUAGE, LANGUAGES } from './constants'
import { publicEnv } from './public-env'

export const SITE_NAME = 'Comfy Registry'

export interface SeoInput {
  title: string
  description: string
  /** The path without a locale prefix, e.g. `/nodes/x` (may carry a query string). */
  path: string
  /** The locale the page is rendered in. */
  locale?: string
  noindex?: boolean
  image?: string
  jsonLd?: object
  type?: 'website' | 'article'
  /** The site origin; defaults to the public environment's `siteUrl`. */
  siteUrl?: string
}

export type SeoTag =
  | { tag: 'title'; text: string }
  | { tag: 'meta'; name: string; content: string }
  | { tag: 'meta'; property: string; content: string }
  | { tag: 'link'; rel: string; href: string; hrefLang?: string }
  | { tag: 'script'; type: 'application/ld+json'; json: string }

/** The site origin without a trailing slash. */
export function siteOrigin(siteUrl: string = publicEnv().siteUrl): string {
  return siteUrl.replace(/\/+$/, '')
}

/** The absolute URL of `path` in `locale`: the default locale has no prefix. */
export function localizedUrl(path: string, locale: string = DEFAULT_LANGUAGE, siteUrl?: string) {
  const origin = siteOrigin(siteUrl)
  const clean = path.startsWith('/') ? path : `/${path}`
  const prefix = locale === DEFAULT_LANGUAGE ? '' : `/${locale}`
  if (clean === '/' && prefix) return `${origin}${prefix}`
  return `${origin}${prefix}${clean}`
}

/** hreflang alternates for every locale plus x-default (the default-locale URL). */
export function alternates(path: string, siteUrl?: string): { hrefLang: string; href: string }[] {
  return [
    ...LANGUAGES.map(({ code }) => ({ hrefLang: code, href: localizedUrl(path, code, siteUrl) })),
    { hrefLang: 'x-default', href: localizedUrl(path, DEFAULT_LANGUAGE, siteUrl) },
  ]
}

/** JSON for an inline <script>: `<` escaped so the text can never close the element. */
export function jsonLdText(value: object): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

const OG_LOCALES: Record<string, string> = {
  en: 'en_US',
  zh: 'zh_CN',
  ja: 'ja_JP',
  fr: 'fr_FR',
  es: 'es_ES',
  ko: 'ko_KR',
  ru: 'ru_RU',
}

/** An absolute URL for `value`: site-relative paths get the site origin. */
export function absoluteUrl(value: string, siteUrl?: string): string {
  return value.startsWith('/') && !value.startsWith('//') ? `${siteOrigin(siteUrl)}${value}` : value
}

export function seoTags(input: SeoInput): SeoTag[] {
  const image = input.image ? absoluteUrl(input.image, input.siteUrl) : undefined
  const locale = input.locale ?? nextI18nextConfig.i18n.defaultLocale
  const url = localizedUrl(input.path, locale, input.siteUrl)
  const tags: SeoTag[] = [
    { tag: 'title', text: input.title },
    { tag: 'meta', name: 'description', content: input.description },
  ]
  if (input.noindex) {
    // A page kept out of the index names no canonical address and no alternates.
    tags.push({ tag: 'meta', name: 'robots', content: 'noindex' })
  } else {
    tags.push({ tag: 'link', rel: 'canonical', href: url })
    for (const alt of alternates(input.path, input.siteUrl)) {
      tags.push({ tag: 'link', rel: 'alternate', hrefLang: alt.hrefLang, href: alt.href })
    }
  }
  tags.push(
    { tag: 'meta', property: 'og:title', content: input.title },
    { tag: 'meta', property: 'og:description', content: input.description },
    { tag: 'meta', property: 'og:url', content: url },
    { tag: 'meta', property: 'og:type', content: input.type ?? 'website' },
    { tag: 'meta', property: 'og:site_name', content: SITE_NAME },
    { tag: 'meta', property: 'og:locale', content: OG_LOCALES[locale] ?? OG_LOCALES.en },
  )
  if (image) tags.push({ tag: 'meta', property: 'og:image', content: image })
  tags.push(
    // Icons and logos are small squares: the compact card suits them.
    { tag: 'meta', name: 'twitter:card', content: 'summary' },
    { tag: 'meta', name: 'twitter:title', content: input.title },
    { tag: 'meta', name: 'twitter:description', content: input.description },
  )
  if (image) tags.push({ tag: 'meta', name: 'twitter:image', content: image })
  if (input.jsonLd) {
    tags.push({ tag: 'script', type: 'application/ld+json', json: jsonLdText(input.jsonLd) })
  }
  return tags
}

/** Only absolute http(s) URLs leave the site in links, structured data and feeds. */
export function httpUrl(value: string | undefined): string | undefined {
  if (!value) return undefined
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : undefined
  } catch {
    return undefined
  }
}

export interface NodeJsonLdInput {
  id: string
  name: string
  description: string
  url: string
  repository?: string
  license?: string
  version?: string
  dateModified?: string
  publisher?: { id: string; name: string; url: string }
  author?: string
  image?: string
}

/** schema.org SoftwareSourceCode for a node page. */
export function nodeJsonLd(input: NodeJsonLdInput): object {
  const publisher = input.publisher && {
    '@type': 'Organization',
    name: input.publisher.name,
    url: input.publisher.url,
  }
  const ld: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'SoftwareSourceCode',
    '@id': input.url,
    identifier: input.id,
    name: input.name,
    description: input.description,
    url: input.url,
    programmingLanguage: 'Python',
    runtimePlatform: 'ComfyUI',
  }
  const repository = httpUrl(input.repository)
  if (repository) ld.codeRepository = repository
  if (input.license) ld.license = httpUrl(input.license) ?? input.license
  if (input.version) ld.version = input.version
  if (input.dateModified) ld.dateModified = input.dateModified
  if (input.image) ld.image = absoluteUrl(input.image)
  if (publisher) ld.publisher = publisher
  if (input.author) ld.author = { '@type': 'Person', name: input.author }
  else if (publisher) ld.author = publisher
  return ld
}

// ---- XML documents: sitemap, RSS feed; and robots.txt ----

/** Text safe inside XML content and attribute values (control characters removed). */
export function escapeXml(value: string): string {
  return value
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
}

export interface SitemapEntry {
  /** Path without locale, e.g. `/nodes/x`. */
  path: string
  /** ISO date of the last change. */
  lastmod?: string
}

/** A sitemap with one <url> per page and its hreflang alternates (all locales + x-default). */
export function sitemapXml(entries: SitemapEntry[], siteUrl?: string): string {
  const urls = entries.map((entry) => {
    const links = alternates(entry.path, siteUrl)
      .map(
        (alt) =>
          `    <xhtml:link rel="alternate" hreflang="${escapeXml(alt.hrefLang)}" href="${escapeXml(alt.href)}"/>`,
      )
      .join('\n')
    const lastmod = entry.lastmod ? `\n    <lastmod>${escapeXml(entry.lastmod)}</lastmod>` : ''
    return `  <url>\n    <loc>${escapeXml(localizedUrl(entry.path, DEFAULT_LANGUAGE, siteUrl))}</loc>${lastmod}\n${links}\n  </url>`
  })
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n')
}

/**
 * Nodes per sitemap file. The protocol allows 50,000 URLs and 50 MB a file; each node URL here
 * carries eight language alternates (about 1.3 kB), so 5,000 keep a file near 7 MB.
 */
export const SITEMAP_NODES_PER_FILE = 5000
export const SITEMAP_CACHE_CONTROL = 'public, s-maxage=3600, stale-while-revalidate=86400'

/** The files /sitemap.xml lists: pages.xml, then one nodes-{n}.xml per SITEMAP_NODES_PER_FILE. */
export function sitemapFiles(activeNodes: number): string[] {
  const nodeFiles = Math.ceil(activeNodes / SITEMAP_NODES_PER_FILE)
  return [
    '/sitemaps/pages.xml',
    ...Array.from({ length: nodeFiles }, (_, index) => `/sitemaps/nodes-${index + 1}.xml`),
  ]
}

/** A sitemap index (`/sitemap.xml`) naming the sitemap files at `paths`. */
export function sitemapIndexXml(paths: string[], siteUrl?: string): string {
  const origin = siteOrigin(siteUrl)
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...paths.map((path) => `  <sitemap><loc>${escapeXml(`${origin}${path}`)}</loc></sitemap>`),
    '</sitemapindex>',
    '',
  ].join('\n')
}

export interface FeedItem {
  title: string
  /** Path without locale of the item's page. */
  path: string
  /** A stable identifier of the item. */
  guid: string
  /** ISO date. */
  date: string
  description: string
}

export interface FeedInput {
  title: string
  description: string
  /** Path without locale of the feed itself; `/feed.xml` unless given. */
  selfPath?: string
  /** Path without locale of the page the feed is about; the home page unless given. */
  linkPath?: string
  locale?: string
  items: FeedItem[]
  siteUrl?: string
}

/** The RFC 822 date RSS wants, e.g. `Tue, 02 Jan 2024 03:04:05 GMT`. */
export function rfc822(iso: string): string {
  return new Date(iso).toUTCString()
}

/** RSS 2.0 with an atom:link to itself. */
export function rssXml(input: FeedInput): string {
  const locale = input.locale ?? DEFAULT_LANGUAGE
  const self = localizedUrl(input.selfPath ?? '/feed.xml', locale, input.siteUrl)
  const home = localizedUrl(input.linkPath ?? '/', locale, input.siteUrl)
  const items = input.items.map((item) =>
    [
      '    <item>',
      `      <title>${escapeXml(item.title)}</title>`,
      `      <link>${escapeXml(localizedUrl(item.path, locale, input.siteUrl))}</link>`,
      `      <guid isPermaLink="false">${escapeXml(item.guid)}</guid>`,
      `      <pubDate>${escapeXml(rfc822(item.date))}</pubDate>`,
      `      <description>${escapeXml(item.description)}</description>`,
      '    </item>',
    ].join('\n'),
  )
  const newest = input.items[0]?.date
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    '  <channel>',
    `    <title>${escapeXml(input.title)}</title>`,
    `    <link>${escapeXml(home)}</link>`,
    `    <description>${escapeXml(input.description)}</description>`,
    `    <language>${escapeXml(locale)}</language>`,
    `    <atom:link href="${escapeXml(self)}" rel="self" type="application/rss+xml"/>`,
    ...(newest ? [`    <lastBuildDate>${escapeXml(rfc822(newest))}</lastBuildDate>`] : []),
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ].join('\n')
}

/** Routes crawlers skip: the signed-in user's own list (`/nodes` exactly), admin, sign-in. */
export function robotsTxt(siteUrl?: string): string {
  const prefixes = ['', ...LANGUAGES.map(({ code }) => code).filter((c) => c !== DEFAULT_LANGUAGE)]
  const lines = ['User-agent: *', 'Allow: /']
  for (const prefix of prefixes.map((code) => (code ? `/${code}` : ''))) {
    lines.push(
      `Allow: ${prefix}/nodes/`,
      `Disallow: ${prefix}/nodes$`,
      `Disallow: ${prefix}/nodes?`,
      `Disallow: ${prefix}/admin`,
      `Disallow: ${prefix}/auth/`,
    )
  }
  lines.push('', `Sitemap: ${siteOrigin(siteUrl)}/sitemap.xml`, '')
  return lines.join('\n')
}
