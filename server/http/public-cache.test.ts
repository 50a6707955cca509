import { PublicAnswerCache } from './public-cache'

/** A computation that counts its runs and settles when told to. */
function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: Error) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

describe('PublicAnswerCache', () => {
  it('lets identical requests in flight share one computation', async () => {
    const cache = new PublicAnswerCache(0)
    const pending = deferred<string>()
    let runs = 0
    const compute = () => {
      runs++
      return pending.promise
    }
    const answers = Array.from({ length: 200 }, () => cache.answer('GET /nodes', compute))
    pending.resolve('listing')
    expect(await Promise.all(answers)).toEqual(Array(200).fill('listing'))
    expect(runs).toBe(1)
    // With no TTL, nothing is kept once settled.
    await cache.answer('GET /nodes', async () => 'again')
    expect(runs).toBe(1)
    expect(await cache.answer('GET /nodes', async () => 'third')).toBe('third')
  })

  it('reuses a settled answer for its TTL, then computes again', async () => {
    const cache = new PublicAnswerCache(1000)
    const start = Date.now()
    expect(await cache.answer('k', async () => 1, start)).toBe(1)
    expect(await cache.answer('k', async () => 2, start + 500)).toBe(1)
    expect(await cache.answer('k', async () => 3, Date.now() + 1001)).toBe(3)
    expect(await cache.answer('other', async () => 4, start)).toBe(4)
  })

  it('forgets everything, in flight too, when something changed', async () => {
    const cache = new PublicAnswerCache(60_000)
    expect(await cache.answer('k', async () => 'before')).toBe('before')
    const slow = deferred<string>()
    const inFlight = cache.answer('slow', () => slow.promise)
    cache.forget()
    expect(await cache.answer('k', async () => 'after')).toBe('after')
    // A request after the change does not join the computation that started before it.
    expect(await cache.answer('slow', async () => 'fresh')).toBe('fresh')
    slow.resolve('stale')
    expect(await inFlight).toBe('stale')
    // …and the stale answer that settles later is not kept.
    expect(await cache.answer('slow', async () => 'fresh again')).toBe('fresh')
    cache.forget()
    expect(await cache.answer('slow', async () => 'fresh again')).toBe('fresh again')
  })

  it('shares a failure with the requests waiting for it, but never keeps it', async () => {
    const cache = new PublicAnswerCache(60_000)
    const failing = deferred<string>()
    const first = cache.answer('k', () => failing.promise)
    const second = cache.answer('k', async () => 'not run')
    failing.reject(new Error('database unavailable'))
    await expect(first).rejects.toThrow('database unavailable')
    await expect(second).rejects.toThrow('database unavailable')
    expect(await cache.answer('k', async () => 'recovered')).toBe('recovered')
  })

  it('stays bounded: the oldest entries go first', async () => {
    const cache = new PublicAnswerCache(60_000)
    for (let i = 0; i < 6_000; i++) await cache.answer(`k${i}`, async () => i)
    expect(cache.size).toBe(5_000)
    expect(await cache.answer('k0', async () => -1)).toBe(-1)
    expect(await cache.answer('k5999', async () => -1)).toBe(5999)
  })
})
