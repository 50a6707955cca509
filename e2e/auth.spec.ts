// Sign-in against the real stack and the Auth emulator: Firebase stays away from anonymous
// visitors, signup lands on fromUrl, a wrong password is explained,
// an outside fromUrl never leaves the site, logout empties the storages; axe on every auth page.
import { expect, test, type Page } from './test'
import { E2E_PORTS } from '../playwright.config'
import { DEMO_PUBLISHER_ACCOUNT } from '../server/seed/accounts'
import { SIGNED_IN_HINT_KEY } from '../src/lib/constants'
import { createAccount, expectNoAxeViolations, expectNoAxeViolationsInDark } from './helpers'

const authEmulatorPort = String(E2E_PORTS.auth)
const origin = `http://127.0.0.1:${E2E_PORTS.web}`

/** Whether the Firebase client ran on this page (it opens its IndexedDB store when it starts). */
async function firebaseStarted(page: Page): Promise<boolean> {
  return page.evaluate(async () =>
    (await indexedDB.databases()).some((db) => db.name === 'firebaseLocalStorageDb'),
  )
}

async function logIn(page: Page, email: string, password: string) {
  await page.getByRole('textbox', { name: 'Email' }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Log in', exact: true }).click()
}

test('an anonymous visitor never loads Firebase on public pages', async ({ page }) => {
  const authRequests: string[] = []
  page.on('request', (request) => {
    const url = request.url()
    if (url.includes(`:${authEmulatorPort}/`) || /identitytoolkit|securetoken/.test(url)) {
      authRequests.push(url)
    }
  })
  await page.goto('/')
  await expect(page.getByRole('banner').getByRole('link', { name: 'Login' })).toBeVisible()
  await page.goto('/publishers/comfy-demo')
  await expect(page.getByRole('banner').getByRole('link', { name: 'Login' })).toBeVisible()
  await page.waitForLoadState('networkidle')
  expect(authRequests).toEqual([])
  expect(await firebaseStarted(page)).toBe(false)
  expect(await page.evaluate((key) => localStorage.getItem(key), SIGNED_IN_HINT_KEY)).toBeNull()
})

test('sign up lands on fromUrl signed in; log out empties the storages', async ({
  page,
  browser,
}) => {
  const email = `signup-${Date.now()}@example.com`
  await page.goto('/auth/signup?fromUrl=/publishers/comfy-demo')
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible()
  await expect(page.getByRole('banner')).toHaveCount(0)
  await expect(page.getByRole('link', { name: 'Log in', exact: true })).toHaveAttribute(
    'href',
    '/auth/login?fromUrl=%2Fpublishers%2Fcomfy-demo',
  )
  await expectNoAxeViolations(page)
  await expectNoAxeViolationsInDark(browser, '/auth/signup')

  // Too short: the form says so and does not ask the provider.
  await page.getByRole('textbox', { name: 'Email' }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill('12345')
  await page.getByLabel('Confirm password').fill('12345')
  await page.getByRole('button', { name: 'Sign up' }).click()
  await expect(page.getByText('Use at least 6 characters for your password.')).toBeVisible()
  await expectNoAxeViolations(page)

  await page.getByLabel('Password', { exact: true }).fill('signup-secret-1')
  await page.getByLabel('Confirm password').fill('signup-secret-1')
  await page.getByRole('button', { name: 'Sign up' }).click()
  await expect(page).toHaveURL(`${origin}/publishers/comfy-demo`)
  await expect(page.getByRole('banner').getByRole('button', { name: email })).toBeVisible()
  expect(await page.evaluate((key) => localStorage.getItem(key), SIGNED_IN_HINT_KEY)).not.toBeNull()

  // Signed in on this browser: public pages now load Firebase and know the user.
  await page.goto('/')
  await expect(page.getByRole('banner').getByRole('button', { name: email })).toBeVisible()

  await page.goto('/auth/logout')
  await expect(page.getByRole('heading', { name: 'Log out' })).toBeVisible()
  await expectNoAxeViolations(page)
  await expectNoAxeViolationsInDark(browser, '/auth/logout')
  await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'))
  await page.getByRole('main').getByRole('button', { name: 'Logout' }).click()
  await expect(page).toHaveURL(`${origin}/`)
  await expect(page.getByRole('banner').getByRole('link', { name: 'Login' })).toBeVisible()
  // Logout keeps only the language and dark-mode choices (not account data). The home page it
  // lands on may persist its public node list again (comfy-registry-cache): nothing of the user.
  const storage = await page.evaluate(() => ({
    session: Object.keys(sessionStorage),
    local: Object.keys(localStorage).sort(),
    cache: localStorage.getItem('comfy-registry-cache') ?? '',
  }))
  expect(storage.session).toEqual([])
  expect(
    storage.local.filter(
      (key) => !['i18nextLng', 'flowbite-theme-mode', 'comfy-registry-cache'].includes(key),
    ),
  ).toEqual([])
  expect(storage.local).toContain('i18nextLng')
  expect(storage.cache).not.toContain('"/users"')
  expect(storage.cache).not.toContain(email)
})

test('a wrong password is explained; the right one goes to fromUrl', async ({ page }) => {
  const email = `login-${Date.now()}@example.com`
  await createAccount(page.request, email, 'right-password-1')
  await page.goto('/auth/login?fromUrl=%2Fpublishers%2Fcomfy-demo')
  await expect(page.getByRole('heading', { name: 'Log in to Comfy Registry' })).toBeVisible()
  await expectNoAxeViolations(page)

  await logIn(page, email, 'wrong-password-1')
  // The emulator answers wrong-password or invalid-credential, depending on its version.
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(/password is not right/)
  await expect(page).toHaveURL(/\/auth\/login\?/)
  await expectNoAxeViolations(page)

  await page.getByLabel('Password', { exact: true }).fill('right-password-1')
  await page.getByRole('button', { name: 'Log in', exact: true }).click()
  await expect(page).toHaveURL(`${origin}/publishers/comfy-demo`)
  await expect(page.getByRole('banner').getByRole('button', { name: email })).toBeVisible()
})

test('an outside fromUrl never leaves the site: /nodes instead', async ({ page, browser }) => {
  await page.goto('/auth/login?fromUrl=//evil.example')
  await expectNoAxeViolationsInDark(browser, '/auth/login')
  await logIn(page, DEMO_PUBLISHER_ACCOUNT.email, DEMO_PUBLISHER_ACCOUNT.password)
  await expect.poll(() => new URL(page.url()).pathname).toBe('/nodes')
  expect(new URL(page.url()).origin).toBe(origin)

  // Already signed in: the login page goes straight on.
  await page.goto('/auth/login?fromUrl=%2Fpublishers%2Fcomfy-demo')
  await expect(page).toHaveURL(`${origin}/publishers/comfy-demo`)
})
