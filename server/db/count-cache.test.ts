import type { Db } from './client'
import { cachedCount, COUNT_CACHE_MIN_TOTAL, COUNT_CACHE_TTL_MS } from './count-cache'

/** A stand-in for a drizzle count query: answers `total` and counts how often it ran. */
function fakeCount(
  total: { value: number },
  sql = 'select count(*) from nodes',
  params: unknown[] = [],
) {
  const query = {
    runs: 0,
    toSQL: () => ({ sql, params }),
    then: ((onFulfilled, onRejected) => {
      query.runs += 1
      return Promise.resolve([{ total: total.value }]).then(onFulfilled, onRejected)
    }) as PromiseLike<{ total: number }[]>['then'],
  }
  return query
}

describe('cachedCount', () => {
  const db = {} as Db

  it(`reuses a big total for ${COUNT_CACHE_TTL_MS} ms, then counts again`, async () => {
    const total = { value: COUNT_CACHE_MIN_TOTAL + 1 }
    const query = fakeCount(total, 'big')
    expect(await cachedCount(db, query, 0)).toBe(COUNT_CACHE_MIN_TOTAL + 1)
    total.value += 5
    expect(await cachedCount(db, query, COUNT_CACHE_TTL_MS - 1)).toBe(COUNT_CACHE_MIN_TOTAL + 1)
    expect(await cachedCount(db, query, COUNT_CACHE_TTL_MS)).toBe(COUNT_CACHE_MIN_TOTAL + 6)
    expect(query.runs).toBe(2)
  })

  it(`always counts totals below ${COUNT_CACHE_MIN_TOTAL} exactly`, async () => {
    const total = { value: 10 }
    const query = fakeCount(total, 'small')
    expect(await cachedCount(db, query, 0)).toBe(10)
    total.value = 11
    expect(await cachedCount(db, query, 1)).toBe(11)
  })

  it('keeps queries with different parameters apart', async () => {
    const a = fakeCount({ value: COUNT_CACHE_MIN_TOTAL }, 'same', ['a'])
    const b = fakeCount({ value: COUNT_CACHE_MIN_TOTAL * 2 }, 'same', ['b'])
    expect(await cachedCount(db, a, 0)).toBe(COUNT_CACHE_MIN_TOTAL)
    expect(await cachedCount(db, b, 0)).toBe(COUNT_CACHE_MIN_TOTAL * 2)
  })
})
