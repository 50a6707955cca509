// The publishing pipeline as people see it, against the real stack: a version published the way
// comfy-cli does it (token in the body, then the zip PUT to the upload link) is watched by its
// owner as it goes from "Waiting for upload" to Active without a reload; the node page then
// lists its ComfyUI node with inputs and outputs and installs that version. A version with a
// hidden payload is Flagged: its owner reads the finding (file, line, snippet), an anonymous
// visitor sees neither the version nor the finding. axe on the owner's pages, light and dark.
import { expect, test, type APIRequestContext, type Page } from './test'
import { strToU8, zipSync } from 'fflate'
import {
  accountWithPublisher,
  API_URL,
  expectNoAxeViolations,
  signIn,
  type PublisherAccount,
} from './helpers'

interface Owner extends PublisherAccount {
  nodeId: string
  nodeName: string
}

async function ownerWithPublisher(request: APIRequestContext): Promise<Owner> {
  const account = await accountWithPublisher(request, 'pipe', 'Pipeline Publisher')
  return { ...account, nodeId: `pipe-blend-${account.stamp}`, nodeName: 'Pipeline Blend' }
}

/** A real ComfyUI node pack: one class with INPUT_TYPES, RETURN_TYPES and the mappings. */
const CLEAN_INIT = `class ImageBlendAmount:
    @classmethod
    def INPUT_TYPES(cls):
        return {
            "required": {
                "image": ("IMAGE",),
                "amount": ("FLOAT", {"default": 0.5, "min": 0.0, "max": 1.0}),
            },
            "optional": {"mask": ("MASK",)},
        }

    RETURN_TYPES = ("IMAGE",)
    RETURN_NAMES = ("blended",)
    FUNCTION = "blend"
    CATEGORY = "image/filters"

    def blend(self, image, amount, mask=None):
        return (image * amount,)


NODE_CLASS_MAPPINGS = {"ImageBlendAmount": ImageBlendAmount}
NODE_DISPLAY_NAME_MAPPINGS = {"ImageBlendAmount": "Blend Images by Amount"}
`

const PAYLOAD = 'exec(base64.b64decode("cHJpbnQoMSk="))'
/** The same pack with a hidden payload run at import. */
const FLAGGED_INIT = `import base64\n${PAYLOAD}\n\n${CLEAN_INIT}`
const PAYLOAD_LINE = FLAGGED_INIT.split('\n').indexOf(PAYLOAD) + 1

/** `POST …/versions` with the token in the body, as comfy-cli does; answers the upload link. */
async function publishVersion(request: APIRequestContext, owner: Owner, version: string) {
  const published = await request.post(
    `${API_URL}/publishers/${owner.publisherId}/nodes/${owner.nodeId}/versions`,
    {
      data: {
        personal_access_token: owner.secret,
        node: {
          id: owner.nodeId,
          name: owner.nodeName,
          description: 'Blends images, published by the pipeline journey.',
          repository: `https://github.com/e2e-owner/${owner.nodeId}`,
          license: 'MIT',
        },
        node_version: { version, changelog: `Release ${version}.`, dependencies: [] },
      },
    },
  )
  expect(published.status()).toBe(201)
  const { signedUrl } = (await published.json()) as { signedUrl: string }
  return signedUrl
}

/** `PUT`s the zip of the pack (its package one folder down, as comfy-cli packs it). */
async function uploadArchive(request: APIRequestContext, signedUrl: string, init: string) {
  const zip = zipSync({ 'pipeline_blend/__init__.py': strToU8(init) })
  const upload = await request.put(signedUrl, {
    headers: { 'Content-Type': 'application/zip' },
    data: Buffer.from(zip),
  })
  expect(upload.status()).toBe(200)
}

function versionItem(page: Page, version: string) {
  return page.getByRole('listitem').filter({
    has: page.getByRole('heading', { level: 3, name: version, exact: true }),
  })
}

test('the owner watches a version go Active and reads the findings of a Flagged one; visitors see neither', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000)
  const owner = await ownerWithPublisher(request)
  const firstUpload = await publishVersion(request, owner, '1.0.0')

  // Your Nodes shows the upload the registry waits for; the node page opens client-side.
  await page.goto(`/auth/login?fromUrl=${encodeURIComponent('/nodes')}`)
  await signIn(page, owner.email, owner.password)
  await expect(page).toHaveURL(/\/nodes$/)
  const publisher = page.getByRole('region', { name: owner.publisherName })
  await expect(publisher.getByText('Latest upload: 1.0.0')).toBeVisible()
  await expect(publisher.getByRole('status')).toHaveText('Waiting for upload')
  await expectNoAxeViolations(page)
  await page.evaluate(() => {
    window.__pipelineJourney = 'same document'
  })
  await publisher.getByRole('link', { name: owner.nodeName }).click()
  await expect(page).toHaveURL(new RegExp(`/nodes/${owner.nodeId}$`))
  expect(await page.evaluate(() => window.__pipelineJourney)).toBe('same document')
  await expect(page.getByRole('heading', { level: 1, name: owner.nodeName })).toBeVisible()
  const first = versionItem(page, '1.0.0')
  await expect(first.getByRole('status')).toHaveText('Waiting for upload')
  await expect(page.getByText('No version published yet')).toBeVisible()

  // comfy-cli uploads the zip: the state moves on screen, without a reload.
  await uploadArchive(request, firstUpload, CLEAN_INIT)
  await expect(first.getByRole('status')).toHaveText('Active', { timeout: 20_000 })
  expect(await page.evaluate(() => window.__pipelineJourney)).toBe('same document')
  const install = page.getByRole('region', { name: 'Install' })
  await expect(install).toContainText('Installs version 1.0.0')
  await expect(install.getByText(`comfy node install ${owner.nodeId}`)).toBeVisible()
  const comfyNodes = page.getByRole('region', { name: 'Nodes in the latest version' })
  const blend = comfyNodes.getByRole('listitem').filter({
    has: page.getByRole('heading', { level: 3, name: 'Blend Images by Amount' }),
  })
  await expect(blend).toBeVisible()
  await expect(blend.getByText('ImageBlendAmount')).toBeVisible()
  await expect(blend.getByText('Category: image/filters')).toBeVisible()
  const inputs = blend
    .getByRole('heading', { level: 4, name: 'Inputs' })
    .locator('xpath=following-sibling::ul[1]')
  await expect(inputs.getByRole('listitem')).toHaveText([
    'image IMAGE',
    'amount FLOAT',
    'mask MASK(optional)',
  ])
  const outputs = blend
    .getByRole('heading', { level: 4, name: 'Outputs' })
    .locator('xpath=following-sibling::ul[1]')
  await expect(outputs.getByRole('listitem')).toHaveText(['IMAGEblended'])
  await expectNoAxeViolations(page)

  // 1.0.1 hides a payload: it is Flagged, and its owner reads why.
  await uploadArchive(request, await publishVersion(request, owner, '1.0.1'), FLAGGED_INIT)
  await page.reload()
  const flagged = versionItem(page, '1.0.1')
  await expect(flagged.getByRole('status')).toHaveText('Flagged', { timeout: 20_000 })
  const findings = flagged.getByRole('region', { name: /What the checks found/ })
  const finding = findings.getByRole('listitem').filter({ hasText: 'Critical' }).first()
  await expect(finding.getByText(`__init__.py:${PAYLOAD_LINE}`)).toBeVisible()
  await expect(finding.locator('pre code')).toHaveText(PAYLOAD)
  await expect(finding).toContainText('Runs code that was decoded')
  // 1.0.0 stays the installed version.
  await expect(install).toContainText('Installs version 1.0.0')
  await expectNoAxeViolations(page)

  // The same in dark mode.
  await page.evaluate(() => localStorage.setItem('flowbite-theme-mode', 'dark'))
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.reload()
  await expect(page.locator('html')).toHaveClass(/\bdark\b/)
  await expect(findings.locator('pre code')).toHaveText(PAYLOAD)
  await expectNoAxeViolations(page)

  // An anonymous visitor: 1.0.0 only, no trace of 1.0.1 or its finding.
  const visitorContext = await browser.newContext()
  const visitor = await visitorContext.newPage()
  await visitor.goto(`/nodes/${owner.nodeId}`)
  await expect(visitor.getByRole('heading', { level: 1, name: owner.nodeName })).toBeVisible()
  await expect(versionItem(visitor, '1.0.0')).toBeVisible()
  await expect(
    visitor.getByRole('region', { name: 'Install' }).getByText('Installs version 1.0.0'),
  ).toBeVisible()
  // Wait for the page's refresh from the API once idle, then check nothing else arrived.
  await visitor.waitForLoadState('networkidle')
  await expect(visitor.getByRole('heading', { level: 3, name: '1.0.1', exact: true })).toHaveCount(
    0,
  )
  await expect(visitor.getByText(/What the checks found/)).toHaveCount(0)
  const html = await visitor.content()
  expect(html).not.toContain('b64decode')
  expect(html).not.toContain('"version":"1.0.1"')
  await visitorContext.close()

  // The API agrees: anonymous callers get neither the version nor any reason.
  const anonymous = await request.get(
    `${API_URL}/nodes/${owner.nodeId}/versions?statuses=NodeVersionStatusFlagged&statuses=NodeVersionStatusActive&include_status_reason=true`,
  )
  expect(anonymous.status()).toBe(200)
  const listed = (await anonymous.json()) as { version: string; status_reason?: string }[]
  expect(listed.map((version) => version.version)).toEqual(['1.0.0'])
  expect(JSON.stringify(listed)).not.toContain('b64decode')
})

declare global {
  interface Window {
    /** Set in the page to prove that navigation and updates kept the same document. */
    __pipelineJourney?: string
  }
}
