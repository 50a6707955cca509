// Addresses a newcomer types: impossible ids are the 404 page at once, a page beyond the last
// shows the last page with an address that says so, a malformed page is page 1.
import { expect, test } from './test'
import { API_URL } from './helpers'

interface NodeListResponse {
  nodes: { id: string; publisher?: { id: string } }[]
  totalPages: number
}

for (const path of ['/publishers/UPPER', '/publishers/Felix-Tanaka', '/nodes/%00', '/nodes/-x']) {
  test(`${path} is the 404 page`, async ({ request }) => {
    const response = await request.get(path)
    expect(response.status()).toBe(404)
  })
}

test('?page=99999 shows the last page of the listing, and says so', async ({ page, request }) => {
  const list = (await (await request.get(`${API_URL}/nodes?limit=24`)).json()) as NodeListResponse
  expect(list.totalPages).toBeGreaterThan(1)
  await page.goto('/?page=99999')
  await expect(page).toHaveURL(new RegExp(`/\\?page=${list.totalPages}$`))
  const nav = page.getByRole('navigation', { name: 'Pages' })
  await expect(nav.locator('[aria-current="page"]')).toHaveText(String(list.totalPages))
  await expect(
    page.getByRole('region', { name: 'Nodes' }).getByRole('listitem').first(),
  ).toBeVisible()
})

for (const value of ['-1', 'abc', '1.5']) {
  test(`?page=${value} is page 1`, async ({ page }) => {
    const response = await page.goto(`/?page=${value}`)
    expect(response?.status()).toBe(200)
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/)
    await expect(
      page.getByRole('navigation', { name: 'Pages' }).locator('[aria-current="page"]'),
    ).toHaveText('1')
  })
}

test('a publisher’s page beyond the last goes to its last page', async ({ page, request }) => {
  const list = (await (await request.get(`${API_URL}/nodes?limit=1`)).json()) as NodeListResponse
  const publisherId = list.nodes[0].publisher?.id
  expect(publisherId).toBeTruthy()
  await page.goto(`/publishers/${publisherId}?page=99999`)
  await expect(page).toHaveURL(new RegExp(`/publishers/${publisherId}(\\?page=\\d+)?$`))
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
})

test('the filters say how they combine', async ({ page }) => {
  await page.goto('/')
  await expect(page.getByRole('group', { name: 'Tags' })).toHaveAccessibleDescription(
    'Nodes with all of the selected tags.',
  )
})
