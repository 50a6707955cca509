// Customers' API keys, sent by ComfyUI clients as X-API-KEY: made like personal access tokens
// (server/auth/secrets.ts): shown once, only the hash and the non-secret prefix are kept.
// Creating and deleting one are events of the customer's ledger.
import { and, desc, eq, isNull, lt, or } from 'drizzle-orm'
import { CUSTOMER_API_KEY_PREFIX } from '@/src/lib/constants'
import type { Db } from '../db/client'
import { customerApiKeys, customers, users, type CustomerApiKey, type User } from '../db/schema'
import type { Schemas } from '../http/operations'
import { matchesHash, newSecret, secretHash } from '../auth/secrets'
import { recordEvent } from './accounts'

/** lastUsedAt is written at most this often per key: a client polling every second writes once a minute. */
const LAST_USED_RESOLUTION_MS = 60_000

export function toApiKey(row: CustomerApiKey, key?: string): Schemas['ApiKey'] {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    key_prefix: row.keyPrefix,
    key,
    createdAt: new Date(row.createdAt).toISOString(),
    lastUsedAt: row.lastUsedAt ? new Date(row.lastUsedAt).toISOString() : undefined,
  }
}

export async function createApiKey(
  db: Db,
  customerId: string,
  input: { name: string; description: string },
): Promise<{ row: CustomerApiKey; key: string }> {
  const { publicId, secret, hash } = newSecret(CUSTOMER_API_KEY_PREFIX)
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(customerApiKeys)
      .values({
        customerId,
        name: input.name.trim(),
        description: input.description,
        keyHash: hash,
        keyPrefix: `${CUSTOMER_API_KEY_PREFIX}${publicId}`,
      })
      .returning()
    await recordEvent(tx, customerId, {
      type: 'api_key_created',
      amountMicros: 0,
      description: `API key "${row.name}" created`,
      apiKey: { id: row.id, name: row.name },
    })
    return { row, key: secret }
  })
}

/** The customer's keys, newest first. */
export function listApiKeys(db: Db, customerId: string): Promise<CustomerApiKey[]> {
  return db
    .select()
    .from(customerApiKeys)
    .where(eq(customerApiKeys.customerId, customerId))
    .orderBy(desc(customerApiKeys.createdAt), desc(customerApiKeys.id))
}

/** Deletes one of the customer's keys; false when it has no such key. */
export async function deleteApiKey(db: Db, customerId: string, keyId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(customerApiKeys)
      .where(and(eq(customerApiKeys.id, keyId), eq(customerApiKeys.customerId, customerId)))
      .returning()
    if (!deleted) return false
    await recordEvent(tx, customerId, {
      type: 'api_key_deleted',
      amountMicros: 0,
      description: `API key "${deleted.name}" deleted`,
      apiKey: { id: deleted.id, name: deleted.name },
    })
    return true
  })
}

/**
 * The key `key` is and its account's user, or null; records when it was used (to the minute).
 * One query when lastUsedAt is recent: a client polling every second costs one read.
 */
async function lookUp(
  db: Db,
  key: string,
  now: Date,
): Promise<{ key: CustomerApiKey; user: User } | null> {
  const candidate = key.trim()
  if (!candidate.startsWith(CUSTOMER_API_KEY_PREFIX)) return null
  const [found] = await db
    .select({ key: customerApiKeys, user: users })
    .from(customerApiKeys)
    .innerJoin(customers, eq(customers.id, customerApiKeys.customerId))
    .innerJoin(users, eq(users.id, customers.userId))
    .where(eq(customerApiKeys.keyHash, secretHash(candidate)))
  if (!found || !matchesHash(found.key.keyHash, candidate)) return null
  const stale = new Date(now.getTime() - LAST_USED_RESOLUTION_MS)
  if (!found.key.lastUsedAt || found.key.lastUsedAt < stale) {
    await db
      .update(customerApiKeys)
      .set({ lastUsedAt: now })
      .where(
        and(
          eq(customerApiKeys.id, found.key.id),
          or(isNull(customerApiKeys.lastUsedAt), lt(customerApiKeys.lastUsedAt, stale)),
        ),
      )
  }
  return found
}

/** The key `key` is, or null. */
export async function apiKeyOf(
  db: Db,
  key: string,
  now = new Date(),
): Promise<CustomerApiKey | null> {
  return (await lookUp(db, key, now))?.key ?? null
}

/** The user whose account `key` belongs to, or null. */
export async function apiKeyOwner(db: Db, key: string, now = new Date()): Promise<User | null> {
  return (await lookUp(db, key, now))?.user ?? null
}
