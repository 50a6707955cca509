// Cross-site scripting and the security headers, against the real stack. Script payloads go into
// every field people write (node name and description, changelog, the ComfyUI node's display
// name from the archive, publisher name and description, a member's display name); every page
// that shows them is opened, anonymously, as the owner and as an admin. No script may run, the
// payloads' elements must not be in the page (so this does not rest on the CSP alone) and the
// payloads read as text. While browsing, any Content-Security-Policy violation fails the test:
// the policy must not break the product. The headers themselves are checked on pages, an API
// route of the website, the 404 page and the registry API.
import { createHash } from 'node:crypto'
import { expect, test, type APIRequestContext, type Page } from './test'
import { strToU8, zipSync } from 'fflate'
import { DEMO_ADMIN_ACCOUNT } from '../server/seed/accounts'
import { API_URL, AUTH_EMULATOR_URL, createAccount, signIn } from './helpers'

declare global {
  interface Window {
    __xss?: number
    __cspViolations?: string[]
  }
}

const SCRIPT = '<script>window.__xss=1</script>'
const IMG = '<img src=x onerror="window.__xss=1">'
const SVG = '"><svg onload=window.__xss=1>'
const JS_URL = 'javascript:window.__xss=1'

const NODE_NAME = `Xss node ${SVG}`
const PUBLISHER_NAME = `Xss publisher ${IMG}`
const DISPLAY_NAME = `Xss member ${SCRIPT}`
const COMFY_DISPLAY_NAME = `Xss blend ${IMG}`
/** Markdown with raw HTML, a javascript: link and an HTML javascript: link. */
function markdown(marker: string): string {
  return [
    `${marker} ${SCRIPT} ${IMG}`,
    '',
    `[${marker}-link](${JS_URL}) <a href="${JS_URL}">${marker}-raw</a> ${SVG}`,
    '',
    `<iframe src="${JS_URL}"></iframe> <details open ontoggle="window.__xss=1">x</details>`,
  ].join('\n')
}

const INIT = `class XssBlend:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"image": ("IMAGE",)}}

    RETURN_TYPES = ("IMAGE",)
    FUNCTION = "run"
    CATEGORY = "image"

    def run(self, image):
        return (image,)


NODE_CLASS_MAPPINGS = {"XssBlend": XssBlend}
NODE_DISPLAY_NAME_MAPPINGS = {"XssBlend": ${JSON.stringify(COMFY_DISPLAY_NAME)}}
`
/** The same pack with a hidden payload run at import: it is Flagged, for the review queue. */
const FLAGGED_INIT = `import base64\nexec(base64.b64decode("cHJpbnQoMSk="))\n\n${INIT}`

interface Owner {
  email: string
  password: string
  publisherId: string
  nodeId: string
  secret: string
}

/** An owner whose display name, publisher and node carry the payloads, with two versions. */
async function ownerWithPayloads(request: APIRequestContext): Promise<Owner> {
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`
  const email = `xss-${stamp}@example.com`
  const password = 'xss-password-1'
  const account = await createAccount(request, email, password)
  const renamed = await request.post(
    `${AUTH_EMULATOR_URL}/identitytoolkit.googleapis.com/v1/accounts:update?key=any`,
    { data: { idToken: account.idToken, displayName: DISPLAY_NAME } },
  )
  expect(renamed.ok()).toBe(true)
  // A token minted after the update carries the display name (the API stores it as the name).
  const signedIn = await request.post(
    `${AUTH_EMULATOR_URL}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=any`,
    { data: { email, password, returnSecureToken: true } },
  )
  expect(signedIn.ok()).toBe(true)
  const { idToken } = (await signedIn.json()) as { idToken: string }
  const headers = { Authorization: `Bearer ${idToken}` }
  const publisherId = `xss-${stamp}`
  const created = await request.post(`${API_URL}/publishers`, {
    headers,
    data: { id: publisherId, name: PUBLISHER_NAME, description: markdown('xss-publisher') },
  })
  expect(created.status()).toBe(201)
  // A javascript: address is no website.
  const website = await request.put(`${API_URL}/publishers/${publisherId}`, {
    headers,
    data: { website: JS_URL },
  })
  expect(website.status()).toBe(400)
  const token = await request.post(`${API_URL}/publishers/${publisherId}/tokens`, {
    headers,
    data: { name: 'CI token' },
  })
  expect(token.status()).toBe(201)
  const { token: secret } = (await token.json()) as { token: string }
  const owner = { email, password, publisherId, nodeId: `xss-node-${stamp}`, secret }
  await publish(request, owner, '1.0.0', INIT)
  await publish(request, owner, '1.0.1', FLAGGED_INIT)
  return owner
}

/** Publishes a version as comfy-cli does (token in the body), then uploads its zip. */
async function publish(request: APIRequestContext, owner: Owner, version: string, init: string) {
  const published = await request.post(
    `${API_URL}/publishers/${owner.publisherId}/nodes/${owner.nodeId}/versions`,
    {
      data: {
        personal_access_token: owner.secret,
        node: {
          id: owner.nodeId,
          name: NODE_NAME,
          description: markdown('xss-description'),
          repository: `https://github.com/e2e-xss/${owner.nodeId}`,
          license: 'MIT',
        },
        node_version: {
          version,
          changelog: markdown(`xss-changelog-${version}`),
          dependencies: [],
        },
      },
    },
  )
  expect(published.status()).toBe(201)
  const { signedUrl } = (await published.json()) as { signedUrl: string }
  const upload = await request.put(signedUrl, {
    headers: { 'Content-Type': 'application/zip' },
    data: Buffer.from(zipSync({ 'xss_blend/__init__.py': strToU8(init) })),
  })
  expect(upload.status()).toBe(200)
}

/** Records CSP violations and dialogs from the first script of every page. */
async function watch(page: Page): Promise<string[]> {
  const problems: string[] = []
  await page.addInitScript(() => {
    window.__cspViolations = []
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations?.push(
        `${event.violatedDirective} blocked ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`,
      )
    })
  })
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`)
    void dialog.dismiss()
  })
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) problems.push(message.text())
  })
  return problems
}

/** No payload ran or reached the DOM as an element on the open page, and the CSP stayed quiet. */
async function expectInert(page: Page, problems: string[]) {
  await page.waitForLoadState('networkidle')
  expect(await page.evaluate(() => window.__xss)).toBeUndefined()
  for (const selector of [
    'img[src="x"]',
    'svg[onload]',
    '[onerror]',
    '[onload]',
    '[ontoggle]',
    'a[href^="javascript:" i]',
    'iframe[src^="javascript:" i]',
    'body script:not([src]):not([type="application/json"]):not([type="application/ld+json"])',
  ]) {
    await expect(page.locator(selector), selector).toHaveCount(0)
  }
  expect(await page.evaluate(() => window.__cspViolations ?? [])).toEqual([])
  expect(problems).toEqual([])
}

/** Waits until the node page (statically regenerated) shows the published node. */
async function openNodePage(page: Page, nodeId: string) {
  await expect(async () => {
    await page.goto(`/nodes/${nodeId}`)
    await expect(page.getByRole('heading', { level: 1 })).toContainText(NODE_NAME, {
      timeout: 2_000,
    })
  }).toPass({ timeout: 30_000 })
}

test('payloads in every written field render as text and never run', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000)
  const owner = await ownerWithPayloads(request)
  const problems = await watch(page)

  // Anonymous visitors: node page (name, description, changelog, ComfyUI node), publisher page,
  // search results and the home page.
  await openNodePage(page, owner.nodeId)
  await expect(page.getByText('xss-description', { exact: false }).first()).toBeVisible()
  await expect(page.getByText('xss-description-link').first()).toBeVisible()
  await expect(page.getByText(COMFY_DISPLAY_NAME).first()).toBeVisible()
  await expect(page.getByText('xss-changelog-1.0.0', { exact: false }).first()).toBeAttached()
  await expectInert(page, problems)

  await page.goto(`/publishers/${owner.publisherId}`)
  await expect(page.getByRole('heading', { level: 1 })).toContainText(PUBLISHER_NAME)
  await expect(page.getByText('xss-publisher', { exact: false }).first()).toBeVisible()
  await expect(page.getByText(NODE_NAME).first()).toBeVisible()
  await expectInert(page, problems)

  await page.goto(`/?q=${encodeURIComponent(owner.nodeId)}`)
  await expect(page.getByText(NODE_NAME).first()).toBeVisible()
  await expectInert(page, problems)

  await page.goto('/')
  await expectInert(page, problems)

  // The owner: Your Nodes, the publisher's settings with its members, the node page's controls.
  await page.goto('/auth/login?fromUrl=%2Fnodes')
  await signIn(page, owner.email, owner.password)
  await expect(page).toHaveURL(/\/nodes$/)
  await expect(page.getByText(NODE_NAME).first()).toBeVisible()
  await expectInert(page, problems)

  await page.goto(`/publishers/${owner.publisherId}/settings`)
  await expect(page.getByText(DISPLAY_NAME).first()).toBeVisible()
  await expect(page.getByText(PUBLISHER_NAME).first()).toBeVisible()
  await expectInert(page, problems)

  await openNodePage(page, owner.nodeId)
  await expect(page.getByText('xss-changelog-1.0.1', { exact: false }).first()).toBeAttached({
    timeout: 20_000,
  })
  await expectInert(page, problems)

  // An admin: the review queue and the review page of the Flagged version.
  const admin = await browser.newContext()
  const adminPage = await admin.newPage()
  const adminProblems = await watch(adminPage)
  const queue = `/admin/versions?status=all&node=${owner.nodeId}`
  await adminPage.goto(`/auth/login?fromUrl=${encodeURIComponent(queue)}`)
  await signIn(adminPage, DEMO_ADMIN_ACCOUNT.email, DEMO_ADMIN_ACCOUNT.password)
  await expect(adminPage.getByRole('link', { name: `Review ${owner.nodeId} 1.0.1` })).toBeVisible({
    timeout: 20_000,
  })
  await expectInert(adminPage, adminProblems)
  await adminPage.getByRole('link', { name: `Review ${owner.nodeId} 1.0.1` }).click()
  await expect(adminPage.getByRole('heading', { level: 1 })).toContainText(owner.nodeId)
  await expect(adminPage.getByText('xss-changelog-1.0.1', { exact: false }).first()).toBeVisible()
  await expectInert(adminPage, adminProblems)
  await adminPage.goto(`/admin/publishers?search=${owner.publisherId}`)
  await expectInert(adminPage, adminProblems)
  await admin.close()
})

/** The CSP's directives by name. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((part) => {
      const [name, ...values] = part.trim().split(/\s+/)
      return [name, values]
    }),
  )
}

test('every website answer carries the security headers; the inline script is the hashed one', async ({
  request,
}) => {
  const answers = [
    await request.get('/'),
    await request.get('/nodes/comfyui-demo-upscaler'),
    await request.get('/es/publishers/comfy-demo'),
    await request.get('/api/revalidate/nodes/comfyui-demo-upscaler'),
    await request.get('/no-such-page-here'),
  ]
  expect(answers[4].status()).toBe(404)
  for (const answer of answers) {
    const headers = answer.headers()
    const csp = directives(headers['content-security-policy'] ?? '')
    expect(csp.get('script-src'), answer.url()).toBeDefined()
    expect(csp.get('script-src')).not.toContain("'unsafe-inline'")
    expect(csp.get('script-src')).not.toContain("'unsafe-eval'")
    expect(csp.get('frame-ancestors')).toEqual(["'none'"])
    expect(headers['x-content-type-options']).toBe('nosniff')
    expect(headers['x-frame-options']).toBe('DENY')
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
    expect(headers['permissions-policy']).toContain('camera=()')
  }
  // Every inline script that the browser would run is allowed by its hash, and nothing else is.
  for (const answer of [answers[0], answers[1], answers[4]]) {
    const html = await answer.text()
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/g)]
      .filter(([, attributes]) => !/type="application\/(ld\+)?json"/.test(attributes))
      .map(([, , body]) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`)
    expect(inline.length).toBeGreaterThan(0)
    const allowed = directives(answer.headers()['content-security-policy']).get('script-src')
    for (const hash of inline) expect(allowed).toContain(hash)
  }
})

test('the registry API forbids framing and sniffing, and never caches answers to credentials', async ({
  request,
}) => {
  const anonymous = await request.get(`${API_URL}/features`)
  expect(anonymous.headers()['x-content-type-options']).toBe('nosniff')
  expect(anonymous.headers()['x-frame-options']).toBe('DENY')
  expect(anonymous.headers()['content-security-policy']).toContain("default-src 'none'")
  expect(anonymous.headers()['cache-control']).toBe('public, max-age=300')
  const signedIn = await request.get(`${API_URL}/features`, {
    headers: { Authorization: 'Bearer expired-or-not' },
  })
  expect(signedIn.headers()['cache-control']).toBe('private, no-store')
  const missing = await request.get(`${API_URL}/no/such/route`)
  expect(missing.status()).toBe(404)
  expect(missing.headers()['x-content-type-options']).toBe('nosniff')
})
