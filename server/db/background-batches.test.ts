import { BackgroundBatches } from './background-batches'

/** Batches written, each as its keys and values; `fail` makes the next write throw. */
function recorder() {
  const written: [string, number][][] = []
  const errors: unknown[] = []
  const state = { fail: false, written, errors }
  const batches = new BackgroundBatches<number>({
    batchSize: 3,
    flushMs: 1000,
    write: async (batch) => {
      if (state.fail) {
        state.fail = false
        throw new Error('database away')
      }
      written.push(batch)
    },
    onError: (error) => errors.push(error),
  })
  return { batches, state }
}

describe('BackgroundBatches', () => {
  beforeEach(() => jest.useFakeTimers())
  afterEach(() => jest.useRealTimers())

  it('writes a value flushMs after it was given, with those given meanwhile', async () => {
    const { batches, state } = recorder()
    batches.add('a', 1)
    await jest.advanceTimersByTimeAsync(999)
    batches.add('b', 2)
    expect(state.written).toEqual([])
    await jest.advanceTimersByTimeAsync(1)
    expect(state.written).toEqual([
      [
        ['a', 1],
        ['b', 2],
      ],
    ])
    // Nothing pending: no timer, no empty batch.
    await jest.advanceTimersByTimeAsync(5000)
    expect(state.written).toHaveLength(1)
  })

  it('writes at once when batchSize are pending, and a later value replaces a pending one', async () => {
    const { batches, state } = recorder()
    batches.add('a', 1)
    batches.add('a', 10)
    batches.add('b', 2)
    expect(state.written).toEqual([])
    batches.add('c', 3)
    await Promise.resolve()
    await Promise.resolve()
    expect(state.written).toEqual([
      [
        ['a', 10],
        ['b', 2],
        ['c', 3],
      ],
    ])
  })

  it('reports a failed batch and goes on writing the next ones in order', async () => {
    const { batches, state } = recorder()
    state.fail = true
    batches.add('a', 1)
    const first = batches.flush()
    batches.add('b', 2)
    await batches.flush()
    await first
    expect(state.errors).toEqual([new Error('database away')])
    expect(state.written).toEqual([[['b', 2]]])
  })

  it('flush resolves once every batch given before it is written', async () => {
    const order: string[] = []
    let release = () => {}
    const batches = new BackgroundBatches<number>({
      batchSize: 100,
      flushMs: 1000,
      write: async ([[key]]) => {
        if (key === 'slow') await new Promise<void>((resolve) => (release = resolve))
        order.push(key)
      },
      onError: () => {},
    })
    batches.add('slow', 1)
    void batches.flush()
    batches.add('next', 2)
    const done = batches.flush().then(() => order.push('flushed'))
    await Promise.resolve()
    expect(order).toEqual([])
    release()
    await done
    expect(order).toEqual(['slow', 'next', 'flushed'])
  })
})
