// Sign-in helpers for the login and signup pages: the Firebase calls behind one small interface
// (the forms take it as a prop, tests pass fakes), every provider error as a translation key, and
// the only place a sign-in may lead to afterwards.
import { setSignedInHint } from './auth-hint'
import { AFTER_SIGN_IN_DEFAULT_PATH, LANGUAGES } from './constants'
import { loadFirebase } from './firebase-loader'

export type OAuthProviderName = 'google' | 'github'

export interface SignInMethods {
  signInWithEmail(email: string, password: string): Promise<void>
  signUpWithEmail(email: string, password: string): Promise<void>
  signInWithProvider(provider: OAuthProviderName): Promise<void>
  sendPasswordReset(email: string): Promise<void>
}

/** The real calls: Firebase loads on first use; each success leaves the signed-in hint. */
export const firebaseSignInMethods: SignInMethods = {
  async signInWithEmail(email, password) {
    await (await loadFirebase()).signInWithEmail(email, password)
    setSignedInHint()
  },
  async signUpWithEmail(email, password) {
    await (await loadFirebase()).signUpWithEmail(email, password)
    setSignedInHint()
  },
  async signInWithProvider(provider) {
    await (await loadFirebase()).signInWithProvider(provider)
    setSignedInHint()
  },
  async sendPasswordReset(email) {
    await (await loadFirebase()).sendPasswordReset(email)
  },
}

/** Firebase error codes and the `auth.errors.*` key of the message shown for each. */
const ERROR_KEYS: Record<string, string> = {
  'auth/unauthorized-domain': 'unauthorizedDomain',
  'auth/popup-blocked': 'popupBlocked',
  'auth/popup-closed-by-user': 'popupClosed',
  'auth/cancelled-popup-request': 'popupClosed',
  'auth/user-cancelled': 'popupClosed',
  'auth/network-request-failed': 'networkFailed',
  'auth/wrong-password': 'wrongPassword',
  'auth/invalid-credential': 'invalidCredential',
  'auth/invalid-login-credentials': 'invalidCredential',
  'auth/user-not-found': 'userNotFound',
  'auth/email-already-in-use': 'emailInUse',
  'auth/weak-password': 'weakPassword',
  'auth/account-exists-with-different-credential': 'accountExists',
  'auth/credential-already-in-use': 'accountExists',
  'auth/too-many-requests': 'tooManyRequests',
  'auth/invalid-email': 'invalidEmail',
  'auth/missing-email': 'invalidEmail',
  'auth/missing-password': 'missingPassword',
  'auth/user-disabled': 'userDisabled',
  'auth/operation-not-allowed': 'operationNotAllowed',
}

/** The error code of a Firebase error (`auth/…`), if it has one. */
export function authErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined
  return typeof error.code === 'string' ? error.code : undefined
}

export const GENERIC_ERROR_KEY = 'auth.errors.generic'

/** The translation key of the message for a sign-in error; a generic one for unknown errors. */
export function authErrorKey(error: unknown): string {
  const code = authErrorCode(error)
  const known = code === undefined ? undefined : ERROR_KEYS[code]
  return known ? `auth.errors.${known}` : GENERIC_ERROR_KEY
}

// C0 controls, DEL and C1 controls: browsers drop some of them inside URLs, which hides tricks.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/

/** /auth/… with or without a language prefix. */
const AUTH_PAGES = new RegExp(
  `^/(?:(?:${LANGUAGES.map((language) => language.code).join('|')})/)?auth(?:/|$)`,
)

/**
 * Where to go after signing in: `fromUrl` when it is a path of this site, else `/nodes`.
 * Never an open redirect: only a single leading slash, no backslashes (browsers read `/\\` as
 * `//`), no control characters, and the resolved address must keep this origin. The sign-in
 * pages themselves (and logout) are not destinations.
 */
export function safeRedirectPath(fromUrl: unknown, origin: string): string {
  if (typeof fromUrl !== 'string') return AFTER_SIGN_IN_DEFAULT_PATH
  if (!fromUrl.startsWith('/') || fromUrl.startsWith('//')) return AFTER_SIGN_IN_DEFAULT_PATH
  if (fromUrl.includes('\\') || CONTROL_CHARACTERS.test(fromUrl)) {
    return AFTER_SIGN_IN_DEFAULT_PATH
  }
  let url: URL
  try {
    url = new URL(fromUrl, origin)
  } catch {
    return AFTER_SIGN_IN_DEFAULT_PATH
  }
  if (url.origin !== new URL(origin).origin) return AFTER_SIGN_IN_DEFAULT_PATH
  if (AUTH_PAGES.test(url.pathname)) return AFTER_SIGN_IN_DEFAULT_PATH
  return `${url.pathname}${url.search}${url.hash}`
}
