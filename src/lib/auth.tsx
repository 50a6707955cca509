// Sign-in state (seed sections 1, 2, 8 and 9): the Firebase user through onAuthStateChanged, the
// ID-token refresh schedule, analytics identification, and the logout sequence.
//
// Firebase loads only when needed (issue 3: anonymous visitors never download it): when someone
// signed in on this browser before (the SIGNED_IN_HINT_KEY hint in local storage), when something
// calls `loadFirebase()` (sign-in forms, the API client), or when the page declares it needs the
// signed-in user with a static flag, which _app reads:
//
//   export default function YourNodesPage() { … }
//   YourNodesPage.requiresAuth = true
//
// Without Firebase the state is `{ user: null, loading: false }`.
import type { QueryClient } from '@tanstack/react-query'
import { useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'next-i18next/pages'
import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react'
import { identify, setProfile } from './analytics'
import { clearSignedInHint, hasSignedInHint, needsFirebase, setSignedInHint } from './auth-hint'
import {
  ID_TOKEN_STORAGE_KEY,
  LANGUAGE_STORAGE_KEY,
  THEME_STORAGE_KEY,
  TOKEN_REFRESH_BACKOFF_MAX_MS,
  TOKEN_REFRESH_BACKOFF_START_MS,
  TOKEN_REFRESH_BEFORE_EXPIRY_MS,
} from './constants'
import { firebaseRequested, loadFirebase, onFirebaseRequested } from './firebase-loader'
import { notifyError } from './notify'
import { publicEnv } from './public-env'

/** A page component that needs the signed-in user (see the comment at the top). */
export interface RequiresAuth {
  requiresAuth?: boolean
}

export interface AuthUser {
  uid: string
  email: string | null
  displayName: string | null
  photoURL: string | null
  /** The sign-in provider vouches for `email` (publisher invitations need it). */
  emailVerified?: boolean
}

export interface AuthState {
  /** The signed-in user, or null when signed out (or not yet known). */
  user: AuthUser | null
  /** True until Firebase has told whether someone is signed in. */
  loading: boolean
  /** Signs the current user out of Firebase. */
  signOut?: () => Promise<void>
}

export const AuthContext = createContext<AuthState>({ user: null, loading: true })

export function useAuth(): AuthState {
  return useContext(AuthContext)
}

declare global {
  interface Window {
    /** E2E only (Auth emulator pages): signs in with email and password. */
    __registryTestSignIn?: (email: string, password: string) => Promise<void>
  }
}

/**
 * Milliseconds until the next ID-token refresh (seed section 9): 5 minutes before the token
 * expires; after `failures` consecutive errors, 30 s doubling each time up to 16 minutes.
 */
export function nextRefreshDelay({
  expirationTime,
  now,
  failures,
}: {
  expirationTime?: number
  now: number
  failures: number
}): number {
  if (failures > 0) {
    return Math.min(
      TOKEN_REFRESH_BACKOFF_START_MS * 2 ** (failures - 1),
      TOKEN_REFRESH_BACKOFF_MAX_MS,
    )
  }
  if (expirationTime === undefined) return 0
  return Math.max(0, expirationTime - now - TOKEN_REFRESH_BEFORE_EXPIRY_MS)
}

/** What the refresh timer needs of a Firebase user. */
export interface TokenSource {
  getIdTokenResult(forceRefresh?: boolean): Promise<{ token: string; expirationTime: string }>
}

/** Keeps the user's ID token fresh; returns a function that stops the timer. */
export function startTokenRefresh(
  user: TokenSource,
  onToken: (token: string) => void,
  now: () => number = Date.now,
): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  let failures = 0
  const schedule = (delay: number) => {
    if (!stopped) timer = setTimeout(() => void refresh(true), delay)
  }
  const refresh = async (force: boolean) => {
    try {
      const result = await user.getIdTokenResult(force)
      if (stopped) return
      if (force) onToken(result.token)
      failures = 0
      const expirationTime = Date.parse(result.expirationTime)
      schedule(nextRefreshDelay({ expirationTime, now: now(), failures }))
    } catch {
      failures += 1
      schedule(nextRefreshDelay({ now: now(), failures }))
    }
  }
  void refresh(false)
  return () => {
    stopped = true
    clearTimeout(timer)
  }
}

/** A signed-in user as the auth source reports it (Firebase's User has all of this). */
export interface SignedInUser extends AuthUser, TokenSource {}

/** What AuthProvider needs of Firebase (the lazily loaded src/lib/firebase module). */
export interface AuthSource {
  onUserChanged(listener: (user: SignedInUser | null) => void): () => void
  signInWithEmail(email: string, password: string): Promise<void>
  signOut(): Promise<void>
}

function toAuthUser(user: AuthUser): AuthUser {
  return {
    uid: user.uid,
    email: user.email,
    displayName: user.displayName,
    photoURL: user.photoURL,
    emailVerified: user.emailVerified,
  }
}

async function firebaseSignOut(): Promise<void> {
  await (await loadFirebase()).signOut()
}

function saveToken(token: string) {
  try {
    sessionStorage.setItem(ID_TOKEN_STORAGE_KEY, token)
  } catch {
    // Storage may be unavailable (private mode); the token is fetched fresh per request anyway.
  }
}

export interface AuthProviderProps {
  children: ReactNode
  /** The current page needs the signed-in user: load Firebase even without the hint. */
  requiresAuth?: boolean
  /** Loads the auth source (tests pass a fake). */
  loadSource?: () => Promise<AuthSource>
}

export function AuthProvider({
  children,
  requiresAuth = false,
  loadSource = loadFirebase,
}: AuthProviderProps) {
  // Known once hydrated, as a transition: the auth state it changes re-renders whatever reads it
  // (most of the page), which React then renders in slices. A store whose value differs from the
  // server's after hydration would be rendered again at once, in one task (docs/ARCHITECTURE.md
  // "Blocking time").
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => startTransition(() => setHydrated(true)), [])
  // null while rendering on the server and hydrating (not known yet); then whether this page
  // uses Firebase. It only ever turns true: the hint is written only once Firebase is loaded.
  const usesFirebase = useSyncExternalStore(
    onFirebaseRequested,
    () =>
      hydrated
        ? needsFirebase({
            pageRequiresAuth: requiresAuth,
            hint: hasSignedInHint(),
            requested: firebaseRequested(),
          })
        : null,
    () => null,
  )
  // undefined until Firebase has reported whether someone is signed in.
  const [firebaseUser, setFirebaseUser] = useState<AuthUser | null | undefined>(undefined)

  // E2E only: sign in without the forms (loads Firebase on demand).
  useEffect(() => {
    if (!publicEnv().firebase.emulatorHost) return
    window.__registryTestSignIn = async (email, password) => {
      await (await loadSource()).signInWithEmail(email, password)
      setSignedInHint()
    }
    return () => {
      delete window.__registryTestSignIn
    }
  }, [loadSource])

  useEffect(() => {
    if (!usesFirebase) return
    let unsubscribe: (() => void) | undefined
    let stopRefresh: (() => void) | undefined
    let cancelled = false
    void loadSource().then((source) => {
      if (cancelled) return
      unsubscribe = source.onUserChanged((user) => {
        stopRefresh?.()
        stopRefresh = undefined
        setFirebaseUser(user ? toAuthUser(user) : null)
        if (!user) return clearSignedInHint()
        setSignedInHint()
        stopRefresh = startTokenRefresh(user, saveToken)
        void identify(user.uid)
        void setProfile({ $email: user.email, $name: user.displayName })
      })
    })
    return () => {
      cancelled = true
      unsubscribe?.()
      stopRefresh?.()
    }
  }, [usesFirebase, loadSource])

  const signOut = useCallback(async () => {
    await (await loadSource()).signOut()
  }, [loadSource])
  const state = useMemo<AuthState>(
    () => ({
      user: usesFirebase ? (firebaseUser ?? null) : null,
      loading: usesFirebase === null || (usesFirebase && firebaseUser === undefined),
      signOut,
    }),
    [usesFirebase, firebaseUser, signOut],
  )

  return <AuthContext.Provider value={state}>{children}</AuthContext.Provider>
}

/**
 * Logout (seed sections 2 and 8): Firebase sign-out, then every cached query reset and removed,
 * then local and session storage cleared. The visitor's display preferences (language and dark
 * mode) are kept: they are not account data. A failure shows "Logout Error:{message}".
 * Returns whether the user was signed out.
 */
export async function logout(
  queryClient: QueryClient,
  signOut: () => Promise<void>,
  errorMessage: (message: string) => string = (message) => `Logout Error:${message}`,
): Promise<boolean> {
  try {
    await signOut()
    void queryClient.resetQueries()
    queryClient.clear()
    const kept = [LANGUAGE_STORAGE_KEY, THEME_STORAGE_KEY].flatMap((key) => {
      const value = localStorage.getItem(key)
      return value === null ? [] : [[key, value] as const]
    })
    localStorage.clear()
    sessionStorage.clear()
    for (const [key, value] of kept) localStorage.setItem(key, value)
    return true
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    await notifyError(errorMessage(message))
    return false
  }
}

/** The logout action for components: `const logOut = useLogout(); await logOut()`. */
export function useLogout(): () => Promise<boolean> {
  const queryClient = useQueryClient()
  const { signOut = firebaseSignOut } = useAuth()
  const { t } = useTranslation()
  return useCallback(
    () => logout(queryClient, signOut, (message) => t('toast.logoutError', { message })),
    [queryClient, signOut, t],
  )
}
