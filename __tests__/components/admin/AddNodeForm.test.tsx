import { act, fireEvent, screen } from '@testing-library/react'
import { AddNodeForm } from '@/components/admin/nodes/AddNodeForm'
import { shouldPersistQuery } from '@/src/api/persist'
import { PUBLISHER_ID_CHECK_DEBOUNCE_MS, UNCLAIMED_PUBLISHER } from '@/src/lib/constants'
import { renderWithProviders } from '../../test-utils'
import { makeNode } from '../node/fixtures'
import { fakeApi, type FakeRequest, type FakeResponse, type FakeRoutes } from '../manage/fake-api'

jest.mock('@/src/lib/firebase', () => ({
  getFirebaseAuth: () => ({ authStateReady: () => Promise.resolve(), currentUser: null }),
}))

const notFound = { status: 404, data: { error: 'NotFound', message: 'No such node.' } }

/** `taken-node` exists (any case); every other id is free. */
function getNode({ url }: FakeRequest): FakeResponse {
  return url.toLowerCase() === '/nodes/taken-node'
    ? { status: 200, data: makeNode({ id: 'taken-node', status: 'NodeStatusBanned' }) }
    : notFound
}

function renderForm(routes: FakeRoutes = {}) {
  const api = fakeApi({
    'GET /nodes/taken-node': getNode,
    'GET /nodes/Taken-Node': getNode,
    'GET /nodes/new-node': getNode,
    ...routes,
  })
  const view = renderWithProviders(<AddNodeForm />)
  return { ...view, api }
}

const idField = () => screen.getByRole('textbox', { name: 'Node ID' })
const field = (name: string) => screen.getByRole('textbox', { name })
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Add node' }))

/** Lets the debounce run out. */
const pause = () => act(() => jest.advanceTimersByTime(PUBLISHER_ID_CHECK_DEBOUNCE_MS))

describe('AddNodeForm', () => {
  beforeEach(() => jest.useFakeTimers())
  afterEach(() => jest.useRealTimers())

  it('checks the id once typing pauses and says when it is taken', async () => {
    const { api, queryClient } = renderForm()
    for (const value of ['T', 'Ta', 'Taken', 'Taken-Node']) {
      fireEvent.change(idField(), { target: { value } })
      act(() => jest.advanceTimersByTime(PUBLISHER_ID_CHECK_DEBOUNCE_MS - 100))
    }
    expect(screen.getByRole('status')).toHaveTextContent('Checking availability…')
    expect(api.requests).toHaveLength(0)

    pause()
    const taken = await screen.findByText('Taken-Node is already taken (ids ignore case).')
    // Debounced: only the last value was asked.
    expect(api.requests.map((request) => request.url)).toEqual(['/nodes/Taken-Node'])
    expect(idField()).toHaveAttribute('aria-invalid', 'true')
    expect(idField().getAttribute('aria-describedby')).toContain(taken.id)
    expect(screen.getByRole('button', { name: 'Add node' })).toBeDisabled()
    // The admin's view of an existing (maybe banned) node is never persisted.
    const queries = queryClient.getQueryCache().getAll()
    expect(queries.length).toBeGreaterThan(0)
    expect(queries.every((query) => !shouldPersistQuery(query))).toBe(true)
  })

  it.each([
    ['a leading dash', '-bad', 'The id must start and end with a letter or a digit.'],
    ['a trailing dot', 'bad.', 'The id must start and end with a letter or a digit.'],
    ['a space', 'bad id', 'Use only letters, digits, “_”, “-” and “.”.'],
    ['a non-ASCII letter', 'nöde', 'Use only letters, digits, “_”, “-” and “.”.'],
    ['101 characters', 'x'.repeat(101), 'Use at most 100 characters.'],
  ])('explains the format rule (%s) at once, without asking the API', async (_, value, message) => {
    const { api } = renderForm()
    fireEvent.change(idField(), { target: { value } })
    expect(screen.getByText(message)).toBeInTheDocument()
    expect(idField()).toHaveAttribute('aria-invalid', 'true')
    pause()
    submit()
    expect(api.requests).toHaveLength(0)
  })

  it('announces a free id, checks the other fields, then creates the node', async () => {
    const { api } = renderForm({
      'POST /admin/nodes': ({ body }) => ({
        status: 201,
        data: makeNode({
          ...(body as object),
          publisher: { id: UNCLAIMED_PUBLISHER.id, name: UNCLAIMED_PUBLISHER.name },
        }),
      }),
    })
    fireEvent.change(idField(), { target: { value: 'new-node' } })
    pause()
    expect(await screen.findByText('new-node is available.')).toBeInTheDocument()

    submit()
    expect(screen.getByText('Enter a display name.')).toBeInTheDocument()
    expect(screen.getByText('Enter the repository’s web address.')).toBeInTheDocument()
    fireEvent.change(field('Repository URL'), { target: { value: 'github.com/acme/new' } })
    submit()
    expect(
      screen.getByText('Enter a full web address starting with https:// or http://.'),
    ).toBeInTheDocument()
    expect(api.calls('POST', '/admin/nodes')).toHaveLength(0)

    fireEvent.change(field('Display name'), { target: { value: ' New Node ' } })
    fireEvent.change(field('Repository URL'), {
      target: { value: 'https://github.com/acme/new-node' },
    })
    fireEvent.change(field('Description (optional)'), { target: { value: 'Does new things.' } })
    fireEvent.change(field('Tags (optional)'), { target: { value: 'Video, upscale, video' } })
    submit()

    expect(await screen.findByRole('heading', { name: 'new-node was added.' })).toHaveFocus()
    expect(api.calls('POST', '/admin/nodes').map((call) => call.body)).toEqual([
      {
        id: 'new-node',
        name: 'New Node',
        repository: 'https://github.com/acme/new-node',
        description: 'Does new things.',
        tags: ['video', 'upscale'],
      },
    ])
    expect(screen.getByText(/It belongs to Unclaimed\./)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Open the node’s page' })).toHaveAttribute(
      'href',
      '/nodes/new-node',
    )
    expect(screen.getByRole('link', { name: 'See it in the node list' })).toHaveAttribute(
      'href',
      '/admin/nodes?q=new-node',
    )

    fireEvent.click(screen.getByRole('button', { name: 'Add another node' }))
    expect(idField()).toHaveValue('')
  })

  it('sends the publisher id when given, and checks its format first', async () => {
    const { api } = renderForm({
      'POST /admin/nodes': {
        status: 404,
        data: { error: 'NotFound', message: "Publisher 'ghost' does not exist." },
      },
    })
    fireEvent.change(idField(), { target: { value: 'new-node' } })
    fireEvent.change(field('Display name'), { target: { value: 'New' } })
    fireEvent.change(field('Repository URL'), { target: { value: 'https://github.com/a/b' } })
    fireEvent.change(field('Publisher ID (optional)'), { target: { value: 'Ghost' } })
    pause()
    await screen.findByText('new-node is available.')
    submit()
    expect(
      screen.getByText(
        'A publisher id starts with a lowercase letter, followed by lowercase letters, digits and “-”.',
      ),
    ).toBeInTheDocument()
    expect(api.calls('POST', '/admin/nodes')).toHaveLength(0)

    fireEvent.change(field('Publisher ID (optional)'), { target: { value: 'ghost' } })
    submit()
    // The API's 404 is shown at the publisher field.
    const refusal = await screen.findByText("Publisher 'ghost' does not exist.")
    expect(field('Publisher ID (optional)').getAttribute('aria-describedby')).toContain(refusal.id)
    expect(api.calls('POST', '/admin/nodes')[0].body).toMatchObject({ publisher_id: 'ghost' })
  })

  it.each([
    [
      {
        error: 'Conflict',
        message:
          "The repository https://github.com/a/b already belongs to node 'other'. Each repository is registered once; claim or update that node instead.",
      },
      'Repository URL',
    ],
    [
      { error: 'Conflict', message: "The node id 'new-node' is already taken (ids ignore case)." },
      'Node ID',
    ],
  ])('shows a 409 at its field: %p', async (data, label) => {
    renderForm({ 'POST /admin/nodes': { status: 409, data } })
    fireEvent.change(idField(), { target: { value: 'new-node' } })
    fireEvent.change(field('Display name'), { target: { value: 'New' } })
    fireEvent.change(field('Repository URL'), { target: { value: 'https://github.com/a/b' } })
    pause()
    await screen.findByText('new-node is available.')
    submit()
    const message = await screen.findByText(data.message)
    expect(field(label)).toHaveAttribute('aria-invalid', 'true')
    expect(field(label).getAttribute('aria-describedby')).toContain(message.id)
  })

  it('shows other refusals for the whole form', async () => {
    renderForm({
      'POST /admin/nodes': { status: 403, data: { error: 'Forbidden', message: 'Admins only.' } },
    })
    fireEvent.change(idField(), { target: { value: 'new-node' } })
    fireEvent.change(field('Display name'), { target: { value: 'New' } })
    fireEvent.change(field('Repository URL'), { target: { value: 'https://github.com/a/b' } })
    pause()
    await screen.findByText('new-node is available.')
    submit()
    expect(await screen.findByRole('alert')).toHaveTextContent('Admins only.')
  })
})
