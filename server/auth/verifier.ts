// Verifies Firebase ID tokens. With FIREBASE_AUTH_EMULATOR_HOST set, firebase-admin checks
// tokens against the Auth emulator; in production against the real project.
//
// The emulator's tokens are unsigned (`alg: none`), so anyone who can reach the API could write
// one with any claims. Two defences (docs/ARCHITECTURE.md): emulator mode listens on loopback
// only (emulator-guard.ts), and in emulator mode the email and its verification come from the
// emulator's own user record, never from the token, so a copied `email_verified` claim grants
// nothing (admins are granted by verified email, see authenticate.ts).
import { getApps, initializeApp } from 'firebase-admin/app'
import { getAuth, type DecodedIdToken } from 'firebase-admin/auth'

export interface VerifiedIdentity {
  uid: string
  email: string | undefined
  emailVerified: boolean
  name: string | undefined
}

export interface TokenVerifier {
  verify(idToken: string): Promise<VerifiedIdentity>
}

function fromClaims(decoded: DecodedIdToken): VerifiedIdentity {
  return {
    uid: decoded.uid,
    email: decoded.email,
    emailVerified: decoded.email_verified ?? false,
    name: typeof decoded.name === 'string' ? decoded.name : undefined,
  }
}

export function firebaseTokenVerifier(
  projectId: string,
  emulatorHost: string | undefined = process.env.FIREBASE_AUTH_EMULATOR_HOST,
): TokenVerifier {
  const appName = `registry-api-${projectId}`
  const app =
    getApps().find((existing) => existing.name === appName) ?? initializeApp({ projectId }, appName)
  const auth = getAuth(app)
  return {
    async verify(idToken) {
      const decoded = await auth.verifyIdToken(idToken)
      if (!emulatorHost) return fromClaims(decoded)
      // Throws for a uid the emulator does not know: the token is then refused.
      const record = await auth.getUser(decoded.uid)
      return {
        uid: record.uid,
        email: record.email,
        emailVerified: record.emailVerified,
        name: record.displayName,
      }
    },
  }
}
