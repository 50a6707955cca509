import { QueryClientProvider, useQuery, type QueryClient } from '@tanstack/react-query'
import { act, render, screen } from '@testing-library/react'
import {
  refetchOnMount,
  refreshAfterFirstLoad,
  resetFirstLoadForTests,
} from '@/src/api/first-load-refresh'
import { makeQueryClient } from '@/src/api/query-client'

function Shown({ queryKey, queryFn }: { queryKey: string; queryFn: () => Promise<string> }) {
  const { data } = useQuery({ queryKey: [queryKey], queryFn })
  return <p>{data ?? 'nothing yet'}</p>
}

function show(client: QueryClient, queryKey: string, queryFn: () => Promise<string>) {
  return render(
    <QueryClientProvider client={client}>
      <Shown queryKey={queryKey} queryFn={queryFn} />
    </QueryClientProvider>,
  )
}

/**
 * Queries for `keys`, each holding server data and shown on screen; `answerOf` answers each
 * refetch. Returns the keys in the order their queries were asked.
 */
function showServerData(
  client: QueryClient,
  keys: string[],
  answerOf: (asked: number) => Promise<string>,
): string[] {
  const asked: string[] = []
  for (const key of keys) client.setQueryData([key], 'from the server')
  render(
    <QueryClientProvider client={client}>
      {keys.map((key) => (
        <Shown
          key={key}
          queryKey={key}
          queryFn={() => {
            asked.push(key)
            return answerOf(asked.length)
          }}
        />
      ))}
    </QueryClientProvider>,
  )
  return asked
}

describe('refreshing server-rendered data after the first page load', () => {
  let client: QueryClient
  beforeEach(() => {
    jest.useFakeTimers()
    resetFirstLoadForTests()
    client = makeQueryClient()
  })
  afterEach(() => {
    client.clear()
    jest.useRealTimers()
  })

  it('does not refetch hydrated data while the page loads, then refreshes it once when idle', async () => {
    client.setQueryData(['/nodes/a'], 'from the server')
    const fetchNode = jest.fn(async () => 'fresh')
    show(client, '/nodes/a', fetchNode)
    expect(screen.getByText('from the server')).toBeInTheDocument()
    expect(fetchNode).not.toHaveBeenCalled()
    expect(refetchOnMount()).toBe(false)

    refreshAfterFirstLoad(client)
    await act(async () => {
      await jest.runAllTimersAsync()
    })
    expect(fetchNode).toHaveBeenCalledTimes(1)
    expect(screen.getByText('fresh')).toBeInTheDocument()
    expect(refetchOnMount()).toBe(true)
  })

  it('refreshes the queries on screen one a task, the first alone until it answered', async () => {
    const keys = ['/nodes/a', '/nodes/b', '/nodes/c', '/nodes/d']
    let answer = (_: string) => {}
    // The first answers when the test says so; the others at once.
    const asked = showServerData(client, keys, (count) =>
      count === 1 ? new Promise((resolve) => (answer = resolve)) : Promise.resolve('fresh'),
    )
    refreshAfterFirstLoad(client)
    const askedAfterEachTask: number[] = []
    const nextTimer = async () => {
      await act(async () => {
        await jest.advanceTimersToNextTimerAsync()
      })
      askedAfterEachTask.push(asked.length)
    }
    await nextTimer()
    await act(async () => {
      await jest.advanceTimersByTimeAsync(500)
    })
    expect(asked).toHaveLength(1)
    await act(async () => answer('fresh'))
    while (asked.length < keys.length) await nextTimer()
    expect(askedAfterEachTask).toEqual([1, 3, 4])
    expect(asked).toEqual(keys)
    expect(screen.getAllByText('fresh')).toHaveLength(keys.length)
  })

  it('sends the others after a second when the first does not answer', async () => {
    const keys = ['/nodes/a', '/nodes/b']
    const asked = showServerData(client, keys, () => new Promise(() => {}))
    refreshAfterFirstLoad(client)
    await act(async () => {
      await jest.advanceTimersByTimeAsync(999)
    })
    expect(asked).toEqual(['/nodes/a'])
    await act(async () => {
      await jest.advanceTimersByTimeAsync(1)
    })
    expect(asked).toEqual(keys)
  })

  it('refreshes them all at once in a hidden tab', async () => {
    const hidden = jest.spyOn(document, 'hidden', 'get').mockReturnValue(true)
    try {
      const keys = ['/nodes/a', '/nodes/b', '/nodes/c']
      const asked = showServerData(client, keys, () => new Promise(() => {}))
      refreshAfterFirstLoad(client)
      await act(async () => {
        await jest.advanceTimersToNextTimerAsync()
      })
      expect(asked).toEqual(keys)
    } finally {
      hidden.mockRestore()
    }
  })

  it('loads a query without data at once, even during the first load', async () => {
    const fetchNode = jest.fn(async () => 'loaded')
    show(client, '/nodes/b', fetchNode)
    await act(async () => {
      await jest.runAllTimersAsync()
    })
    expect(fetchNode).toHaveBeenCalledTimes(1)
    expect(screen.getByText('loaded')).toBeInTheDocument()
  })

  it('refetches on mount as usual after the first load (client-side navigations)', async () => {
    refreshAfterFirstLoad(client)
    await act(async () => {
      await jest.runAllTimersAsync()
    })
    client.setQueryData(['/nodes/c'], 'cached')
    const fetchNode = jest.fn(async () => 'fresh')
    show(client, '/nodes/c', fetchNode)
    await act(async () => {
      await jest.runAllTimersAsync()
    })
    expect(fetchNode).toHaveBeenCalledTimes(1)
  })

  it('waits for the load event, then for an idle moment of at most 2000 ms', () => {
    const readyState = jest.spyOn(document, 'readyState', 'get').mockReturnValue('loading')
    const requestIdle = jest.fn((_run: IdleRequestCallback, _options?: IdleRequestOptions) => 7)
    window.requestIdleCallback = requestIdle
    window.cancelIdleCallback = jest.fn()
    try {
      const cancel = refreshAfterFirstLoad(client)
      expect(requestIdle).not.toHaveBeenCalled()
      window.dispatchEvent(new Event('load'))
      expect(requestIdle).toHaveBeenCalledWith(expect.any(Function), { timeout: 2000 })
      cancel()
      expect(window.cancelIdleCallback).toHaveBeenCalledWith(7)
      expect(refetchOnMount()).toBe(false)
    } finally {
      readyState.mockRestore()
      // @ts-expect-error jsdom has no idle callbacks; the test added them
      delete window.requestIdleCallback
      // @ts-expect-error as above
      delete window.cancelIdleCallback
    }
  })
})
