import { QueryClient } from '@tanstack/react-query'
import {
  persistQueryClientRestore,
  persistQueryClientSave,
} from '@tanstack/react-query-persist-client'
import { currentBuildId, makePersistOptions } from '@/src/api/persist'

const KEY = 'comfy-registry-cache'

async function save(queryClient: QueryClient, buildId: string) {
  const options = makePersistOptions(localStorage, buildId)
  await persistQueryClientSave({ queryClient, ...options })
  jest.advanceTimersByTime(1000)
}

describe('persisted cache (seed section 9)', () => {
  beforeEach(() => {
    jest.useFakeTimers()
    localStorage.clear()
  })
  afterEach(() => jest.useRealTimers())

  it('is written to local storage under comfy-registry-cache, throttled at 1 second', async () => {
    const queryClient = new QueryClient()
    queryClient.setQueryData(['/nodes/a'], { id: 'a' })
    await persistQueryClientSave({ queryClient, ...makePersistOptions(localStorage, 'b') })
    jest.advanceTimersByTime(999)
    expect(localStorage.getItem(KEY)).toBeNull()
    jest.advanceTimersByTime(1)
    expect(JSON.parse(localStorage.getItem(KEY) ?? '{}').buster).toBe('b')
  })

  it('does not persist pending queries', async () => {
    const queryClient = new QueryClient()
    queryClient.setQueryData(['/nodes/done'], { id: 'done' })
    void queryClient.prefetchQuery({
      queryKey: ['/nodes/waiting'],
      queryFn: () => new Promise(() => {}),
    })
    await save(queryClient, 'b')
    const stored = JSON.parse(localStorage.getItem(KEY) ?? '{}') as {
      clientState: { queries: { queryKey: string[] }[] }
    }
    expect(stored.clientState.queries.map((query) => query.queryKey[0])).toEqual(['/nodes/done'])
  })

  it('never persists admin-only answers (admin calls, the all-versions feed, banned nodes) nor customers', async () => {
    const queryClient = new QueryClient()
    queryClient.setQueryData(['/nodes/a'], { id: 'a' })
    queryClient.setQueryData(['/admin/overview'], { pending: 1 })
    queryClient.setQueryData(['/versions', { statuses: ['NodeVersionStatusPending'] }], {})
    queryClient.setQueryData(['/nodes', { include_banned: true }], { nodes: [] })
    queryClient.setQueryData(['/nodes', { page: 2 }], { nodes: [] })
    // Money and people: customers' lists, balances, ledgers and keys.
    queryClient.setQueryData(['/customers', { email: 'ada' }], { customers: [] })
    queryClient.setQueryData(['/customers/6f1c2a52-0000-4000-8000-000000000000/events'], {})
    queryClient.setQueryData(['/customers/balance'], { amount_micros: 5 })
    await save(queryClient, 'b')
    const stored = JSON.parse(localStorage.getItem(KEY) ?? '{}') as {
      clientState: { queries: { queryKey: unknown[] }[] }
    }
    expect(stored.clientState.queries.map((query) => query.queryKey)).toEqual([
      ['/nodes/a'],
      ['/nodes', { page: 2 }],
    ])
  })

  it('never persists suggestions, one answer per typed prefix', async () => {
    const queryClient = new QueryClient()
    queryClient.setQueryData(['/nodes/search', { search: 'upsc' }], { nodes: [] })
    queryClient.setQueryData(['/nodes/suggest', { q: 'upsc', limit: 8 }], { suggestions: [] })
    await save(queryClient, 'b')
    const stored = JSON.parse(localStorage.getItem(KEY) ?? '{}') as {
      clientState: { queries: { queryKey: unknown[] }[] }
    }
    expect(stored.clientState.queries.map((query) => query.queryKey[0])).toEqual(['/nodes/search'])
  })

  it('never persists a banned or deleted node, which only admins and owners are shown', async () => {
    const queryClient = new QueryClient()
    queryClient.setQueryData(['/nodes/live'], { id: 'live', status: 'NodeStatusActive' })
    queryClient.setQueryData(['/nodes/gone'], { id: 'gone', status: 'NodeStatusBanned' })
    queryClient.setQueryData(['/nodes/old'], { id: 'old', status: 'NodeStatusDeleted' })
    await save(queryClient, 'b')
    const stored = JSON.parse(localStorage.getItem(KEY) ?? '{}') as {
      clientState: { queries: { queryKey: unknown[] }[] }
    }
    expect(stored.clientState.queries.map((query) => query.queryKey)).toEqual([['/nodes/live']])
  })

  it('is restored when younger than 24 hours and written by the same build', async () => {
    const writer = new QueryClient()
    writer.setQueryData(['/nodes/a'], { id: 'a' })
    await save(writer, 'build-1')

    const sameBuild = new QueryClient()
    await persistQueryClientRestore({
      queryClient: sameBuild,
      ...makePersistOptions(localStorage, 'build-1'),
    })
    expect(sameBuild.getQueryData(['/nodes/a'])).toEqual({ id: 'a' })
  })

  it('is discarded after a new build', async () => {
    const writer = new QueryClient()
    writer.setQueryData(['/nodes/a'], { id: 'a' })
    await save(writer, 'build-1')
    const newBuild = new QueryClient()
    await persistQueryClientRestore({
      queryClient: newBuild,
      ...makePersistOptions(localStorage, 'build-2'),
    })
    expect(newBuild.getQueryData(['/nodes/a'])).toBeUndefined()
  })

  it('is discarded when 24 hours old', async () => {
    const writer = new QueryClient()
    writer.setQueryData(['/nodes/a'], { id: 'a' })
    await save(writer, 'build-1')
    jest.advanceTimersByTime(86400000 + 1)
    const later = new QueryClient()
    await persistQueryClientRestore({
      queryClient: later,
      ...makePersistOptions(localStorage, 'build-1'),
    })
    expect(later.getQueryData(['/nodes/a'])).toBeUndefined()
  })

  it("takes the build id from Next's page data", () => {
    Object.assign(window, { __NEXT_DATA__: { buildId: 'abc123' } })
    expect(currentBuildId()).toBe('abc123')
    Reflect.deleteProperty(window, '__NEXT_DATA__')
    expect(currentBuildId()).toBe('')
  })
})
