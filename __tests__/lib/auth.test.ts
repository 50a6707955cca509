import { nextRefreshDelay, startTokenRefresh, type TokenSource } from '@/src/lib/auth'

const MIN = 60_000

describe('ID-token refresh (seed section 9)', () => {
  it('refreshes 5 minutes before the token expires', () => {
    expect(nextRefreshDelay({ expirationTime: 60 * MIN, now: 0, failures: 0 })).toBe(55 * MIN)
    expect(nextRefreshDelay({ expirationTime: 10 * MIN, now: 6 * MIN, failures: 0 })).toBe(0)
  })

  it('after errors backs off from 30 s, doubling, up to 16 minutes', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8].map((failures) =>
      nextRefreshDelay({ expirationTime: 60 * MIN, now: 0, failures }),
    )
    expect(delays).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 960_000, 960_000])
  })

  describe('the timer', () => {
    beforeEach(() => jest.useFakeTimers({ now: 0 }))
    afterEach(() => jest.useRealTimers())

    const flush = async () => {
      for (let i = 0; i < 5; i++) await Promise.resolve()
    }

    it('refreshes at expiry minus 5 minutes, then on the new token schedule', async () => {
      const calls: boolean[] = []
      const user: TokenSource = {
        getIdTokenResult: jest.fn(async (force?: boolean) => {
          calls.push(Boolean(force))
          return {
            token: `token-${calls.length}`,
            expirationTime: new Date(Date.now() + 60 * MIN).toUTCString(),
          }
        }),
      }
      const tokens: string[] = []
      const stop = startTokenRefresh(user, (token) => tokens.push(token))
      await flush()
      expect(calls).toEqual([false])
      await jest.advanceTimersByTimeAsync(55 * MIN - 1)
      expect(tokens).toEqual([])
      await jest.advanceTimersByTimeAsync(1)
      expect(calls).toEqual([false, true])
      expect(tokens).toEqual(['token-2'])
      await jest.advanceTimersByTimeAsync(55 * MIN)
      expect(tokens).toEqual(['token-2', 'token-3'])
      stop()
      await jest.advanceTimersByTimeAsync(120 * MIN)
      expect(tokens).toHaveLength(2)
    })

    it('on errors retries after 30 s, 60 s, 120 s … and resets after a success', async () => {
      let failing = true
      const attempts: number[] = []
      const user: TokenSource = {
        getIdTokenResult: jest.fn(async () => {
          attempts.push(Date.now())
          if (failing) throw new Error('network')
          return { token: 't', expirationTime: new Date(Date.now() + 60 * MIN).toUTCString() }
        }),
      }
      const stop = startTokenRefresh(user, () => {})
      await jest.advanceTimersByTimeAsync(0)
      await jest.advanceTimersByTimeAsync(30_000 + 60_000 + 120_000)
      expect(attempts).toEqual([0, 30_000, 90_000, 210_000])
      failing = false
      await jest.advanceTimersByTimeAsync(240_000)
      expect(attempts.at(-1)).toBe(450_000)
      await jest.advanceTimersByTimeAsync(55 * MIN)
      expect(attempts.at(-1)).toBe(450_000 + 55 * MIN)
      stop()
    })
  })
})
