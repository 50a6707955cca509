// Customers in the Admin Dashboard, against the real stack and the demo data: the admin reaches
// the section by the dashboard's link, finds a demo customer by email, opens them, records a
// top-up that moves the balance and appears in the ledger, and is told why a usage larger than
// the balance was refused (the balance unchanged).
import { expect, test } from './test'
import { DEMO_ADMIN_ACCOUNT } from '../server/seed/accounts'
import { expectNoAxeViolations, signIn } from './helpers'

/** The first demo user, who has a credit account (server/seed/customers.ts). */
const CUSTOMER_EMAIL = 'seed-user-00001@example.test'

test('an admin finds a customer, records a top-up, and sees an overdraft refused', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await page.goto(`/auth/login?fromUrl=${encodeURIComponent('/admin')}`)
  await signIn(page, DEMO_ADMIN_ACCOUNT.email, DEMO_ADMIN_ACCOUNT.password)
  await expect(page).toHaveURL(/\/admin$/)

  await page.getByRole('link', { name: 'Customers' }).first().click()
  await expect(page).toHaveURL(/\/admin\/customers/)
  await page.getByLabel('Search by email').fill('seed-user-00001')
  await page.getByRole('button', { name: 'Search' }).click()
  await page.getByRole('link', { name: CUSTOMER_EMAIL }).click()
  await expect(page).toHaveURL(/\/admin\/customers\/[0-9a-f-]{36}/)
  await expect(page.getByText(CUSTOMER_EMAIL).first()).toBeVisible()
  await expectNoAxeViolations(page)

  const balance = page.getByRole('region', { name: 'Balance' })
  const before = await balance.textContent()
  const form = page.getByRole('region', { name: 'Record credit' })
  await form.getByLabel('Type', { exact: true }).selectOption('credit_added')
  await form.getByLabel('Amount (credits)').fill('2.5')
  await form.getByLabel('Reason').fill('Playwright top-up')
  await form.getByRole('button', { name: 'Record' }).click()
  await expect(page.getByText(/Recorded \+\$2\.50\. The balance is now/)).toBeVisible()
  await expect(balance).not.toHaveText(before ?? '')
  await expect(page.getByRole('cell', { name: 'Playwright top-up' })).toBeVisible()
  const after = await balance.textContent()

  await form.getByLabel('Type', { exact: true }).selectOption('api_usage')
  await form.getByLabel('Amount (credits)').fill('1000000')
  await form.getByLabel('Reason').fill('Far too much')
  await form.getByRole('button', { name: 'Record' }).click()
  await expect(page.getByText(/Not recorded: .*below zero/).first()).toBeVisible()
  await expect(balance).toHaveText(after ?? '')
})
