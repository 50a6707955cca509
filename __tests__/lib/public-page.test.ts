import { AxiosError, AxiosHeaders } from 'axios'
import { isNotFound } from '@/src/lib/public-page'

function apiError(status: number) {
  const headers = new AxiosHeaders()
  return new AxiosError('failed', String(status), { headers }, undefined, {
    status,
    statusText: '',
    headers: {},
    config: { headers },
    data: {},
  })
}

describe('isNotFound (public pages: 404 page vs 500 page)', () => {
  it('treats the API’s 404, and 400 for an impossible id, as not found', () => {
    expect(isNotFound(apiError(404))).toBe(true)
    expect(isNotFound(apiError(400))).toBe(true)
  })

  it('lets server errors and network failures through to the 500 page', () => {
    expect(isNotFound(apiError(500))).toBe(false)
    expect(isNotFound(apiError(503))).toBe(false)
    expect(isNotFound(new Error('ECONNREFUSED'))).toBe(false)
  })
})
