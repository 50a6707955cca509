// Personal access tokens: the secret is shown once at creation; only its SHA-256 hash and its
// non-secret id are stored. A token works only for its own publisher and until it expires or is
// deleted; each successful use records lastUsedAt.
import { and, desc, eq } from 'drizzle-orm'
import type { Schemas } from '../http/operations'
import type { Db } from '../db/client'
import { personalAccessTokens, type PersonalAccessToken } from '../db/schema'
import { matchesHash, newSecret, secretHash } from '../auth/secrets'

type ApiToken = Schemas['PersonalAccessToken']

/** "cr_pat_<public id>_<secret>" (server/auth/secrets.ts). */
export const TOKEN_PREFIX = 'cr_pat_'
const DAY_MS = 24 * 60 * 60 * 1000

/** How lists show a token: its public id, never a character of its secret. */
function shown(row: PersonalAccessToken): string {
  return `${TOKEN_PREFIX}${row.publicId}_…`
}

const iso = (date: Date | null) => (date ? new Date(date).toISOString() : null)

export function toApiToken(row: PersonalAccessToken, secret?: string): ApiToken {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    createdAt: new Date(row.createdAt).toISOString(),
    expiresAt: iso(row.expiresAt),
    lastUsedAt: iso(row.lastUsedAt),
    token: secret ?? shown(row),
  }
}

export interface NewToken {
  name: string
  description: string
  expiresInDays: number | null
}

export async function createToken(
  db: Db,
  publisherId: string,
  input: NewToken,
  now = new Date(),
): Promise<{ row: PersonalAccessToken; secret: string }> {
  const { publicId, secret, hash } = newSecret(TOKEN_PREFIX)
  const [row] = await db
    .insert(personalAccessTokens)
    .values({
      publisherId,
      name: input.name,
      description: input.description,
      tokenHash: hash,
      publicId,
      // createdAt: the database clock (microseconds), so "newest first" has no ties.
      expiresAt: input.expiresInDays
        ? new Date(now.getTime() + input.expiresInDays * DAY_MS)
        : null,
    })
    .returning()
  return { row, secret }
}

/** A publisher's tokens, newest first. */
export async function listTokens(db: Db, publisherId: string): Promise<PersonalAccessToken[]> {
  return db
    .select()
    .from(personalAccessTokens)
    .where(eq(personalAccessTokens.publisherId, publisherId))
    .orderBy(desc(personalAccessTokens.createdAt), desc(personalAccessTokens.id))
}

/** Deletes one of the publisher's tokens; null when it has no such token. */
export async function deleteToken(
  db: Db,
  publisherId: string,
  tokenId: string,
): Promise<PersonalAccessToken | null> {
  const [deleted] = await db
    .delete(personalAccessTokens)
    .where(
      and(eq(personalAccessTokens.id, tokenId), eq(personalAccessTokens.publisherId, publisherId)),
    )
    .returning()
  return deleted ?? null
}

export type TokenCheck =
  | { ok: true; token: PersonalAccessToken }
  | { ok: false; reason: 'invalid' | 'expired' | 'otherPublisher' }

/**
 * Checks a secret for `publisherId`. The row is found by the hash of the secret (an index
 * lookup on digests reveals nothing about the secret); the digests are then compared in
 * constant time. On success lastUsedAt is set.
 */
export async function verifyPersonalAccessToken(
  db: Db,
  publisherId: string,
  secret: string,
  now = new Date(),
): Promise<TokenCheck> {
  const candidate = secret.trim()
  if (!candidate.startsWith(TOKEN_PREFIX)) return { ok: false, reason: 'invalid' }
  const [row] = await db
    .select()
    .from(personalAccessTokens)
    .where(eq(personalAccessTokens.tokenHash, secretHash(candidate)))
  if (!row || !matchesHash(row.tokenHash, candidate)) {
    return { ok: false, reason: 'invalid' }
  }
  if (row.publisherId !== publisherId) return { ok: false, reason: 'otherPublisher' }
  if (row.expiresAt && new Date(row.expiresAt).getTime() <= now.getTime()) {
    return { ok: false, reason: 'expired' }
  }
  const [used] = await db
    .update(personalAccessTokens)
    .set({ lastUsedAt: now })
    .where(eq(personalAccessTokens.id, row.id))
    .returning()
  return { ok: true, token: used ?? row }
}
