// A publisher's journey against the real stack and the Auth emulator: sign in from /nodes, create
// a publisher, create a token (shown once), publish with it (this publisher only; refused once
// deleted), edit the node, deprecate its version, and log out. A second user sees no edit
// controls and gets 403 from the API. axe on every new page.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { strToU8, zipSync } from 'fflate'
import {
  API_URL,
  createAccount,
  expectNoAxeViolations,
  expectNoAxeViolationsInDark,
  signIn,
} from './helpers'

interface PublishResponse {
  signedUrl: string
  node_version: { version: string; status: string }
}

function publish(
  request: APIRequestContext,
  publisherId: string,
  nodeId: string,
  token: string,
  version: string,
) {
  return request.post(`${API_URL}/publishers/${publisherId}/nodes/${nodeId}/versions`, {
    data: {
      personal_access_token: token,
      node: {
        id: nodeId,
        name: 'E2E Upscaler',
        description: 'Published by the end-to-end journey.',
        repository: `https://github.com/e2e-owner/${nodeId}`,
        license: 'MIT',
      },
      node_version: { version, changelog: 'First release.', dependencies: [] },
    },
  })
}

async function logInThroughForm(page: Page, email: string, password: string) {
  await page.getByRole('textbox', { name: 'Email' }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Log in', exact: true }).click()
}

test('a publisher: publisher, token shown once, publish, edit, deprecate, log out', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000)
  const stamp = Date.now().toString(36)
  const email = `owner-${stamp}@example.com`
  const password = 'owner-password-1'
  const publisherId = `e2e-${stamp}`
  const nodeId = `e2e-upscaler-${stamp}`
  await createAccount(request, email, password)

  // Your Nodes needs sign-in: the login page brings the visitor back.
  await page.goto('/nodes')
  await expect(page).toHaveURL(/\/auth\/login\?fromUrl=%2Fnodes$/)
  await logInThroughForm(page, email, password)
  await expect(page).toHaveURL(/\/nodes$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Your Nodes' })).toBeVisible()
  await expect(page.getByText('comfy node publish')).toBeVisible()
  await expectNoAxeViolations(page)

  // Create a publisher; the id is checked by the server as it is typed.
  await page.getByRole('link', { name: 'Create a publisher' }).click()
  await expect(page).toHaveURL(/\/publishers\/create$/)
  await page.getByLabel('Publisher ID').fill('comfy-demo')
  await expect(page.getByText(/taken|already/i)).toBeVisible()
  await page.getByLabel('Publisher ID').fill(publisherId)
  await expect(page.getByText(`${publisherId} is available.`)).toBeVisible()
  await page.getByLabel('Display name').fill('E2E Publisher')
  await expectNoAxeViolations(page)
  await page.getByRole('button', { name: 'Create publisher' }).click()
  await expect(page).toHaveURL(new RegExp(`/publishers/${publisherId}/settings$`))
  await expectNoAxeViolations(page)

  // A token: its secret is shown once, with a warning, and never again.
  await page.getByRole('button', { name: 'Create token' }).click()
  const createDialog = page.getByRole('dialog', { name: 'Create a personal access token' })
  await createDialog.getByRole('button', { name: 'Create token' }).click()
  await expect(createDialog.getByText('Enter a name for the token.')).toBeVisible()
  await createDialog.getByLabel('Token name').fill('CI token')
  await createDialog.getByLabel('Expires after').selectOption({ label: '30 days' })
  await createDialog.getByRole('button', { name: 'Create token' }).click()
  const secretDialog = page.getByRole('dialog', { name: 'Your new token' })
  await expect(secretDialog.getByText('It will not be shown again.')).toBeVisible()
  const secret = (await secretDialog.getByTestId('token-secret').textContent())?.trim() ?? ''
  expect(secret).toMatch(/^cr_pat_/)
  await expectNoAxeViolations(page)
  await secretDialog.getByRole('button', { name: 'Done' }).click()
  await expect(page.getByText(secret)).toHaveCount(0)
  const tokens = page.getByRole('list', { name: 'Personal access tokens' })
  await expect(tokens.getByText('CI token')).toBeVisible()
  await page.reload()
  await expect(page.getByRole('list', { name: 'Personal access tokens' })).toBeVisible()
  expect(await page.content()).not.toContain(secret)
  expect(JSON.stringify(await page.evaluate(() => ({ ...localStorage })))).not.toContain(secret)

  // The token publishes for its own publisher only; the archive upload completes the publish.
  expect((await publish(request, 'comfy-demo', nodeId, secret, '1.0.0')).status()).toBe(403)
  const published = await publish(request, publisherId, nodeId, secret, '1.0.0')
  expect(published.status()).toBe(201)
  const { signedUrl, node_version } = (await published.json()) as PublishResponse
  expect(node_version.status).toBe('NodeVersionStatusPending')
  const zip = zipSync({ [`${nodeId}/__init__.py`]: strToU8('NODE_CLASS_MAPPINGS = {}\n') })
  const upload = await request.put(signedUrl, {
    headers: { 'Content-Type': 'application/zip' },
    data: Buffer.from(zip),
  })
  expect(upload.status()).toBe(200)

  // Edit the node on its page (owners only), then deprecate its (pending) version.
  await page.goto(`/nodes/${nodeId}`)
  const manage = page.getByRole('region', { name: 'Manage this node' })
  await expect(manage).toBeVisible()
  await manage.getByRole('button', { name: 'Edit node' }).click()
  const edit = page.getByRole('dialog', { name: 'Edit E2E Upscaler' })
  await edit.getByLabel('Description').fill('Sharper upscaling, edited in the browser.')
  await expectNoAxeViolations(page)
  await edit.getByRole('button', { name: 'Save changes' }).click()
  await expect(edit).toHaveCount(0)
  await expect(page.getByText('Sharper upscaling, edited in the browser.').first()).toBeVisible()
  await page.getByRole('button', { name: 'Deprecate version 1.0.0' }).click()
  await expect(
    page.getByRole('button', { name: 'Undo deprecation of version 1.0.0' }),
  ).toBeVisible()
  await expectNoAxeViolations(page)
  await expectNoAxeViolationsInDark(browser, `/publishers/${publisherId}/settings`)

  // A second user sees the node without edit controls, and the API refuses their edit.
  const other = await browser.newContext()
  const otherPage = await other.newPage()
  const otherEmail = `other-${stamp}@example.com`
  const otherAccount = await createAccount(request, otherEmail, 'other-password-1')
  await otherPage.goto(`/nodes/${nodeId}`)
  await signIn(otherPage, otherEmail, 'other-password-1')
  await expect(
    otherPage.getByRole('banner').getByRole('button', { name: otherEmail }),
  ).toBeVisible()
  await expect(otherPage.getByRole('heading', { level: 1, name: 'E2E Upscaler' })).toBeVisible()
  await expect(otherPage.getByRole('region', { name: 'Manage this node' })).toHaveCount(0)
  await expect(otherPage.getByRole('button', { name: /Deprecate version/ })).toHaveCount(0)
  const refused = await request.put(`${API_URL}/publishers/${publisherId}/nodes/${nodeId}`, {
    headers: { Authorization: `Bearer ${otherAccount.idToken}` },
    data: { description: 'Not yours.' },
  })
  expect(refused.status()).toBe(403)
  await other.close()

  // Deleting the token stops it from publishing.
  await page.goto(`/publishers/${publisherId}/settings`)
  await page.getByRole('button', { name: 'Delete the token CI token' }).click()
  await page
    .getByRole('dialog', { name: 'Delete the token CI token?' })
    .getByRole('button', { name: 'Delete' })
    .click()
  await expect(page.getByText('No tokens yet.')).toBeVisible()
  expect((await publish(request, publisherId, nodeId, secret, '1.0.1')).status()).toBe(401)

  // Log out: the account's data leaves the browser.
  await page.goto('/auth/logout')
  await page.getByRole('main').getByRole('button', { name: 'Logout' }).click()
  await expect(page.getByRole('banner').getByRole('link', { name: 'Login' })).toBeVisible()
  const storage = await page.evaluate(() => ({
    session: Object.keys(sessionStorage),
    local: { ...localStorage },
  }))
  expect(storage.session).toEqual([])
  const kept = Object.keys(storage.local).filter(
    (key) => !['i18nextLng', 'flowbite-theme-mode', 'comfy-registry-cache'].includes(key),
  )
  expect(kept).toEqual([])
  expect(JSON.stringify(storage.local)).not.toContain(email)
})
