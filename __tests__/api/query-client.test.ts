import { AxiosError, AxiosHeaders } from 'axios'
import { shouldRetryQuery } from '@/src/api/query-client'

const httpError = (status: number) =>
  new AxiosError('failed', String(status), undefined, undefined, {
    status,
    statusText: '',
    data: {},
    headers: {},
    config: { headers: new AxiosHeaders() },
  })

// The retry rule as a function; query-retry.test.ts shows it at work against a server.
describe('shouldRetryQuery', () => {
  it('retries a failed query up to 3 times', () => {
    expect(shouldRetryQuery(0, httpError(500))).toBe(true)
    expect(shouldRetryQuery(2, httpError(500))).toBe(true)
    expect(shouldRetryQuery(3, httpError(500))).toBe(false)
    expect(shouldRetryQuery(1, new Error('network'))).toBe(true)
  })

  it('never retries a 404, or any other refusal (4xx)', () => {
    for (const status of [400, 401, 403, 404, 409, 422, 429]) {
      expect(shouldRetryQuery(0, httpError(status))).toBe(false)
    }
  })

  it('retries any server error (5xx)', () => {
    for (const status of [500, 502, 503, 504])
      expect(shouldRetryQuery(0, httpError(status))).toBe(true)
  })
})
