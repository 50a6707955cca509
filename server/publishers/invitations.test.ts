/**
 * Joining a publisher by invitation: the owner's answer is the same whether or not the address
 * is registered (no account enumeration); the invitee, signed in with that address verified,
 * sees, accepts or declines it; nobody else can; expired invitations are gone.
 */
import { eq } from 'drizzle-orm'
import type { Schemas } from '../http/operations'
import { publisherInvitations, publisherMembers } from '../db/schema'
import {
  markEmailVerified,
  signUpUser,
  signUpVerifiedUser,
  uniqueEmail,
  type TestUser,
} from '../test/auth'
import { setPublisherStatus, snapshotState } from '../test/data'
import {
  BACKENDS,
  createTestApp,
  expectErrorBody,
  get,
  send,
  type JsonReply,
  type TestApp,
} from '../test/harness'

type MyInvitation = Schemas['MyInvitation']
type Publisher = Schemas['Publisher']

jest.setTimeout(60_000)

describe.each(BACKENDS)('invitations on %s', (backend) => {
  let h: TestApp
  let owner: TestUser
  let counter = 0

  beforeAll(async () => {
    h = await createTestApp({ postgres: backend === 'postgres', nodes: 0, publishers: 1 })
    owner = await signUpUser(uniqueEmail('owner'))
  })

  afterAll(async () => {
    await h?.close()
  })

  async function ownedPublisher(): Promise<string> {
    const id = `inv-${backend}-${++counter}`
    const created = await send(h.app, 'POST', '/publishers', { as: owner, body: { id, name: id } })
    expect(created.status).toBe(201)
    return id
  }

  function invite(publisherId: string, email: string, role = 'member') {
    return send<Publisher>(h.app, 'POST', `/publishers/${publisherId}/members`, {
      as: owner,
      body: { email, role },
    })
  }

  const mine = async (user: TestUser) =>
    (
      await get<MyInvitation[]>(h.app, '/users/invitations', {
        authorization: `Bearer ${user.idToken}`,
      })
    ).body

  async function expectUnchanged(call: () => Promise<JsonReply<unknown>>, status: number) {
    const before = await snapshotState(h.db)
    const body = expectErrorBody(await call(), status)
    expect(await snapshotState(h.db)).toBe(before)
    return body
  }

  it('answers the same whether or not the address is registered', async () => {
    const registered = await signUpUser(uniqueEmail('known'))
    const answers = []
    for (const email of [registered.email, uniqueEmail('never-signed-up')]) {
      const id = await ownedPublisher()
      const reply = await invite(id, email)
      expect(reply.status).toBe(201)
      // Nobody joins: both are pending invitations, shaped alike.
      expect(reply.body.members?.map((member) => member.user?.id)).toEqual([owner.uid])
      expect(reply.body.invitations).toEqual([
        {
          id: expect.any(String),
          email: email.toLowerCase(),
          role: 'member',
          createdAt: expect.any(String),
          expiresAt: expect.any(String),
        },
      ])
      // Apart from its own ids, names and times, the answer is the same.
      const members = reply.body.members?.map((member) => ({ ...member, id: '' }))
      answers.push(
        JSON.stringify({
          ...reply.body,
          id: '',
          name: '',
          createdAt: '',
          members,
          invitations: [],
        }),
      )
    }
    expect(answers[0]).toBe(answers[1])
  })

  it('the invitee with a verified address sees it and joins with the invited role', async () => {
    const id = await ownedPublisher()
    const invitee = await signUpVerifiedUser(uniqueEmail('invitee'))
    await invite(id, invitee.email.toUpperCase(), 'owner')
    // Inviting again renews it: still one invitation.
    const renewed = await invite(id, invitee.email, 'owner')
    expect(renewed.body.invitations).toHaveLength(1)
    const [invitation] = await mine(invitee)
    expect(invitation).toMatchObject({ publisher: { id, name: id }, role: 'owner' })
    // The public never sees invitations.
    expect((await get<Publisher>(h.app, `/publishers/${id}`)).body.invitations).toBeUndefined()

    const accepted = await send<Publisher>(h.app, 'POST', `/users/invitations/${invitation.id}`, {
      as: invitee,
    })
    expect(accepted.status).toBe(200)
    expect(accepted.body.id).toBe(id)
    const [membership] = await h.db
      .select()
      .from(publisherMembers)
      .where(eq(publisherMembers.userId, invitee.uid))
    expect(membership).toMatchObject({ publisherId: id, role: 'owner' })
    expect(await mine(invitee)).toEqual([])
    expect(
      (
        await get<Publisher>(h.app, `/publishers/${id}/permissions`, {
          authorization: `Bearer ${invitee.idToken}`,
        })
      ).body,
    ).toEqual({ canEdit: true })
  })

  it('an unverified address sees nothing and cannot accept until verified', async () => {
    const id = await ownedPublisher()
    const unverified = await signUpUser(uniqueEmail('unverified'))
    const invited = await invite(id, unverified.email)
    const invitationId = invited.body.invitations?.[0]?.id ?? ''
    expect(await mine(unverified)).toEqual([])
    const accept = () =>
      send(h.app, 'POST', `/users/invitations/${invitationId}`, { as: unverified })
    expect((await expectUnchanged(accept, 403)).message).toMatch(/Verify your email/)
    const decline = () =>
      send(h.app, 'DELETE', `/users/invitations/${invitationId}`, { as: unverified })
    await expectUnchanged(decline, 403)
    const verified = await markEmailVerified(unverified)
    expect((await mine(verified)).map((i) => i.id)).toEqual([invitationId])
  })

  it('someone else cannot see, accept or decline it (404, nothing revealed)', async () => {
    const id = await ownedPublisher()
    const invited = await invite(id, uniqueEmail('absent'))
    const invitationId = invited.body.invitations?.[0]?.id ?? ''
    const other = await signUpVerifiedUser(uniqueEmail('other'))
    expect(await mine(other)).toEqual([])
    await expectUnchanged(
      () => send(h.app, 'POST', `/users/invitations/${invitationId}`, { as: other }),
      404,
    )
    await expectUnchanged(
      () => send(h.app, 'DELETE', `/users/invitations/${invitationId}`, { as: other }),
      404,
    )
  })

  it('declining and cancelling remove it; expired ones are gone; banned publishers cannot be joined', async () => {
    const invitee = await signUpVerifiedUser(uniqueEmail('chooser'))
    const [declinedAt, cancelledAt, expiredAt, bannedAt] = [
      await ownedPublisher(),
      await ownedPublisher(),
      await ownedPublisher(),
      await ownedPublisher(),
    ]
    for (const id of [declinedAt, cancelledAt, expiredAt, bannedAt]) await invite(id, invitee.email)
    const byPublisher = new Map((await mine(invitee)).map((i) => [i.publisher.id, i.id]))

    expect(
      (
        await send(h.app, 'DELETE', `/users/invitations/${byPublisher.get(declinedAt)}`, {
          as: invitee,
        })
      ).status,
    ).toBe(204)
    expect(
      (
        await send(
          h.app,
          'DELETE',
          `/publishers/${cancelledAt}/invitations/${byPublisher.get(cancelledAt)}`,
          { as: owner },
        )
      ).status,
    ).toBe(204)
    await h.db
      .update(publisherInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(publisherInvitations.publisherId, expiredAt))
    expect((await mine(invitee)).map((i) => i.publisher.id).sort()).toEqual([bannedAt])
    expect(
      (
        await expectUnchanged(
          () =>
            send(h.app, 'POST', `/users/invitations/${byPublisher.get(expiredAt)}`, {
              as: invitee,
            }),
          404,
        )
      ).message,
    ).toMatch(/expired/)

    await setPublisherStatus(h.db, bannedAt, 'PublisherStatusBanned')
    await expectUnchanged(
      () => send(h.app, 'POST', `/users/invitations/${byPublisher.get(bannedAt)}`, { as: invitee }),
      403,
    )
  })
})
