// The node page arrives with the first comfy nodes and the newest versions (as the server
// prefetched them) and loads the rest of each list from the API when the visitor opens it.
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import NodePage from '@/pages/nodes/[nodeId]'
import {
  COMFY_NODES_SHOWN,
  firstComfyNodesQuery,
  firstVersionsQuery,
  VERSIONS_SHOWN,
} from '@/components/node/node-lists'
import { getGetNodeQueryKey } from '@/src/api/generated/nodes/nodes'
import { getListNodeVersionsQueryKey } from '@/src/api/generated/versions/versions'
import type { ComfyNode, NodeVersion } from '@/src/api/generated/model'
import { makeTestQueryClient, renderWithProviders } from '../../test-utils'
import { fakeApi, type FakeRequest, type FakeResponse } from '../manage/fake-api'
import { makeNode, makeVersion } from './fixtures'

const CLASSES = 130
const comfyNodes: ComfyNode[] = Array.from({ length: CLASSES }, (_, index) => ({
  comfy_node_name: `PackNode${index}`,
}))
const versions: NodeVersion[] = Array.from({ length: 8 }, (_, index) =>
  makeVersion({ id: `v${index}`, version: `${8 - index}.0.0`, changelog: '' }),
)

function comfyNodePage(request: FakeRequest): FakeResponse {
  const limit = Number(request.params?.limit)
  const page = Number(request.params?.page ?? 1)
  const items = comfyNodes.slice((page - 1) * limit, page * limit)
  return { status: 200, data: { comfy_nodes: items, total: CLASSES, page, limit, totalPages: 2 } }
}

function renderBigNode(routes: Parameters<typeof fakeApi>[0], queryClient = makeTestQueryClient()) {
  const requests = fakeApi(routes)
  const node = makeNode()
  queryClient.setQueryData(getGetNodeQueryKey(node.id), node)
  queryClient.setQueryData(firstVersionsQuery(node.id).queryKey, versions.slice(0, 6))
  queryClient.setQueryData(firstComfyNodesQuery(node.id).queryKey, {
    comfy_nodes: comfyNodes.slice(0, COMFY_NODES_SHOWN),
    total: CLASSES,
    page: 1,
    limit: COMFY_NODES_SHOWN,
    totalPages: 6,
  })
  renderWithProviders(<NodePage />, {
    queryClient,
    router: {
      pathname: '/nodes/[nodeId]',
      asPath: `/nodes/${node.id}`,
      query: { nodeId: node.id },
    },
  })
  return { requests, node }
}

const section = (name: string) => screen.getByRole('region', { name })
const headingsIn = (name: string) => within(section(name)).getAllByRole('heading', { level: 3 })

describe('the node page’s long lists', () => {
  it('loads every comfy node, in pages of 100, when the visitor opens the list', async () => {
    const { requests, node } = renderBigNode({
      [`GET /nodes/demo-node/versions/latest/comfy-nodes`]: comfyNodePage,
    })
    expect(headingsIn('Nodes in the latest version')).toHaveLength(COMFY_NODES_SHOWN)
    fireEvent.click(screen.getByRole('button', { name: `Show all ${CLASSES}` }))
    await waitFor(() => expect(headingsIn('Nodes in the latest version')).toHaveLength(CLASSES))
    const calls = requests.calls('GET', `/nodes/${node.id}/versions/latest/comfy-nodes`)
    expect(calls.map((call) => call.params)).toEqual([
      { limit: 100, page: 1 },
      { limit: 100, page: 2 },
    ])
  })

  it('loads every version when asked; a failure is said and the button asks again', async () => {
    let fail = true
    const { requests, node } = renderBigNode({
      'GET /nodes/demo-node/versions': () =>
        fail
          ? { status: 500, data: { error: 'Internal', message: 'down' } }
          : { status: 200, data: versions },
    })
    expect(headingsIn('Version history')).toHaveLength(VERSIONS_SHOWN)
    fireEvent.click(screen.getByRole('button', { name: 'Show all versions' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('The rest could not be loaded.')
    // Still the newest versions, nothing lost.
    expect(headingsIn('Version history')).toHaveLength(VERSIONS_SHOWN)
    fail = false
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
    await waitFor(() => expect(headingsIn('Version history')).toHaveLength(versions.length))
    expect(screen.queryByRole('alert')).toBeNull()
    expect(screen.queryByRole('button', { name: 'Show all versions' })).toBeNull()
    // The whole list is asked for without a limit (Manager's form of the call).
    expect(requests.calls('GET', `/nodes/${node.id}/versions`).map((call) => call.params)).toEqual([
      undefined,
      undefined,
    ])
  })

  it('a whole list kept from an earlier visit waits to be asked for, and is asked again', async () => {
    // An earlier visit loaded every version, before 8.0.0 was published.
    const queryClient = makeTestQueryClient()
    queryClient.setQueryData(getListNodeVersionsQueryKey('demo-node'), versions.slice(1))
    queryClient
      .getQueryCache()
      .find({ queryKey: getListNodeVersionsQueryKey('demo-node') })
      ?.invalidate()
    const { requests, node } = renderBigNode(
      { 'GET /nodes/demo-node/versions': { status: 200, data: versions } },
      queryClient,
    )
    const names = () => headingsIn('Version history').map((heading) => heading.textContent)
    expect(names()).toEqual(['8.0.0', '7.0.0', '6.0.0', '5.0.0', '4.0.0'])
    expect(requests.calls('GET', `/nodes/${node.id}/versions`)).toHaveLength(0)
    fireEvent.click(screen.getByRole('button', { name: 'Show all versions' }))
    await waitFor(() => expect(names()).toHaveLength(versions.length))
    expect(names()[0]).toBe('8.0.0')
    expect(requests.calls('GET', `/nodes/${node.id}/versions`)).toHaveLength(1)
  })
})
