// Customers' credit accounts over the API: opened on first use, a ledger whose sum is always the
// balance (also under concurrent events), no overdraft, API keys shown once, admins' reads and
// events, and refusals that leave everything as it was.
import { eq, sql } from 'drizzle-orm'
import { customerEvents, customers } from '../db/schema'
import type { Schemas } from '../http/operations'
import { signUpUser, signUpVerifiedUser, uniqueEmail, type TestUser } from '../test/auth'
import { BACKENDS, createTestApp, expectErrorBody, send, type TestApp } from '../test/harness'
import { snapshotState } from '../test/data'
import { apiKeyOf } from './api-keys'

type Customer = Schemas['Customer']
type Balance = Schemas['Balance']
type ApiKey = Schemas['ApiKey']
type EventPage = Schemas['CustomerEventListResponse']
type CustomerEvent = Schemas['CustomerEvent']

jest.setTimeout(60_000)

describe.each(BACKENDS)('customers on %s', (backend) => {
  let h: TestApp
  let admin: TestUser
  let alice: TestUser
  let bob: TestUser

  beforeAll(async () => {
    h = await createTestApp({ postgres: backend === 'postgres', nodes: 2, publishers: 1 })
    ;[admin, alice, bob] = await Promise.all([
      signUpVerifiedUser(h.adminEmail),
      signUpUser(uniqueEmail('alice')),
      signUpUser(uniqueEmail('bob')),
    ])
  })

  afterAll(async () => {
    await h?.close()
  })

  const me = (user: TestUser) => send<Customer>(h.app, 'GET', '/customers/me', { as: user })
  const record = (customerId: string, body: unknown, as: TestUser = admin) =>
    send<CustomerEvent>(h.app, 'POST', `/customers/${customerId}/events`, { as, body })
  const balanceOf = async (customerId: string) =>
    (await send<Balance>(h.app, 'GET', `/customers/${customerId}/balance`, { as: admin })).body
      .amount_micros
  const ledgerSum = async (customerId: string) => {
    const [row] = await h.db
      .select({ sum: sql<string>`coalesce(sum(${customerEvents.amountMicros}), 0)` })
      .from(customerEvents)
      .where(eq(customerEvents.customerId, customerId))
    return Number(row.sum)
  }

  it('loads demo customers, each balance the sum of its ledger', async () => {
    const accounts = await h.db.select().from(customers)
    expect(accounts.length).toBeGreaterThan(0)
    for (const account of accounts) {
      expect(await ledgerSum(account.id)).toBe(account.balanceMicros)
    }
    expect(accounts.some((account) => account.balanceMicros > 0)).toBe(true)
  })

  it('opens an account on first use, once, and answers nothing before it', async () => {
    const user = await signUpUser(uniqueEmail('first'))
    expectErrorBody(await send(h.app, 'GET', '/customers/balance', { as: user }), 404)
    const events = await send<EventPage>(h.app, 'GET', '/customers/events', { as: user })
    expect(events.body).toMatchObject({ events: [], total: 0 })
    expect((await send(h.app, 'GET', '/customers/api-keys', { as: user })).body).toEqual([])
    expect((await send(h.app, 'GET', '/customers/me')).status).toBe(401)

    const first = await me(user)
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({ email: user.email, has_fund: false, is_admin: false })
    const again = await me(user)
    expect(again.body.id).toBe(first.body.id)
    const balance = await send<Balance>(h.app, 'GET', '/customers/balance', { as: user })
    expect(balance.body).toMatchObject({ amount_micros: 0, currency: 'usd' })
    const opened = await send<EventPage>(h.app, 'GET', '/customers/events', { as: user })
    expect(opened.body.events.map((event) => event.event_type)).toEqual(['account_created'])
  })

  it('moves the balance only with a ledger event, never below zero', async () => {
    const { id } = (await me(alice)).body
    const credit = await record(id, {
      event_type: 'credit_added',
      amount_micros: 5_000_000,
      reason: 'Top-up',
    })
    expect(credit.status).toBe(201)
    expect(credit.body.params).toMatchObject({
      amount_micros: 5_000_000,
      balance_micros: 5_000_000,
    })
    await record(id, { event_type: 'api_usage', amount_micros: 2_000_000, reason: 'Usage' })
    expect(await balanceOf(id)).toBe(3_000_000)

    const before = await snapshotState(h.db)
    const over = await record(id, {
      event_type: 'api_usage',
      amount_micros: 4_000_000,
      reason: 'Too much',
    })
    expect(expectErrorBody(over, 409).message).toContain('3000000')
    for (const body of [
      { event_type: 'adjustment', amount_micros: 0, reason: 'Nothing' },
      { event_type: 'credit_added', amount_micros: -5, reason: 'Negative top-up' },
      { event_type: 'credit_added', amount_micros: 1.5, reason: 'Fractional' },
      { event_type: 'credit_added', amount_micros: 5, reason: '   ' },
      { event_type: 'account_created', amount_micros: 5, reason: 'Not recordable' },
      { event_type: 'credit_added', amount_micros: 5 },
    ]) {
      expectErrorBody(await record(id, body), 400)
    }
    expectErrorBody(
      await record(id, { event_type: 'credit_added', amount_micros: 5, reason: 'x' }, alice),
      403,
    )
    expectErrorBody(
      await record('6f1c2a52-0000-4000-8000-000000000000', {
        event_type: 'credit_added',
        amount_micros: 5,
        reason: 'Nobody',
      }),
      404,
    )
    expect(await snapshotState(h.db)).toBe(before)

    await record(id, { event_type: 'adjustment', amount_micros: -1_000_000, reason: 'Correction' })
    await record(id, { event_type: 'refund', amount_micros: 500_000, reason: 'Refund' })
    expect(await balanceOf(id)).toBe(2_500_000)
    expect(await ledgerSum(id)).toBe(2_500_000)
    const alicesView = await send<Balance>(h.app, 'GET', '/customers/balance', { as: alice })
    expect(alicesView.body.amount_micros).toBe(2_500_000)
    expect((await me(alice)).body.has_fund).toBe(true)
  })

  it('lists the ledger newest first, by type and time, a page at a time', async () => {
    const { id } = (await me(alice)).body
    const all = await send<EventPage>(h.app, 'GET', `/customers/${id}/events?limit=100`, {
      as: admin,
    })
    const times = all.body.events.map((event) => event.createdAt)
    expect(times).toEqual([...times].sort().reverse())
    expect(all.body.events.at(-1)?.event_type).toBe('account_created')

    const usage = await send<EventPage>(h.app, 'GET', '/customers/events?filter=api_usage', {
      as: alice,
    })
    expect(usage.body.events.map((event) => event.event_type)).toEqual(['api_usage'])
    expectErrorBody(await send(h.app, 'GET', '/customers/events?filter=bogus', { as: alice }), 400)

    const second = await send<EventPage>(h.app, 'GET', '/customers/events?limit=2&page=2', {
      as: alice,
    })
    expect(second.body).toMatchObject({ total: all.body.total, page: 2, limit: 2 })
    expect(second.body.events.map((event) => event.id)).toEqual(
      all.body.events.slice(2, 4).map((event) => event.id),
    )
    const future = new Date(Date.now() + 60_000).toISOString()
    const none = await send<EventPage>(h.app, 'GET', `/customers/events?since=${future}`, {
      as: alice,
    })
    expect(none.body.total).toBe(0)
    const until = await send<EventPage>(h.app, 'GET', `/customers/events?until=${future}`, {
      as: alice,
    })
    expect(until.body.total).toBe(all.body.total)
  })

  it('lets only admins read other customers, found by email', async () => {
    const { id } = (await me(bob)).body
    for (const url of [
      '/customers',
      `/customers/${id}`,
      `/customers/${id}/balance`,
      `/customers/${id}/events`,
    ]) {
      expectErrorBody(await send(h.app, 'GET', url, { as: alice }), 403)
      expect((await send(h.app, 'GET', url)).status).toBe(401)
      expect((await send(h.app, 'GET', url, { as: admin })).status).toBe(200)
    }
    const found = await send<Schemas['CustomerListResponse']>(
      h.app,
      'GET',
      `/customers?email=${encodeURIComponent(bob.email.toUpperCase())}`,
      { as: admin },
    )
    expect(found.body.customers.map((customer) => customer.id)).toEqual([id])
    const pattern = await send<Schemas['CustomerListResponse']>(
      h.app,
      'GET',
      '/customers?email=%25',
      {
        as: admin,
      },
    )
    expect(pattern.body.total).toBe(0)
    expectErrorBody(await send(h.app, 'GET', '/customers/not-a-uuid', { as: admin }), 400)
  })

  it('shows an API key once, finds its customer by it, and forgets it when deleted', async () => {
    const created = await send<ApiKey>(h.app, 'POST', '/customers/api-keys', {
      as: bob,
      body: { name: 'Laptop', description: 'ComfyUI at home' },
    })
    expect(created.status).toBe(201)
    const key = created.body.key ?? ''
    expect(key.startsWith(`${created.body.key_prefix}_`)).toBe(true)
    const listed = await send<ApiKey[]>(h.app, 'GET', '/customers/api-keys', { as: bob })
    expect(listed.body).toEqual([expect.objectContaining({ id: created.body.id, name: 'Laptop' })])
    expect(JSON.stringify(listed.body)).not.toContain(key)

    const owner = await apiKeyOf(h.db, key)
    const [bobs] = await h.db
      .select()
      .from(customers)
      .where(eq(customers.id, owner?.customerId ?? ''))
    expect(bobs.userId).toBe(bob.uid)
    expect(await apiKeyOf(h.db, `${key}x`)).toBeNull()

    expectErrorBody(await send(h.app, 'POST', '/customers/api-keys', { as: bob, body: {} }), 400)
    expectErrorBody(
      await send(h.app, 'DELETE', `/customers/api-keys/${created.body.id}`, { as: alice }),
      404,
    )
    const deleted = await send(h.app, 'DELETE', `/customers/api-keys/${created.body.id}`, {
      as: bob,
    })
    expect(deleted.status).toBe(204)
    expect(await apiKeyOf(h.db, key)).toBeNull()
    const events = await send<EventPage>(h.app, 'GET', '/customers/events', { as: bob })
    expect(events.body.events.slice(0, 2).map((event) => event.event_type)).toEqual([
      'api_key_deleted',
      'api_key_created',
    ])
  })

  it('never loses an update when events race on one balance', async () => {
    const racer = await signUpUser(uniqueEmail('racer'))
    const { id } = (await me(racer)).body
    await record(id, { event_type: 'credit_added', amount_micros: 10_000_000, reason: 'Start' })
    const usages = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        record(id, { event_type: 'api_usage', amount_micros: 1_000_000, reason: `Use ${i}` }),
      ),
    )
    expect(usages.filter((reply) => reply.status === 201)).toHaveLength(10)
    expect(usages.filter((reply) => reply.status === 409)).toHaveLength(10)
    const topUps = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        record(id, { event_type: 'credit_added', amount_micros: 250_000, reason: `Top ${i}` }),
      ),
    )
    expect(topUps.every((reply) => reply.status === 201)).toBe(true)
    expect(await balanceOf(id)).toBe(3_000_000)
    expect(await ledgerSum(id)).toBe(3_000_000)
    // Applied one after another: the usages left 9, 8, … 0 credits, the top-ups 0.25 to 3.
    const left = (replies: typeof usages) =>
      replies
        .filter((reply) => reply.status === 201)
        .map((reply) => Number(reply.body.params?.balance_micros))
        .sort((x, y) => x - y)
    expect(left(usages)).toEqual(Array.from({ length: 10 }, (_, i) => i * 1_000_000))
    expect(left(topUps)).toEqual(Array.from({ length: 12 }, (_, i) => (i + 1) * 250_000))
  })

  it('keeps the ledger append-only', async () => {
    const refused = await h.db
      .update(customerEvents)
      .set({ amountMicros: 1 })
      .where(sql`true`)
      .then(
        () => null,
        (error: unknown) => error,
      )
    expect(refused).toMatchObject({ cause: { message: expect.stringMatching(/append-only/) } })
  })
})
