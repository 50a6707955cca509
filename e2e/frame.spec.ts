// The page frame against the real stack: header, sign-in pages without it, docs and chat links,
// languages, dark mode, axe in light and dark, and a signed-in user from the Auth emulator.
import { expect, test } from './test'
import { E2E_PORTS } from '../playwright.config'
import { DEMO_ADMIN_ACCOUNT } from '../server/seed/accounts'
import { DISCORD_INVITE_URL, DOCS_URL, DOCS_URL_ZH } from '../src/lib/constants'
import { createAccount, expectNoAxeViolations, signIn } from './helpers'

test('the header: logo home, documentation, chat, Login and Signup with fromUrl', async ({
  page,
}) => {
  await page.goto('/?page=2')
  const header = page.getByRole('banner')
  await expect(header.getByRole('link', { name: 'Comfy Registry' })).toHaveAttribute('href', '/')
  await expect(header.getByRole('link', { name: 'Documentation' })).toHaveAttribute(
    'href',
    DOCS_URL,
  )
  await expect(header.getByRole('link', { name: 'Community chat on Discord' })).toHaveAttribute(
    'href',
    '/discord',
  )
  await expect(header.getByRole('link', { name: 'Login' })).toHaveAttribute(
    'href',
    '/auth/login?fromUrl=%2F%3Fpage%3D2',
  )
  await expect(header.getByRole('link', { name: 'Signup' })).toHaveAttribute(
    'href',
    '/auth/signup?fromUrl=%2F%3Fpage%3D2',
  )

  await page.goto('/zh')
  await expect(page.getByRole('banner').getByRole('link', { name: '文档' })).toHaveAttribute(
    'href',
    DOCS_URL_ZH,
  )
})

test('no header on the sign-in pages', async ({ page }) => {
  // The sign-in pages have their own small top bar (logo, language, theme), not the site header.
  for (const path of ['/auth/login?fromUrl=%2F', '/auth/signup']) {
    await page.goto(path)
    await expect(page.getByRole('contentinfo')).toBeVisible()
    await expect(page.getByRole('banner')).toHaveCount(0)
  }
})

test('/discord redirects (307) to the community invite', async ({ request }) => {
  const response = await request.get('/discord', { maxRedirects: 0 })
  expect(response.status()).toBe(307)
  expect(response.headers().location).toBe(DISCORD_INVITE_URL)
})

test('switching language keeps path, query and hash, and is remembered', async ({ page }) => {
  await page.goto('/?page=2#list')
  await page.getByRole('button', { name: /Choose language/ }).click()
  const menu = page.getByRole('menu')
  await expect(menu.getByRole('menuitem', { name: 'English' })).toHaveAttribute(
    'aria-current',
    'true',
  )
  await menu.getByRole('menuitem', { name: '日本語' }).click()
  await expect(page).toHaveURL(/\/ja\?page=2#list$/)
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja')
  await expect(page.getByRole('banner').getByRole('link', { name: 'ドキュメント' })).toBeVisible()
  const cookies = await page.context().cookies()
  expect(cookies.find((cookie) => cookie.name === 'NEXT_LOCALE')?.value).toBe('ja')
  expect(await page.evaluate(() => localStorage.getItem('i18nextLng'))).toBe('ja')

  await page.getByRole('button', { name: /言語を選択/ }).click()
  await page.getByRole('menu').getByRole('menuitem', { name: 'English' }).click()
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/\?page=2#list$/)
  await expect(page.locator('html')).toHaveAttribute('lang', 'en')
})

test('the server honours the stored language for addresses without a language', async ({
  playwright,
}) => {
  const request = await playwright.request.newContext({
    baseURL: `http://127.0.0.1:${E2E_PORTS.web}`,
    extraHTTPHeaders: { cookie: 'NEXT_LOCALE=ja' },
  })
  const home = await request.get('/?q=upscale', { maxRedirects: 0 })
  expect(home.status()).toBe(307)
  expect(home.headers().location).toMatch(/^(http:\/\/[^/]+)?\/ja\/?\?q=upscale$/)
  // Addresses in another language, and files, are left alone.
  expect((await request.get('/fr', { maxRedirects: 0 })).status()).toBe(200)
  expect((await request.get('/robots.txt', { maxRedirects: 0 })).status()).toBe(200)
  await request.dispose()
})

test('dark mode follows the system, toggles, persists without a flash; axe in both', async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: 'light' })
  await page.goto('/')
  const html = page.locator('html')
  await expect(html).not.toHaveClass(/\bdark\b/)
  await expectNoAxeViolations(page)

  await page.getByRole('button', { name: 'Switch to dark mode' }).click()
  await expect(html).toHaveClass(/\bdark\b/)
  await expect(page.getByRole('button', { name: 'Switch to light mode' })).toBeVisible()
  await expectNoAxeViolations(page)

  // Stored: the server HTML is light, yet the class is set before the app runs.
  await page.route('**/_next/static/chunks/**', (route) => route.abort())
  // Never hydrated, so not waited for (e2e/test.ts).
  await page.reload({ waitUntil: 'domcontentloaded' })
  await expect(html).toHaveClass(/\bdark\b/)
  await page.unroute('**/_next/static/chunks/**')

  // A fresh visitor whose system is dark gets dark mode.
  const context = await page.context().browser()!.newContext({ colorScheme: 'dark' })
  const fresh = await context.newPage()
  await fresh.goto(page.url())
  await expect(fresh.locator('html')).toHaveClass(/\bdark\b/)
  await context.close()
})

test('signed in: the user menu from the Auth emulator, then Logout clears storage', async ({
  page,
  request,
}) => {
  const email = `frame-${Date.now()}@example.com`
  const password = 'frame-password-1'
  await createAccount(request, email, password)

  await page.goto('/')
  await signIn(page, email, password)
  const menuButton = page.getByRole('banner').getByRole('button', { name: email })
  await expect(menuButton).toBeVisible()
  await expect(page.getByRole('link', { name: 'Login' })).toHaveCount(0)
  await expect(menuButton.getByText(email.charAt(0).toUpperCase(), { exact: true })).toBeVisible()

  // The API call for the profile carried the fresh token, saved in session storage.
  await expect
    .poll(() => page.evaluate(() => sessionStorage.getItem('comfy-registry-id-token')))
    .toBeTruthy()

  await menuButton.click()
  const menu = page.getByRole('menu')
  await expect(menu.getByText(email)).toBeVisible()
  await expect(menu.getByRole('menuitem', { name: 'Your Nodes' })).toHaveAttribute('href', '/nodes')
  await expect(menu.getByRole('menuitem', { name: 'Admin Dashboard' })).toHaveCount(0)
  await expectNoAxeViolations(page)

  await menu.getByRole('menuitem', { name: 'Logout' }).click()
  await expect(page.getByRole('link', { name: 'Login' })).toBeVisible()
  // Session storage is emptied; whatever the cache persists afterwards holds no account data.
  await expect
    .poll(() =>
      page.evaluate(() => ({
        session: sessionStorage.length,
        profileCached: (localStorage.getItem('comfy-registry-cache') ?? '').includes('"/users"'),
      })),
    )
    .toEqual({ session: 0, profileCached: false })
})

test('an admin sees Admin Dashboard in the user menu', async ({ page }) => {
  await page.goto('/')
  await signIn(page, DEMO_ADMIN_ACCOUNT.email, DEMO_ADMIN_ACCOUNT.password)
  await page.getByRole('banner').getByRole('button', { name: DEMO_ADMIN_ACCOUNT.name }).click()
  await expect(
    page.getByRole('menu').getByRole('menuitem', { name: 'Admin Dashboard' }),
  ).toHaveAttribute('href', '/admin')
})
