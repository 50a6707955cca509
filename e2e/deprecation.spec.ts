// An owner deprecates a version with a message from the node page, a visitor sees it marked
// (and the install box offering the version before it), the owner undoes it; then the same for
// the whole node and its banner. The node and its two Active versions are made through the API.
import { expect, test, type APIRequestContext, type Browser, type Page } from './test'
import { strToU8, zipSync } from 'fflate'
import {
  accountWithPublisher,
  API_URL,
  expectNoAxeViolations,
  expectNoAxeViolationsInDark,
  signIn,
} from './helpers'

const NODE_NAME = 'E2E Deprecations'

async function publishActive(
  request: APIRequestContext,
  publisherId: string,
  nodeId: string,
  secret: string,
  version: string,
) {
  const published = await request.post(
    `${API_URL}/publishers/${publisherId}/nodes/${nodeId}/versions`,
    {
      data: {
        personal_access_token: secret,
        node: {
          id: nodeId,
          name: NODE_NAME,
          description: 'Published by the deprecation journey.',
          repository: `https://github.com/e2e-deprecation/${nodeId}`,
          license: 'MIT',
        },
        node_version: { version, changelog: `Release ${version}.`, dependencies: [] },
      },
    },
  )
  expect(published.status()).toBe(201)
  const { signedUrl } = (await published.json()) as { signedUrl: string }
  const zip = zipSync({ [`${nodeId}/__init__.py`]: strToU8('NODE_CLASS_MAPPINGS = {}\n') })
  const upload = await request.put(signedUrl, {
    headers: { 'Content-Type': 'application/zip' },
    data: Buffer.from(zip),
  })
  expect(upload.status()).toBe(200)
  // The pipeline makes the clean version Active (and the latest).
  await expect
    .poll(
      async () => {
        const node = await request.get(`${API_URL}/nodes/${nodeId}`)
        if (!node.ok()) return undefined
        return ((await node.json()) as { latest_version?: { version: string } }).latest_version
          ?.version
      },
      { timeout: 30_000 },
    )
    .toBe(version)
}

/** The public node page as an anonymous visitor sees it (a browser context of its own). */
async function visitorPage(browser: Browser, nodeId: string): Promise<Page> {
  const context = await browser.newContext()
  const visitor = await context.newPage()
  await visitor.goto(`/nodes/${nodeId}`)
  await expect(visitor.getByRole('heading', { level: 1, name: NODE_NAME })).toBeVisible()
  return visitor
}

test('an owner deprecates a version and the node with a message, visitors see it, and it is undone', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(150_000)
  const owner = await accountWithPublisher(request, 'e2e-dep', 'E2E Deprecation Publisher')
  const nodeId = `e2e-deprecations-${owner.stamp}`
  await publishActive(request, owner.publisherId, nodeId, owner.secret, '1.0.0')
  await publishActive(request, owner.publisherId, nodeId, owner.secret, '1.1.0')

  // Your Nodes, then the node page by its link (client-side navigation).
  await page.goto(`/auth/login?fromUrl=${encodeURIComponent('/nodes')}`)
  await signIn(page, owner.email, owner.password)
  await expect(page).toHaveURL(/\/nodes$/)
  await page.getByRole('link', { name: NODE_NAME }).click()
  await expect(page).toHaveURL(new RegExp(`/nodes/${nodeId}$`))
  const install = page.getByRole('region', { name: 'Install' })
  await expect(install.getByText(`comfy node install ${nodeId}`, { exact: true })).toBeVisible()

  // A version, with a message.
  const versionMessage = 'Breaks saved workflows; use 1.0.0 until 1.2.0.'
  await page.getByRole('button', { name: 'Deprecate version 1.1.0' }).click()
  const versionDialog = page.getByRole('dialog', { name: 'Deprecate version 1.1.0' })
  await versionDialog.getByRole('textbox').fill(versionMessage)
  await expectNoAxeViolations(page)
  await versionDialog.getByRole('button', { name: 'Deprecate' }).click()
  await expect(versionDialog).toHaveCount(0)
  await expect(page.getByText('Version 1.1.0 is now marked deprecated.')).toBeVisible()
  await expect(page.getByText(`Deprecated: ${versionMessage}`)).toBeVisible()
  await expect(install.getByText(`comfy node install ${nodeId}@1.0.0`)).toBeVisible()

  const visitor = await visitorPage(browser, nodeId)
  await expect(visitor.getByText(`Deprecated: ${versionMessage}`)).toBeVisible()
  const visitorInstall = visitor.getByRole('region', { name: 'Install' })
  await expect(visitorInstall.getByText(`comfy node install ${nodeId}@1.0.0`)).toBeVisible()
  await expect(visitorInstall.getByText(/The latest version, 1.1.0, is deprecated/)).toBeVisible()
  await expectNoAxeViolations(visitor)
  // A visitor who wants 1.1.0 anyway asks for it by version, client-side.
  await visitor.getByRole('link', { name: 'Install anyway (version 1.1.0)' }).click()
  await expect(visitor).toHaveURL(new RegExp(`/nodes/${nodeId}\\?version=1\\.1\\.0$`))
  await expect(
    visitorInstall.getByText(`comfy node install ${nodeId}`, { exact: true }),
  ).toBeVisible()
  await expect(
    visitorInstall.getByText(/You asked for version 1.1.0, which is deprecated/),
  ).toBeVisible()
  // Clients keep reading latest_version and its flag as today.
  const api = (await (await request.get(`${API_URL}/nodes/${nodeId}`)).json()) as {
    latest_version: { version: string; deprecated: boolean; deprecation_message: string }
  }
  expect(api.latest_version).toMatchObject({
    version: '1.1.0',
    deprecated: true,
    deprecation_message: versionMessage,
  })

  // Undone in one click.
  await page.getByRole('button', { name: 'Undo deprecation of version 1.1.0' }).click()
  await expect(page.getByText('Version 1.1.0 is no longer deprecated.')).toBeVisible()
  await expect(page.getByText(`Deprecated: ${versionMessage}`)).toHaveCount(0)
  await expect(install.getByText(`comfy node install ${nodeId}`, { exact: true })).toBeVisible()
  await visitor.reload()
  await expect(visitor.getByRole('heading', { level: 1, name: NODE_NAME })).toBeVisible()
  await expect(visitor.getByText(`Deprecated: ${versionMessage}`)).toHaveCount(0)

  // The whole node.
  const nodeMessage = 'Merged into comfy-demo/better-upscaler; install that instead.'
  const manage = page.getByRole('region', { name: 'Manage this node' })
  await manage.getByRole('button', { name: 'Deprecate node' }).click()
  const nodeDialog = page.getByRole('dialog', { name: `Deprecate ${NODE_NAME}` })
  await nodeDialog.getByRole('textbox').fill(nodeMessage)
  await nodeDialog.getByRole('button', { name: 'Deprecate' }).click()
  await expect(nodeDialog).toHaveCount(0)
  await expect(page.getByText(`${NODE_NAME} is now marked deprecated.`)).toBeVisible()
  const banner = page.getByRole('region', { name: 'This node is deprecated' })
  await expect(banner).toContainText(nodeMessage)

  await visitor.reload()
  await expect(visitor.getByRole('region', { name: 'This node is deprecated' })).toContainText(
    nodeMessage,
  )
  await expectNoAxeViolations(visitor)
  await expectNoAxeViolationsInDark(browser, `/nodes/${nodeId}`)

  await manage.getByRole('button', { name: 'Undo node deprecation' }).click()
  await expect(page.getByText(`${NODE_NAME} is no longer deprecated.`)).toBeVisible()
  await expect(banner).toHaveCount(0)
  await visitor.reload()
  await expect(visitor.getByRole('heading', { level: 1, name: NODE_NAME })).toBeVisible()
  await expect(visitor.getByRole('region', { name: 'This node is deprecated' })).toHaveCount(0)
  await visitor.context().close()
})
