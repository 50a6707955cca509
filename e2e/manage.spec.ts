// A publisher's journeys against the real stack and the Auth emulator, each on its own so each
// can fail on its own: sign in from /nodes and create a publisher; create a token (shown once)
// that publishes for its own publisher only; edit the node and deprecate its version; a second
// user sees no edit controls and gets 403 from the API; a deleted token no longer publishes and
// logging out empties the browser. The state a journey starts from is made through the API.
// axe on every new page.
import { expect, test, type APIRequestContext, type Page } from './test'
import { strToU8, zipSync } from 'fflate'
import {
  accountWithPublisher,
  API_URL,
  createAccount,
  expectNoAxeViolations,
  expectNoAxeViolationsInDark,
  signIn,
  type PublisherAccount,
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

interface Owner extends PublisherAccount {
  nodeId: string
}

async function ownerWithPublisher(request: APIRequestContext): Promise<Owner> {
  const account = await accountWithPublisher(request, 'e2e', 'E2E Publisher')
  return { ...account, nodeId: `e2e-upscaler-${account.stamp}` }
}

/** Publishes version 1.0.0 of the owner's node and uploads its archive, as comfy-cli does. */
async function publishNode(request: APIRequestContext, owner: Owner) {
  const published = await publish(request, owner.publisherId, owner.nodeId, owner.secret, '1.0.0')
  expect(published.status()).toBe(201)
  const { signedUrl, node_version } = (await published.json()) as PublishResponse
  expect(node_version.status).toBe('NodeVersionStatusPending')
  const zip = zipSync({ [`${owner.nodeId}/__init__.py`]: strToU8('NODE_CLASS_MAPPINGS = {}\n') })
  const upload = await request.put(signedUrl, {
    headers: { 'Content-Type': 'application/zip' },
    data: Buffer.from(zip),
  })
  expect(upload.status()).toBe(200)
}

/** Signs in on the login page, which goes on to `path`. */
async function signInTo(page: Page, owner: Pick<Owner, 'email' | 'password'>, path: string) {
  await page.goto(`/auth/login?fromUrl=${encodeURIComponent(path)}`)
  await signIn(page, owner.email, owner.password)
  await expect(page).toHaveURL(new RegExp(`${path}$`))
}

async function logInThroughForm(page: Page, email: string, password: string) {
  await page.getByRole('textbox', { name: 'Email' }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Log in', exact: true }).click()
}

test('sign in from Your Nodes and create a publisher; its id is checked as it is typed', async ({
  page,
  request,
}) => {
  const stamp = Date.now().toString(36)
  const email = `owner-${stamp}@example.com`
  const password = 'owner-password-1'
  const publisherId = `e2e-new-${stamp}`
  await createAccount(request, email, password)

  // Your Nodes needs sign-in: the login page brings the visitor back.
  await page.goto('/nodes')
  await expect(page).toHaveURL(/\/auth\/login\?fromUrl=%2Fnodes$/)
  await logInThroughForm(page, email, password)
  await expect(page).toHaveURL(/\/nodes$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Your Nodes' })).toBeVisible()
  await expect(page.getByText('comfy node publish')).toBeVisible()
  await expectNoAxeViolations(page)

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
})

test('a token is shown once, never again, and publishes for its own publisher only', async ({
  page,
  request,
}) => {
  const owner = await ownerWithPublisher(request)
  await signInTo(page, owner, `/publishers/${owner.publisherId}/settings`)

  await page.getByRole('button', { name: 'Create token' }).click()
  const createDialog = page.getByRole('dialog', { name: 'Create a personal access token' })
  await createDialog.getByRole('button', { name: 'Create token' }).click()
  await expect(createDialog.getByText('Enter a name for the token.')).toBeVisible()
  await createDialog.getByLabel('Token name').fill('Laptop token')
  await createDialog.getByLabel('Expires after').selectOption({ label: '30 days' })
  await createDialog.getByRole('button', { name: 'Create token' }).click()
  const secretDialog = page.getByRole('dialog', { name: 'Your new token' })
  await expect(secretDialog.getByText('It will not be shown again.')).toBeVisible()
  const secret = (await secretDialog.getByTestId('secret').textContent())?.trim() ?? ''
  expect(secret).toMatch(/^cr_pat_/)
  await expectNoAxeViolations(page)
  await secretDialog.getByRole('button', { name: 'Done' }).click()
  await expect(page.getByText(secret)).toHaveCount(0)
  const tokens = page.getByRole('list', { name: 'Personal access tokens' })
  await expect(tokens.getByText('Laptop token')).toBeVisible()
  await page.reload()
  await expect(page.getByRole('list', { name: 'Personal access tokens' })).toBeVisible()
  expect(await page.content()).not.toContain(secret)
  expect(JSON.stringify(await page.evaluate(() => ({ ...localStorage })))).not.toContain(secret)

  expect((await publish(request, 'comfy-demo', owner.nodeId, secret, '1.0.0')).status()).toBe(403)
  await publishNode(request, { ...owner, secret })
})

test('owners edit the node and deprecate its version on the node page', async ({
  page,
  browser,
  request,
}) => {
  const owner = await ownerWithPublisher(request)
  await publishNode(request, owner)
  await signInTo(page, owner, `/nodes/${owner.nodeId}`)

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
  await page
    .getByRole('dialog', { name: 'Deprecate version 1.0.0' })
    .getByRole('button', { name: 'Deprecate' })
    .click()
  await expect(
    page.getByRole('button', { name: 'Undo deprecation of version 1.0.0' }),
  ).toBeVisible()
  await expectNoAxeViolations(page)
  await expectNoAxeViolationsInDark(browser, `/publishers/${owner.publisherId}/settings`)
})

test('another user sees the node without edit controls, and the API refuses their edit', async ({
  page,
  request,
}) => {
  const owner = await ownerWithPublisher(request)
  await publishNode(request, owner)
  const otherEmail = `other-${Date.now().toString(36)}@example.com`
  const otherAccount = await createAccount(request, otherEmail, 'other-password-1')
  await signInTo(
    page,
    { email: otherEmail, password: 'other-password-1' },
    `/nodes/${owner.nodeId}`,
  )
  await expect(page.getByRole('banner').getByRole('button', { name: otherEmail })).toBeVisible()
  await expect(page.getByRole('heading', { level: 1, name: 'E2E Upscaler' })).toBeVisible()
  await expect(page.getByRole('region', { name: 'Manage this node' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: /Deprecate version/ })).toHaveCount(0)
  const refused = await request.put(
    `${API_URL}/publishers/${owner.publisherId}/nodes/${owner.nodeId}`,
    {
      headers: { Authorization: `Bearer ${otherAccount.idToken}` },
      data: { description: 'Not yours.' },
    },
  )
  expect(refused.status()).toBe(403)
})

test('a deleted token no longer publishes; logging out empties the browser', async ({
  page,
  request,
}) => {
  const owner = await ownerWithPublisher(request)
  await signInTo(page, owner, `/publishers/${owner.publisherId}/settings`)
  await page.getByRole('button', { name: 'Delete the token CI token' }).click()
  await page
    .getByRole('dialog', { name: 'Delete the token CI token?' })
    .getByRole('button', { name: 'Delete' })
    .click()
  await expect(page.getByText('No tokens yet.')).toBeVisible()
  expect(
    (await publish(request, owner.publisherId, owner.nodeId, owner.secret, '1.0.1')).status(),
  ).toBe(401)

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
  expect(JSON.stringify(storage.local)).not.toContain(owner.email)
})
