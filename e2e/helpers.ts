// Shared by the Playwright journeys: where the stack runs, axe checks, accounts in the Auth
// emulator, and publishers with a token made through the API.
import AxeBuilder from '@axe-core/playwright'
import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test'
import { E2E_FAKES, E2E_PORTS } from '../playwright.config'

export { E2E_FAKES }

export const API_URL = `http://127.0.0.1:${E2E_PORTS.api}`
export const AUTH_EMULATOR_URL = `http://127.0.0.1:${E2E_PORTS.auth}`

export async function expectNoAxeViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze()
  // Each violation with the elements it was found on, so a failure says where to look.
  expect(
    result.violations.map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
    ),
  ).toEqual([])
}

/** axe on `path` in a dark-mode browser (the stored flowbite choice plus a dark system). */
export async function expectNoAxeViolationsInDark(browser: Browser, path: string) {
  const dark = await browser.newContext({ colorScheme: 'dark' })
  await dark.addInitScript(() => localStorage.setItem('flowbite-theme-mode', 'dark'))
  const page = await dark.newPage()
  await page.goto(path)
  await expect(page.locator('html')).toHaveClass(/\bdark\b/)
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
  await expectNoAxeViolations(page)
  await dark.close()
}

/** axe in light mode on the open page, then on `path` in dark mode. */
export async function expectAccessibleInBothModes(browser: Browser, page: Page, path: string) {
  await expectNoAxeViolations(page)
  await expectNoAxeViolationsInDark(browser, path)
}

export interface EmulatorAccount {
  localId: string
  idToken: string
}

/** Creates an email/password account in the Auth emulator; returns its uid and an ID token. */
export async function createAccount(
  request: APIRequestContext,
  email: string,
  password: string,
): Promise<EmulatorAccount> {
  const response = await request.post(
    `${AUTH_EMULATOR_URL}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=any`,
    { data: { email, password, returnSecureToken: true } },
  )
  expect(response.ok()).toBe(true)
  return (await response.json()) as EmulatorAccount
}

/** Signs in on the open page through the e2e hook (present only with the Auth emulator). */
export async function signIn(page: Page, email: string, password: string) {
  await page.waitForFunction(() => typeof window.__registryTestSignIn === 'function')
  await page.evaluate(([e, p]) => window.__registryTestSignIn?.(e, p), [email, password] as const)
}

/** Marks an emulator account's email as verified (as the provider does after its email link). */
export async function verifyEmail(request: APIRequestContext, localId: string) {
  const response = await request.post(
    `${AUTH_EMULATOR_URL}/identitytoolkit.googleapis.com/v1/accounts:update?key=any`,
    { headers: { authorization: 'Bearer owner' }, data: { localId, emailVerified: true } },
  )
  expect(response.ok()).toBe(true)
}

export interface PublisherAccount {
  email: string
  password: string
  publisherId: string
  publisherName: string
  /** A personal access token of the publisher, made through the API. */
  secret: string
  /** Unique to this account, for ids made from it. */
  stamp: string
}

/** An account that owns a new publisher with a token, made through the API as the website would. */
export async function accountWithPublisher(
  request: APIRequestContext,
  prefix: string,
  publisherName: string,
): Promise<PublisherAccount> {
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`
  const email = `${prefix}-${stamp}@example.com`
  const password = `${prefix}-password-1`
  const account = await createAccount(request, email, password)
  const headers = { Authorization: `Bearer ${account.idToken}` }
  const publisherId = `${prefix}-${stamp}`
  const created = await request.post(`${API_URL}/publishers`, {
    headers,
    data: { id: publisherId, name: publisherName },
  })
  expect(created.status()).toBe(201)
  const token = await request.post(`${API_URL}/publishers/${publisherId}/tokens`, {
    headers,
    data: { name: 'CI token' },
  })
  expect(token.status()).toBe(201)
  const { token: secret } = (await token.json()) as { token: string }
  return { email, password, publisherId, publisherName, secret, stamp }
}
