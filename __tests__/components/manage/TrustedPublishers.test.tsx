import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { TrustedPublishersSection } from '@/components/manage/TrustedPublishers'
import type { Node, Publisher, TrustedPublisher } from '@/src/api/generated/model'
import { renderWithProviders } from '../../test-utils'
import { fakeApi } from './fake-api'

jest.mock('@/src/lib/firebase', () => ({
  getFirebaseAuth: () => ({ authStateReady: () => Promise.resolve(), currentUser: null }),
}))

const PATH = '/publishers/acme/nodes/comfy-sampler/trusted-publishers'
const node = {
  id: 'comfy-sampler',
  name: 'Comfy Sampler',
  repository: 'https://github.com/acme-org/comfy-sampler',
  publisher: { id: 'acme', name: 'Acme' } as Publisher,
} as Node & { publisher: Publisher }

const existing: TrustedPublisher = {
  id: '0b7c7f3e-0000-4000-8000-000000000001',
  node_id: 'comfy-sampler',
  repository_owner: 'acme-org',
  repository_owner_id: '1234',
  repository_name: 'comfy-sampler',
  workflow_filename: 'release.yml',
  environment: 'pypi',
  created_at: '2026-03-01T10:00:00Z',
  created_by: 'owner@acme.test',
  last_used_at: null,
}

function api(list: TrustedPublisher[] = [existing]) {
  return fakeApi({
    [`GET ${PATH}`]: { status: 200, data: list },
    [`POST ${PATH}`]: ({ body }) =>
      (body as { repository_owner: string }).repository_owner === 'ghost'
        ? {
            status: 400,
            data: { error: 'BadRequest', message: "GitHub has no user or organisation 'ghost'." },
          }
        : { status: 201, data: { ...existing, id: '0b7c7f3e-0000-4000-8000-000000000002' } },
    [`DELETE ${PATH}/${existing.id}`]: { status: 204 },
  })
}

describe('TrustedPublishersSection', () => {
  it('lists the trusted publishers with workflow, environment, who added them and the steps', async () => {
    api()
    renderWithProviders(<TrustedPublishersSection node={node} />)
    const list = await screen.findByRole('list', { name: 'Trusted publishers' })
    const entry = within(list).getByRole('listitem')
    expect(within(entry).getByRole('link', { name: 'acme-org/comfy-sampler' })).toHaveAttribute(
      'href',
      'https://github.com/acme-org/comfy-sampler',
    )
    expect(entry).toHaveTextContent('release.yml')
    expect(entry).toHaveTextContent('pypi')
    expect(entry).toHaveTextContent('Mar 1, 2026 by owner@acme.test')
    expect(entry).toHaveTextContent('Never')
    const steps = within(entry).getByText(/trusted-publishing\/exchange/)
    expect(steps.textContent).toContain('NODE_ID: comfy-sampler')
    expect(steps.textContent).toContain('environment: pypi')
    expect(steps.textContent).toContain('id-token: write')
  })

  it('checks the fields before sending, prefills the repository, and shows the API refusal', async () => {
    const requests = api([])
    renderWithProviders(<TrustedPublishersSection node={node} />)
    expect(await screen.findByText(/No trusted publishers yet/)).toBeInTheDocument()
    fireEvent.click(screen.getByRole('button', { name: 'Add trusted publisher' }))
    const dialog = await screen.findByRole('dialog', { name: 'Add a trusted publisher' })
    const owner = within(dialog).getByRole('textbox', { name: 'Repository owner' })
    expect(owner).toHaveValue('acme-org')
    expect(within(dialog).getByRole('textbox', { name: 'Repository name' })).toHaveValue(
      'comfy-sampler',
    )
    const workflow = within(dialog).getByRole('textbox', { name: 'Workflow file' })
    fireEvent.change(workflow, { target: { value: '.github/workflows/publish.yml' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add trusted publisher' }))
    expect(
      within(dialog).getByText('Enter a file name ending in .yml or .yaml, without a folder.'),
    ).toBeInTheDocument()
    expect(workflow).toHaveAttribute('aria-invalid', 'true')
    expect(requests.calls('POST', PATH)).toHaveLength(0)

    fireEvent.change(workflow, { target: { value: 'publish.yml' } })
    fireEvent.change(owner, { target: { value: 'ghost' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add trusted publisher' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      "GitHub has no user or organisation 'ghost'.",
    )

    fireEvent.change(owner, { target: { value: 'acme-org' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add trusted publisher' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(requests.calls('POST', PATH).at(-1)?.body).toEqual({
      repository_owner: 'acme-org',
      repository_name: 'comfy-sampler',
      workflow_filename: 'publish.yml',
    })
  })

  it('removes a trusted publisher only after confirmation', async () => {
    const requests = api()
    renderWithProviders(<TrustedPublishersSection node={node} />)
    fireEvent.click(
      await screen.findByRole('button', {
        name: 'Remove trusted publisher acme-org/comfy-sampler (release.yml)',
      }),
    )
    const dialog = await screen.findByRole('dialog', {
      name: 'Remove acme-org/comfy-sampler (release.yml)?',
    })
    expect(requests.calls('DELETE', `${PATH}/${existing.id}`)).toHaveLength(0)
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(requests.calls('DELETE', `${PATH}/${existing.id}`)).toHaveLength(1)
  })
})
