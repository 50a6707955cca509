// The site on a 360 px phone: the node page of a node with a very long id (its install command,
// id and repository wrap at their joints instead of widening the page), the owners' Your Nodes
// and member list (every control reachable, nothing clipped), and an owner's Pending and Flagged
// changelogs rendered as markdown. Each page: no horizontal scrolling of the page, no clipped
// content, and axe.
import { expect, test, type APIRequestContext, type Locator, type Page } from './test'
import { strToU8, zipSync } from 'fflate'
import { DEMO_PUBLISHER, DEMO_PUBLISHER_ACCOUNT } from '../server/seed/accounts'
import {
  accountWithPublisher,
  API_URL,
  expectNoAxeViolations,
  signIn,
  type PublisherAccount,
} from './helpers'

const WIDTH = 360
test.use({ viewport: { width: WIDTH, height: 740 } })

/** The page itself never scrolls sideways. */
async function expectNoHorizontalOverflow(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }))
  expect(scrollWidth, 'the page is wider than the screen').toBeLessThanOrEqual(clientWidth)
}

/**
 * Elements of the main content that stick out of the screen, or cut their own content off
 * (overflow hidden or clip with wider content). Screen-reader-only text, ellipsis truncation on
 * purpose and scroll containers are not clipping.
 */
async function expectNothingClipped(page: Page) {
  const clipped = await page.evaluate(() => {
    const found: string[] = []
    for (const element of document.querySelectorAll<HTMLElement>('main *')) {
      if (element.closest('.sr-only') || element.matches('input, textarea, select')) continue
      // Content of a scroll container (a wide code block) scrolls inside it, on purpose.
      let scroller = element.parentElement
      while (scroller && !['auto', 'scroll'].includes(getComputedStyle(scroller).overflowX)) {
        scroller = scroller.parentElement
      }
      if (scroller && scroller.closest('main')) continue
      const rect = element.getBoundingClientRect()
      if (rect.width === 0 || rect.height === 0) continue
      const style = getComputedStyle(element)
      const outside = rect.left < -0.5 || rect.right > window.innerWidth + 0.5
      const cuts =
        (style.overflowX === 'hidden' || style.overflowX === 'clip') &&
        style.textOverflow !== 'ellipsis' &&
        element.scrollWidth > element.clientWidth + 1
      if (outside || cuts) {
        const name = `${element.tagName.toLowerCase()}.${[...element.classList].slice(0, 4).join('.')}`
        found.push(`${name} "${(element.textContent ?? '').trim().slice(0, 40)}"`)
      }
    }
    return found
  })
  expect(clipped, 'elements outside the screen or cut off').toEqual([])
}

/** The element is on screen horizontally, whole. */
async function expectWithinScreen(locator: Locator) {
  await expect(locator).toBeVisible()
  const box = await locator.boundingBox()
  expect(box).not.toBeNull()
  expect(box!.x).toBeGreaterThanOrEqual(0)
  expect(box!.x + box!.width).toBeLessThanOrEqual(WIDTH)
}

async function expectFitsTheScreen(page: Page) {
  await expectNoHorizontalOverflow(page)
  await expectNothingClipped(page)
}

interface LongNode extends PublisherAccount {
  nodeId: string
}

/**
 * A publisher and an Active node whose ids are as long as the contract allows (100 characters
 * for the node), published and uploaded as comfy-cli does.
 */
async function publishLongNode(request: APIRequestContext): Promise<LongNode> {
  const account = await accountWithPublisher(
    request,
    'narrow-publisher-with-a-rather-long-identifier',
    'Narrow Publisher',
  )
  const nodeId =
    `comfyui-${account.stamp}-an-extremely-long-node-identifier_with.dots-and-underscores-to-wrap`
      .slice(0, 100)
      .replace(/[-_.]+$/, '')
  const published = await request.post(
    `${API_URL}/publishers/${account.publisherId}/nodes/${nodeId}/versions`,
    {
      data: {
        personal_access_token: account.secret,
        node: {
          id: nodeId,
          name: 'Narrow Screen Node',
          description: 'Published by the narrow-screen journey.',
          author: 'Ada Lovelace',
          repository: `https://github.com/narrow-screen-organisation/${nodeId}`,
          license: 'MIT',
          supported_os: ['windows', 'macos'],
          supported_accelerators: ['cuda', 'mps', 'npu-x'],
        },
        node_version: {
          version: '1.0.0',
          changelog: '## 1.0.0\n\n- First **release**.',
          dependencies: [],
        },
      },
    },
  )
  expect(published.status()).toBe(201)
  const { signedUrl } = (await published.json()) as { signedUrl: string }
  const zip = zipSync({ 'narrow/__init__.py': strToU8('NODE_CLASS_MAPPINGS = {}\n') })
  const upload = await request.put(signedUrl, {
    headers: { 'Content-Type': 'application/zip' },
    data: Buffer.from(zip),
  })
  expect(upload.status()).toBe(200)
  // The pipeline makes the clean version Active.
  await expect
    .poll(
      async () => {
        const node = await request.get(`${API_URL}/nodes/${nodeId}`)
        return node.ok() ? ((await node.json()) as { latest_version?: unknown }).latest_version : 0
      },
      { timeout: 30_000 },
    )
    .toBeTruthy()
  return { ...account, nodeId }
}

async function signInTo(page: Page, email: string, password: string, path: string) {
  await page.goto(`/auth/login?fromUrl=${encodeURIComponent(path)}`)
  await signIn(page, email, password)
  await expect(page).toHaveURL(new RegExp(`${path.replace(/[/.]/g, '\\$&')}$`))
}

test('the node page of a very long id fits 360 px: command, id, repository, facts', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000)
  const node = await publishLongNode(request)
  expect(node.nodeId.length).toBeGreaterThan(80)

  await page.goto(`/nodes/${node.nodeId}`)
  await expect(page.getByRole('heading', { level: 1, name: 'Narrow Screen Node' })).toBeVisible()
  const install = page.getByRole('region', { name: 'Install' })
  const command = install.getByText(`comfy node install ${node.nodeId}`)
  await expectWithinScreen(command)
  await expectWithinScreen(install.getByRole('button', { name: 'Copy' }))
  // It wraps at the id's joints: several lines, each word whole.
  const lines = await command.evaluate((element) => {
    const range = document.createRange()
    range.selectNodeContents(element)
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size
  })
  expect(lines).toBeGreaterThan(1)
  await expectWithinScreen(page.getByText(node.nodeId, { exact: true }))
  await expectWithinScreen(page.getByRole('link', { name: /narrow-screen-organisation/ }))

  // Readable compatibility names (an unknown one as given) and the author, apart from the
  // publisher.
  const details = page.getByRole('region', { name: 'Details' })
  await expect(details.getByRole('definition').filter({ hasText: 'Ada Lovelace' })).toBeVisible()
  const compatibility = page.getByRole('region', { name: 'Compatibility' })
  await expect(compatibility).toContainText('Windows, macOS')
  await expect(compatibility).toContainText('CUDA (NVIDIA), MPS (Apple), npu-x')
  await expect(page.getByRole('link', { name: 'Narrow Publisher' })).toBeVisible()

  await expectFitsTheScreen(page)
  await expectNoAxeViolations(page)
})

test('Your Nodes at 360 px: long ids wrap, every node and link is reachable', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000)
  const node = await publishLongNode(request)
  await signInTo(page, node.email, node.password, '/nodes')
  const publisher = page.getByRole('region', { name: node.publisherName })
  await expectWithinScreen(publisher.getByRole('link', { name: 'Narrow Screen Node' }))
  await expectWithinScreen(publisher.getByText(node.nodeId, { exact: true }))
  await expectWithinScreen(publisher.getByText(`@${node.publisherId}`, { exact: true }))
  await expectWithinScreen(
    publisher.getByRole('link', { name: `Settings of ${node.publisherName}` }),
  )
  await expectFitsTheScreen(page)
  await expectNoAxeViolations(page)
})

test('Your Nodes of the demo publisher at 360 px: uploads under review fit too', async ({
  page,
}) => {
  await signInTo(page, DEMO_PUBLISHER_ACCOUNT.email, DEMO_PUBLISHER_ACCOUNT.password, '/nodes')
  const demo = page.getByRole('region', { name: DEMO_PUBLISHER.name })
  await expect(demo.getByRole('link', { name: 'Demo Upscaler' })).toBeVisible()
  // Uploads under review (the demo's Flagged and Pending versions; e2e/admin.spec.ts approves one).
  await expect(demo.getByText(/^Latest upload: /).first()).toBeVisible()
  await expectWithinScreen(demo.getByRole('link', { name: `Settings of ${DEMO_PUBLISHER.name}` }))
  await expectFitsTheScreen(page)
  await expectNoAxeViolations(page)
})

test('the member list at 360 px: names readable, each role and Remove reachable', async ({
  page,
}) => {
  const stamp = Date.now().toString(36)
  const invitee = `a-rather-long.invitee-address-${stamp}@subdomain.example-organisation.com`
  const settings = `/publishers/${DEMO_PUBLISHER.id}/settings`
  await signInTo(page, DEMO_PUBLISHER_ACCOUNT.email, DEMO_PUBLISHER_ACCOUNT.password, settings)
  const members = page.getByRole('region', { name: 'Members' })
  await expect(members.getByText(DEMO_PUBLISHER_ACCOUNT.name)).toBeVisible()

  // A pending invitation with a long address joins the list.
  await members.getByRole('textbox', { name: 'Email address' }).fill(invitee)
  await members.getByRole('button', { name: 'Invite', exact: true }).click()
  const cancel = members.getByRole('button', { name: `Cancel invitation for ${invitee}` })
  await expectWithinScreen(cancel)
  await expectWithinScreen(members.getByText(invitee, { exact: true }))

  for (const role of await members.getByRole('combobox', { name: /^Role of / }).all()) {
    await expectWithinScreen(role)
  }
  for (const remove of await members.getByRole('button', { name: /^Remove / }).all()) {
    await expectWithinScreen(remove)
  }
  // The name keeps a readable width: the controls wrap below it rather than squeezing it.
  const name = members.getByText(DEMO_PUBLISHER_ACCOUNT.name).first()
  expect((await name.boundingBox())!.width).toBeGreaterThan(150)
  await expectFitsTheScreen(page)
  await expectNoAxeViolations(page)

  await cancel.click()
  await expect(cancel).toHaveCount(0)
})

test('an owner reads Pending and Flagged changelogs as markdown on a phone', async ({ page }) => {
  await signInTo(
    page,
    DEMO_PUBLISHER_ACCOUNT.email,
    DEMO_PUBLISHER_ACCOUNT.password,
    '/nodes/comfyui-demo-prompt-tools',
  )
  const flagged = page.getByRole('listitem').filter({
    has: page.getByRole('heading', { level: 3, name: '0.3.0', exact: true }),
  })
  await expect(flagged.getByRole('status')).toHaveText('Flagged')
  // The changelog "## 0.3.0\n\n- …" as a heading and a list, not as its source.
  await expect(flagged.getByRole('heading', { level: 4, name: '0.3.0' })).toBeVisible()
  await expect(flagged.getByRole('list').first()).toBeVisible()
  await expect(flagged).not.toContainText('## 0.3.0')
  await expectFitsTheScreen(page)
  await expectNoAxeViolations(page)

  await page.goto('/nodes/comfyui-demo-face-restore')
  const pending = page.getByRole('listitem').filter({
    has: page.getByRole('heading', { level: 3, name: '2.0.0', exact: true }),
  })
  await expect(pending.getByRole('status')).toBeVisible()
  await expect(pending.getByRole('heading', { level: 4, name: '2.0.0' })).toBeVisible()
  await expect(pending).not.toContainText('## 2.0.0')
  await expectFitsTheScreen(page)
})
