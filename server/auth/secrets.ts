// Secrets shown once and never stored: personal access tokens (server/tokens/) and customers'
// API keys (server/customers/). A secret reads "<prefix><public id>_<43 base64url characters>":
// the prefix and public id (12 hex characters, not secret) make it recognisable in logs, secret
// scanners and lists; only its SHA-256 is kept, looked up by value, then compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

const PUBLIC_ID_BYTES = 6
const SECRET_BYTES = 32

export interface NewSecret {
  publicId: string
  secret: string
  /** What is stored: the hex SHA-256 of the secret. */
  hash: string
}

export function newSecret(prefix: string): NewSecret {
  const publicId = randomBytes(PUBLIC_ID_BYTES).toString('hex')
  const secret = `${prefix}${publicId}_${randomBytes(SECRET_BYTES).toString('base64url')}`
  return { publicId, secret, hash: secretHash(secret) }
}

export function secretHash(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex')
}

/** Whether `secret` hashes to `storedHash`, compared in constant time. */
export function matchesHash(storedHash: string, secret: string): boolean {
  const stored = Buffer.from(storedHash, 'hex')
  const digest = Buffer.from(secretHash(secret), 'hex')
  return stored.length === digest.length && timingSafeEqual(stored, digest)
}
