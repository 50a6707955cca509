// Node page, publisher page, 404, sitemap, robots.txt and feed against the real stack.
import { expect, test, type APIRequestContext, type Browser } from './test'
import { E2E_PORTS } from '../playwright.config'
import { summary } from '../src/lib/markdown'
import { expectAccessibleInBothModes, expectNoAxeViolations } from './helpers'

const api = `http://127.0.0.1:${E2E_PORTS.api}`
/** The site origin the server was started with (scripts/start.ts sets NEXT_PUBLIC_SITE_URL). */
const site = `http://localhost:${E2E_PORTS.web}`
const LOCALES = ['en', 'zh', 'ja', 'fr', 'es', 'ko', 'ru']

interface ApiNode {
  id: string
  name: string
  description?: string
  status: string
  latest_version?: { version: string }
  publisher?: { id: string; name: string }
}
interface NodeListResponse {
  nodes: ApiNode[]
  total: number
  totalPages: number
}
interface ApiPublisher {
  id: string
  name: string
}

async function json<T>(request: APIRequestContext, path: string): Promise<T> {
  const response = await request.get(`${api}${path}`)
  expect(response.ok(), path).toBe(true)
  return (await response.json()) as T
}

async function firstNode(request: APIRequestContext): Promise<ApiNode> {
  const list = await json<NodeListResponse>(request, '/nodes?limit=1')
  return list.nodes[0]
}

/** The page exactly as the server sent it: JavaScript off. */
async function serverRendered(browser: Browser, path: string) {
  const context = await browser.newContext({ javaScriptEnabled: false })
  const page = await context.newPage()
  const response = await page.goto(path)
  return { context, page, response }
}

test('the server HTML of a node page has its content, SEO tags and JSON-LD', async ({
  browser,
  request,
}) => {
  const node = await firstNode(request)
  const path = `/nodes/${node.id}`

  const raw = await request.get(path)
  expect(raw.status()).toBe(200)
  // Public pages can be served by a CDN (publicPageProps).
  expect(raw.headers()['cache-control']).toMatch(
    /^public, s-maxage=\d+, stale-while-revalidate=\d+$/,
  )
  expect(await raw.text()).toContain(node.name)

  const { context, page } = await serverRendered(browser, path)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(node.name)
  const prose = summary(node.description)
  expect(prose.length).toBeGreaterThan(10)
  const mainText = (await page.locator('main').innerText()).replace(/\s+/g, ' ')
  // The description's first sentence, rendered from markdown.
  expect(mainText).toContain(prose.split('. ')[0])
  expect(mainText).toContain(`comfy node install ${node.id}`)

  await expect(page).toHaveTitle(`${node.name} – Comfy Registry`)
  const meta = (selector: string) => page.locator(selector).getAttribute('content')
  expect(await meta('meta[name="description"]')).toBe(prose)
  const canonical = `${site}/nodes/${node.id}`
  expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(canonical)
  for (const locale of LOCALES) {
    const href = await page
      .locator(`link[rel="alternate"][hreflang="${locale}"]`)
      .getAttribute('href')
    expect(href).toBe(locale === 'en' ? canonical : `${site}/${locale}/nodes/${node.id}`)
  }
  expect(
    await page.locator('link[rel="alternate"][hreflang="x-default"]').getAttribute('href'),
  ).toBe(canonical)
  expect(await meta('meta[property="og:title"]')).toBe(`${node.name} – Comfy Registry`)
  expect(await meta('meta[property="og:url"]')).toBe(canonical)
  expect(await meta('meta[property="og:site_name"]')).toBe('Comfy Registry')
  expect(await meta('meta[name="twitter:card"]')).toBe('summary')

  const ld = JSON.parse(
    (await page.locator('script[type="application/ld+json"]').textContent()) ?? '',
  ) as Record<string, unknown>
  expect(ld).toMatchObject({
    '@context': 'https://schema.org',
    '@type': 'SoftwareSourceCode',
    name: node.name,
    url: canonical,
  })
  if (node.latest_version) expect(ld.version).toBe(node.latest_version.version)
  await context.close()

  // In another language the canonical address is that language's.
  const ja = await serverRendered(browser, `/ja${path}`)
  expect(await ja.page.locator('link[rel="canonical"]').getAttribute('href')).toBe(
    `${site}/ja/nodes/${node.id}`,
  )
  await expect(ja.page.getByRole('heading', { level: 2, name: 'インストール' })).toBeVisible()
  await ja.context.close()
})

test('copy the install command; the page passes axe in light and dark mode', async ({
  browser,
  context,
  page,
  request,
}) => {
  const node = await firstNode(request)
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await page.goto(`/nodes/${node.id}`)
  const install = page.getByRole('region', { name: 'Install' })
  await expect(install.getByText(`comfy node install ${node.id}`)).toBeVisible()
  if (node.publisher) {
    await expect(page.getByRole('link', { name: node.publisher.name }).first()).toHaveAttribute(
      'href',
      `/publishers/${node.publisher.id}`,
    )
  }
  await expect(page.getByRole('link', { name: 'Download latest (zip)' })).toHaveAttribute(
    'href',
    /\.zip$/,
  )
  await expect(page.getByRole('heading', { level: 2, name: 'Version history' })).toBeVisible()

  await install.getByRole('button', { name: 'Copy' }).click()
  await expect(install.getByRole('status')).toHaveText('Copied')
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    `comfy node install ${node.id}`,
  )

  await expectAccessibleInBothModes(browser, page, `/nodes/${node.id}`)
  // At 360 px wide too (wide code blocks in the description scroll and are focusable).
  await page.setViewportSize({ width: 360, height: 800 })
  await expectNoAxeViolations(page)
})

test('a node page shows its newest versions and loads the older ones when asked', async ({
  page,
  request,
}) => {
  // A demo node with more versions than the page shows at first.
  const list = await json<NodeListResponse>(request, '/nodes?limit=100&sort=name')
  let target: { node: ApiNode; versions: { version: string }[] } | undefined
  for (const node of list.nodes) {
    const versions = await json<{ version: string }[]>(request, `/nodes/${node.id}/versions`)
    if (versions.length > 5) {
      target = { node, versions }
      break
    }
  }
  expect(target, 'a demo node with more than 5 versions').toBeDefined()
  if (!target) return
  const { node, versions } = target

  // Reached the way visitors do: from a search, by a client-side link.
  await page.goto(`/?q=${encodeURIComponent(node.name)}`)
  await page.getByRole('link', { name: node.name, exact: true }).first().click()
  await expect(page).toHaveURL(new RegExp(`/nodes/${node.id}$`))
  const history = page.getByRole('region', { name: 'Version history' })
  const headings = history.getByRole('heading', { level: 3 })
  await expect(headings).toHaveText(versions.slice(0, 5).map((version) => version.version))
  await history.getByRole('button', { name: 'Show all versions' }).click()
  await expect(headings).toHaveText(versions.map((version) => version.version))
  await expect(history.getByRole('button', { name: 'Show all versions' })).toHaveCount(0)
})

test('a node page’s own scripts ask the browser to compile them while they download', async ({
  page,
  request,
}) => {
  const node = await firstNode(request)
  const html = await (await request.get(`/nodes/${node.id}`)).text()
  // Webpack's chunks (not the build manifests, which are data), as listed for the loader that
  // appends them after the first paint (pages/_document.tsx).
  const list = /<script id="registry-scripts" type="application\/json">([^<]*)<\/script>/.exec(html)
  const scripts = (JSON.parse(list?.[1] ?? '[]') as { src: string }[])
    .map((script) => script.src)
    .filter((src) => /\/chunks\/[^"]+\.js$/.test(src))
  expect(scripts.length).toBeGreaterThan(3)
  // So does axios, which the page loads for its refresh after load.
  await page.goto(`/nodes/${node.id}`)
  const axiosChunk = () =>
    page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => new URL(entry.name).pathname)
        .find((path) => /\/chunks\/axios\.[0-9a-f]+\.js$/.test(path)),
    )
  await expect.poll(axiosChunk).toBeTruthy()
  const hinted = [...scripts, (await axiosChunk()) ?? '']
  for (const src of hinted) {
    // Next's legacy-browser polyfills are skipped by browsers that know the hint.
    if (src.includes('polyfills')) continue
    const body = await (await request.get(src)).text()
    expect(body.startsWith('//# allFunctionsCalledOnLoad\n'), src).toBe(true)
  }
})

test('an unknown node is the translated 404 page with HTTP 404', async ({
  browser,
  page,
  request,
}) => {
  const response = await request.get('/nodes/no-such-node-xyz')
  expect(response.status()).toBe(404)
  expect(await response.text()).toContain('Page not found')

  const ja = await page.goto('/ja/nodes/no-such-node-xyz')
  expect(ja?.status()).toBe(404)
  await expect(
    page.getByRole('heading', { level: 1, name: 'ページが見つかりません' }),
  ).toBeVisible()
  expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex')

  await page.goto('/nodes/no-such-node-xyz')
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/')
  // The search suggestion goes to the home page's search.
  await page.getByRole('searchbox').fill('upscale')
  await expectAccessibleInBothModes(browser, page, '/nodes/no-such-node-xyz')
  await page.getByRole('button', { name: 'Search' }).click()
  await expect(page).toHaveURL(/\/\?q=upscale$/)

  expect((await request.get('/publishers/no-such-publisher-xyz')).status()).toBe(404)
  // An id that cannot exist (the API answers 400) is not found either, not a server error.
  expect((await request.get('/nodes/no%20such%20node')).status()).toBe(404)
})

test('a publisher page lists its nodes and paginates with ?page=', async ({
  browser,
  page,
  request,
}) => {
  // The publisher with the most nodes, so there are several pages of 12.
  const publishers = await json<ApiPublisher[]>(request, '/publishers')
  const totals = await Promise.all(
    publishers.map(async (publisher) => ({
      publisher,
      total: (await json<NodeListResponse>(request, `/publishers/${publisher.id}/nodes/v2?limit=1`))
        .total,
    })),
  )
  const { publisher, total } = totals.sort((a, b) => b.total - a.total)[0]
  expect(total).toBeGreaterThan(12)
  const pageOne = await json<NodeListResponse>(
    request,
    `/publishers/${publisher.id}/nodes/v2?page=1&limit=12`,
  )
  const pageTwo = await json<NodeListResponse>(
    request,
    `/publishers/${publisher.id}/nodes/v2?page=2&limit=12`,
  )

  const response = await page.goto(`/publishers/${publisher.id}`)
  expect(response?.headers()['cache-control']).toMatch(/^public, s-maxage=\d+/)
  await expect(page.getByRole('heading', { level: 1, name: publisher.name })).toBeVisible()
  await expect(page.getByText(`@${publisher.id}`)).toBeVisible()
  const nodes = page.getByRole('region', { name: 'Nodes' })
  const names = () =>
    nodes.getByRole('listitem').getByRole('heading', { level: 3 }).allTextContents()
  expect(await names()).toEqual(pageOne.nodes.map((node) => node.name))
  await expect(page.getByText(`Page 1 of ${pageOne.totalPages}`)).toBeVisible()
  await expect(page).toHaveTitle(`${publisher.name} (@${publisher.id}) – Comfy Registry`)
  await expectAccessibleInBothModes(browser, page, `/publishers/${publisher.id}`)

  await page.getByRole('link', { name: 'Next page' }).click()
  await expect(page).toHaveURL(new RegExp(`/publishers/${publisher.id}\\?page=2$`))
  await expect(page.getByText(`Page 2 of ${pageOne.totalPages}`)).toBeVisible()
  await expect.poll(names).toEqual(pageTwo.nodes.map((node) => node.name))

  // The server renders any page straight from the address.
  const html = await (await request.get(`/publishers/${publisher.id}?page=2`)).text()
  expect(html).toContain(pageTwo.nodes[0].name.replace(/&/g, '&amp;'))
})

test('sitemap.xml, robots.txt and feed.xml are well-formed and complete', async ({
  page,
  request,
}) => {
  const node = await firstNode(request)
  const nodes = await json<NodeListResponse>(request, '/nodes?limit=1')
  const publishers = await json<ApiPublisher[]>(request, '/publishers')

  // /sitemap.xml is an index of sitemap files (one holds at most 50,000 URLs).
  const sitemap = await request.get('/sitemap.xml')
  expect(sitemap.status()).toBe(200)
  expect(sitemap.headers()['content-type']).toContain('xml')
  expect(sitemap.headers()['cache-control']).toContain('s-maxage=3600')
  const sitemapIndex = await sitemap.text()
  expect(sitemapIndex).toContain('<sitemapindex')
  const files = [...sitemapIndex.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1])
  expect(files).toEqual([`${site}/sitemaps/pages.xml`, `${site}/sitemaps/nodes-1.xml`])
  const sitemapXmls = await Promise.all(
    files.map(async (file) => {
      const response = await request.get(new URL(file).pathname)
      expect(response.headers()['content-type']).toContain('xml')
      return response.text()
    }),
  )
  expect((await request.get('/sitemaps/nodes-2.xml')).status()).toBe(404)

  const robots = await request.get('/robots.txt')
  expect(robots.headers()['content-type']).toContain('text/plain')
  const robotsTxt = await robots.text()
  expect(robotsTxt).toContain('User-agent: *')
  expect(robotsTxt).toContain('Disallow: /nodes$')
  expect(robotsTxt).toContain('Allow: /nodes/')
  expect(robotsTxt).toContain('Disallow: /admin')
  expect(robotsTxt).toContain('Disallow: /auth/')
  expect(robotsTxt).toContain(`Sitemap: ${site}/sitemap.xml`)

  const feed = await request.get('/feed.xml')
  expect(feed.headers()['content-type']).toContain('application/rss+xml')
  const feedXml = await feed.text()
  const newest = await json<{ versions: { node_id: string; version: string }[] }>(
    request,
    '/versions?limit=1',
  )

  // Parse both with the browser's XML parser.
  await page.goto('/robots.txt')
  const parsed = await page.evaluate(
    ([sitemapTexts, feedText]) => {
      const parse = (text: string) => new DOMParser().parseFromString(text, 'application/xml')
      const sitemaps = sitemapTexts.map(parse)
      const f = parse(feedText)
      const urls = sitemaps.flatMap((doc) => Array.from(doc.getElementsByTagName('url')))
      return {
        errors: [...sitemaps, f].reduce(
          (count, doc) => count + doc.getElementsByTagName('parsererror').length,
          0,
        ),
        locs: urls.map((url) => url.getElementsByTagName('loc')[0].textContent),
        alternatesOfFirst: urls[1].getElementsByTagNameNS('http://www.w3.org/1999/xhtml', 'link')
          .length,
        rss: f.documentElement.getAttribute('version'),
        self: f
          .getElementsByTagNameNS('http://www.w3.org/2005/Atom', 'link')[0]
          ?.getAttribute('href'),
        items: Array.from(f.getElementsByTagName('item')).map((item) => ({
          title: item.getElementsByTagName('title')[0].textContent,
          link: item.getElementsByTagName('link')[0].textContent,
          pubDate: item.getElementsByTagName('pubDate')[0].textContent,
        })),
      }
    },
    [sitemapXmls, feedXml] as const,
  )
  expect(parsed.errors).toBe(0)
  expect(parsed.locs).toContain(`${site}/`)
  expect(parsed.locs).toContain(`${site}/nodes/${node.id}`)
  expect(parsed.locs).toContain(`${site}/publishers/${publishers[0].id}`)
  expect(parsed.locs).toHaveLength(1 + nodes.total + publishers.length)
  expect(parsed.alternatesOfFirst).toBe(8)

  expect(parsed.rss).toBe('2.0')
  expect(parsed.self).toBe(`${site}/feed.xml`)
  expect(parsed.items.length).toBeGreaterThan(0)
  expect(parsed.items.length).toBeLessThanOrEqual(50)
  const newestNode = await json<ApiNode>(request, `/nodes/${newest.versions[0].node_id}`)
  expect(parsed.items[0]).toMatchObject({
    title: `${newestNode.name} ${newest.versions[0].version}`,
    link: `${site}/nodes/${newestNode.id}`,
  })
  expect(parsed.items[0].pubDate).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/)
})
