/**
 * The API client rules of seed section 7, on the one axios instance. The network is replaced by
 * an axios adapter that records each request; the Firebase user is a stand-in of our firebase
 * module (the token source), so no emulator is needed.
 */
import type { InternalAxiosRequestConfig } from 'axios'
import {
  getAxiosInstance,
  customInstance,
  onWriteSuccess,
  type WriteSuccess,
} from '@/src/api/mutator'
import { getFirebaseAuth } from '@/src/lib/firebase'

jest.mock('@/src/lib/firebase', () => ({ getFirebaseAuth: jest.fn() }))

const mockedAuth = jest.mocked(getFirebaseAuth)
let requests: InternalAxiosRequestConfig[] = []

/** `token` null: Firebase has no current user (someone signed in here before: the hint is set). */
function signedIn(token: string | null) {
  localStorage.setItem('comfy-registry-signed-in', '1')
  const getIdToken = jest.fn(() => Promise.resolve(token ?? ''))
  mockedAuth.mockReturnValue({
    authStateReady: () => Promise.resolve(),
    currentUser: token === null ? null : { getIdToken },
  } as unknown as ReturnType<typeof getFirebaseAuth>)
  return getIdToken
}

beforeEach(async () => {
  requests = []
  mockedAuth.mockReset()
  sessionStorage.clear()
  localStorage.clear()
  const axios = await getAxiosInstance()
  axios.defaults.adapter = async (config) => {
    requests.push(config)
    const status = config.method?.toUpperCase() === 'POST' ? 201 : 200
    return { data: { ok: true }, status, statusText: '', headers: {}, config }
  }
})

describe('API client (seed section 7)', () => {
  it('serialises array params as repeated keys', async () => {
    signedIn(null)
    await customInstance({ url: '/versions', method: 'GET', params: { statuses: ['A', 'B'] } })
    expect((await getAxiosInstance()).getUri(requests[0])).toMatch(
      /\/versions\?statuses=A&statuses=B$/,
    )
  })

  it('sends Cache-Control no-cache, no-store, must-revalidate, Pragma no-cache, Expires 0', async () => {
    signedIn(null)
    await customInstance({ url: '/nodes', method: 'GET' })
    await customInstance({ url: '/publishers', method: 'POST', data: {} })
    for (const request of requests) {
      expect(request.headers.get('Cache-Control')).toBe('no-cache, no-store, must-revalidate')
      expect(request.headers.get('Pragma')).toBe('no-cache')
      expect(request.headers.get('Expires')).toBe('0')
    }
  })

  it("sends the current user's fresh ID token as a bearer token and saves it", async () => {
    const getIdToken = signedIn('fresh-token')
    sessionStorage.setItem('comfy-registry-id-token', 'old-token')
    await customInstance({ url: '/users', method: 'GET' })
    expect(getIdToken).toHaveBeenCalled()
    expect(requests[0].headers.get('Authorization')).toBe('Bearer fresh-token')
    expect(sessionStorage.getItem('comfy-registry-id-token')).toBe('fresh-token')
  })

  it('uses the stored token when no user is present', async () => {
    signedIn(null)
    sessionStorage.setItem('comfy-registry-id-token', 'stored-token')
    await customInstance({ url: '/users', method: 'GET' })
    expect(requests[0].headers.get('Authorization')).toBe('Bearer stored-token')
  })

  it('does not load Firebase when nobody signed in on this browser (no hint)', async () => {
    // A fresh module registry: earlier tests here already loaded Firebase in this page.
    await jest.isolateModulesAsync(async () => {
      const fresh = await import('@/src/api/mutator')
      const { getFirebaseAuth: freshAuth } = await import('@/src/lib/firebase')
      const freshAxios = await fresh.getAxiosInstance()
      freshAxios.defaults.adapter = (await getAxiosInstance()).defaults.adapter
      sessionStorage.setItem('comfy-registry-id-token', 'stored-token')
      await fresh.customInstance({ url: '/nodes', method: 'GET' })
      expect(requests[0].headers.get('Authorization')).toBe('Bearer stored-token')
      sessionStorage.clear()
      await fresh.customInstance({ url: '/nodes', method: 'GET' })
      expect(requests[1].headers.has('Authorization')).toBe(false)
      expect(freshAuth).not.toHaveBeenCalled()
    })
  })

  it('sends no Authorization header without user or stored token', async () => {
    signedIn(null)
    await customInstance({ url: '/nodes', method: 'GET' })
    expect(requests[0].headers.has('Authorization')).toBe(false)
  })

  it('reports successful writes (method and path) for invalidation, not reads', async () => {
    signedIn(null)
    const writes: WriteSuccess[] = []
    const stop = onWriteSuccess((write) => writes.push(write))
    await customInstance({ url: '/nodes', method: 'GET' })
    await customInstance({ url: '/publishers', method: 'POST', data: {} })
    await customInstance({ url: '/publishers/acme/nodes/x?force=1', method: 'DELETE' })
    stop()
    await customInstance({ url: '/publishers/acme', method: 'PUT', data: {} })
    expect(writes).toEqual([
      { method: 'POST', path: '/publishers' },
      { method: 'DELETE', path: '/publishers/acme/nodes/x' },
    ])
  })
})
