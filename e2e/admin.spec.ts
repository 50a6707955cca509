// The Admin Dashboard as moderators use it, against the real stack and the demo data: a Pending
// version flagged with a reason that its owner reads on Your Nodes, then undone from the audit
// log and approved, after which it installs; a batch decision undone as a whole; a node banned
// (its page says so and offers no install); an unclaimed node added and offered for claiming;
// and the 404 page for a signed-in non-admin. Navigation goes through the dashboard's links.
import { expect, test, type APIRequestContext, type Page } from './test'
import { DEMO_ADMIN_ACCOUNT, DEMO_PUBLISHER_ACCOUNT } from '../server/seed/accounts'
import {
  accountWithPublisher,
  API_URL,
  AUTH_EMULATOR_URL,
  createAccount,
  expectNoAxeViolations,
  signIn,
} from './helpers'

/** The demo's Pending version of the demo publisher (server/seed/generate.ts DEMO_NODES). */
const PENDING = { node: 'comfyui-demo-face-restore', version: '2.0.0' }

async function signInAsAdmin(page: Page, path: string) {
  await page.goto(`/auth/login?fromUrl=${encodeURIComponent(path)}`)
  await signIn(page, DEMO_ADMIN_ACCOUNT.email, DEMO_ADMIN_ACCOUNT.password)
  await expect(page).toHaveURL(new RegExp(`${path.replace(/[?]/g, '\\?')}$`))
}

/** The admin's ID token from the Auth emulator, for checks through the API. */
async function adminToken(request: APIRequestContext): Promise<string> {
  const response = await request.post(
    `${AUTH_EMULATOR_URL}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=any`,
    {
      data: {
        email: DEMO_ADMIN_ACCOUNT.email,
        password: DEMO_ADMIN_ACCOUNT.password,
        returnSecureToken: true,
      },
    },
  )
  expect(response.ok()).toBe(true)
  return ((await response.json()) as { idToken: string }).idToken
}

async function versionStatus(request: APIRequestContext, token: string, node: string, v: string) {
  const response = await request.get(`${API_URL}/nodes/${node}/versions/${v}`, {
    headers: { Authorization: `Bearer ${token}` },
  })
  expect(response.status()).toBe(200)
  return ((await response.json()) as { status: string }).status
}

test('a flag with its reason reaches the owner; undone from the audit log and approved, the version installs', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000)
  await signInAsAdmin(page, '/admin')
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible()
  await expectNoAxeViolations(page)

  // Overview → the Pending list → this node's version, all by links.
  await page.getByRole('link', { name: /Pending review/ }).click()
  await expect(page).toHaveURL(/\/admin\/versions\?status=pending$/)
  const filters = page.getByRole('search', { name: 'Filter versions' })
  await filters.getByLabel('Node id').fill(PENDING.node)
  await filters.getByRole('button', { name: 'Apply filters' }).click()
  await expect(page).toHaveURL(new RegExp(`node=${PENDING.node}`))
  // The previous rows stay until the filtered ones arrive: this node has one Pending version.
  const queue = page.getByRole('table', { name: 'Versions to review' })
  await expect(queue.getByRole('checkbox', { name: /^Select (?!all)/ })).toHaveCount(1)
  await expect(
    queue.getByRole('checkbox', { name: `Select ${PENDING.node} ${PENDING.version}` }),
  ).toBeVisible()
  await expectNoAxeViolations(page)
  await page.getByRole('link', { name: `Review ${PENDING.node} ${PENDING.version}` }).click()
  await expect(
    page.getByRole('heading', { level: 1, name: `Review ${PENDING.node}@${PENDING.version}` }),
  ).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Files', exact: true })).toBeVisible()
  await expectNoAxeViolations(page)

  // Flag: a reason is required, then given.
  const reason = 'The face model is downloaded from an unpinned URL; pin it with a checksum.'
  await page.getByRole('button', { name: 'Flag', exact: true }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('button', { name: 'Flag', exact: true }).click()
  await expect(dialog.getByText('Write a reason: flagging and banning need one.')).toBeVisible()
  await dialog.getByLabel('Reason (shown to the publishers)').fill(reason)
  await dialog.getByRole('button', { name: 'Flag', exact: true }).click()
  await expect(page.getByText(`Flagged ${PENDING.node} ${PENDING.version}.`)).toBeVisible()

  // The owner reads the decision and its reason on Your Nodes.
  const ownerContext = await browser.newContext()
  const owner = await ownerContext.newPage()
  await owner.goto(`/auth/login?fromUrl=${encodeURIComponent('/nodes')}`)
  await signIn(owner, DEMO_PUBLISHER_ACCOUNT.email, DEMO_PUBLISHER_ACCOUNT.password)
  await expect(owner).toHaveURL(/\/nodes$/)
  const demo = owner.getByRole('region', { name: 'Comfy Demo' })
  const row = demo.getByRole('listitem').filter({ hasText: PENDING.node })
  await expect(row.getByText(`Latest upload: ${PENDING.version}`)).toBeVisible()
  await expect(row.getByText(`Decision: ${reason}`)).toBeVisible()
  await expect(row.getByText(`Decided by ${DEMO_ADMIN_ACCOUNT.email}`)).toBeVisible()
  await expectNoAxeViolations(owner)
  await ownerContext.close()

  // The admin undoes the flag from the audit log…
  await page
    .getByRole('navigation', { name: 'Admin sections' })
    .getByRole('link', { name: 'Audit log' })
    .click()
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible()
  // Before the undo, the flag is the only row with its reason; after it, the undo row also
  // names it, and the flag's row carries the "Undone" badge.
  const withReason = page.getByRole('row').filter({ hasText: reason })
  await expect(withReason).toHaveCount(1)
  await withReason.getByRole('button', { name: /^Undo Version status change/ }).click()
  const confirm = page.getByRole('dialog', { name: 'Undo this action?' })
  await confirm.getByRole('button', { name: 'Undo' }).click()
  await expect(page.getByText('The action was undone.')).toBeVisible()
  const flagRow = withReason.filter({ has: page.getByText('Undone', { exact: true }) })
  await expect(flagRow).toHaveCount(1)
  await expect(flagRow.getByRole('button', { name: /^Undo/ })).toHaveCount(0)
  await expectNoAxeViolations(page)
  const token = await adminToken(request)
  expect(await versionStatus(request, token, PENDING.node, PENDING.version)).toBe(
    'NodeVersionStatusPending',
  )

  // …and approves it from its review with the keyboard shortcut.
  await flagRow
    .getByRole('link', { name: `${PENDING.node}@${PENDING.version}`, exact: true })
    .click()
  await expect(
    page.getByRole('heading', { level: 1, name: `Review ${PENDING.node}@${PENDING.version}` }),
  ).toBeVisible()
  // The shortcut belongs to the decision buttons, which come with the version's data.
  await expect(page.getByRole('button', { name: 'Approve', exact: true })).toBeVisible()
  await page.keyboard.press('a')
  const approve = page.getByRole('dialog')
  await approve.getByLabel('Reason (shown to the publishers)').fill('Pinned upstream since.')
  await approve.getByRole('button', { name: 'Approve', exact: true }).click()
  await expect(page.getByText(`Approved ${PENDING.node} ${PENDING.version}.`)).toBeVisible()

  // Now it installs.
  const install = await request.get(`${API_URL}/nodes/${PENDING.node}/install`)
  expect(install.status()).toBe(200)
  const installed = (await install.json()) as { version: string; downloadUrl: string }
  expect(installed.version).toBe(PENDING.version)
  expect((await request.get(installed.downloadUrl)).status()).toBe(200)
})

test('a batch decision on two versions, undone as a whole', async ({ page, request }) => {
  test.setTimeout(90_000)
  await signInAsAdmin(page, '/admin/versions?status=pending')
  const table = page.getByRole('table', { name: 'Versions to review' })
  const rows = table.getByRole('row').filter({ has: page.getByRole('checkbox') })
  await expect(rows.nth(2)).toBeVisible()
  // The first two rows that are not the demo publisher's node used by the journey above.
  const picked: { node: string; version: string }[] = []
  for (let index = 1; picked.length < 2; index += 1) {
    const label = await rows.nth(index).getByRole('checkbox').getAttribute('aria-label')
    const match = /^Select (\S+) (\S+)$/.exec(label ?? '')
    if (!match || match[1] === PENDING.node) continue
    await rows.nth(index).getByRole('checkbox').check()
    picked.push({ node: match[1], version: match[2] })
  }
  const bulk = page.getByRole('toolbar', { name: 'Decide on the selected versions' })
  await expect(bulk.getByText('2 selected')).toBeVisible()
  await bulk.getByRole('button', { name: 'Flag' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Reason (shown to the publishers)').fill('Batch check: licence missing.')
  await dialog.getByRole('button', { name: 'Flag 2 versions' }).click()
  await expect(page.getByText('Flagged 2 versions.')).toBeVisible()
  const token = await adminToken(request)
  for (const { node, version } of picked) {
    expect(await versionStatus(request, token, node, version)).toBe('NodeVersionStatusFlagged')
  }
  await page.getByRole('button', { name: 'Undo' }).click()
  await expect(page.getByText('Undone: 2 versions are back to their former status.')).toBeVisible()
  for (const { node, version } of picked) {
    expect(await versionStatus(request, token, node, version)).toBe('NodeVersionStatusPending')
  }
  await expectNoAxeViolations(page)
})

test('a banned node: its page says so and offers no install; an added node can be claimed', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000)
  // A node of its own, published and Active, to ban.
  const owner = await accountWithPublisher(request, 'ban', 'Ban Journey Publisher')
  const nodeId = `ban-target-${owner.stamp}`
  const published = await request.post(
    `${API_URL}/publishers/${owner.publisherId}/nodes/${nodeId}/versions`,
    {
      data: {
        personal_access_token: owner.secret,
        node: { id: nodeId, name: 'Ban Target', repository: `https://github.com/e2e/${nodeId}` },
        node_version: { version: '1.0.0', changelog: 'First.', dependencies: [] },
      },
    },
  )
  expect(published.status()).toBe(201)

  await signInAsAdmin(page, '/admin')
  await page
    .getByRole('navigation', { name: 'Admin sections' })
    .getByRole('link', { name: 'Nodes' })
    .click()
  await expect(page.getByRole('heading', { level: 1, name: 'Nodes' })).toBeVisible()
  await page.getByRole('searchbox', { name: 'Search nodes' }).fill(nodeId)
  await page.getByRole('button', { name: 'Search' }).click()
  const row = page.getByRole('row').filter({ hasText: nodeId })
  await row.getByRole('button', { name: `Ban ${nodeId}` }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('Impersonates another project.')
  await dialog.getByRole('button', { name: 'Ban node' }).click()
  await expect(page.getByText(`${nodeId} is banned.`)).toBeVisible()
  await expectNoAxeViolations(page)

  // The node's page, reached from the admin list: the notice, and no install.
  await row.getByRole('link', { name: nodeId, exact: true }).click()
  await expect(page).toHaveURL(new RegExp(`/nodes/${nodeId}$`))
  const notice = page.getByRole('alert').filter({ hasText: 'This node is banned' })
  await expect(notice).toContainText('Impersonates another project.')
  await expect(page.getByRole('region', { name: 'Install' })).toHaveCount(0)
  expect((await request.get(`${API_URL}/nodes/${nodeId}/install`)).status()).toBe(404)

  // An unclaimed node, added from the dashboard.
  await page.goto('/admin/nodes/new')
  const addedId = `unclaimed-${owner.stamp}`
  await page.getByLabel('Node ID').fill(addedId)
  await expect(page.getByText(`${addedId} is available.`)).toBeVisible()
  await page.getByLabel('Display name').fill('Unclaimed Journey Node')
  await page.getByLabel('Repository URL').fill(`https://github.com/e2e/${addedId}`)
  await page.getByRole('button', { name: 'Add node' }).click()
  await expect(page.getByText(`${addedId} was added.`)).toBeVisible()
  await expectNoAxeViolations(page)

  // A signed-in user sees "Claim this node" on its page.
  const userContext = await browser.newContext()
  const visitor = await userContext.newPage()
  const email = `claimer-${owner.stamp}@example.com`
  await createAccount(request, email, 'claimer-password-1')
  await visitor.goto(`/auth/login?fromUrl=${encodeURIComponent(`/nodes/${addedId}`)}`)
  await signIn(visitor, email, 'claimer-password-1')
  await expect(visitor).toHaveURL(new RegExp(`/nodes/${addedId}$`))
  await expect(
    visitor.getByRole('region', { name: 'This node has no publisher yet' }),
  ).toBeVisible()
  await expect(visitor.getByRole('button', { name: 'Claim this node' })).toBeVisible()
  await userContext.close()
})

test('a signed-in non-admin gets the 404 page at /admin; the dashboard is accessible in dark mode', async ({
  page,
  browser,
  request,
}) => {
  const email = `not-admin-${Date.now().toString(36)}@example.com`
  await createAccount(request, email, 'not-admin-password-1')
  await page.goto(`/auth/login?fromUrl=${encodeURIComponent('/admin')}`)
  await signIn(page, email, 'not-admin-password-1')
  await expect(page).toHaveURL(/\/admin$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible()
  await expect(page.getByRole('navigation', { name: 'Admin sections' })).toHaveCount(0)

  // Signed out, the dashboard sends to the login page and back.
  const anonymous = await browser.newPage()
  await anonymous.goto('/admin/actions')
  await expect(anonymous).toHaveURL(/\/auth\/login\?fromUrl=%2Fadmin%2Factions$/)
  await anonymous.close()

  const dark = await browser.newContext({ colorScheme: 'dark' })
  await dark.addInitScript(() => localStorage.setItem('flowbite-theme-mode', 'dark'))
  const admin = await dark.newPage()
  await signInAsAdmin(admin, '/admin/versions')
  await expect(admin.getByRole('table', { name: 'Versions to review' })).toBeVisible()
  await expectNoAxeViolations(admin)
  await dark.close()
})
