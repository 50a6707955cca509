import { authErrorKey, safeRedirectPath } from '@/src/lib/sign-in'
import { loadLocale } from '../test-utils'

const ORIGIN = 'https://registry.example.org'

/** Looks a dotted key up in a locale's translations. */
function lookUp(tree: Record<string, unknown>, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => {
    return typeof node === 'object' && node !== null
      ? (node as Record<string, unknown>)[part]
      : undefined
  }, tree)
}

describe('authErrorKey: every provider error has its own human message', () => {
  it.each([
    ['auth/unauthorized-domain', 'auth.errors.unauthorizedDomain'],
    ['auth/popup-blocked', 'auth.errors.popupBlocked'],
    ['auth/popup-closed-by-user', 'auth.errors.popupClosed'],
    ['auth/cancelled-popup-request', 'auth.errors.popupClosed'],
    ['auth/network-request-failed', 'auth.errors.networkFailed'],
    ['auth/wrong-password', 'auth.errors.wrongPassword'],
    ['auth/invalid-credential', 'auth.errors.invalidCredential'],
    ['auth/invalid-login-credentials', 'auth.errors.invalidCredential'],
    ['auth/user-not-found', 'auth.errors.userNotFound'],
    ['auth/email-already-in-use', 'auth.errors.emailInUse'],
    ['auth/weak-password', 'auth.errors.weakPassword'],
    ['auth/account-exists-with-different-credential', 'auth.errors.accountExists'],
    ['auth/too-many-requests', 'auth.errors.tooManyRequests'],
    ['auth/invalid-email', 'auth.errors.invalidEmail'],
    ['auth/user-disabled', 'auth.errors.userDisabled'],
  ])('%s → %s', (code, key) => {
    // Firebase errors are FirebaseError objects: an Error with a `code`.
    expect(authErrorKey(Object.assign(new Error('Firebase: Error'), { code }))).toBe(key)
  })

  it.each([
    ['an unknown code', { code: 'auth/something-new' }],
    ['no code', new Error('boom')],
    ['a non-string code', { code: 42 }],
    ['a string', 'auth/wrong-password'],
    ['nothing', undefined],
    ['null', null],
  ])('falls back to the generic message for %s', (_label, error) => {
    expect(authErrorKey(error)).toBe('auth.errors.generic')
  })

  it('every message exists, different from the others, in all seven languages', () => {
    const codes = [
      'auth/unauthorized-domain',
      'auth/popup-blocked',
      'auth/popup-closed-by-user',
      'auth/network-request-failed',
      'auth/wrong-password',
      'auth/invalid-credential',
      'auth/user-not-found',
      'auth/email-already-in-use',
      'auth/weak-password',
      'auth/account-exists-with-different-credential',
      'auth/too-many-requests',
      'auth/invalid-email',
      'unknown',
    ]
    for (const locale of ['en', 'zh', 'ja', 'fr', 'es', 'ko', 'ru']) {
      const messages = codes.map((code) => lookUp(loadLocale(locale), authErrorKey({ code })))
      for (const message of messages) expect(typeof message).toBe('string')
      expect(new Set(messages).size).toBe(codes.length)
    }
  })
})

describe('safeRedirectPath: fromUrl only when it is a path of this site, else /nodes', () => {
  it.each([
    ['/publishers/comfy-demo', '/publishers/comfy-demo'],
    ['/nodes/x?tab=versions#v2', '/nodes/x?tab=versions#v2'],
    ['/?q=upscale&page=2', '/?q=upscale&page=2'],
    ['/', '/'],
    ['/ja/nodes', '/ja/nodes'],
    ['/a/../b', '/b'],
  ])('keeps the same-site path %p', (fromUrl, expected) => {
    expect(safeRedirectPath(fromUrl, ORIGIN)).toBe(expected)
  })

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['repeated (an array)', ['/nodes/a', '/nodes/b']],
    ['protocol-relative', '//evil.example'],
    ['protocol-relative with a path', '//evil.example/nodes'],
    ['backslash trick', '/\\evil.example'],
    ['double backslash', '\\\\evil.example'],
    ['backslash later', '/nodes\\..\\..\\evil'],
    ['absolute URL', 'https://evil.example/'],
    ['absolute URL of this site', `${ORIGIN}/nodes`],
    ['javascript:', 'javascript:alert(1)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['relative', 'nodes'],
    ['tab inside the slashes', '/\t/evil.example'],
    ['newline inside the slashes', '/\n/evil.example'],
    ['carriage return', '/\r/evil.example'],
    ['NUL', '/\u0000/evil.example'],
    ['C1 control', '/\u0085/evil.example'],
    ['the login page', '/auth/login?fromUrl=%2F%2Fevil.example'],
    ['the logout page', '/auth/logout'],
    ['a localised auth page', '/fr/auth/signup'],
  ])('refuses %s', (_label, fromUrl) => {
    expect(safeRedirectPath(fromUrl, ORIGIN)).toBe('/nodes')
  })

  it('keeps encoded slashes as a path on this site', () => {
    expect(safeRedirectPath('/%2F%2Fevil.example', ORIGIN)).toBe('/%2F%2Fevil.example')
  })
})
