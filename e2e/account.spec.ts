// A customer's own account, against the real stack and the demo data: the demo publisher (a
// customer with credits, a ledger and a key; server/seed/customers.ts) reaches "Your account"
// through the user menu without a page load, creates an API key that is shown once, and deletes
// it after confirming.
import { expect, test } from './test'
import { DEMO_PUBLISHER_ACCOUNT } from '../server/seed/accounts'
import { expectNoAxeViolations, signIn } from './helpers'

test('a customer sees their balance, creates an API key shown once, and deletes it', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await page.goto('/')
  await signIn(page, DEMO_PUBLISHER_ACCOUNT.email, DEMO_PUBLISHER_ACCOUNT.password)
  const menuButton = page
    .getByRole('banner')
    .getByRole('button', { name: DEMO_PUBLISHER_ACCOUNT.name })
  await expect(menuButton).toBeVisible()

  // A marker on the window survives client-side navigation only.
  await page.evaluate(() => Object.assign(window, { __beforeAccount: true }))
  await menuButton.click()
  await page.getByRole('menu').getByRole('menuitem', { name: 'Your account' }).click()
  await expect(page).toHaveURL(/\/account$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeVisible()
  expect(await page.evaluate(() => '__beforeAccount' in window)).toBe(true)

  const balance = page.getByRole('region', { name: 'Credit balance' })
  await expect(balance.getByText(/^\$\d+\.\d\d$/).first()).toBeVisible()
  const history = page.getByRole('region', { name: 'History' })
  await expect(history.getByRole('cell', { name: 'Kling video' })).toBeVisible()
  const keys = page.getByRole('region', { name: 'API keys' })
  await expect(keys.getByRole('heading', { name: 'ComfyUI desktop' })).toBeVisible()
  await expectNoAxeViolations(page)

  const name = `Playwright ${Date.now()}`
  await keys.getByRole('button', { name: 'Create API key' }).click()
  const form = page.getByRole('dialog', { name: 'Create an API key' })
  await form.getByLabel('Key name').fill(name)
  await form.getByRole('button', { name: 'Create API key' }).click()
  const shown = page.getByRole('dialog', { name: 'Your new API key' })
  await expect(shown.getByText('You won’t see it again.')).toBeVisible()
  const secret = ((await shown.getByTestId('secret').textContent()) ?? '').trim()
  expect(secret.length).toBeGreaterThan(20)
  await expectNoAxeViolations(page)
  await shown.getByRole('button', { name: 'Done' }).click()
  await expect(shown).toBeHidden()

  // Listed by its name and prefix; the key itself is nowhere on the page any more.
  await expect(keys.getByRole('heading', { name })).toBeVisible()
  expect(await page.content()).not.toContain(secret)
  await expect(history.getByText(`API key "${name}" created`)).toBeVisible()

  await keys.getByRole('button', { name: `Delete the API key ${name}` }).click()
  const confirm = page.getByRole('dialog', { name: `Delete the API key ${name}?` })
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(confirm).toBeHidden()
  await expect(keys.getByRole('heading', { name })).toHaveCount(0)
  await expect(keys.getByRole('heading', { name: 'ComfyUI desktop' })).toBeVisible()
})
