import { QueryClient, useIsRestoring, useQuery } from '@tanstack/react-query'
import { persistQueryClientSave } from '@tanstack/react-query-persist-client'
import { render, screen, waitFor } from '@testing-library/react'
import { makePersistOptions } from '@/src/api/persist'
import { PersistedQueryProvider } from '@/src/api/persisted-query-provider'

const KEY = 'comfy-registry-cache'
const BUILD = 'build-1'

function Node({ fetchNode }: { fetchNode: () => Promise<{ name: string }> }) {
  const restoring = useIsRestoring()
  const { data } = useQuery({ queryKey: ['/nodes/a'], queryFn: fetchNode, staleTime: Infinity })
  return <p>{restoring ? 'restoring' : (data?.name ?? 'loading')}</p>
}

function renderProvider(client: QueryClient, fetchNode: () => Promise<{ name: string }>) {
  return render(
    <PersistedQueryProvider
      client={client}
      persistOptions={makePersistOptions(localStorage, BUILD)}
    >
      <Node fetchNode={fetchNode} />
    </PersistedQueryProvider>,
  )
}

async function persist(data: Record<string, unknown>) {
  const writer = new QueryClient()
  for (const [key, value] of Object.entries(data)) writer.setQueryData([key], value)
  await persistQueryClientSave({ queryClient: writer, ...makePersistOptions(localStorage, BUILD) })
  // Written at most once a second (persist.ts).
  await waitFor(() => expect(localStorage.getItem(KEY)).not.toBeNull(), { timeout: 2_000 })
}

const afterThrottle = () => new Promise((resolve) => setTimeout(resolve, 1_100))

describe('PersistedQueryProvider', () => {
  beforeEach(() => localStorage.clear())

  it('restores the persisted cache before queries run: a restored answer is not asked again', async () => {
    await persist({ '/nodes/a': { name: 'Restored' } })
    const fetchNode = jest.fn(() => Promise.resolve({ name: 'Fetched' }))
    renderProvider(new QueryClient(), fetchNode)
    expect(screen.getByText('restoring')).toBeInTheDocument()
    expect(await screen.findByText('Restored')).toBeInTheDocument()
    expect(fetchNode).not.toHaveBeenCalled()
  })

  it('asks for what was not persisted once the restore has finished', async () => {
    const fetchNode = jest.fn(() => Promise.resolve({ name: 'Fetched' }))
    renderProvider(new QueryClient(), fetchNode)
    expect(await screen.findByText('Fetched')).toBeInTheDocument()
    expect(fetchNode).toHaveBeenCalledTimes(1)
  })

  it('goes on without a persisted cache it cannot read, and removes it', async () => {
    localStorage.setItem(KEY, '{not json')
    const fetchNode = jest.fn(() => Promise.resolve({ name: 'Fetched' }))
    renderProvider(new QueryClient(), fetchNode)
    expect(await screen.findByText('Fetched')).toBeInTheDocument()
    await waitFor(() => expect(localStorage.getItem(KEY)).not.toBe('{not json'))
  })

  it('saves the cache once restored, and stops saving when unmounted', async () => {
    const client = new QueryClient()
    const view = renderProvider(client, () => Promise.resolve({ name: 'Fetched' }))
    await screen.findByText('Fetched')
    await waitFor(
      () => {
        const stored = JSON.parse(localStorage.getItem(KEY) ?? '{}') as {
          clientState?: { queries: { queryKey: unknown[]; state: { data: unknown } }[] }
        }
        expect(stored.clientState?.queries.map((query) => query.state.data)).toEqual([
          { name: 'Fetched' },
        ])
      },
      { timeout: 2_000 },
    )
    view.unmount()
    await afterThrottle()
    localStorage.clear()
    client.setQueryData(['/nodes/b'], { name: 'After' })
    await afterThrottle()
    expect(localStorage.getItem(KEY)).toBeNull()
  })
})
