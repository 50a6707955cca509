// The Firebase Auth emulator accepts unsigned ID tokens, so a registry that uses it must not be
// reachable from other machines, and must never run as a production deployment. `npm start` and
// `npm run api` both check this before they start (scripts/start.ts, server/main.ts).
import { isIP } from 'node:net'

export interface ListeningSetup {
  /** FIREBASE_AUTH_EMULATOR_HOST: set when sign-ins go to the emulator. */
  emulatorHost: string | undefined
  nodeEnv: string | undefined
  /** The addresses the parts listen on (API_HOST, WEB_HOST). */
  hosts: string[]
}

/** localhost, 127.0.0.0/8 and ::1 (also written as ::ffff:127.x.x.x). */
export function isLoopback(host: string): boolean {
  const address = host.replace(/^\[|\]$/g, '').toLowerCase()
  if (address === 'localhost') return true
  if (isIP(address) === 4) return address.startsWith('127.')
  if (isIP(address) === 6) return address === '::1' || /^::ffff:127\./.test(address)
  return false
}

/** Why this setup must not start, or null when it may. */
export function emulatorSetupProblem(setup: ListeningSetup): string | null {
  if (!setup.emulatorHost) return null
  if (setup.nodeEnv === 'production') {
    return (
      'The Firebase Auth emulator (FIREBASE_AUTH_EMULATOR_HOST) accepts unsigned sign-in tokens, ' +
      'so it cannot be used with NODE_ENV=production. Unset FIREBASE_AUTH_EMULATOR_HOST and set ' +
      'the real Firebase project (FIREBASE_PROJECT_ID, NEXT_PUBLIC_FIREBASE_*).'
    )
  }
  const exposed = setup.hosts.filter((host) => !isLoopback(host))
  if (exposed.length > 0) {
    return (
      `With the Firebase Auth emulator, the registry listens on loopback only (127.0.0.1, ::1, ` +
      `localhost), not on ${exposed.join(', ')}: anyone who could reach it could sign in as ` +
      'anyone. Use the real Firebase project to serve other machines.'
    )
  }
  return null
}

export function assertEmulatorSetupIsLocal(setup: ListeningSetup): void {
  const problem = emulatorSetupProblem(setup)
  if (problem) throw new Error(problem)
}
