import { perKeyCoalescer } from '@/src/lib/coalesce'

describe('perKeyCoalescer', () => {
  beforeEach(() => jest.useFakeTimers({ now: 0 }))
  afterEach(() => jest.useRealTimers())

  it('runs at once, then at most once per interval, joining the calls that wait', async () => {
    const coalesce = perKeyCoalescer(2000)
    const task = jest.fn(() => Promise.resolve())
    await coalesce('a', task)
    expect(task).toHaveBeenCalledTimes(1)

    const second = coalesce('a', task)
    const third = coalesce('a', task)
    expect(third).toBe(second)
    await jest.advanceTimersByTimeAsync(1999)
    expect(task).toHaveBeenCalledTimes(1)
    await jest.advanceTimersByTimeAsync(1)
    await Promise.all([second, third])
    expect(task).toHaveBeenCalledTimes(2)
  })

  it('keeps keys apart', async () => {
    const coalesce = perKeyCoalescer(2000)
    const task = jest.fn(() => Promise.resolve())
    await coalesce('a', task)
    await coalesce('b', task)
    expect(task).toHaveBeenCalledTimes(2)
  })
})
