// Credit accounts: a signed-in user's account is opened on first use; its balance (integer
// micro-credits) moves only together with an event of its append-only ledger, in one transaction
// whose UPDATE locks the account row, so concurrent events never lose an update and the balance
// is always the sum of the ledger. A balance never goes below zero (no overdraft).
// See docs/ARCHITECTURE.md, "Customers".
import { and, count, desc, eq, gte, ilike, lt, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../db/client'
import {
  customerEvents,
  customers,
  users,
  type Customer,
  type CustomerEvent,
  type CustomerEventType,
} from '../db/schema'
import { conflict, notFound } from '../http/errors'
import type { Schemas } from '../http/operations'
import { pageInfo } from '../http/serialize'
import { CUSTOMER_CURRENCY } from '@/src/lib/constants'
import { escapeLike } from '../db/like'

const iso = (date: Date | string) => new Date(date).toISOString()

export interface CustomerWithUser {
  customer: Customer
  email: string
  name: string
  isAdmin: boolean
}

export function toApiCustomer(row: CustomerWithUser): Schemas['Customer'] {
  return {
    id: row.customer.id,
    email: row.email,
    name: row.name,
    is_admin: row.isAdmin,
    has_fund: row.customer.balanceMicros > 0,
    createdAt: iso(row.customer.createdAt),
    updatedAt: iso(row.customer.updatedAt),
  }
}

export function toApiBalance(customer: Customer): Schemas['Balance'] {
  return {
    amount_micros: customer.balanceMicros,
    prepaid_balance_micros: customer.balanceMicros,
    cloud_credit_balance_micros: 0,
    currency: CUSTOMER_CURRENCY,
  }
}

export function toApiEvent(row: CustomerEvent): Schemas['CustomerEvent'] {
  return {
    id: row.id,
    event_type: row.type,
    params: {
      amount_micros: row.amountMicros,
      balance_micros: row.balanceMicros,
      description: row.description,
      ...(row.apiKeyId ? { api_key_id: row.apiKeyId, api_key_name: row.apiKeyName ?? '' } : {}),
    },
    createdAt: iso(row.createdAt),
  }
}

const withUser = (db: Db) =>
  db
    .select({
      customer: customers,
      email: users.email,
      name: users.name,
      isAdmin: users.isAdmin,
    })
    .from(customers)
    .innerJoin(users, eq(users.id, customers.userId))

/** The account of user `userId`, if it was opened. */
export async function customerOfUser(db: Db, userId: string): Promise<CustomerWithUser | null> {
  const [row] = await withUser(db).where(eq(customers.userId, userId))
  return row ?? null
}

export async function customerById(db: Db, customerId: string): Promise<CustomerWithUser> {
  const [row] = await withUser(db).where(eq(customers.id, customerId))
  if (!row) throw notFound(`Customer '${customerId}' does not exist.`)
  return row
}

/** The user's account, opened (with its `account_created` event) if it was not yet. */
export async function openAccount(db: Db, userId: string): Promise<CustomerWithUser> {
  const known = await customerOfUser(db, userId)
  if (known) return known
  await db.transaction(async (tx) => {
    const [opened] = await tx
      .insert(customers)
      .values({ userId })
      .onConflictDoNothing({ target: customers.userId })
      .returning()
    // Another request opened it meanwhile: its event is written there.
    if (!opened) return
    await tx.insert(customerEvents).values({
      customerId: opened.id,
      type: 'account_created',
      balanceMicros: 0,
      description: 'Credit account opened',
    })
  })
  const opened = await customerOfUser(db, userId)
  if (!opened) throw notFound(`User '${userId}' does not exist.`)
  return opened
}

export interface NewEvent {
  type: CustomerEventType
  /** Added to the balance (negative: taken from it); 0 for events without money. */
  amountMicros: number
  description: string
  actorUserId?: string
  apiKey?: { id: string; name: string }
}

/**
 * Appends `event` to the ledger and moves the balance by its amount, in one transaction. The
 * UPDATE locks the account row until commit: concurrent events queue, none is lost. 409 when the
 * balance would go below zero (nothing is written).
 */
export async function recordEvent(
  db: Db,
  customerId: string,
  event: NewEvent,
): Promise<CustomerEvent> {
  return db.transaction(async (tx) => {
    const [moved] = await tx
      .update(customers)
      .set({
        balanceMicros: sql`${customers.balanceMicros} + ${event.amountMicros}`,
        updatedAt: sql`now()`,
      })
      .where(
        and(
          eq(customers.id, customerId),
          sql`${customers.balanceMicros} + ${event.amountMicros} >= 0`,
        ),
      )
      .returning()
    if (!moved) {
      const [current] = await tx.select().from(customers).where(eq(customers.id, customerId))
      if (!current) throw notFound(`Customer '${customerId}' does not exist.`)
      throw conflict(
        `The balance is ${current.balanceMicros} micro-credits: taking ${-event.amountMicros} would leave it below zero.`,
      )
    }
    const [recorded] = await tx
      .insert(customerEvents)
      .values({
        customerId,
        type: event.type,
        amountMicros: event.amountMicros,
        balanceMicros: moved.balanceMicros,
        description: event.description,
        actorUserId: event.actorUserId,
        apiKeyId: event.apiKey?.id,
        apiKeyName: event.apiKey?.name,
      })
      .returning()
    return recorded
  })
}

export interface EventFilters {
  type?: CustomerEventType
  since?: string
  until?: string
}

/** A page of the customer's ledger, newest first. */
export async function listEvents(
  db: Db,
  customerId: string,
  filters: EventFilters,
  paging: { page: number; limit: number },
): Promise<Schemas['CustomerEventListResponse']> {
  const conditions: SQL[] = [eq(customerEvents.customerId, customerId)]
  if (filters.type) conditions.push(eq(customerEvents.type, filters.type))
  if (filters.since) conditions.push(gte(customerEvents.createdAt, new Date(filters.since)))
  if (filters.until) conditions.push(lt(customerEvents.createdAt, new Date(filters.until)))
  const where = and(...conditions)
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(customerEvents)
      .where(where)
      .orderBy(desc(customerEvents.createdAt), desc(customerEvents.id))
      .limit(paging.limit)
      .offset((paging.page - 1) * paging.limit),
    db.select({ total: count() }).from(customerEvents).where(where),
  ])
  return {
    events: rows.map(toApiEvent),
    ...pageInfo(total, paging.page, paging.limit),
  }
}

/** Customers whose email contains `email` (any case), newest first. */
export async function listCustomers(
  db: Db,
  email: string | undefined,
  paging: { page: number; limit: number },
): Promise<Schemas['CustomerListResponse']> {
  const where = email ? ilike(users.email, `%${escapeLike(email)}%`) : undefined
  const [rows, [{ total }]] = await Promise.all([
    withUser(db)
      .where(where)
      .orderBy(desc(customers.createdAt), desc(customers.id))
      .limit(paging.limit)
      .offset((paging.page - 1) * paging.limit),
    db
      .select({ total: count() })
      .from(customers)
      .innerJoin(users, eq(users.id, customers.userId))
      .where(where),
  ])
  return {
    customers: rows.map(toApiCustomer),
    ...pageInfo(total, paging.page, paging.limit),
  }
}
