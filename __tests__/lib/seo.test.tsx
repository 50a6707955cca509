import { render } from '@testing-library/react'
import { renderSeoTag } from '@/components/common/Seo'
import { readPublicEnv } from '@/src/lib/public-env'
import {
  alternates,
  escapeXml,
  jsonLdText,
  localizedUrl,
  nodeJsonLd,
  robotsTxt,
  rssXml,
  seoTags,
  sitemapXml,
  sitemapFiles,
  sitemapIndexXml,
  SITEMAP_NODES_PER_FILE,
} from '@/src/lib/seo'

const SITE = 'https://registry.example.com'

function parseXml(xml: string): Document {
  const doc = new DOMParser().parseFromString(xml, 'application/xml')
  expect(doc.getElementsByTagName('parsererror')).toHaveLength(0)
  return doc
}

describe('site URL', () => {
  it('comes from NEXT_PUBLIC_SITE_URL, default http://localhost:3000, no trailing slash', () => {
    expect(readPublicEnv({} as NodeJS.ProcessEnv).siteUrl).toBe('http://localhost:3000')
    expect(
      readPublicEnv({ NEXT_PUBLIC_SITE_URL: 'https://x.org/' } as unknown as NodeJS.ProcessEnv)
        .siteUrl,
    ).toBe('https://x.org')
  })
})

describe('localized URLs and hreflang alternates', () => {
  it('has no prefix for the default locale and /<lang> for the others', () => {
    expect(localizedUrl('/nodes/a', 'en', SITE)).toBe(`${SITE}/nodes/a`)
    expect(localizedUrl('/nodes/a', 'ja', SITE)).toBe(`${SITE}/ja/nodes/a`)
    expect(localizedUrl('/', 'en', SITE)).toBe(`${SITE}/`)
    expect(localizedUrl('/', 'zh', SITE)).toBe(`${SITE}/zh`)
  })

  it('lists the seven locales plus x-default', () => {
    const links = alternates('/nodes/a', SITE)
    expect(links.map((link) => link.hrefLang)).toEqual([
      'en',
      'zh',
      'ja',
      'fr',
      'es',
      'ko',
      'ru',
      'x-default',
    ])
    expect(links.find((link) => link.hrefLang === 'x-default')?.href).toBe(`${SITE}/nodes/a`)
  })
})

describe('seoTags / <Seo>', () => {
  const tags = seoTags({
    title: 'Demo – Comfy Registry',
    description: 'A demo node.',
    path: '/nodes/demo',
    locale: 'fr',
    image: '/icons/node-0.svg',
    type: 'article',
    jsonLd: { name: '</script><script>alert(1)</script>' },
    siteUrl: SITE,
  })

  // React 19 hoists <title>, <meta> and <link> into document.head; look in the whole document.
  function head() {
    render(<>{tags.map(renderSeoTag)}</>)
    return document
  }

  it('renders title, description, canonical of the current locale and alternates', () => {
    const root = head()
    expect(root.querySelector('title')?.textContent).toBe('Demo – Comfy Registry')
    expect(root.querySelector('meta[name="description"]')).toHaveAttribute(
      'content',
      'A demo node.',
    )
    expect(root.querySelector('link[rel="canonical"]')).toHaveAttribute(
      'href',
      `${SITE}/fr/nodes/demo`,
    )
    expect(root.querySelectorAll('link[rel="alternate"][hreflang]')).toHaveLength(8)
    expect(root.querySelector('link[hreflang="ja"]')).toHaveAttribute(
      'href',
      `${SITE}/ja/nodes/demo`,
    )
  })

  it('renders OpenGraph and Twitter tags with an absolute image', () => {
    const root = head()
    const og = (property: string) =>
      root.querySelector(`meta[property="${property}"]`)?.getAttribute('content')
    expect(og('og:title')).toBe('Demo – Comfy Registry')
    expect(og('og:description')).toBe('A demo node.')
    expect(og('og:url')).toBe(`${SITE}/fr/nodes/demo`)
    expect(og('og:type')).toBe('article')
    expect(og('og:site_name')).toBe('Comfy Registry')
    expect(og('og:image')).toBe(`${SITE}/icons/node-0.svg`)
    expect(root.querySelector('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary')
    expect(root.querySelector('meta[name="twitter:title"]')).toHaveAttribute(
      'content',
      'Demo – Comfy Registry',
    )
  })

  it('renders JSON-LD that cannot close its script element', () => {
    const script = head().querySelector('script[type="application/ld+json"]')
    expect(script?.innerHTML).not.toContain('</script>')
    expect(JSON.parse(script?.textContent ?? '')).toEqual({
      name: '</script><script>alert(1)</script>',
    })
    expect(jsonLdText({ a: '<&>' })).toBe('{"a":"\\u003c\\u0026\\u003e"}')
  })

  it('noindex pages: robots noindex, no canonical, no alternates', () => {
    const noindex = seoTags({ title: 'x', description: 'y', path: '/404', noindex: true })
    render(<>{noindex.map(renderSeoTag)}</>)
    const root = document
    expect(root.querySelector('meta[name="robots"]')).toHaveAttribute('content', 'noindex')
    expect(root.querySelector('link[rel="canonical"]')).toBeNull()
    expect(root.querySelector('link[rel="alternate"]')).toBeNull()
  })
})

describe('nodeJsonLd', () => {
  it('is a SoftwareSourceCode with repository, license, version and publisher', () => {
    expect(
      nodeJsonLd({
        id: 'demo',
        name: 'Demo',
        description: 'd',
        url: `${SITE}/nodes/demo`,
        repository: 'https://github.com/a/demo',
        license: 'MIT',
        version: '1.2.0',
        publisher: { id: 'pub', name: 'Pub', url: `${SITE}/publishers/pub` },
      }),
    ).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'SoftwareSourceCode',
      name: 'Demo',
      codeRepository: 'https://github.com/a/demo',
      license: 'MIT',
      version: '1.2.0',
      publisher: { '@type': 'Organization', name: 'Pub' },
      author: { name: 'Pub' },
    })
  })

  it('leaves out a repository that is not http(s)', () => {
    expect(
      nodeJsonLd({ id: 'a', name: 'a', description: '', url: SITE, repository: 'javascript:x' }),
    ).not.toHaveProperty('codeRepository')
  })
})

describe('XML documents', () => {
  it('escapes the five XML characters and drops forbidden control characters', () => {
    expect(escapeXml(`a&b<c>d"e'f\u0001`)).toBe('a&amp;b&lt;c&gt;d&quot;e&apos;f')
  })

  it('sitemap: well-formed, one <url> per page with 8 alternates', () => {
    const doc = parseXml(
      sitemapXml([{ path: '/' }, { path: '/nodes/a&b', lastmod: '2024-01-01T00:00:00Z' }], SITE),
    )
    const urls = doc.getElementsByTagName('url')
    expect(urls).toHaveLength(2)
    expect(urls[1].getElementsByTagName('loc')[0].textContent).toBe(`${SITE}/nodes/a&b`)
    expect(urls[1].getElementsByTagName('lastmod')[0].textContent).toBe('2024-01-01T00:00:00Z')
    const links = urls[1].getElementsByTagNameNS('http://www.w3.org/1999/xhtml', 'link')
    expect(links).toHaveLength(8)
    expect(links[7].getAttribute('hreflang')).toBe('x-default')
  })

  it('sitemap index: pages.xml, then one nodes file per 5,000 active nodes', () => {
    expect(SITEMAP_NODES_PER_FILE).toBe(5000)
    expect(sitemapFiles(0)).toEqual(['/sitemaps/pages.xml'])
    expect(sitemapFiles(5000)).toEqual(['/sitemaps/pages.xml', '/sitemaps/nodes-1.xml'])
    expect(sitemapFiles(100_000)).toHaveLength(21)
    expect(sitemapFiles(100_001)).toHaveLength(22)
    const doc = parseXml(sitemapIndexXml(sitemapFiles(5001), SITE))
    expect(doc.documentElement.localName).toBe('sitemapindex')
    expect(Array.from(doc.getElementsByTagName('loc')).map((loc) => loc.textContent)).toEqual([
      `${SITE}/sitemaps/pages.xml`,
      `${SITE}/sitemaps/nodes-1.xml`,
      `${SITE}/sitemaps/nodes-2.xml`,
    ])
  })

  it('feed: RSS 2.0 with atom:link self, items with title, link, pubDate, description', () => {
    const doc = parseXml(
      rssXml({
        title: 'New versions',
        description: 'desc',
        locale: 'en',
        siteUrl: SITE,
        items: [
          {
            title: 'Demo <Node> 1.0.0',
            path: '/nodes/demo',
            guid: 'demo@1.0.0',
            date: '2024-01-02T03:04:05Z',
            description: 'Fixes & features',
          },
        ],
      }),
    )
    expect(doc.documentElement.getAttribute('version')).toBe('2.0')
    const self = doc.getElementsByTagNameNS('http://www.w3.org/2005/Atom', 'link')[0]
    expect(self.getAttribute('href')).toBe(`${SITE}/feed.xml`)
    expect(self.getAttribute('rel')).toBe('self')
    const item = doc.getElementsByTagName('item')[0]
    const text = (tag: string) => item.getElementsByTagName(tag)[0].textContent
    expect(text('title')).toBe('Demo <Node> 1.0.0')
    expect(text('link')).toBe(`${SITE}/nodes/demo`)
    expect(text('pubDate')).toBe('Tue, 02 Jan 2024 03:04:05 GMT')
    expect(text('description')).toBe('Fixes & features')
  })

  it('robots.txt: allows all, keeps /nodes (exactly), /admin and /auth/ out, names the sitemap', () => {
    const robots = robotsTxt(SITE)
    expect(robots).toContain('User-agent: *\nAllow: /\n')
    expect(robots).toContain('Allow: /nodes/\nDisallow: /nodes$\n')
    expect(robots).toContain('Disallow: /admin\n')
    expect(robots).toContain('Disallow: /auth/\n')
    expect(robots).toContain('Disallow: /ja/admin\n')
    expect(robots).toContain(`Sitemap: ${SITE}/sitemap.xml`)
  })
})
