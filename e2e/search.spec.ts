import { expect, test, type Page } from './test'
import { E2E_PORTS } from '../playwright.config'
import { expectNoAxeViolations } from './helpers'

const api = `http://127.0.0.1:${E2E_PORTS.api}`

interface NodeListResponse {
  nodes: { id: string; name: string }[]
  total: number
  totalPages: number
}

/** The most downloaded node, and a one-letter typo of the longest word of its name. */
async function typoOfTopNode(request: import('@playwright/test').APIRequestContext) {
  const list = (await (await request.get(`${api}/nodes?limit=1`)).json()) as NodeListResponse
  const node = list.nodes[0]
  const word = node.name
    .split(/[^A-Za-z]+/)
    .sort((a, b) => b.length - a.length)[0]
    .toLowerCase()
  expect(word.length).toBeGreaterThanOrEqual(5)
  const typo = word.slice(0, -1) + (word.endsWith('r') ? 's' : 'r')
  return { node, typo }
}

// The search field is a combobox: it suggests node names, ComfyUI classes, publishers and tags.
const searchBox = (page: Page) => page.getByRole('combobox', { name: 'Search nodes' })
const results = (page: Page) =>
  page.getByRole('region', { name: 'Nodes' }).getByRole('listitem').getByRole('heading')
const status = (page: Page) => page.getByRole('region', { name: 'Nodes' }).getByRole('status')
const cardNames = async (page: Page) => results(page).allTextContents()

/**
 * Runs `action` and waits until the results of the API call it causes (the one whose query has
 * all of `params`) are on screen.
 */
async function andSettle(
  page: Page,
  action: () => Promise<unknown>,
  params: Record<string, string>,
) {
  const response = page.waitForResponse((r) => {
    const url = new URL(r.url())
    return (
      url.pathname.startsWith('/nodes') &&
      Object.entries(params).every(([key, value]) => url.searchParams.getAll(key).includes(value))
    )
  })
  await action()
  await response
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0)
}

test('a search with a typo finds the node; open it and come back to the same results', async ({
  page,
  request,
}) => {
  const { node, typo } = await typoOfTopNode(request)
  await page.goto('/')
  await expect(results(page).first()).toBeVisible()

  await andSettle(page, () => searchBox(page).fill(typo), { search: typo })
  await expect(page).toHaveURL(new RegExp(`[?&]q=${typo}(&|$)`))
  const link = page.getByRole('link', { name: node.name, exact: true })
  await expect(link).toBeVisible()
  await expectNoAxeViolations(page)

  // The suggestions cover the first results while the field has the focus: Escape closes them.
  await searchBox(page).press('Escape')
  await expect(page.getByRole('listbox')).toBeHidden()
  await link.click()
  await expect(page).toHaveURL(new RegExp(`/nodes/${node.id}$`))
  await page.goBack()
  await expect(page).toHaveURL(new RegExp(`[?&]q=${typo}(&|$)`))
  await expect(searchBox(page)).toHaveValue(typo)
  await expect(page.getByRole('link', { name: node.name, exact: true })).toBeVisible()
})

interface ComfyNodeListResponse {
  comfy_nodes: { comfy_node_name: string }[]
}

interface SuggestionList {
  suggestions: { kind: string; text: string; target: string }[]
}

test('a misspelt ComfyUI class is suggested; the keyboard picks it and opens its node', async ({
  page,
  request,
}) => {
  // The longest class of the demo upscaler (server/seed/generate.ts), a letter dropped mid-word.
  const classes: ComfyNodeListResponse = await (
    await request.get(`${api}/comfy-nodes?node_id=comfyui-demo-upscaler&limit=100`)
  ).json()
  const className = classes.comfy_nodes
    .map((comfyNode) => comfyNode.comfy_node_name)
    .sort((a, b) => b.length - a.length)[0]
  expect(className.length).toBeGreaterThanOrEqual(8)
  const middle = Math.floor(className.length / 2)
  const typo = className.slice(0, middle) + className.slice(middle + 1)
  // The node the suggestion leads to (a class several nodes ship goes to the most used one).
  const answer: SuggestionList = await (
    await request.get(`${api}/nodes/suggest?q=${encodeURIComponent(typo)}`)
  ).json()
  const nodeId = answer.suggestions.find(
    (suggestion) => suggestion.kind === 'comfy_node' && suggestion.text === className,
  )?.target
  expect(nodeId).toBeTruthy()

  await page.goto('/')
  const box = searchBox(page)
  await box.fill(typo)
  const option = page
    .getByRole('option')
    .filter({ has: page.getByText(className, { exact: true }) })
  await expect(option).toBeVisible()
  await expect(box).toHaveAttribute('aria-expanded', 'true')
  await expect(option).toContainText('ComfyUI node')
  await expect(page.getByRole('status').filter({ hasText: /suggestions? available/ })).toHaveCount(
    1,
  )
  await expectNoAxeViolations(page)

  const count = await page.getByRole('option').count()
  for (let i = 0; i < count && (await option.getAttribute('aria-selected')) !== 'true'; i++) {
    await box.press('ArrowDown')
  }
  await expect(option).toHaveAttribute('aria-selected', 'true')
  await expect(box).toHaveAttribute(
    'aria-activedescendant',
    (await option.getAttribute('id')) ?? '',
  )
  await box.press('Enter')
  await expect(page).toHaveURL(new RegExp(`/nodes/${nodeId}$`))
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
})

test('the server HTML of a search already has its results (no spinner)', async ({ request }) => {
  const { node, typo } = await typoOfTopNode(request)
  const html = await (await request.get(`/?q=${typo}`)).text()
  expect(html).toContain(`>${node.name}</a>`)
  expect(html).not.toContain('aria-busy="true"')
})

test('Enter searches at once; back and forward restore each search', async ({ page }) => {
  await page.goto('/')
  await searchBox(page).fill('video')
  await andSettle(page, () => searchBox(page).press('Enter'), { search: 'video' })
  await expect(page).toHaveURL(/\?q=video$/)
  await expect(status(page)).toHaveText(/\d+ nodes?/)
  const videoNames = await cardNames(page)

  await searchBox(page).fill('audio')
  await andSettle(page, () => searchBox(page).press('Enter'), { search: 'audio' })
  await expect(page).toHaveURL(/\?q=audio$/)
  await expect.poll(() => cardNames(page)).not.toEqual(videoNames)

  await page.goBack()
  await expect(page).toHaveURL(/\?q=video$/)
  await expect(searchBox(page)).toHaveValue('video')
  await expect.poll(() => cardNames(page)).toEqual(videoNames)
  await page.goForward()
  await expect(searchBox(page)).toHaveValue('audio')

  await page.getByRole('button', { name: 'Clear search' }).click()
  await expect(page).toHaveURL(/\/$/)
  await expect(searchBox(page)).toHaveValue('')
})

test('sort and filters go into the address and change the results', async ({ page }) => {
  await page.goto('/')
  const byDownloads = await cardNames(page)
  const countText = async () => (await status(page).textContent()) ?? ''
  const total = await countText()

  await andSettle(
    page,
    () => page.getByRole('combobox', { name: 'Sort by' }).selectOption('name'),
    {
      sort: 'name',
    },
  )
  await expect(page).toHaveURL(/\?sort=name$/)
  await expect.poll(() => cardNames(page)).not.toEqual(byDownloads)
  const byName = await cardNames(page)
  expect([...byName].sort((a, b) => a.localeCompare(b))).toEqual(byName)

  // The boxes follow the address, so they are clicked (not `check`ed) and then asserted.
  await andSettle(page, () => page.getByRole('checkbox', { name: 'Video' }).click(), {
    tags: 'video',
  })
  await expect(page.getByRole('checkbox', { name: 'Video' })).toBeChecked()
  await expect(page).toHaveURL(/\?sort=name&tags=video$/)
  await expect.poll(countText).not.toEqual(total)
  await andSettle(page, () => page.getByRole('checkbox', { name: 'Linux' }).click(), {
    supported_os: 'linux',
  })
  await expect(page).toHaveURL(/\?sort=name&tags=video&os=linux$/)
  await expectNoAxeViolations(page)

  // The address alone restores everything.
  await page.reload()
  await expect(page.getByRole('checkbox', { name: 'Video' })).toBeChecked()
  await expect(page.getByRole('checkbox', { name: 'Linux' })).toBeChecked()
  await expect(page.getByRole('combobox', { name: 'Sort by' })).toHaveValue('name')

  await page.getByRole('button', { name: 'Clear filters' }).click()
  await expect(page).toHaveURL(/\?sort=name$/)
})

test('pagination: next and previous', async ({ page }) => {
  await page.goto('/')
  const nav = page.getByRole('navigation', { name: 'Pages' })
  await expect(nav.locator('[aria-current="page"]')).toHaveText('1')
  const first = await cardNames(page)

  await andSettle(page, () => nav.getByRole('link', { name: 'Next' }).click(), { page: '2' })
  await expect(page).toHaveURL(/\?page=2$/)
  await expect(nav.locator('[aria-current="page"]')).toHaveText('2')
  await expect.poll(() => cardNames(page)).not.toEqual(first)

  await nav.getByRole('link', { name: 'Previous' }).click()
  await expect(page).toHaveURL(/\/$/)
  await expect.poll(() => cardNames(page)).toEqual(first)

  await nav.getByRole('link', { name: 'Page 2' }).click()
  await expect(page).toHaveURL(/\?page=2$/)
  await page.goBack()
  await expect(nav.locator('[aria-current="page"]')).toHaveText('1')
})

test('a nonsense query shows the empty state with a reset link', async ({ page }) => {
  await page.goto('/?q=qzxwvkjhpfd')
  await expect(page.getByText('No nodes match “qzxwvkjhpfd”.')).toBeVisible()
  await expect(status(page)).toHaveText('0 nodes')
  await expectNoAxeViolations(page)
  await page.getByRole('link', { name: 'Reset search and filters' }).click()
  await expect(page).toHaveURL(/\/$/)
  await expect(results(page).first()).toBeVisible()
  await expect(searchBox(page)).toHaveValue('')
})

test('the home page passes axe in light and dark mode, on desktop and on a phone', async ({
  page,
}) => {
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 900 })
      await page.emulateMedia({ colorScheme })
      await page.goto('/?q=upscale')
      await expect(results(page).first()).toBeVisible()
      if (width === 360) {
        await page.getByRole('button', { name: 'Show filters' }).click()
        await expect(page.getByRole('checkbox', { name: 'Video' })).toBeVisible()
      }
      await expectNoAxeViolations(page)
      // Nothing wider than the screen.
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      )
      expect(overflow).toBeLessThanOrEqual(0)
    }
  }
})
