import { tokenBuckets } from '@/src/lib/rate-limit'

describe('tokenBuckets', () => {
  it('allows `capacity` calls at once, then refills evenly', () => {
    const take = tokenBuckets({ capacity: 3, perMs: 3000 })
    expect([take('a', 0), take('a', 0), take('a', 0)].every((d) => d.allowed)).toBe(true)
    expect(take('a', 0)).toEqual({ allowed: false, retryAfterMs: 1000 })
    expect(take('a', 999).allowed).toBe(false)
    expect(take('a', 1000).allowed).toBe(true)
    expect(take('b', 1000).allowed).toBe(true)
  })

  it('forgets the oldest addresses beyond maxKeys', () => {
    const take = tokenBuckets({ capacity: 1, perMs: 60_000 }, 2)
    take('a', 0)
    take('b', 0)
    take('c', 0)
    expect(take('a', 0).allowed).toBe(true)
    expect(take('c', 0).allowed).toBe(false)
  })
})
