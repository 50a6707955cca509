/**
 * @jest-environment node
 */
// The node page of a big pack (300 comfy nodes, 40 versions with changelogs, a 60 kB README)
// arrives with the first comfy nodes, the newest versions and the README's first part only, so
// its HTML stays small; the rest is loaded when the visitor opens a list
// (components/node/node-lists.ts) or the README.
import { getStaticProps as nodeProps } from '@/pages/nodes/[nodeId]'
import { COMFY_NODES_SHOWN, VERSIONS_SHOWN } from '@/components/node/node-lists'
import { DOWNLOAD_HISTORY_DAYS } from '@/components/node/node-lists'
import { fakeRegistryApi } from '../fake-api'

const CLASSES = 300
const VERSIONS = 40
const requests: string[] = []

const changelog = (index: number) =>
  `## Changes\n\n- **Faster** tiling for version ${index}\n- Fixed [a bug](https://example.com/${index})\n`

fakeRegistryApi((request, response) => {
  const url = new URL(request.url ?? '/', 'http://api')
  requests.push(`${url.pathname}${url.search}`)
  const send = (body: unknown) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify(body))
  }
  const limit = Number(url.searchParams.get('limit') ?? 0)
  if (url.pathname === '/nodes/big') {
    return send({
      id: 'big',
      name: 'Big Pack',
      description: 'A pack with many nodes.',
      publisher: { id: 'acme', name: 'Acme' },
      latest_version: { id: 'v40', version: '40.0.0', createdAt: '2026-01-01T00:00:00Z' },
    })
  }
  if (url.pathname === '/nodes/big/versions') {
    const all = Array.from({ length: VERSIONS }, (_, index) => ({
      id: `v${VERSIONS - index}`,
      version: `${VERSIONS - index}.0.0`,
      changelog: changelog(VERSIONS - index),
      createdAt: '2026-01-01T00:00:00Z',
      status: 'NodeVersionStatusActive',
    }))
    return send(limit ? all.slice(0, limit) : all)
  }
  if (url.pathname === '/nodes/big/versions/latest/comfy-nodes') {
    const page = Number(url.searchParams.get('page') ?? 1)
    const comfyNodes = Array.from({ length: CLASSES }, (_, index) => ({
      comfy_node_name: `BigPackNode${index}`,
      category: 'Big Pack/image',
      description: `Node ${index} of the big pack.`,
      input_types: '{"required":{"image":["IMAGE"],"strength":["FLOAT",{"default":1}]}}',
      return_types: '["IMAGE"]',
    })).slice((page - 1) * limit, page * limit)
    return send({ comfy_nodes: comfyNodes, total: CLASSES, page, limit, totalPages: 0 })
  }
  if (url.pathname === '/nodes/big/versions/40.0.0/readme') {
    const section = (index: number) =>
      `## Section ${index}\n\nThe **big pack** tiles images in [many ways](https://example.com/${index}). `.repeat(
        6,
      )
    const text = Array.from({ length: 100 }, (_, index) => section(index)).join('\n\n')
    return send({ path: 'README.md', format: 'markdown', text, truncated: false, images: [] })
  }
  if (url.pathname === '/nodes/big/downloads/daily') {
    const days = Number(url.searchParams.get('days'))
    const daily = Array.from({ length: days }, (_, index) => ({
      day: new Date(Date.UTC(2026, 0, 1 + index)).toISOString().slice(0, 10),
      downloads: 1000 + index * 37,
    }))
    const total = daily.reduce((sum, item) => sum + item.downloads, 0)
    return send({ node_id: 'big', from: daily[0].day, to: daily[days - 1].day, total, daily })
  }
  response.writeHead(404, { 'content-type': 'application/json' })
  response.end('{"error":"NotFound","message":"no"}')
})

describe('the node page of a big pack', () => {
  it('asks for the first comfy nodes, the newest versions and 90 days of downloads only', async () => {
    const result = await nodeProps({ params: { nodeId: 'big' }, locale: 'en' })
    expect(requests.sort()).toEqual([
      '/nodes/big',
      `/nodes/big/downloads/daily?days=${DOWNLOAD_HISTORY_DAYS}`,
      '/nodes/big/versions/40.0.0/readme',
      `/nodes/big/versions/latest/comfy-nodes?limit=${COMFY_NODES_SHOWN}`,
      `/nodes/big/versions?limit=${VERSIONS_SHOWN + 1}`,
    ])
    if (!('props' in result)) throw new Error('The node page was not rendered.')
    const props = result.props as {
      dehydratedState: { queries: { state: { data: unknown } }[] }
      markdown: { changelogs: Record<string, string>; readme: { html: string } | null }
    }
    // The README's first part only, rendered on the server.
    expect(props.markdown.readme?.html).toContain('Section 0')
    expect(props.markdown.readme?.html).not.toContain('Section 99')
    // Only the changelogs shown are rendered on the server.
    expect(Object.keys(props.markdown.changelogs)).toHaveLength(VERSIONS_SHOWN)
    const data = props.dehydratedState.queries.map((query) => query.state.data)
    expect(data).toContainEqual(expect.objectContaining({ total: CLASSES }))
    const comfyNodes = data.find(
      (item): item is { comfy_nodes: unknown[] } =>
        typeof item === 'object' && item !== null && 'comfy_nodes' in item,
    )
    expect(comfyNodes?.comfy_nodes).toHaveLength(COMFY_NODES_SHOWN)
    // With every class and version it was over 130 kB; the whole page's HTML must stay under 60
    // (the README's first part is at most 8,000 characters of HTML).
    expect(JSON.stringify(props).length).toBeLessThan(40_000)
  })
})
