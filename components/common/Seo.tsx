// Per-page title, description, canonical URL, hreflang alternates, OpenGraph/Twitter tags and
// JSON-LD, rendered into <head> through next/head.
import Head from 'next/head'
import { useRouter } from 'next/router'
import { seoTags, type SeoTag } from '@/src/lib/seo'

export interface SeoProps {
  title: string
  description: string
  /** The path without a locale prefix, e.g. `/nodes/x`. */
  path: string
  noindex?: boolean
  image?: string
  jsonLd?: object
  type?: 'website' | 'article'
}

function tagKey(tag: SeoTag): string {
  switch (tag.tag) {
    case 'title':
      return 'title'
    case 'meta':
      return 'name' in tag ? `meta:${tag.name}` : `meta:${tag.property}`
    case 'link':
      return `link:${tag.rel}:${tag.hrefLang ?? ''}`
    case 'script':
      return 'jsonld'
  }
}

export function renderSeoTag(tag: SeoTag) {
  const key = tagKey(tag)
  switch (tag.tag) {
    case 'title':
      return <title key={key}>{tag.text}</title>
    case 'meta':
      return 'name' in tag ? (
        <meta key={key} name={tag.name} content={tag.content} />
      ) : (
        <meta key={key} property={tag.property} content={tag.content} />
      )
    case 'link':
      return <link key={key} rel={tag.rel} href={tag.href} hrefLang={tag.hrefLang} />
    case 'script':
      return <script key={key} type={tag.type} dangerouslySetInnerHTML={{ __html: tag.json }} />
  }
}

export function Seo(props: SeoProps) {
  const { locale } = useRouter()
  return <Head>{seoTags({ ...props, locale }).map(renderSeoTag)}</Head>
}
