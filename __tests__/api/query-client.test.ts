import { AxiosError, AxiosHeaders } from 'axios'
import { makeQueryClient, shouldRetryQuery } from '@/src/api/query-client'

const httpError = (status: number) =>
  new AxiosError('failed', String(status), undefined, undefined, {
    status,
    statusText: '',
    data: {},
    headers: {},
    config: { headers: new AxiosHeaders() },
  })

describe('query client rules (seed spec sections 8 and 9)', () => {
  it('retries a failed query up to 3 times', () => {
    expect(shouldRetryQuery(0, httpError(500))).toBe(true)
    expect(shouldRetryQuery(2, httpError(500))).toBe(true)
    expect(shouldRetryQuery(3, httpError(500))).toBe(false)
    expect(shouldRetryQuery(1, new Error('network'))).toBe(true)
  })

  it('never retries a 404', () => {
    expect(shouldRetryQuery(0, httpError(404))).toBe(false)
  })

  it('is stale at once and keeps data for 24 hours', () => {
    const defaults = makeQueryClient().getDefaultOptions().queries
    expect(defaults?.staleTime).toBe(0)
    expect(defaults?.gcTime).toBe(86400000)
  })
})
