import { QueryClient } from '@tanstack/react-query'
import {
  connectInvalidation,
  invalidateAfterDecision,
  invalidateAfterNodeChange,
  invalidateAfterPublisherChange,
  invalidateAfterUndo,
  pathsToInvalidate,
} from '@/src/api/invalidation'
import { getAxiosInstance, customInstance } from '@/src/api/mutator'

jest.mock('@/src/lib/firebase', () => ({
  getFirebaseAuth: () => ({ authStateReady: () => Promise.resolve(), currentUser: null }),
}))

describe('invalidation after writes (seed section 7)', () => {
  it('POST: the request path only', () => {
    expect(pathsToInvalidate({ method: 'POST', path: '/publishers/acme/tokens' })).toEqual([
      '/publishers/acme/tokens',
    ])
  })

  it.each(['PUT', 'PATCH', 'DELETE'] as const)('%s: the path and its parent path', (method) => {
    expect(pathsToInvalidate({ method, path: '/publishers/acme/nodes/x' })).toEqual([
      '/publishers/acme/nodes/x',
      '/publishers/acme/nodes',
    ])
    expect(pathsToInvalidate({ method, path: '/publishers/' })).toEqual(['/publishers'])
  })

  it('a successful write through the client invalidates the matching cached queries', async () => {
    ;(await getAxiosInstance()).defaults.adapter = async (config) => ({
      data: {},
      status: 200,
      statusText: '',
      headers: {},
      config,
    })
    const queryClient = new QueryClient()
    const keys = [
      ['/publishers/acme/nodes/x'],
      ['/publishers/acme/nodes', { page: 1 }],
      ['/publishers/acme/nodes/x/versions'],
      ['/publishers/acme'],
      ['/nodes/x'],
    ]
    for (const key of keys) queryClient.setQueryData(key, { cached: true })
    const invalidated = () =>
      keys.filter((key) => queryClient.getQueryState(key)?.isInvalidated).map((key) => key[0])

    const disconnect = connectInvalidation(queryClient)
    await customInstance({ url: '/publishers/acme/nodes/x', method: 'PUT', data: {} })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(invalidated()).toEqual(['/publishers/acme/nodes/x', '/publishers/acme/nodes'])

    for (const key of keys) queryClient.setQueryData(key, { cached: true })
    await customInstance({ url: '/publishers/acme/nodes/x/versions', method: 'POST', data: {} })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(invalidated()).toEqual(['/publishers/acme/nodes/x/versions'])

    disconnect()
    for (const key of keys) queryClient.setQueryData(key, { cached: true })
    await customInstance({ url: '/nodes/x', method: 'DELETE' })
    expect(invalidated()).toEqual([])
  })
})

describe('invalidation after admin writes', () => {
  const PATHS = [
    '/admin/overview',
    '/admin/actions',
    '/admin/nodes/x',
    '/admin/publishers/acme',
    '/versions',
    '/versions/v1',
    '/nodes',
    '/nodes/search',
    '/nodes/x',
    '/nodes/x/versions',
    '/nodes/y',
    '/publishers',
    '/publishers/acme/nodes',
    '/publishers/other/nodes',
  ]

  /** The cached paths `write` marks stale. */
  async function staleAfter(write: (queryClient: QueryClient) => Promise<void>) {
    const queryClient = new QueryClient()
    for (const path of PATHS) queryClient.setQueryData([path], { cached: true })
    await write(queryClient)
    return PATHS.filter((path) => queryClient.getQueryState([path])?.isInvalidated)
  }

  it('a decision: the version lists, admin views, the node list and the decided nodes', async () => {
    expect(await staleAfter((client) => invalidateAfterDecision(client, ['x', 'x']))).toEqual([
      '/admin/overview',
      '/admin/actions',
      '/admin/nodes/x',
      '/versions',
      '/versions/v1',
      '/nodes',
      '/nodes/x',
      '/nodes/x/versions',
    ])
  })

  it("a node change: admin views, node lists, the node and its publisher's nodes", async () => {
    expect(await staleAfter((client) => invalidateAfterNodeChange(client, 'x', 'acme'))).toEqual([
      '/admin/overview',
      '/admin/actions',
      '/admin/nodes/x',
      '/versions',
      '/nodes',
      '/nodes/search',
      '/nodes/x',
      '/nodes/x/versions',
      '/publishers/acme/nodes',
    ])
  })

  it('a publisher change: admin views, versions, and every node and publisher', async () => {
    expect(await staleAfter(invalidateAfterPublisherChange)).toEqual(
      PATHS.filter((path) => path !== '/admin/publishers/acme' && path !== '/versions/v1'),
    )
  })

  it('an undo: everything', async () => {
    expect(await staleAfter(invalidateAfterUndo)).toEqual(PATHS)
  })
})
