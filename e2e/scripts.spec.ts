// The page's scripts load after its first paint (pages/_document.tsx, docs/ARCHITECTURE.md
// "Largest contentful paint"): the server HTML fetches none, the loader appends them in order
// once a frame is painted, they run in that order, and the page hydrates and navigates.
import { expect, test } from './test'

declare global {
  interface Window {
    __scriptsRan?: string[]
    __sameDocument?: boolean
  }
}

const LIST = /<script id="registry-scripts" type="application\/json">([^<]*)<\/script>/

test('the scripts load after the first paint, run in order, and the page hydrates', async ({
  page,
  request,
}) => {
  const html = await (await request.get('/')).text()
  expect(html).not.toMatch(/<script[^>]*\ssrc=/)
  expect(html).not.toMatch(/<link[^>]*\sas="script"/)
  const list = JSON.parse(LIST.exec(html)?.[1] ?? '[]') as { src: string; noModule?: true }[]
  const listed = list.map((script) => script.src)
  // Next's legacy polyfills (nomodule) are neither fetched nor run by a browser with modules.
  const run = list.filter((script) => !script.noModule).map((script) => script.src)
  expect(listed.some((src) => /\/chunks\/main-[^/]+\.js$/.test(src))).toBe(true)
  expect(listed.some((src) => /\/chunks\/pages\/_app-[^/]+\.js$/.test(src))).toBe(true)

  const problems: string[] = []
  page.on('pageerror', (error) => problems.push(error.message))
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) problems.push(message.text())
  })
  // A script's load event comes right after it has run.
  await page.addInitScript(() => {
    window.__scriptsRan = []
    document.addEventListener(
      'load',
      (event) => {
        if (event.target instanceof HTMLScriptElement && event.target.src) {
          window.__scriptsRan?.push(new URL(event.target.src).pathname)
        }
      },
      true,
    )
  })
  await page.goto('/')
  await page.waitForFunction((count) => (window.__scriptsRan?.length ?? 0) >= count, run.length)

  const ran = await page.evaluate(() => window.__scriptsRan ?? [])
  expect(ran.filter((src) => listed.includes(src))).toEqual(run)
  const appended = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLScriptElement>('script[src]')].map((script) => ({
      src: script.getAttribute('src') ?? '',
      async: script.async,
    })),
  )
  expect(appended.filter((script) => listed.includes(script.src))).toEqual(
    listed.map((src) => ({ src, async: false })),
  )

  // Nothing of them was asked for before the first contentful paint.
  const timing = await page.evaluate((sources) => {
    const paint = performance.getEntriesByName('first-contentful-paint')[0]
    const starts = performance
      .getEntriesByType('resource')
      .filter((entry) => sources.includes(new URL(entry.name).pathname))
      .map((entry) => entry.startTime)
    return { paint: paint?.startTime ?? NaN, firstScript: Math.min(...starts) }
  }, listed)
  expect(timing.paint).toBeLessThan(timing.firstScript)

  // Hydrated: a link navigates client-side, in the same document.
  await page.evaluate(() => {
    window.__sameDocument = true
  })
  const card = page.locator('a[href^="/nodes/"]').first()
  const href = await card.getAttribute('href')
  await card.click()
  await expect(page).toHaveURL(new RegExp(`${href}$`))
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  expect(await page.evaluate(() => window.__sameDocument)).toBe(true)
  expect(problems).toEqual([])
})

// Inter is fetched after the first paint, not applied to the first page (it would be laid out
// again), and used from the next page on: reached client-side or loaded (styles/globals.css,
// SCRIPT_LOADER, src/lib/inter-font.ts). Without JavaScript it is used at once.
test('Inter is fetched after the first paint and used from the next page on', async ({
  page,
  browser,
}) => {
  const bodyFont = () =>
    page.evaluate(() => getComputedStyle(document.querySelector('h1, h2, p') as Element).fontFamily)
  const interRequested = () =>
    page.evaluate(() => {
      const paint = performance.getEntriesByName('first-contentful-paint')[0]
      const font = performance
        .getEntriesByType('resource')
        .find((entry) => new URL(entry.name).pathname.endsWith('.woff2'))
      return { paint: paint?.startTime ?? NaN, font: font?.startTime ?? NaN }
    })

  await page.goto('/')
  await page.waitForFunction(() => sessionStorage.getItem('registry-font') === '1')
  const first = await interRequested()
  expect(first.paint).toBeLessThan(first.font)
  expect(await page.evaluate(() => document.documentElement.classList.contains('with-inter'))).toBe(
    false,
  )
  expect(await bodyFont()).toMatch(/^"?inter Fallback"?,/)

  // The next page, client-side.
  await page.locator('a[href^="/nodes/"]').first().click()
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect.poll(bodyFont).toMatch(/^"?inter"?,/)

  // A page loaded in the same tab: Inter from its first paint.
  await page.reload()
  expect(await page.evaluate(() => document.documentElement.classList.contains('with-inter'))).toBe(
    true,
  )
  expect(await bodyFont()).toMatch(/^"?inter"?,/)

  // Without JavaScript: Inter at once.
  const context = await browser.newContext({ javaScriptEnabled: false })
  const plain = await context.newPage()
  await plain.goto('/', { waitUntil: 'domcontentloaded' })
  // The stylesheet defines --font-inter, and without scripts nothing holds DOMContentLoaded for it.
  await plain.waitForLoadState('load')
  expect(
    await plain.evaluate(
      () => getComputedStyle(document.querySelector('h1, h2, p') as Element).fontFamily,
    ),
  ).toMatch(/^"?inter"?,/)
  await context.close()
})
