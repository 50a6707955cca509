// The node page's downloads chart: an SVG with an accessible name, a screen-reader table of the
// same numbers, a 30/90-day switch that needs no request, and a sentence when there is nothing.
import { fireEvent, screen, within } from '@testing-library/react'
import NodePage from '@/pages/nodes/[nodeId]'
import { niceCeiling } from '@/components/node/DownloadsChart'
import { DOWNLOAD_HISTORY_DAYS } from '@/components/node/node-lists'
import { firstComfyNodesQuery, firstVersionsQuery } from '@/components/node/node-lists'
import { NodeView } from '@/components/node/NodeView'
import {
  getGetNodeDailyDownloadsQueryKey,
  getGetNodeQueryKey,
} from '@/src/api/generated/nodes/nodes'
import type { NodeDailyDownloads } from '@/src/api/generated/model'
import { makeTestQueryClient, renderWithProviders } from '../../test-utils'
import { fakeApi } from '../manage/fake-api'
import { makeNode } from './fixtures'

const DAY_MS = 86_400_000

/** 90 days ending 2026-11-25 with `count(index)` downloads on day `index` (0 = oldest). */
function history(count: (index: number) => number): NodeDailyDownloads {
  const end = Date.UTC(2026, 10, 25)
  const daily = Array.from({ length: DOWNLOAD_HISTORY_DAYS }, (_, index) => ({
    day: new Date(end - (DOWNLOAD_HISTORY_DAYS - 1 - index) * DAY_MS).toISOString().slice(0, 10),
    downloads: count(index),
  }))
  return {
    node_id: 'demo-node',
    from: daily[0].day,
    to: daily[daily.length - 1].day,
    total: daily.reduce((sum, item) => sum + item.downloads, 0),
    daily,
  }
}

/** Older days get 1000 + index, the last 30 days 2000 + index: the two ranges differ. */
const BUSY = history((index) => (index < 60 ? 1000 + index : 2000 + index))

const chartSection = () => screen.getByRole('region', { name: 'Downloads over time' })
const table = () => within(chartSection()).getByRole('table')
/** The table's rows as [day, downloads] text, header left out. */
const rows = () =>
  within(table())
    .getAllByRole('row')
    .slice(1)
    .map((row) => [
      within(row).getByRole('rowheader').textContent,
      within(row).getByRole('cell').textContent,
    ])
const bars = () => chartSection().querySelectorAll('svg rect')
const button = (name: string) => within(chartSection()).getByRole('button', { name })

describe('the downloads chart', () => {
  it('shows the last 30 days: a named SVG, one bar per day and a table of the same numbers', () => {
    renderWithProviders(<NodeView node={makeNode()} downloadHistory={BUSY} />)
    const chart = within(chartSection()).getByRole('img', {
      name: /^Downloads per day, last 30 days \(Oct 27, 2026 – Nov 25, 2026\): [\d,]+ in total$/,
    })
    const last30 = BUSY.daily.slice(-30)
    const total = last30.reduce((sum, item) => sum + item.downloads, 0)
    expect(chart).toHaveAccessibleName(
      `Downloads per day, last 30 days (Oct 27, 2026 – Nov 25, 2026): ${total.toLocaleString('en')} in total`,
    )
    expect(chart).toHaveAttribute('width', '100%')
    expect(chart).toHaveAttribute('viewBox', '0 0 30 100')
    expect(bars()).toHaveLength(30)
    expect(within(table()).getByText('Downloads per day, last 30 days')).toBeInTheDocument()
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Day', 'Downloads'])
    expect(within(table()).getAllByRole('columnheader')[0]).toHaveAttribute('scope', 'col')
    expect(rows()).toHaveLength(30)
    expect(rows()[0]).toEqual(['Oct 27, 2026', '2,060'])
    expect(rows()[29]).toEqual(['Nov 25, 2026', '2,089'])
    expect(
      within(chartSection()).getByText(
        `Downloads in the last 30 days: ${total.toLocaleString('en')}`,
      ),
    ).toBeInTheDocument()
    // The tallest bar reaches the top line (2,089 of 4,000: 2, 4, 6, 8… × 1,000), a smaller one less.
    const heights = [...bars()].map((bar) => Number(bar.getAttribute('height')))
    expect(heights[29]).toBeCloseTo((2089 / 4000) * 100)
    expect(heights[0]).toBeCloseTo((2060 / 4000) * 100)
    expect(button('30 days')).toHaveAttribute('aria-pressed', 'true')
    expect(button('90 days')).toHaveAttribute('aria-pressed', 'false')
  })

  it('switches to 90 days without a request: more bars and rows, the older numbers too', () => {
    const requests = fakeApi({})
    renderWithProviders(<NodeView node={makeNode()} downloadHistory={BUSY} />)
    fireEvent.click(button('90 days'))
    expect(button('90 days')).toHaveAttribute('aria-pressed', 'true')
    expect(button('30 days')).toHaveAttribute('aria-pressed', 'false')
    expect(bars()).toHaveLength(90)
    expect(rows()).toHaveLength(90)
    expect(rows()[0]).toEqual(['Aug 28, 2026', '1,000'])
    expect(rows()[89]).toEqual(['Nov 25, 2026', '2,089'])
    expect(within(chartSection()).getByRole('img')).toHaveAccessibleName(
      `Downloads per day, last 90 days (Aug 28, 2026 – Nov 25, 2026): ${BUSY.total.toLocaleString('en')} in total`,
    )
    expect(within(table()).getByText('Downloads per day, last 90 days')).toBeInTheDocument()
    fireEvent.click(button('30 days'))
    expect(rows()).toHaveLength(30)
    expect(requests.requests).toEqual([])
  })

  it('says so instead of drawing an empty chart', () => {
    renderWithProviders(<NodeView node={makeNode()} downloadHistory={history(() => 0)} />)
    const section = within(chartSection())
    expect(section.getByText('No downloads recorded in the last 90 days yet.')).toBeInTheDocument()
    expect(section.queryByRole('img')).toBeNull()
    expect(section.queryByRole('table')).toBeNull()
    expect(section.queryByRole('button')).toBeNull()
  })

  it('says a quiet month has none, and still shows the 90 days', () => {
    renderWithProviders(
      <NodeView node={makeNode()} downloadHistory={history((index) => (index < 60 ? 5 : 0))} />,
    )
    const section = within(chartSection())
    expect(section.getByText('No downloads in the last 30 days.')).toBeInTheDocument()
    expect(section.queryByRole('img')).toBeNull()
    fireEvent.click(button('90 days'))
    expect(section.queryByText('No downloads in the last 30 days.')).toBeNull()
    expect(rows()).toHaveLength(90)
    expect(rows()[0]).toEqual(['Aug 28, 2026', '5'])
    expect(rows()[89]).toEqual(['Nov 25, 2026', '0'])
  })

  it('writes dates and numbers in the page’s language', () => {
    renderWithProviders(<NodeView node={makeNode()} downloadHistory={BUSY} />, { locale: 'fr' })
    const section = screen.getByRole('region', { name: 'Téléchargements dans le temps' })
    expect(within(section).getByRole('button', { name: '90 jours' })).toBeInTheDocument()
    const lastRow = within(section).getAllByRole('row').at(-1)
    if (!lastRow) throw new Error('no rows')
    expect(within(lastRow).getByRole('rowheader')).toHaveTextContent('25 nov. 2026')
    expect(within(lastRow).getByRole('cell').textContent).toBe('2\u202f089')
  })

  it('is left out when the page has no history', () => {
    renderWithProviders(<NodeView node={makeNode()} />)
    expect(screen.queryByRole('region', { name: 'Downloads over time' })).toBeNull()
  })

  it('puts the top line at a whole 2, 4, 6, 8, 10, 12, 16 or 20 × 10ⁿ with a whole half', () => {
    expect([0, 1, 3, 9, 10, 11, 150, 999, 1234, 2089].map(niceCeiling)).toEqual([
      2, 2, 4, 10, 10, 12, 160, 1000, 1600, 4000,
    ])
  })
})

describe('the node page', () => {
  it('draws the chart from the 90 days the server prefetched, without asking again', () => {
    const requests = fakeApi({})
    const node = makeNode()
    const queryClient = makeTestQueryClient()
    queryClient.setQueryData(getGetNodeQueryKey(node.id), node)
    queryClient.setQueryData(firstVersionsQuery(node.id).queryKey, [])
    queryClient.setQueryData(firstComfyNodesQuery(node.id).queryKey, {
      comfy_nodes: [],
      total: 0,
      page: 1,
      limit: 10,
      totalPages: 0,
    })
    queryClient.setQueryData(
      getGetNodeDailyDownloadsQueryKey(node.id, { days: DOWNLOAD_HISTORY_DAYS }),
      BUSY,
    )
    renderWithProviders(<NodePage />, {
      queryClient,
      router: {
        pathname: '/nodes/[nodeId]',
        asPath: `/nodes/${node.id}`,
        query: { nodeId: node.id },
      },
    })
    expect(rows()).toHaveLength(30)
    fireEvent.click(button('90 days'))
    expect(rows()).toHaveLength(90)
    expect(requests.calls('GET', `/nodes/${node.id}/downloads/daily`)).toEqual([])
  })
})
