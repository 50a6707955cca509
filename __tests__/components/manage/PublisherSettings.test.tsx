import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { PublisherSettings } from '@/components/manage/PublisherSettings'
import { PublisherSettingsLink } from '@/components/manage/PublisherSettingsLink'
import type { Publisher } from '@/src/api/generated/model'
import { renderWithProviders } from '../../test-utils'
import { fakeApi } from './fake-api'

jest.mock('@/src/lib/firebase', () => ({
  getFirebaseAuth: () => ({ authStateReady: () => Promise.resolve(), currentUser: null }),
}))

const ada = { id: 'u-ada', email: 'ada@example.com', name: 'Ada' }
const bob = { id: 'u-bob', email: 'bob@example.com', name: 'Bob' }

function publisher(members: Publisher['members']): Publisher {
  return { id: 'acme', name: 'Acme Nodes', description: 'We make nodes.', members }
}

function api(canEdit: boolean, members: Publisher['members'], routes = {}) {
  return fakeApi({
    'GET /publishers/acme': { status: 200, data: publisher(members) },
    'GET /publishers/acme/permissions': { status: 200, data: { canEdit } },
    'GET /publishers/acme/tokens': { status: 200, data: [] },
    ...routes,
  })
}

const renderSettings = () =>
  renderWithProviders(<PublisherSettings publisherId="acme" currentUserId="u-ada" />)

describe('PublisherSettings', () => {
  it('shows no edit controls to someone who may not edit', async () => {
    const requests = api(false, [{ id: 'm1', role: 'owner', user: bob }])
    renderSettings()
    expect(
      await screen.findByText('Only the owners of this publisher can change its settings.'),
    ).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Save changes' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Delete publisher' })).not.toBeInTheDocument()
    expect(requests.calls('GET', '/publishers/acme/tokens')).toHaveLength(0)
  })

  it('validates the profile and saves it with PUT', async () => {
    const requests = api(true, [{ id: 'm1', role: 'owner', user: ada }], {
      'PUT /publishers/acme': ({ body }: { body: unknown }) => ({
        status: 200,
        data: { ...publisher([]), ...(body as object) },
      }),
    })
    renderSettings()
    const description = await screen.findByRole('textbox', { name: 'Description (optional)' })
    expect(screen.getByText('14 of 1000 characters')).toBeInTheDocument()
    fireEvent.change(description, { target: { value: 'x'.repeat(1001) } })
    fireEvent.change(screen.getByRole('textbox', { name: 'Support email or URL (optional)' }), {
      target: { value: 'nope' },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }))
    expect(screen.getByText('Use at most 1000 characters.')).toBeInTheDocument()
    expect(
      screen.getByText('Enter an email address or a web address starting with https://.'),
    ).toBeInTheDocument()
    expect(requests.calls('PUT', '/publishers/acme')).toHaveLength(0)

    fireEvent.change(description, { target: { value: 'Better nodes.' } })
    fireEvent.change(screen.getByRole('textbox', { name: 'Support email or URL (optional)' }), {
      target: { value: 'help@acme.example' },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }))
    expect(await screen.findByText('Changes saved.')).toBeInTheDocument()
    expect(requests.calls('PUT', '/publishers/acme')[0].body).toMatchObject({
      name: 'Acme Nodes',
      description: 'Better nodes.',
      support: 'help@acme.example',
    })
  })

  it('saves a seeded publisher unchanged: its logo is a path on this site', async () => {
    const requests = fakeApi({
      'GET /publishers/acme': {
        status: 200,
        data: { ...publisher([{ id: 'm1', role: 'owner', user: ada }]), logo: '/icons/node-0.svg' },
      },
      'GET /publishers/acme/permissions': { status: 200, data: { canEdit: true } },
      'GET /publishers/acme/tokens': { status: 200, data: [] },
      'PUT /publishers/acme': { status: 200, data: publisher([]) },
    })
    renderSettings()
    await screen.findByRole('textbox', { name: 'Description (optional)' })
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }))
    expect(await screen.findByText('Changes saved.')).toBeInTheDocument()
    expect(requests.calls('PUT', '/publishers/acme')[0].body).toMatchObject({
      logo: '/icons/node-0.svg',
    })
  })

  it('keeps the last owner: their role and removal are disabled', async () => {
    api(true, [
      { id: 'm1', role: 'owner', user: ada },
      { id: 'm2', role: 'member', user: bob },
    ])
    renderSettings()
    const adaRole = await screen.findByRole('combobox', { name: 'Role of Ada' })
    expect(adaRole).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Remove Ada' })).toBeDisabled()
    expect(screen.getByRole('combobox', { name: 'Role of Bob' })).toBeEnabled()
    expect(screen.getByRole('button', { name: 'Remove Bob' })).toBeEnabled()
  })

  it('with two owners, changes a role and removes a member after confirmation', async () => {
    const requests = api(
      true,
      [
        { id: 'm1', role: 'owner', user: ada },
        { id: 'm2', role: 'owner', user: bob },
      ],
      {
        'PUT /publishers/acme/members/u-bob': {
          status: 200,
          data: publisher([
            { id: 'm1', role: 'owner', user: ada },
            { id: 'm2', role: 'member', user: bob },
          ]),
        },
        'DELETE /publishers/acme/members/u-bob': { status: 204 },
      },
    )
    renderSettings()
    const bobRole = await screen.findByRole('combobox', { name: 'Role of Bob' })
    expect(screen.getByRole('combobox', { name: 'Role of Ada' })).toBeEnabled()
    fireEvent.change(bobRole, { target: { value: 'member' } })
    await waitFor(() =>
      expect(requests.calls('PUT', '/publishers/acme/members/u-bob')[0]?.body).toEqual({
        role: 'member',
      }),
    )
    // The answer is the list now: Bob is a member, so Ada is the last owner.
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Role of Ada' })).toBeDisabled(),
    )
    fireEvent.click(screen.getByRole('button', { name: 'Remove Bob' }))
    const dialog = await screen.findByRole('dialog', { name: 'Remove Bob?' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(requests.calls('DELETE', '/publishers/acme/members/u-bob')).toHaveLength(1)
  })

  it('invites by email: checks the address, shows a refusal, then the pending invitation', async () => {
    let posts = 0
    const invitation = {
      id: '7d1c9a52-0000-4000-8000-000000000001',
      email: 'carol@example.com',
      role: 'owner',
      createdAt: '2026-11-01T00:00:00Z',
      expiresAt: '2026-12-01T00:00:00Z',
    }
    const requests = api(true, [{ id: 'm1', role: 'owner', user: ada }], {
      'POST /publishers/acme/members': () =>
        ++posts === 1
          ? { status: 409, data: { error: 'Conflict', message: 'Already a member of acme.' } }
          : {
              status: 201,
              data: {
                ...publisher([{ id: 'm1', role: 'owner', user: ada }]),
                invitations: [invitation],
              },
            },
    })
    renderSettings()
    const email = await screen.findByRole('textbox', { name: 'Email address' })
    fireEvent.click(screen.getByRole('button', { name: 'Invite' }))
    expect(screen.getByText('Enter the email address of the person to invite.')).toBeInTheDocument()
    fireEvent.change(email, { target: { value: 'carol@' } })
    fireEvent.click(screen.getByRole('button', { name: 'Invite' }))
    expect(
      screen.getByText('Enter a valid email address, like name@example.com.'),
    ).toBeInTheDocument()
    expect(requests.calls('POST', '/publishers/acme/members')).toHaveLength(0)

    fireEvent.change(email, { target: { value: 'carol@example.com' } })
    fireEvent.change(screen.getByRole('combobox', { name: 'Role' }), { target: { value: 'owner' } })
    fireEvent.click(screen.getByRole('button', { name: 'Invite' }))
    expect(await screen.findByText('Already a member of acme.')).toBeInTheDocument()
    fireEvent.change(email, { target: { value: 'carol@example.com' } })
    fireEvent.click(screen.getByRole('button', { name: 'Invite' }))
    expect(
      await screen.findByText(
        'Invitation sent to carol@example.com. They join once they accept it.',
      ),
    ).toBeInTheDocument()
    // The answer shows at once in the list: no reload.
    expect(screen.getByRole('heading', { name: 'Pending invitations' })).toBeInTheDocument()
    expect(screen.getByText('Invited as Owner')).toBeInTheDocument()
    expect(
      screen.getByRole('button', { name: 'Cancel invitation for carol@example.com' }),
    ).toBeInTheDocument()
    expect(requests.calls('POST', '/publishers/acme/members')[1].body).toEqual({
      email: 'carol@example.com',
      role: 'owner',
    })
  })

  it('the list follows removals and cancellations at once, without a reload', async () => {
    // The API's state: what GET /publishers/acme answers after each change.
    let members: Publisher['members'] = [
      { id: 'm1', role: 'owner', user: ada },
      { id: 'm2', role: 'member', user: bob },
    ]
    let invitations = [
      {
        id: '7d1c9a52-0000-4000-8000-000000000002',
        email: 'dan@example.com',
        role: 'member',
        createdAt: '2026-11-01T00:00:00Z',
        expiresAt: '2026-12-01T00:00:00Z',
      },
    ]
    fakeApi({
      'GET /publishers/acme': () => ({ status: 200, data: { ...publisher(members), invitations } }),
      'GET /publishers/acme/permissions': { status: 200, data: { canEdit: true } },
      'GET /publishers/acme/tokens': { status: 200, data: [] },
      'DELETE /publishers/acme/members/u-bob': () => {
        members = members?.filter((member) => member.user?.id !== 'u-bob')
        return { status: 204 }
      },
      'DELETE /publishers/acme/invitations/7d1c9a52-0000-4000-8000-000000000002': () => {
        invitations = []
        return { status: 204 }
      },
    })
    renderSettings()
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Bob' }))
    const dialog = await screen.findByRole('dialog', { name: 'Remove Bob?' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }))
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Remove Bob' })).not.toBeInTheDocument(),
    )
    fireEvent.click(screen.getByRole('button', { name: 'Cancel invitation for dan@example.com' }))
    await waitFor(() => expect(screen.queryByText('dan@example.com')).not.toBeInTheDocument())
  })

  it('deletes the publisher only once its id is typed, and shows a 409', async () => {
    let attempts = 0
    const requests = api(true, [{ id: 'm1', role: 'owner', user: ada }], {
      'DELETE /publishers/acme': () =>
        ++attempts === 1
          ? {
              status: 409,
              data: { error: 'Conflict', message: 'The publisher still has 2 nodes.' },
            }
          : { status: 204 },
    })
    const { router } = renderSettings()
    fireEvent.click(await screen.findByRole('button', { name: 'Delete publisher' }))
    const dialog = await screen.findByRole('dialog', { name: 'Delete Acme Nodes?' })
    const confirm = within(dialog).getByRole('button', { name: 'Delete publisher' })
    const typed = within(dialog).getByRole('textbox', { name: 'Type acme to confirm' })
    expect(confirm).toBeDisabled()
    fireEvent.change(typed, { target: { value: 'acm' } })
    expect(confirm).toBeDisabled()
    fireEvent.change(typed, { target: { value: 'acme' } })
    expect(confirm).toBeEnabled()

    fireEvent.click(confirm)
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The publisher still has 2 nodes.',
    )
    expect(router.push).not.toHaveBeenCalled()
    fireEvent.click(confirm)
    await waitFor(() => expect(router.push).toHaveBeenCalledWith('/nodes'))
    expect(requests.calls('DELETE', '/publishers/acme')).toHaveLength(2)
  })
})

describe('PublisherSettingsLink (publisher page)', () => {
  it.each([
    [true, true],
    [false, false],
  ])('canEdit %s → Settings link shown: %s', async (canEdit, shown) => {
    const requests = fakeApi({
      'GET /publishers/acme/permissions': { status: 200, data: { canEdit } },
    })
    renderWithProviders(<PublisherSettingsLink publisherId="acme" />, {
      auth: { user: { uid: 'u-ada', email: null, displayName: null, photoURL: null } },
    })
    await waitFor(() =>
      expect(requests.calls('GET', '/publishers/acme/permissions')).toHaveLength(1),
    )
    if (shown) {
      expect(await screen.findByRole('link', { name: 'Settings' })).toHaveAttribute(
        'href',
        '/publishers/acme/settings',
      )
    } else {
      expect(screen.queryByRole('link', { name: 'Settings' })).not.toBeInTheDocument()
    }
  })

  it('asks nothing when signed out', () => {
    const requests = fakeApi({})
    renderWithProviders(<PublisherSettingsLink publisherId="acme" />)
    expect(requests.requests).toHaveLength(0)
    expect(screen.queryByRole('link', { name: 'Settings' })).not.toBeInTheDocument()
  })
})
