/**
 * Firebase loads only when needed (issue 3): the signed-in hint, the pages that require sign-in,
 * and the analytics identification of a signed-in user. The auth source is a fake handed to
 * AuthProvider (its seam), so nothing here downloads or mocks Firebase.
 */
import { act, render, screen } from '@testing-library/react'
import { hydrateRoot } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { AuthProvider, useAuth, type AuthSource, type SignedInUser } from '@/src/lib/auth'
import {
  clearSignedInHint,
  hasSignedInHint,
  needsFirebase,
  setSignedInHint,
} from '@/src/lib/auth-hint'
import { SIGNED_IN_HINT_KEY } from '@/src/lib/constants'
import {
  busyFor,
  countsBetweenTasks,
  midway,
  nextTask,
  withoutActEnvironment,
} from '../render-slices'

function ShowAuth() {
  const { user, loading } = useAuth()
  return <p data-testid="auth">{loading ? 'loading' : (user?.email ?? 'signed out')}</p>
}

function fakeSource() {
  let listener: ((user: SignedInUser | null) => void) | undefined
  const source: AuthSource = {
    onUserChanged: jest.fn((next) => {
      listener = next
      return () => (listener = undefined)
    }),
    signInWithEmail: jest.fn(() => Promise.resolve()),
    signOut: jest.fn(() => Promise.resolve()),
  }
  const loadSource = jest.fn(() => Promise.resolve(source))
  const report = (user: SignedInUser | null) => act(() => listener?.(user))
  return { source, loadSource, report }
}

const ada: SignedInUser = {
  uid: 'uid-ada',
  email: 'ada@example.com',
  displayName: 'Ada',
  photoURL: null,
  getIdTokenResult: () =>
    Promise.resolve({ token: 't', expirationTime: new Date(Date.now() + 3_600_000).toUTCString() }),
}

describe('the signed-in hint', () => {
  afterEach(() => localStorage.clear())

  it('is set, read and cleared under its own key', () => {
    expect(hasSignedInHint()).toBe(false)
    setSignedInHint()
    expect(localStorage.getItem(SIGNED_IN_HINT_KEY)).not.toBeNull()
    expect(hasSignedInHint()).toBe(true)
    clearSignedInHint()
    expect(hasSignedInHint()).toBe(false)
  })

  it('Firebase is needed by a page that requires sign-in, by the hint, or once requested', () => {
    const none = { pageRequiresAuth: false, hint: false, requested: false }
    expect(needsFirebase(none)).toBe(false)
    expect(needsFirebase({ ...none, pageRequiresAuth: true })).toBe(true)
    expect(needsFirebase({ ...none, hint: true })).toBe(true)
    expect(needsFirebase({ ...none, requested: true })).toBe(true)
  })
})

describe('AuthProvider loads Firebase only when needed', () => {
  let log: jest.SpyInstance
  beforeEach(() => {
    log = jest.spyOn(console, 'log').mockImplementation(() => {})
  })
  afterEach(() => {
    log.mockRestore()
    localStorage.clear()
  })

  it('a first-time visitor on a public page: no Firebase, signed out and not loading', async () => {
    const { loadSource } = fakeSource()
    render(
      <AuthProvider loadSource={loadSource}>
        <ShowAuth />
      </AuthProvider>,
    )
    expect(await screen.findByText('signed out')).toBeInTheDocument()
    await act(() => Promise.resolve())
    expect(loadSource).not.toHaveBeenCalled()
  })

  it('a page with requiresAuth loads it; a signed-in user sets the hint and is identified', async () => {
    const { loadSource, report } = fakeSource()
    render(
      <AuthProvider loadSource={loadSource} requiresAuth>
        <ShowAuth />
      </AuthProvider>,
    )
    expect(screen.getByTestId('auth')).toHaveTextContent('loading')
    await act(() => Promise.resolve())
    expect(loadSource).toHaveBeenCalled()
    expect(screen.getByTestId('auth')).toHaveTextContent('loading')

    await report(ada)
    expect(screen.getByTestId('auth')).toHaveTextContent('ada@example.com')
    expect(hasSignedInHint()).toBe(true)
    // Analytics (seed section 1): uid, then the profile {email} and {name}; outside production
    // the wrapper logs instead of sending.
    expect(log).toHaveBeenCalledWith('[analytics] identify', 'uid-ada')
    expect(log).toHaveBeenCalledWith('[analytics] profile', {
      $email: 'ada@example.com',
      $name: 'Ada',
    })
  })

  it('with the hint, a public page loads it; Firebase reporting nobody removes the hint', async () => {
    setSignedInHint()
    const { loadSource, report } = fakeSource()
    render(
      <AuthProvider loadSource={loadSource}>
        <ShowAuth />
      </AuthProvider>,
    )
    await act(() => Promise.resolve())
    expect(loadSource).toHaveBeenCalled()
    await report(null)
    expect(screen.getByTestId('auth')).toHaveTextContent('signed out')
    expect(hasSignedInHint()).toBe(false)
  })
})

describe('after hydration', () => {
  // Readers of the auth state that each take a while to render, as a page's header, owner
  // controls and the like do on a throttled phone.
  const READERS = 40
  let knownRenders = 0
  function countRender(loading: boolean) {
    busyFor(2)
    if (!loading) knownRenders += 1
  }
  function Reader() {
    const { loading } = useAuth()
    countRender(loading)
    return <li>{loading ? 'loading' : 'known'}</li>
  }
  const page = (loadSource: () => Promise<AuthSource>) => (
    <AuthProvider loadSource={loadSource}>
      <ul>
        {Array.from({ length: READERS }, (_, index) => (
          <Reader key={index} />
        ))}
      </ul>
    </AuthProvider>
  )

  withoutActEnvironment()

  it('the auth state becomes known in a transition: its readers re-render in slices, not in one task', async () => {
    const { loadSource } = fakeSource()
    const container = document.createElement('div')
    container.innerHTML = renderToString(page(loadSource))
    expect(container.textContent).toBe('loading'.repeat(READERS))
    document.body.append(container)
    knownRenders = 0
    const root = hydrateRoot(container, page(loadSource))
    const counts = await countsBetweenTasks(() => knownRenders, READERS)
    // Some task ran while the readers were being rendered again.
    expect(midway(counts, READERS).length).toBeGreaterThan(0)
    await nextTask()
    expect(container.textContent).toBe('known'.repeat(READERS))
    root.unmount()
    container.remove()
  })
})
