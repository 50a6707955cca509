// Trusted publishing as a publisher meets it, against the real stack: the owner adds a GitHub
// Actions workflow to the node's trusted publishers from the node page, a simulated workflow run
// (the fake OIDC issuer on loopback the stack is pointed at) exchanges its token and publishes
// with comfy-cli's request, and the node page then says where the version came from. The same
// OIDC token cannot be used twice; the audit trail records it all; once the trusted publisher is
// removed the workflow is refused.
import { expect, test, type APIRequestContext, type Page } from './test'
import { strToU8, zipSync } from 'fflate'
import { startFakeGithub, type FakeGithub } from '../server/test/fake-github'
import { startFakeOidcIssuer, type FakeOidcIssuer } from '../server/test/fake-oidc-issuer'
import {
  accountWithPublisher,
  API_URL,
  E2E_FAKES,
  expectNoAxeViolations,
  signIn,
  type PublisherAccount,
} from './helpers'

const OWNER = 'e2e-actions'
const OWNER_ID = 4242
const SHA = '5f3a9c1d7e2b4a6c8d0e1f2a3b4c5d6e7f8a9b0c'

let issuer: FakeOidcIssuer
let github: FakeGithub

test.beforeAll(async () => {
  issuer = await startFakeOidcIssuer({ port: E2E_FAKES.oidcIssuerPort })
  github = await startFakeGithub({ port: E2E_FAKES.githubPort })
  github.addUser(OWNER, OWNER_ID)
})

test.afterAll(async () => {
  await issuer.close()
  await github.close()
})

const INIT = `class TrustedBlend:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"image": ("IMAGE",)}}

    RETURN_TYPES = ("IMAGE",)
    FUNCTION = "run"
    CATEGORY = "image"

    def run(self, image):
        return (image,)


NODE_CLASS_MAPPINGS = {"TrustedBlend": TrustedBlend}
`

/** comfy-cli's publish request: the token (a PAT or a minted one) in the body, then the zip. */
async function publish(
  request: APIRequestContext,
  account: PublisherAccount,
  nodeId: string,
  version: string,
  token: string,
) {
  const published = await request.post(
    `${API_URL}/publishers/${account.publisherId}/nodes/${nodeId}/versions`,
    {
      data: {
        personal_access_token: token,
        node: {
          id: nodeId,
          name: 'Trusted Blend',
          description: 'Published by the trusted publishing journey.',
          repository: `https://github.com/${OWNER}/${nodeId}`,
          license: 'MIT',
        },
        node_version: { version, changelog: `Release ${version}.`, dependencies: [] },
      },
    },
  )
  expect(published.status()).toBe(201)
  const { signedUrl } = (await published.json()) as { signedUrl: string }
  const upload = await request.put(signedUrl, {
    headers: { 'Content-Type': 'application/zip' },
    data: Buffer.from(zipSync({ 'trusted_blend/__init__.py': strToU8(INIT) })),
  })
  expect(upload.status()).toBe(200)
}

/** The workflow's exchange step: its OIDC token for a publish token of `nodeId`. */
async function exchange(request: APIRequestContext, oidcToken: string, nodeId: string) {
  return request.post(`${API_URL}/trusted-publishing/exchange`, {
    data: { token: oidcToken, node_id: nodeId },
  })
}

function versionItem(page: Page, version: string) {
  return page.getByRole('listitem').filter({
    has: page.getByRole('heading', { level: 3, name: version, exact: true }),
  })
}

test('an owner adds a trusted publisher, a workflow publishes with no stored secret, and the page shows where it came from', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000)
  const account = await accountWithPublisher(request, 'tp', 'Trusted Publisher Co')
  const nodeId = `tp-blend-${account.stamp}`
  await publish(request, account, nodeId, '1.0.0', account.secret)

  // The owner reaches the node from Your Nodes, client-side, and adds the workflow.
  await page.goto(`/auth/login?fromUrl=${encodeURIComponent('/nodes')}`)
  await signIn(page, account.email, account.password)
  await expect(page).toHaveURL(/\/nodes$/)
  await page
    .getByRole('region', { name: account.publisherName })
    .getByRole('link', { name: 'Trusted Blend' })
    .click()
  await expect(page).toHaveURL(new RegExp(`/nodes/${nodeId}$`))
  const trusted = page.getByRole('region', { name: 'Trusted publishers' })
  await expect(trusted.getByText(/No trusted publishers yet/)).toBeVisible()
  await trusted.getByRole('button', { name: 'Add trusted publisher' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add a trusted publisher' })
  // Prefilled from the node's repository.
  await expect(dialog.getByRole('textbox', { name: 'Repository owner' })).toHaveValue(OWNER)
  await expect(dialog.getByRole('textbox', { name: 'Repository name' })).toHaveValue(nodeId)
  await dialog.getByRole('textbox', { name: 'Workflow file' }).fill('publish.yml')
  await expectNoAxeViolations(page)
  await dialog.getByRole('button', { name: 'Add trusted publisher' }).click()
  await expect(dialog).toBeHidden()
  const entry = trusted.getByRole('listitem')
  await expect(entry.getByRole('link', { name: `${OWNER}/${nodeId}` })).toBeVisible()
  await expect(entry).toContainText('publish.yml')
  await expect(entry).toContainText('Never')

  // A workflow run of that repository publishes 1.1.0 with a minted token.
  const oidc = await issuer.sign({
    repository: `${OWNER}/${nodeId}`,
    ownerId: OWNER_ID,
    workflow: 'publish.yml',
    sha: SHA,
    runId: '777',
  })
  const minted = await exchange(request, oidc, nodeId)
  expect(minted.status()).toBe(200)
  const { token } = (await minted.json()) as { token: string }
  await publish(request, account, nodeId, '1.1.0', token)

  // The same OIDC token again is refused, and so is the used publish token.
  const replay = await exchange(request, oidc, nodeId)
  expect(replay.status()).toBe(401)
  expect(((await replay.json()) as { message: string }).message).toMatch(/already/i)

  // The page says where each version came from once 1.1.0 is Active (the owner's page follows
  // versions it watches; one published elsewhere appears on the next load).
  await page.reload()
  const workflowVersion = versionItem(page, '1.1.0')
  await expect(workflowVersion.getByRole('status')).toHaveText('Active', { timeout: 30_000 })
  await expect(workflowVersion).toContainText(
    `Published from ${OWNER}/${nodeId}@5f3a9c1 by workflow publish.yml`,
  )
  await expect(workflowVersion.getByRole('link', { name: 'Workflow run' })).toHaveAttribute(
    'href',
    new RegExp(`/${OWNER}/${nodeId}/actions/runs/777`),
  )
  await expect(versionItem(page, '1.0.0')).toContainText('Published with a personal access token')

  // Visitors see the same provenance on the server-rendered page.
  const visitor = await page.context().browser()!.newContext()
  const visitorPage = await visitor.newPage()
  await visitorPage.goto(`/nodes/${nodeId}`)
  await expect(versionItem(visitorPage, '1.1.0')).toContainText(
    `Published from ${OWNER}/${nodeId}@5f3a9c1 by workflow publish.yml`,
  )
  await visitor.close()

  // The publisher's audit trail, from its settings page.
  await page.goto(`/publishers/${account.publisherId}/settings`)
  const trail = page.getByRole('region', { name: 'Audit trail' })
  await expect(
    trail.getByRole('listitem').filter({ hasText: 'Trusted publisher added' }),
  ).toContainText(account.email)
  await expect(
    trail.getByRole('listitem').filter({ hasText: 'Version published' }).first(),
  ).toContainText(`workflow ${OWNER}/${nodeId}`)

  // Removing the trusted publisher takes effect at once.
  await page.goto(`/nodes/${nodeId}`)
  await page
    .getByRole('button', { name: `Remove trusted publisher ${OWNER}/${nodeId} (publish.yml)` })
    .click()
  await page
    .getByRole('dialog', { name: `Remove ${OWNER}/${nodeId} (publish.yml)?` })
    .getByRole('button', { name: 'Remove' })
    .click()
  await expect(
    page.getByRole('region', { name: 'Trusted publishers' }).getByText(/No trusted publishers yet/),
  ).toBeVisible()
  const refused = await exchange(
    request,
    await issuer.sign({ repository: `${OWNER}/${nodeId}`, ownerId: OWNER_ID }),
    nodeId,
  )
  expect(refused.status()).toBe(403)
})
