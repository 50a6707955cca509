/**
 * The demo accounts (created in the Firebase Auth emulator by scripts/demo-accounts.ts) and their
 * database side. The demo publisher account owns the seeded publisher `comfy-demo`; its membership
 * is attached once its Firebase uid is known.
 */
import { and, eq, ne, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { adminActions, publisherMembers, publishers, users } from '../db/schema'

export const DEMO_PUBLISHER_ACCOUNT = {
  email: 'publisher@demo.comfy.test',
  password: 'demo-publisher',
  name: 'Demo Publisher',
  publisherId: 'comfy-demo',
} as const

export const DEMO_ADMIN_ACCOUNT = {
  email: 'admin@demo.comfy.test',
  password: 'demo-admin',
  name: 'Demo Admin',
} as const

/**
 * The actor of the demo's audit rows until the demo admin account exists: its Firebase uid is
 * known only then, and attachDemoAdmin points the rows at it (they are found by email as well).
 */
export const DEMO_ADMIN_SEED_ID = 'demo-admin'

export const DEMO_PUBLISHER = {
  id: DEMO_PUBLISHER_ACCOUNT.publisherId,
  name: 'Comfy Demo',
  description:
    'The demo publisher of this registry. Sign in as the demo publisher account to edit these nodes, publish versions and manage tokens.',
  website: 'https://github.com/comfy-demo',
  support: 'https://github.com/comfy-demo/support/issues',
  sourceCodeRepo: 'https://github.com/comfy-demo',
  logo: '/icons/node-0.svg',
} as const

async function upsertUser(db: Db, uid: string, email: string, name: string, isAdmin?: boolean) {
  await db
    .insert(users)
    .values({ id: uid, email, name, isApproved: true, ...(isAdmin ? { isAdmin } : {}) })
    .onConflictDoUpdate({
      target: users.id,
      set: {
        email,
        name,
        ...(isAdmin ? { isAdmin } : {}),
        updatedAt: sql`now()`,
      },
    })
}

/**
 * Upsert the demo publisher user and make them owner of `comfy-demo` (created if missing).
 * Idempotent: safe to call on every start.
 */
export async function attachDemoMembership(
  db: Db,
  uid: string,
  email: string = DEMO_PUBLISHER_ACCOUNT.email,
  name: string = DEMO_PUBLISHER_ACCOUNT.name,
): Promise<void> {
  await db.transaction(async (tx) => {
    await upsertUser(tx, uid, email, name)
    await tx.insert(publishers).values(DEMO_PUBLISHER).onConflictDoNothing()
    await tx
      .insert(publisherMembers)
      .values({ publisherId: DEMO_PUBLISHER.id, userId: uid, role: 'owner' })
      .onConflictDoUpdate({
        target: [publisherMembers.publisherId, publisherMembers.userId],
        set: { role: 'owner' },
      })
  })
}

/**
 * Upsert the demo admin user with is_admin = true (only for the local demo setup), and make it
 * the actor of the demo's audit rows (written with DEMO_ADMIN_SEED_ID, or an earlier uid of the
 * account if the emulator's accounts were reset). Idempotent: safe to call on every start.
 */
export async function attachDemoAdmin(
  db: Db,
  uid: string,
  email: string = DEMO_ADMIN_ACCOUNT.email,
  name: string = DEMO_ADMIN_ACCOUNT.name,
): Promise<void> {
  await db.transaction(async (tx) => {
    await upsertUser(tx, uid, email, name, true)
    await tx
      .update(adminActions)
      .set({ actorId: uid })
      .where(
        and(
          eq(sql`lower(${adminActions.actorEmail})`, email.toLowerCase()),
          ne(adminActions.actorId, uid),
        ),
      )
  })
}
