// Sign-in state (seed sections 1, 2, 8 and 9): the Firebase user through onAuthStateChanged, the
// ID-token refresh schedule, analytics identification, and the logout sequence.
// Firebase is imported lazily so it stays out of every page's first-load JavaScript.
import type { QueryClient } from '@tanstack/react-query'
import { useQueryClient } from '@tanstack/react-query'
import type { User } from 'firebase/auth'
import { useTranslation } from 'next-i18next/pages'
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react'
import { identify, setProfile } from './analytics'
import {
  ID_TOKEN_STORAGE_KEY,
  LANGUAGE_STORAGE_KEY,
  THEME_STORAGE_KEY,
  TOKEN_REFRESH_BACKOFF_MAX_MS,
  TOKEN_REFRESH_BACKOFF_START_MS,
  TOKEN_REFRESH_BEFORE_EXPIRY_MS,
} from './constants'
import { publicEnv } from './public-env'

export interface AuthUser {
  uid: string
  email: string | null
  displayName: string | null
  photoURL: string | null
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

function toAuthUser(user: User): AuthUser {
  return {
    uid: user.uid,
    email: user.email,
    displayName: user.displayName,
    photoURL: user.photoURL,
  }
}

async function firebaseSignOut(): Promise<void> {
  const [{ getFirebaseAuth }, { signOut }] = await Promise.all([
    import('./firebase'),
    import('firebase/auth'),
  ])
  await signOut(getFirebaseAuth())
}

function saveToken(token: string) {
  try {
    sessionStorage.setItem(ID_TOKEN_STORAGE_KEY, token)
  } catch {
    // Storage may be unavailable (private mode); the token is fetched fresh per request anyway.
  }
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>({
    user: null,
    loading: true,
    signOut: firebaseSignOut,
  })

  useEffect(() => {
    let unsubscribe: (() => void) | undefined
    let stopRefresh: (() => void) | undefined
    let cancelled = false
    void Promise.all([import('./firebase'), import('firebase/auth')]).then(
      ([{ getFirebaseAuth }, { onAuthStateChanged, signInWithEmailAndPassword }]) => {
        if (cancelled) return
        const auth = getFirebaseAuth()
        if (publicEnv().firebase.emulatorHost) {
          window.__registryTestSignIn = async (email, password) => {
            await signInWithEmailAndPassword(auth, email, password)
          }
        }
        unsubscribe = onAuthStateChanged(auth, (user) => {
          stopRefresh?.()
          stopRefresh = undefined
          setState({
            user: user ? toAuthUser(user) : null,
            loading: false,
            signOut: firebaseSignOut,
          })
          if (!user) return
          stopRefresh = startTokenRefresh(user, saveToken)
          void identify(user.uid)
          void setProfile({ $email: user.email, $name: user.displayName })
        })
      },
    )
    return () => {
      cancelled = true
      unsubscribe?.()
      stopRefresh?.()
    }
  }, [])

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
    // react-toastify loads on demand (kept out of the first-load JavaScript).
    const { toast } = await import('react-toastify')
    toast.error(errorMessage(message))
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
