// The Firebase client, initialised once from the public settings of the page, and every Firebase
// call the site makes. This whole module is the lazily loaded Firebase chunk: load it only through
// `loadFirebase()` (src/lib/firebase-loader.ts) so anonymous pages never download it.
import { getApp, getApps, initializeApp, type FirebaseApp } from 'firebase/app'
import {
  browserLocalPersistence,
  browserPopupRedirectResolver,
  browserSessionPersistence,
  connectAuthEmulator,
  createUserWithEmailAndPassword,
  indexedDBLocalPersistence,
  initializeAuth,
  GithubAuthProvider,
  GoogleAuthProvider,
  onAuthStateChanged,
  sendPasswordResetEmail,
  signInWithEmailAndPassword,
  signInWithPopup,
  signOut as firebaseSignOut,
  type Auth,
  type User,
  sendEmailVerification,
} from 'firebase/auth'
import { publicEnv } from './public-env'

let auth: Auth | undefined

function firebaseApp(): FirebaseApp {
  if (getApps().length > 0) return getApp()
  const { apiKey, authDomain, projectId } = publicEnv().firebase
  return initializeApp({ apiKey, authDomain, projectId })
}

/** The Auth instance, connected to the emulator when the page names one. */
export function getFirebaseAuth(): Auth {
  if (auth) return auth
  // getAuth() would also set up the pop-up/redirect helper, which loads Google's gapi script on
  // every page; it is only needed while a pop-up sign-in runs, so it is passed there instead.
  auth = initializeAuth(firebaseApp(), {
    persistence: [indexedDBLocalPersistence, browserLocalPersistence, browserSessionPersistence],
  })
  const { emulatorHost } = publicEnv().firebase
  if (emulatorHost) connectAuthEmulator(auth, `http://${emulatorHost}`, { disableWarnings: true })
  return auth
}

/** Calls `listener` with the signed-in user now and on every change; returns unsubscribe. */
export function onUserChanged(listener: (user: User | null) => void): () => void {
  return onAuthStateChanged(getFirebaseAuth(), listener)
}

export async function signOut(): Promise<void> {
  await firebaseSignOut(getFirebaseAuth())
}

export async function signInWithEmail(email: string, password: string): Promise<void> {
  await signInWithEmailAndPassword(getFirebaseAuth(), email, password)
}

export async function signUpWithEmail(email: string, password: string): Promise<void> {
  await createUserWithEmailAndPassword(getFirebaseAuth(), email, password)
}

export async function signInWithProvider(provider: 'google' | 'github'): Promise<void> {
  const authProvider = provider === 'google' ? new GoogleAuthProvider() : new GithubAuthProvider()
  await signInWithPopup(getFirebaseAuth(), authProvider, browserPopupRedirectResolver)
}

export async function sendPasswordReset(email: string): Promise<void> {
  await sendPasswordResetEmail(getFirebaseAuth(), email)
}

/** Sends the signed-in user the provider's email with a link that verifies their address. */
export async function sendVerificationEmail(): Promise<void> {
  const user = getFirebaseAuth().currentUser
  if (!user) throw new Error('Sign in first.')
  await sendEmailVerification(user)
}
