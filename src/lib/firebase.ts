// The Firebase client, initialised once from the public settings of the page. Loaded lazily
// (dynamic import) so anonymous pages do not pay for it in their first-load JavaScript.
import { getApp, getApps, initializeApp, type FirebaseApp } from 'firebase/app'
import { connectAuthEmulator, getAuth, type Auth } from 'firebase/auth'
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
  auth = getAuth(firebaseApp())
  const { emulatorHost } = publicEnv().firebase
  if (emulatorHost) connectAuthEmulator(auth, `http://${emulatorHost}`, { disableWarnings: true })
  return auth
}
