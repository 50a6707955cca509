// The publish tokens the OIDC exchange mints ("cr_tp_<public id>_<secret>"; only the SHA-256 is
// stored): one node, one publish, at most 15 minutes, and only while the trusted publisher that
// minted them is still there. publishNodeVersion accepts one where comfy-cli sends a personal
// access token, and marks it used in the publish's own transaction.
import { and, eq, isNull } from 'drizzle-orm'
import type { Db } from '../db/client'
import {
  trustedPublishers,
  trustedPublishingTokens,
  type TrustedPublishingToken,
  type VersionProvenance,
} from '../db/schema'
import { matchesHash, newSecret, secretHash } from '../auth/secrets'
import { forbidden, unauthorized } from '../http/errors'

export const PUBLISH_TOKEN_PREFIX = 'cr_tp_'
/** openapi.yml: "valid for one publish and at most 15 minutes". */
export const PUBLISH_TOKEN_TTL_MS = 15 * 60 * 1000

export const isPublishToken = (secret: string) => secret.trim().startsWith(PUBLISH_TOKEN_PREFIX)

export interface MintInput {
  nodeId: string
  publisherId: string
  trustedPublisherId: string
  jti: string
  provenance: VersionProvenance
}

export async function mintPublishToken(
  db: Db,
  input: MintInput,
  now: Date,
): Promise<{ row: TrustedPublishingToken; secret: string }> {
  const { secret, hash } = newSecret(PUBLISH_TOKEN_PREFIX)
  const [row] = await db
    .insert(trustedPublishingTokens)
    .values({
      ...input,
      tokenHash: hash,
      expiresAt: new Date(now.getTime() + PUBLISH_TOKEN_TTL_MS),
    })
    .returning()
  return { row, secret }
}

const field = "Invalid field 'personal_access_token'"

/**
 * Checks a minted token for publishing `nodeId` of `publisherId` and marks it used; call it inside
 * the publish's transaction, so a refused publish leaves it unused. Throws the refusal.
 */
export async function spendPublishToken(
  db: Db,
  publisherId: string,
  nodeId: string,
  secret: string,
  now = new Date(),
): Promise<TrustedPublishingToken> {
  const candidate = secret.trim()
  const [row] = await db
    .select()
    .from(trustedPublishingTokens)
    .where(eq(trustedPublishingTokens.tokenHash, secretHash(candidate)))
  if (!row || !matchesHash(row.tokenHash, candidate)) {
    throw unauthorized(
      `${field}: the publish token is not valid (mistyped, or not minted by this registry). Exchange a new OIDC token for one.`,
    )
  }
  if (row.nodeId.toLowerCase() !== nodeId.toLowerCase()) {
    throw forbidden(
      `${field}: this publish token is for node '${row.nodeId}'; a publish token only publishes the node it was minted for.`,
    )
  }
  if (row.publisherId !== publisherId) {
    throw forbidden(
      `${field}: this publish token is for publisher '${row.publisherId}', not '${publisherId}'.`,
    )
  }
  if (row.usedAt) {
    throw unauthorized(
      `${field}: this publish token was already used; each one publishes once. Exchange a new OIDC token for the next publish.`,
    )
  }
  if (new Date(row.expiresAt).getTime() <= now.getTime()) {
    throw unauthorized(
      `${field}: this publish token expired at ${new Date(row.expiresAt).toISOString()} (they last 15 minutes). Exchange a new OIDC token.`,
    )
  }
  // Locked until the publish commits: a removal waits for it, and is final once done.
  const [trusted] = row.trustedPublisherId
    ? await db
        .select({ id: trustedPublishers.id })
        .from(trustedPublishers)
        .where(eq(trustedPublishers.id, row.trustedPublisherId))
        .for('share')
    : []
  if (!trusted) {
    throw forbidden(
      `${field}: the trusted publisher that minted this publish token was removed from node '${row.nodeId}'.`,
    )
  }
  // Only one of two publishes racing with the same token marks it.
  const [used] = await db
    .update(trustedPublishingTokens)
    .set({ usedAt: now })
    .where(and(eq(trustedPublishingTokens.id, row.id), isNull(trustedPublishingTokens.usedAt)))
    .returning()
  if (!used) {
    throw unauthorized(
      `${field}: this publish token was already used; each one publishes once. Exchange a new OIDC token for the next publish.`,
    )
  }
  return used
}
