import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { EVENTS_PAGE_SIZE, PublisherEvents } from '@/components/manage/PublisherEvents'
import type { PublisherEvent } from '@/src/api/generated/model'
import { renderWithProviders } from '../../test-utils'
import { fakeApi } from './fake-api'

jest.mock('@/src/lib/firebase', () => ({
  getFirebaseAuth: () => ({ authStateReady: () => Promise.resolve(), currentUser: null }),
}))

function event(n: number, kind: PublisherEvent['kind']): PublisherEvent {
  return {
    id: `0b7c7f3e-0000-4000-8000-${String(n).padStart(12, '0')}`,
    publisher_id: 'acme',
    kind,
    actor: n === 1 ? 'workflow acme-org/comfy-sampler' : 'owner@acme.test',
    node_id: kind.startsWith('token') ? '' : 'comfy-sampler',
    detail: `detail ${n}`,
    created_at: `2026-03-0${n}T10:00:00Z`,
  }
}

describe('PublisherEvents', () => {
  it('lists the audit trail a page at a time', async () => {
    const requests = fakeApi({
      'GET /publishers/acme/events': ({ params }) => ({
        status: 200,
        data: {
          events:
            params?.page === 2
              ? [event(3, 'token.create')]
              : [event(1, 'version.publish'), event(2, 'trusted_publisher.add')],
          total: EVENTS_PAGE_SIZE + 1,
          page: params?.page,
          limit: EVENTS_PAGE_SIZE,
          totalPages: 2,
        },
      }),
    })
    renderWithProviders(<PublisherEvents publisherId="acme" />)
    const list = await screen.findByRole('list', { name: 'Audit trail' })
    const items = within(list).getAllByRole('listitem')
    expect(items[0]).toHaveTextContent('Version published')
    expect(items[0]).toHaveTextContent('detail 1')
    expect(items[0]).toHaveTextContent('By workflow acme-org/comfy-sampler')
    expect(items[1]).toHaveTextContent('Trusted publisher added')
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Newer' })).toBeDisabled()

    fireEvent.click(screen.getByRole('button', { name: 'Older' }))
    await waitFor(() => expect(screen.getByText('Page 2 of 2')).toBeInTheDocument())
    expect(screen.getByRole('list', { name: 'Audit trail' })).toHaveTextContent('Token created')
    expect(screen.getByRole('list', { name: 'Audit trail' })).not.toHaveTextContent(
      'comfy-sampler:',
    )
    expect(requests.calls('GET', '/publishers/acme/events').map((r) => r.params)).toEqual([
      { page: 1, limit: EVENTS_PAGE_SIZE },
      { page: 2, limit: EVENTS_PAGE_SIZE },
    ])
  })

  it('says when the API refuses', async () => {
    fakeApi({
      'GET /publishers/acme/events': {
        status: 403,
        data: { error: 'Forbidden', message: 'Only owners of acme can see its audit trail.' },
      },
    })
    renderWithProviders(<PublisherEvents publisherId="acme" />)
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Only owners of acme can see its audit trail.',
    )
  })
})
