import { screen, within } from '@testing-library/react'
import { AdminOverview } from '@/components/admin/overview/AdminOverview'
import { renderWithProviders } from '../../test-utils'
import { fakeApi } from '../manage/fake-api'
import { makeAction } from './fixtures'

const counts = {
  pending: 1234,
  flagged: 3,
  published_last_24h: 17,
  banned_nodes: 2,
  banned_publishers: 0,
}

const decision = makeAction({ to_value: 'NodeVersionStatusFlagged', reason: 'Looks like a miner' })

describe('AdminOverview', () => {
  it('shows each count as a link to its filtered list', async () => {
    const before = Date.now()
    fakeApi({
      'GET /admin/overview': { status: 200, data: counts },
      'GET /admin/actions': {
        status: 200,
        data: { actions: [], total: 0, page: 1, limit: 10, totalPages: 0 },
      },
    })
    renderWithProviders(<AdminOverview />)
    // Numbers are formatted for the locale.
    expect(await screen.findByRole('link', { name: '1,234 Pending review' })).toHaveAttribute(
      'href',
      '/admin/versions?status=pending',
    )
    expect(screen.getByRole('link', { name: '3 Flagged' })).toHaveAttribute(
      'href',
      '/admin/versions?status=flagged',
    )
    expect(screen.getByRole('link', { name: '2 Banned nodes' })).toHaveAttribute(
      'href',
      '/admin/nodes?banned=1',
    )
    expect(screen.getByRole('link', { name: '0 Banned publishers' })).toHaveAttribute(
      'href',
      '/admin/publishers?banned=1',
    )

    // The last 24 hours: every status, newest first, since 24 hours before the counts were made.
    const published = screen.getByRole('link', { name: '17 Published in the last 24 h' })
    const url = new URL(published.getAttribute('href') ?? '', 'http://localhost')
    expect(url.pathname).toBe('/admin/versions')
    expect(url.searchParams.get('status')).toBe('all')
    expect(url.searchParams.get('sort')).toBe('newest')
    const after = Date.parse(url.searchParams.get('after') ?? '')
    const day = 24 * 60 * 60 * 1000
    expect(after).toBeGreaterThanOrEqual(before - day)
    expect(after).toBeLessThanOrEqual(Date.now() - day)
    expect(url.searchParams.get('after')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
  })

  it('lists the ten newest actions with a link to the full audit log', async () => {
    const api = fakeApi({
      'GET /admin/overview': { status: 200, data: counts },
      'GET /admin/actions': {
        status: 200,
        data: { actions: [decision], total: 1, page: 1, limit: 10, totalPages: 1 },
      },
    })
    renderWithProviders(<AdminOverview />)
    const table = await screen.findByRole('table', { name: 'The ten newest admin actions' })
    expect(api.calls('GET', '/admin/actions')[0].params).toEqual({ page: 1, limit: 10 })
    const row = within(table).getAllByRole('row')[1]
    expect(row).toHaveTextContent('Pending review → changed to Flagged')
    expect(row).toHaveTextContent('Looks like a miner')
    expect(within(row).getByRole('link', { name: 'comfyui-foo@1.2.0' })).toHaveAttribute(
      'href',
      '/admin/versions/comfyui-foo/1.2.0',
    )
    // Read-only here: undo is on the audit log.
    expect(within(table).queryByRole('button')).not.toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'See the full audit log' })).toHaveAttribute(
      'href',
      '/admin/actions',
    )
  })

  it('shows a failure with its message and a retry', async () => {
    fakeApi({
      'GET /admin/overview': {
        status: 500,
        data: { error: 'Internal', message: 'Database unavailable.' },
      },
      'GET /admin/actions': {
        status: 200,
        data: { actions: [], total: 0, page: 1, limit: 10, totalPages: 0 },
      },
    })
    renderWithProviders(<AdminOverview />)
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The counts could not be loaded. Database unavailable.',
    )
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument()
    expect(await screen.findByText('No admin actions yet.')).toBeInTheDocument()
  })
})
