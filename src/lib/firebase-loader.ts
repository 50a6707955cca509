// The one door to the Firebase chunk: loads it on first use and tells AuthProvider, so whoever
// needs Firebase (a sign-in form, the API client, the e2e hook) also gets the auth state wired up.
import type * as FirebaseModule from './firebase'

let loading: Promise<typeof FirebaseModule> | undefined
const listeners = new Set<() => void>()

export function loadFirebase(): Promise<typeof FirebaseModule> {
  if (!loading) {
    loading = import('./firebase')
    for (const listener of listeners) listener()
  }
  return loading
}

/** True once something asked for Firebase on this page. */
export function firebaseRequested(): boolean {
  return loading !== undefined
}

/** Calls `listener` when Firebase is first asked for; returns unsubscribe. */
export function onFirebaseRequested(listener: () => void): () => void {
  listeners.add(listener)
  return () => void listeners.delete(listener)
}
