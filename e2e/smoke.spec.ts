import AxeBuilder from '@axe-core/playwright'
import { expect, test } from './test'
import { unzipSync } from 'fflate'
import { E2E_PORTS } from '../playwright.config'

const api = `http://127.0.0.1:${E2E_PORTS.api}`

interface NodeListResponse {
  nodes: { id: string; name: string }[]
  total: number
}

test('the API is healthy and serves its contract', async ({ request }) => {
  const health = await request.get(`${api}/health`)
  expect(await health.json()).toMatchObject({ status: 'ok', database: 'ok' })
  const contract = await request.get(`${api}/openapi`)
  expect(await contract.text()).toContain('operationId: listAllNodes')
})

test('the home page is server-rendered with nodes from the API', async ({ page, request }) => {
  const list = (await (await request.get(`${api}/nodes?limit=3`)).json()) as NodeListResponse
  expect(list.total).toBeGreaterThanOrEqual(250)

  // The HTML from the server already contains the nodes: no spinner for public content.
  const html = await (await request.get('/')).text()
  for (const node of list.nodes) expect(html).toContain(node.name)

  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1, name: 'Comfy Registry' })).toBeVisible()
  await expect(page.getByRole('link', { name: list.nodes[0].name })).toBeVisible()
  const axe = await new AxeBuilder({ page }).analyze()
  expect(axe.violations).toEqual([])
})

test('install gives a download URL that serves a real zip', async ({ request }) => {
  const list = (await (await request.get(`${api}/nodes?limit=1`)).json()) as NodeListResponse
  const install = await request.get(`${api}/nodes/${list.nodes[0].id}/install`)
  expect(install.status()).toBe(200)
  const { downloadUrl } = (await install.json()) as { downloadUrl: string }
  const archive = await request.get(downloadUrl.replace(/^http:\/\/localhost:\d+/, api))
  expect(archive.headers()['content-type']).toBe('application/zip')
  const files = unzipSync(new Uint8Array(await archive.body()))
  expect(Object.keys(files)).toContain('pyproject.toml')
})
