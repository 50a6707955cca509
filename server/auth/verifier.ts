// Verifies Firebase ID tokens. With FIREBASE_AUTH_EMULATOR_HOST set, firebase-admin checks
// tokens against the Auth emulator; in production against the real project. Same code path.
import { getApps, initializeApp } from 'firebase-admin/app'
import { getAuth } from 'firebase-admin/auth'

export interface VerifiedIdentity {
  uid: string
  email: string | undefined
  emailVerified: boolean
  name: string | undefined
}

export interface TokenVerifier {
  verify(idToken: string): Promise<VerifiedIdentity>
}

export function firebaseTokenVerifier(projectId: string): TokenVerifier {
  const appName = `registry-api-${projectId}`
  const app =
    getApps().find((existing) => existing.name === appName) ?? initializeApp({ projectId }, appName)
  const auth = getAuth(app)
  return {
    async verify(idToken) {
      const decoded = await auth.verifyIdToken(idToken)
      return {
        uid: decoded.uid,
        email: decoded.email,
        emailVerified: decoded.email_verified ?? false,
        name: typeof decoded.name === 'string' ? decoded.name : undefined,
      }
    },
  }
}
