// CI results against the real stack and its demo data (server/seed/ci.ts): from the home page's
// footer to /ci without a full reload, the release branch picked (the address changes, the page
// does not reload), a commit opened with its workflow results and an output image served by the
// API (allowed by the site's CSP), the way back keeping the branch, and axe on both pages in
// light and dark mode.
import { expect, test, type Page } from './test'
import { expectAccessibleInBothModes } from './helpers'

/** Marks the open document: still marked after a move means no full page load happened. */
async function markDocument(page: Page) {
  await page.evaluate(() => document.documentElement.setAttribute('data-e2e-same-document', ''))
}

async function expectSameDocument(page: Page) {
  await expect(page.locator('html')).toHaveAttribute('data-e2e-same-document', '')
}

test('from the footer to a commit’s results on the release branch', async ({ page, browser }) => {
  test.setTimeout(90_000)
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await markDocument(page)

  await page.getByRole('contentinfo').getByRole('link', { name: 'CI results' }).click()
  await expect(page).toHaveURL(/\/ci$/)
  await expect(page.getByRole('heading', { level: 1, name: 'CI results' })).toBeVisible()
  await expectSameDocument(page)
  const table = page.getByRole('table', { name: 'Commits and their CI status by operating system' })
  const rows = table.locator('tbody tr')
  await expect(rows).toHaveCount(4)
  // Statuses per system: a failure (flux-dev on macOS), a run still going (newest on Windows).
  await expect(rows.first()).toContainText('Running')
  await expect(rows.first()).toContainText('Failed')
  // The release notes, folded until opened.
  const releases = page.getByRole('region', { name: 'What’s new in ComfyUI' })
  await expect(releases.getByRole('heading', { level: 3 }).first()).toBeVisible()
  await expectAccessibleInBothModes(browser, page, '/ci')

  await page.getByRole('combobox', { name: 'Branch' }).selectOption('release/v0.3')
  await expect(page).toHaveURL(/\/ci\?branch=release%2Fv0\.3$/)
  await expect(rows).toHaveCount(2)
  await expect(table).toContainText('Backport: fix VAE tiling seams')
  await expect(table).not.toContainText('Add flux guidance node')
  await expectSameDocument(page)

  const backport = rows.filter({ hasText: 'Backport: fix VAE tiling seams' })
  await backport.getByRole('link').click()
  await expect(page).toHaveURL(/\/ci\/[0-9a-f]{40}\?branch=release%2Fv0\.3$/)
  await expect(page.getByRole('heading', { level: 1, name: /^Commit [0-9a-f]{7}$/ })).toBeVisible()
  await expectSameDocument(page)
  await expect(page.getByText('Backport: fix VAE tiling seams')).toBeVisible()
  await expect(page.getByRole('heading', { level: 2 })).toHaveText(['flux-dev', 'sd15-basic'])
  const linux = page
    .getByRole('region', { name: 'sd15-basic' })
    .getByRole('article', { name: 'Linux' })
  await expect(linux).toContainText('Completed')
  await expect(linux).toContainText('NVIDIA RTX 4090')
  await expect(linux).toContainText('1 min 30 sec')
  const mac = page.getByRole('region', { name: 'flux-dev' }).getByRole('article', { name: 'macOS' })
  await expect(mac).toContainText('Failed')

  const image = linux.getByRole('img', { name: 'Output 1 of sd15-basic on Linux' })
  await image.scrollIntoViewIfNeeded()
  await expect
    .poll(() =>
      image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth),
    )
    .toBeGreaterThan(0)
  const detailPath = new URL(page.url()).pathname + new URL(page.url()).search
  await expectAccessibleInBothModes(browser, page, detailPath)

  await page.getByRole('link', { name: 'Back to CI results' }).click()
  await expect(page).toHaveURL(/\/ci\?branch=release%2Fv0\.3$/)
  await expect(page.getByRole('combobox', { name: 'Branch' })).toHaveValue('release/v0.3')
  await expect(rows).toHaveCount(2)
  await expectSameDocument(page)
})

test('a commit without results is the 404 page', async ({ page }) => {
  const response = await page.goto('/ci/0000000000000000000000000000000000000000')
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found')
})
