// Playwright's test API for the journeys, with one difference: a page's full load (goto, reload)
// also waits until React has hydrated it. The page's scripts load only after its first paint
// (pages/_document.tsx, docs/ARCHITECTURE.md "Largest contentful paint"), which can come after
// the load event Playwright waits for, and a journey clicks at once. A load that is not to be
// hydrated (its scripts blocked) waits for `domcontentloaded`.
import { test as base, type Browser, type BrowserContext, type Page } from '@playwright/test'

export * from '@playwright/test'

/** Until Next has measured the hydration (a measure, kept for the document's life). */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(
    () =>
      !document.getElementById('registry-scripts') ||
      performance.getEntriesByName('Next.js-hydration', 'measure').length > 0,
  )
}

const loads = (waitUntil?: string) =>
  !waitUntil || waitUntil === 'load' || waitUntil === 'networkidle'

const patched = new WeakSet<Page>()

function hydrateOnLoad(page: Page) {
  if (patched.has(page)) return
  patched.add(page)
  const goto = page.goto.bind(page)
  const reload = page.reload.bind(page)
  page.goto = async (...args: Parameters<Page['goto']>) => {
    const response = await goto(...args)
    if (loads(args[1]?.waitUntil)) await waitForHydration(page)
    return response
  }
  page.reload = async (...args: Parameters<Page['reload']>) => {
    const response = await reload(...args)
    if (loads(args[0]?.waitUntil)) await waitForHydration(page)
    return response
  }
}

function hydrateContextPages(context: BrowserContext) {
  context.pages().forEach(hydrateOnLoad)
  context.on('page', hydrateOnLoad)
}

const patchedBrowsers = new WeakSet<Browser>()

export const test = base.extend<object, { hydratingBrowser: void }>({
  // Every context a journey makes, from the fixtures or from `browser` itself (its newPage too).
  hydratingBrowser: [
    async ({ browser }, provide) => {
      if (!patchedBrowsers.has(browser)) {
        patchedBrowsers.add(browser)
        const newContext = browser.newContext.bind(browser)
        browser.newContext = async (...args: Parameters<Browser['newContext']>) => {
          const context = await newContext(...args)
          // Without JavaScript a page is never hydrated.
          if (args[0]?.javaScriptEnabled !== false) hydrateContextPages(context)
          return context
        }
      }
      await provide()
    },
    { scope: 'worker', auto: true },
  ],
  context: async ({ context }, provide) => {
    hydrateContextPages(context)
    await provide(context)
  },
})
