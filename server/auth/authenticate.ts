// Who is calling: verifies the bearer token (when the operation looks at one) and keeps the
// users row in step with the sign-in provider (written only when the provider's email or name
// changed, so an ordinary call reads one row and writes nothing).
import type { FastifyRequest } from 'fastify'
import { eq, sql } from 'drizzle-orm'
import type { AppDeps, Caller } from '../http/context'
import type { Access } from '../http/contract'
import { users } from '../db/schema'
import { unauthorized } from '../http/errors'
import type { VerifiedIdentity } from './verifier'
import { apiKeyOwner } from '../customers/api-keys'

function bearerToken(request: FastifyRequest): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')
  const token = match?.[1]
  // Browsers with no signed-in user sometimes send the literal strings "undefined"/"null".
  return token && token !== 'undefined' && token !== 'null' ? token : undefined
}

/** Creates or refreshes the caller's row; admin comes from the row or from ADMIN_EMAILS. */
export async function upsertCaller(
  deps: Pick<AppDeps, 'db' | 'config'>,
  identity: VerifiedIdentity,
): Promise<Caller> {
  const email = identity.email ?? ''
  const name = identity.name ?? email.split('@')[0] ?? ''
  const [known] = await deps.db.select().from(users).where(eq(users.id, identity.uid))
  const unchanged = known && known.email === email && (name === '' || known.name === name)
  const [row] = unchanged
    ? [known]
    : await deps.db
        .insert(users)
        .values({ id: identity.uid, email, name })
        .onConflictDoUpdate({
          target: users.id,
          set: {
            email,
            name: sql`coalesce(nullif(${name}, ''), ${users.name})`,
            updatedAt: sql`now()`,
          },
        })
        .returning()
  const adminByConfig =
    identity.emailVerified && email !== '' && deps.config.adminEmails.includes(email.toLowerCase())
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    isAdmin: row.isAdmin || adminByConfig,
    isApproved: row.isApproved,
    emailVerified: identity.emailVerified,
  }
}

/** The caller a customer's API key (X-API-KEY) stands for: the user whose account it is. */
async function apiKeyCaller(deps: AppDeps, key: string): Promise<Caller> {
  const owner = await apiKeyOwner(deps.db, key)
  if (!owner)
    throw unauthorized('Your API key is invalid or was deleted. Create one in your account.')
  return {
    id: owner.id,
    email: owner.email,
    name: owner.name,
    isAdmin: owner.isAdmin,
    isApproved: owner.isApproved,
    // A key proves the account, not the address.
    emailVerified: false,
  }
}

export async function authenticate(
  deps: AppDeps,
  request: FastifyRequest,
  access: Access,
  acceptsApiKey = false,
): Promise<Caller | null> {
  if (access === 'public') return null
  const token = bearerToken(request)
  const apiKey = request.headers['x-api-key']
  if (!token && acceptsApiKey && typeof apiKey === 'string' && apiKey !== '') {
    return apiKeyCaller(deps, apiKey)
  }
  if (!token) {
    if (access === 'signedIn') throw unauthorized()
    return null
  }
  let identity: VerifiedIdentity
  try {
    identity = await deps.verifier.verify(token)
  } catch {
    // A stale token must not stop anyone from browsing public pages.
    if (access === 'signedIn') {
      throw unauthorized('Your sign-in token is invalid or has expired. Sign in again.')
    }
    return null
  }
  return upsertCaller(deps, identity)
}
