// The page frame's layout against the real stack: the header is one row at 360 px in every
// language (the rest is in its Menu), no page scrolls sideways, header, main content and footer
// share one container, a long email stays inside the user menu, the skip link shows on focus and
// dialogs have a light header rule.
import { expect, test, type Page } from './test'
import {
  accountWithPublisher,
  API_URL,
  createAccount,
  expectNoAxeViolations,
  signIn,
} from './helpers'

const LANGUAGE_PREFIXES = ['', '/fr', '/es', '/ru', '/ja', '/ko', '/zh']
const NARROW = { width: 360, height: 740 }
const WIDE = { width: 1440, height: 900 }

// Many page loads per test: more time than one journey step needs.
test.describe.configure({ timeout: 180_000 })

/** A public node and its publisher from the demo data. */
async function demoPaths(page: Page): Promise<{ node: string; publisher: string }> {
  const response = await page.request.get(`${API_URL}/nodes?limit=1`)
  expect(response.ok()).toBe(true)
  const { nodes } = (await response.json()) as {
    nodes: { id: string; publisher?: { id: string } }[]
  }
  expect(nodes[0]?.publisher?.id).toBeTruthy()
  return { node: `/nodes/${nodes[0].id}`, publisher: `/publishers/${nodes[0].publisher?.id}` }
}

/** The visible controls of the header row, and whether they all share one line. */
async function headerRow(page: Page) {
  return page.getByRole('banner').evaluate((header) => {
    const nav = header.querySelector('nav')!
    const boxes = Array.from(nav.querySelectorAll<HTMLElement>('a, button'))
      .filter((element) => !element.closest('[hidden]'))
      .map((element) => element.getBoundingClientRect())
      .filter((box) => box.width > 1 && box.height > 1)
    const lowestTop = Math.max(...boxes.map((box) => box.top))
    const highestBottom = Math.min(...boxes.map((box) => box.bottom))
    return {
      count: boxes.length,
      // Every control overlaps every other vertically: they are on one line.
      oneLine: lowestTop < highestBottom,
      height: header.getBoundingClientRect().height,
    }
  })
}

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  )
}

test('at 360 px the header is one row and nothing scrolls sideways, in all 7 languages', async ({
  page,
}) => {
  await page.setViewportSize(NARROW)
  const { node, publisher } = await demoPaths(page)
  for (const prefix of LANGUAGE_PREFIXES) {
    for (const path of [prefix || '/', `${prefix}${node}`, `${prefix}${publisher}`]) {
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
      const row = await headerRow(page)
      expect(row.count, path).toBeGreaterThanOrEqual(2)
      expect(row.oneLine, `${path}: header controls on one line`).toBe(true)
      // One row: py-2 around 40 px controls and the border (two rows would be about 100 px).
      expect(row.height, `${path}: header height`).toBeLessThan(64)
      expect(await horizontalOverflow(page), `${path}: sideways scroll`).toBeLessThanOrEqual(0)
    }
  }
})

test('from 768 px the full header is one row in all 7 languages', async ({ page }) => {
  for (const width of [768, 1024]) {
    await page.setViewportSize({ width, height: 800 })
    for (const prefix of LANGUAGE_PREFIXES) {
      await page.goto(prefix || '/')
      const header = page.getByRole('banner')
      // The desktop header: the links and the language picker are in the row, no Menu button.
      await expect(
        header.getByRole('button', { name: /^(Menu|Menú|メニュー|메뉴|Меню|菜单)$/ }),
      ).toBeHidden()
      await expect(header.locator('a[href="/discord"]')).toBeVisible()
      const row = await headerRow(page)
      expect(row.oneLine, `${prefix || '/'} at ${width} px`).toBe(true)
      expect(row.height).toBeLessThan(64)
    }
  }
})

test('header, main content and footer share one container', async ({ page }) => {
  await page.setViewportSize(WIDE)
  const { node, publisher } = await demoPaths(page)
  for (const path of ['/', node, publisher, '/no-such-page-xyz']) {
    await page.goto(path)
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
    const edges = await page.evaluate(() => {
      const edgesOf = (element: Element | null) => {
        const box = element!.getBoundingClientRect()
        return [Math.round(box.left), Math.round(box.right)]
      }
      return {
        header: edgesOf(document.querySelector('header nav')),
        main: edgesOf(document.querySelector('main')),
        footer: edgesOf(document.querySelector('footer > div')),
      }
    })
    expect(edges.main, path).toEqual(edges.header)
    expect(edges.footer, path).toEqual(edges.header)
    // The container is narrower than the window: it is centred with room on both sides.
    expect(edges.header[0]).toBeGreaterThan(0)
    expect(edges.header[1]).toBeLessThan(WIDE.width)
  }
})

test('the Menu at 360 px: keyboard, aria-expanded, Escape, its links; axe light and dark', async ({
  page,
}) => {
  await page.setViewportSize(NARROW)
  await page.emulateMedia({ colorScheme: 'light' })
  await page.goto('/fr?page=2')
  const header = page.getByRole('banner')
  const menuButton = header.getByRole('button', { name: 'Menu' })
  // The row: logo and Menu only; the rest is in the Menu.
  await expect(header.getByRole('link', { name: 'Connexion' })).toBeHidden()
  await expect(menuButton).toHaveAttribute('aria-expanded', 'false')

  await menuButton.focus()
  await page.keyboard.press('Enter')
  await expect(menuButton).toHaveAttribute('aria-expanded', 'true')
  const panel = page.locator(`#${await menuButton.getAttribute('aria-controls')}`)
  await expect(panel).toBeVisible()
  await expect(panel.getByRole('link', { name: 'Connexion' })).toHaveAttribute(
    'href',
    '/fr/auth/login?fromUrl=%2F%3Fpage%3D2',
  )
  await expect(panel.getByRole('link', { name: 'Documentation' })).toBeVisible()
  await expect(panel.getByRole('button', { name: 'Français' })).toHaveAttribute(
    'aria-current',
    'true',
  )
  // The open Menu stays on the screen.
  const box = (await panel.boundingBox())!
  expect(box.x).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width).toBeLessThanOrEqual(NARROW.width)
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0)
  await expectNoAxeViolations(page)

  // Dark mode from inside the Menu; the Menu passes axe there too.
  await panel.getByRole('button', { name: /mode sombre/i }).click()
  await expect(page.locator('html')).toHaveClass(/\bdark\b/)
  await expectNoAxeViolations(page)

  await page.keyboard.press('Escape')
  await expect(menuButton).toHaveAttribute('aria-expanded', 'false')
  await expect(panel).toBeHidden()
  await expect(menuButton).toBeFocused()

  // Choosing a language from the Menu switches it and closes the Menu.
  await menuButton.click()
  await panel.getByRole('button', { name: 'Español' }).click()
  await expect(page).toHaveURL(/\/es\?page=2$/)
  await expect(header.getByRole('button', { name: 'Menú' })).toHaveAttribute(
    'aria-expanded',
    'false',
  )
})

test('a long email stays inside the user menu at 360 px, whole in its title', async ({
  page,
  request,
}) => {
  const email = `a-very-long-address-for-the-layout-check-${Date.now()}@subdomain.example-organisation.com`
  const password = 'layout-password-1'
  await createAccount(request, email, password)
  for (const viewport of [NARROW, WIDE]) {
    await page.setViewportSize(viewport)
    await page.goto('/')
    await signIn(page, email, password)
    const menuButton = page.getByRole('banner').getByRole('button', { name: email })
    await expect(menuButton).toBeVisible()
    // The name in the button is cut too: the header stays one row.
    const row = await headerRow(page)
    expect(row.oneLine, `header at ${viewport.width} px`).toBe(true)
    expect(row.height).toBeLessThan(64)
    await menuButton.click()
    const menu = page.getByRole('menu')
    const shown = menu.getByText(email)
    await expect(shown).toHaveAttribute('title', email)
    const menuBox = (await menu.boundingBox())!
    expect(menuBox.x).toBeGreaterThanOrEqual(0)
    expect(menuBox.x + menuBox.width).toBeLessThanOrEqual(viewport.width)
    // Cut with an ellipsis inside the menu, not spilling out of it.
    expect(
      await shown.evaluate((element) => ({
        cut: element.scrollWidth > element.clientWidth,
        ellipsis: getComputedStyle(element).textOverflow,
      })),
    ).toEqual({ cut: true, ellipsis: 'ellipsis' })
    const textBox = (await shown.boundingBox())!
    expect(textBox.x + textBox.width).toBeLessThanOrEqual(menuBox.x + menuBox.width)
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0)
    await expectNoAxeViolations(page)
    await page.keyboard.press('Escape')
  }
})

test('the skip link: first on every page, hidden until focused, then moves focus to the content', async ({
  page,
}) => {
  const { node, publisher } = await demoPaths(page)
  for (const path of ['/', node, publisher, '/no-such-page-xyz', '/auth/login']) {
    await page.goto(path)
    await expect(page.locator('a.skip-link')).toHaveCount(1)
    await expect(page.locator('#content main')).toHaveCount(1)
  }

  await page.setViewportSize(NARROW)
  await page.goto(publisher)
  const skip = page.getByRole('link', { name: 'Skip to content' })
  expect((await skip.boundingBox())!.width).toBeLessThanOrEqual(1)
  await page.keyboard.press('Tab')
  await expect(skip).toBeFocused()
  const box = (await skip.boundingBox())!
  expect(box.width).toBeGreaterThan(40)
  expect(box.y).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width).toBeLessThanOrEqual(NARROW.width)
  // Styled: white on the brand blue, not the browser's default link.
  expect(
    await skip.evaluate((element) => {
      const style = getComputedStyle(element)
      return style.backgroundColor !== 'rgba(0, 0, 0, 0)' && style.color === 'rgb(255, 255, 255)'
    }),
  ).toBe(true)
  await expectNoAxeViolations(page)

  await page.keyboard.press('Enter')
  await expect(page.locator('#content')).toBeFocused()
  expect((await skip.boundingBox())!.width).toBeLessThanOrEqual(1)
  // The next Tab lands inside the main content, past the header.
  await page.keyboard.press('Tab')
  expect(
    await page.evaluate(() => document.querySelector('main')!.contains(document.activeElement)),
  ).toBe(true)
})

test('dialog headers have a light rule, not a dark one', async ({ page, request }) => {
  const owner = await accountWithPublisher(request, 'layout', 'Layout Publisher')
  const path = `/publishers/${owner.publisherId}/settings`
  await page.emulateMedia({ colorScheme: 'light' })
  await page.goto(`/auth/login?fromUrl=${encodeURIComponent(path)}`)
  await signIn(page, owner.email, owner.password)
  await expect(page).toHaveURL(new RegExp(`${path}$`))
  await page.getByRole('button', { name: 'Create token' }).click()
  const dialog = page.getByRole('dialog', { name: 'Create a personal access token' })
  const heading = dialog.getByRole('heading', { name: 'Create a personal access token' })
  await expect(heading).toBeVisible()
  const rule = await heading.evaluate((element) => {
    const style = getComputedStyle(element.parentElement!)
    return { width: style.borderBottomWidth, color: style.borderBottomColor }
  })
  expect(rule.width).toBe('1px')
  // A light grey (Tailwind gray-200), far from the text colour the bare border took before.
  const lightness = await page.evaluate((color) => {
    const probe = document.createElement('div')
    probe.style.color = color
    document.body.append(probe)
    const canvas = document.createElement('canvas').getContext('2d')!
    canvas.fillStyle = getComputedStyle(probe).color
    canvas.fillRect(0, 0, 1, 1)
    const [r, g, b] = canvas.getImageData(0, 0, 1, 1).data
    probe.remove()
    return (r + g + b) / 3
  }, rule.color)
  expect(lightness).toBeGreaterThan(200)
})
