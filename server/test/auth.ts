/**
 * Real sign-ins for API tests: users are created in the Firebase Auth emulator over its REST API
 * and the app verifies their ID tokens with firebase-admin, exactly as in production.
 * Run the server tests through `bash scripts/with-auth-emulator.sh "npx jest --selectProjects server"`,
 * which starts the emulator and sets FIREBASE_AUTH_EMULATOR_HOST.
 */
import { randomBytes } from 'node:crypto'
import http from 'node:http'

export const TEST_PROJECT_ID = 'demo-comfy-registry'
const API_KEY = 'fake-api-key'
export const DEFAULT_TEST_PASSWORD = 'test-password-123'

export interface TestUser {
  uid: string
  idToken: string
  email: string
}

function emulatorHost(): string {
  const host = process.env.FIREBASE_AUTH_EMULATOR_HOST
  if (!host) {
    throw new Error(
      'FIREBASE_AUTH_EMULATOR_HOST is not set, so test users cannot be signed in. Run the server ' +
        'tests via `bash scripts/with-auth-emulator.sh "npx jest --selectProjects server"`, which ' +
        'starts the Firebase Auth emulator and sets it.',
    )
  }
  return host
}

interface TokenResponse {
  localId: string
  idToken: string
  email: string
}

/**
 * One POST on a connection of its own (no keep-alive pool): the emulator closes idle keep-alive
 * connections, and requests sent on one as it closed failed in CI ("other side closed"), even
 * when sent again on the pool's next connection.
 */
function postOnce(
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          connection: 'close',
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
        )
        response.on('error', reject)
      },
    )
    request.on('error', reject)
    request.end(body)
  })
}

async function identityToolkit(
  method: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<unknown> {
  const url = `http://${emulatorHost()}/identitytoolkit.googleapis.com/v1/accounts:${method}?key=${API_KEY}`
  const { status, text } = await postOnce(url, JSON.stringify(body), headers)
  if (status < 200 || status >= 300) {
    throw new Error(`Auth emulator accounts:${method} answered ${status}: ${text}`)
  }
  return JSON.parse(text) as unknown
}

function tokenResponse(value: unknown, method: string): TokenResponse {
  const record = value as Partial<TokenResponse> | null
  if (!record || typeof record.idToken !== 'string' || typeof record.localId !== 'string') {
    throw new Error(`Auth emulator accounts:${method} returned no idToken`)
  }
  return { localId: record.localId, idToken: record.idToken, email: record.email ?? '' }
}

/** A fresh address per call, so tests never share emulator users. */
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomBytes(6).toString('hex')}@test.comfy.test`
}

/** Creates a user in the Auth emulator and returns a valid ID token (email not verified). */
export async function signUpUser(
  email: string = uniqueEmail(),
  password: string = DEFAULT_TEST_PASSWORD,
  displayName?: string,
): Promise<TestUser> {
  const created = tokenResponse(
    await identityToolkit('signUp', { email, password, returnSecureToken: true }),
    'signUp',
  )
  if (!displayName) return { uid: created.localId, idToken: created.idToken, email }
  await identityToolkit('update', {
    idToken: created.idToken,
    displayName,
    returnSecureToken: true,
  })
  // A token minted after the update carries the `name` claim.
  return signIn(email, password)
}

/** Signs in with email and password: a fresh ID token with the account's current claims. */
export async function signIn(
  email: string,
  password: string = DEFAULT_TEST_PASSWORD,
): Promise<TestUser> {
  const signedIn = tokenResponse(
    await identityToolkit('signInWithPassword', { email, password, returnSecureToken: true }),
    'signInWithPassword',
  )
  return { uid: signedIn.localId, idToken: signedIn.idToken, email }
}

/**
 * Marks the account's email as verified (with the emulator's owner credentials, as an admin SDK
 * would) and returns a fresh token carrying `email_verified: true`. Sign-up tokens carry false,
 * and admins by ADMIN_EMAILS must have a verified email.
 */
export async function markEmailVerified(
  user: TestUser,
  password: string = DEFAULT_TEST_PASSWORD,
): Promise<TestUser> {
  await identityToolkit(
    'update',
    { localId: user.uid, emailVerified: true },
    { authorization: 'Bearer owner' },
  )
  return signIn(user.email, password)
}

/** A signed-up user whose email is verified (e.g. an admin listed in ADMIN_EMAILS). */
export async function signUpVerifiedUser(
  email: string = uniqueEmail(),
  displayName?: string,
): Promise<TestUser> {
  return markEmailVerified(await signUpUser(email, DEFAULT_TEST_PASSWORD, displayName))
}

/** The Authorization header for a user (or for any raw token string). */
export function bearer(user: TestUser | string): { authorization: string } {
  return { authorization: `Bearer ${typeof user === 'string' ? user : user.idToken}` }
}
