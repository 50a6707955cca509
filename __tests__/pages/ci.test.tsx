// The CI pages: the list of commits with their status per operating system (filters in the
// address, applied client-side), the release notes, a commit's results (durations, video memory,
// output images), and the 404 page for a commit without results. The pages run their real hooks
// against a fake API at the axios level; their server props are asked for too.
import http from 'node:http'
import { Socket } from 'node:net'
import { fireEvent, screen, within } from '@testing-library/react'
import type { GetServerSidePropsContext } from 'next'
import CiCommitPage, { getServerSideProps as commitProps } from '@/pages/ci/[commit]'
import CiPage, { getServerSideProps as listProps } from '@/pages/ci/index'
import { formatDuration, formatVram } from '@/components/ci/format'
import { Footer } from '@/components/common/Footer'
import type {
  GitCommitResultsResponse,
  GitCommitSummaryListResponse,
  Release,
  WorkflowResult,
} from '@/src/api/generated/model'
import { fakeApi, type FakeRoutes } from '../components/manage/fake-api'
import { renderWithProviders } from '../test-utils'

const REPO = 'comfyanonymous/ComfyUI'
const NEWEST = 'c0ffee039e3779b97f4a7c159e3779b97f4a7c15'
const OLDER = 'c0ffee019e3779b97f4a7c159e3779b97f4a7c15'
const API = 'http://localhost:8181'

const SUMMARIES: GitCommitSummaryListResponse = {
  commit_summaries: [
    {
      commit_hash: NEWEST,
      commit_name: 'Release v0.3.10',
      branch_name: 'release/v0.3',
      author: 'comfyanonymous',
      timestamp: '2026-11-02T03:00:00Z',
      status_summary: { linux: 'completed', windows: 'started', macos: 'failed' },
    },
    {
      commit_hash: OLDER,
      commit_name: 'Fix VAE tiling seams\n\nLonger explanation.',
      branch_name: 'master',
      author: 'contributor-b',
      timestamp: '2026-11-01T15:00:00Z',
      status_summary: { linux: 'completed', windows: 'completed' },
    },
  ],
  totalNumberOfPages: 1,
}

const RELEASES: Release[] = [
  {
    id: 3,
    project: 'comfyui',
    version: 'v0.4.0',
    attention: 'high',
    title: 'v0.4.0: Python 3.10 or newer',
    content: '## Breaking changes\n\n- Python 3.9 is **no longer** supported.',
    published_at: '2026-02-20T16:00:00Z',
  },
  {
    id: 2,
    project: 'comfyui_frontend',
    version: 'v1.24.0',
    attention: 'low',
    title: '',
    content: '- A *new* queue panel.',
    published_at: '2026-02-10T16:00:00Z',
  },
  // The API orders by version within a project: across projects, the date decides.
  {
    id: 1,
    project: 'desktop',
    version: 'v0.5.0',
    attention: 'medium',
    title: 'ComfyUI Desktop 0.5.0',
    published_at: '2026-03-01T16:00:00Z',
  },
]

const COMMIT = {
  id: '8d1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f',
  commit_hash: NEWEST,
  commit_name: 'Release v0.3.10',
  branch_name: 'release/v0.3',
  author: 'comfyanonymous',
  timestamp: '2026-11-02T03:00:00Z',
}

function result(id: number, overrides: Partial<WorkflowResult>): WorkflowResult {
  return {
    id: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    workflow_name: 'sd15-basic',
    operating_system: 'linux',
    gpu_type: 'NVIDIA RTX 4090',
    python_version: '3.12',
    pytorch_version: '2.5.1',
    cuda_version: '12.4',
    status: 'completed',
    start_time: 1_793_595_600,
    end_time: 1_793_595_690,
    avg_vram: 4000,
    peak_vram: 6000,
    commit: COMMIT,
    output_files: [],
    ...overrides,
  }
}

const RESULTS: GitCommitResultsResponse = {
  jobResults: [
    result(1, {
      workflow_name: 'flux-dev',
      operating_system: 'macos',
      gpu_type: 'Apple M2 Max',
      cuda_version: undefined,
      status: 'failed',
      end_time: 1_793_595_600 + 3_725,
      avg_vram: 512,
      peak_vram: 10_240,
    }),
    result(2, {
      output_files: [`${API}/ci-artifacts/00000000-0000-4000-8000-000000000002/output.png`],
    }),
    result(3, {
      operating_system: 'windows',
      gpu_type: 'NVIDIA RTX 3080',
      status: 'started',
      end_time: undefined,
      output_files: ['javascript:alert(1)'],
    }),
  ],
  totalNumberOfPages: 1,
}

function listRoutes(summaries = SUMMARIES): FakeRoutes {
  return {
    'GET /gitcommitsummary': { status: 200, data: summaries },
    'GET /branch': { status: 200, data: { branches: ['master', 'release/v0.3'] } },
    'GET /releases': { status: 200, data: RELEASES },
  }
}

function renderList(query: Record<string, string> = {}, routes = listRoutes()) {
  const api = fakeApi(routes)
  const search = new URLSearchParams(query).toString()
  const view = renderWithProviders(<CiPage />, {
    router: { pathname: '/ci', route: '/ci', asPath: search ? `/ci?${search}` : '/ci', query },
  })
  return { ...view, api }
}

function renderCommit(query: Record<string, string>, results = RESULTS) {
  const api = fakeApi({ 'GET /gitcommit': { status: 200, data: results } })
  const view = renderWithProviders(<CiCommitPage />, {
    router: { pathname: '/ci/[commit]', route: '/ci/[commit]', asPath: '/ci/x', query },
  })
  return { ...view, api }
}

const rowOf = async (shortHash: string) => {
  const row = (await screen.findByRole('link', { name: shortHash })).closest('tr')
  if (!row) throw new Error(`no row for ${shortHash}`)
  return row
}

function context(
  params: Record<string, string>,
  query: Record<string, string> = {},
): GetServerSidePropsContext {
  const req = Object.assign(new http.IncomingMessage(new Socket()), { cookies: {} })
  return {
    req,
    res: new http.ServerResponse(req),
    params,
    query: { ...params, ...query },
    resolvedUrl: '/ci',
    locale: 'en',
    locales: ['en', 'fr'],
    defaultLocale: 'en',
  }
}

describe('/ci: the commits and their status per operating system', () => {
  it('lists the page’s commits with a status cell for every system seen', async () => {
    const { api } = renderList()
    const newest = await rowOf('c0ffee03')
    expect(screen.getByRole('heading', { level: 1, name: 'CI results' })).toBeInTheDocument()
    expect(api.calls('GET', '/gitcommitsummary').map((call) => call.params)).toEqual([
      { repoName: REPO, page: 1, pageSize: 20 },
    ])

    const table = screen.getByRole('table', {
      name: 'Commits and their CI status by operating system',
    })
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent)
    expect(headers).toEqual(['Commit', 'Message', 'Author', 'Time', 'Linux', 'Windows', 'macOS'])

    expect(within(newest).getByRole('link', { name: 'c0ffee03' })).toHaveAttribute(
      'href',
      `/ci/${NEWEST}`,
    )
    const cells = within(newest).getAllByRole('cell')
    expect(cells.map((cell) => cell.textContent)).toEqual([
      'Release v0.3.10',
      'comfyanonymous',
      'Nov 2, 2026, 03:00 AM UTC',
      '✓Completed',
      '…Running',
      '✗Failed',
    ])
    // The mark is decoration; the word is what a screen reader says.
    expect(within(cells[5]).getByText('✗')).toHaveAttribute('aria-hidden', 'true')
    expect(within(cells[5]).getByText('Failed')).toHaveClass('sr-only')

    const older = await rowOf('c0ffee01')
    // Hashes are as long as telling them apart takes; only the message's first line; a system the commit did not run on says so.
    expect(within(older).getByText('Fix VAE tiling seams')).toBeInTheDocument()
    expect(within(older).queryByText(/Longer explanation/)).not.toBeInTheDocument()
    expect(within(older).getAllByRole('cell').at(-1)).toHaveTextContent('–Not run')
  })

  it('picking a branch changes the address, shallowly; the address’s branch is asked for', async () => {
    const { router } = renderList()
    await rowOf('c0ffee03')
    const branch = screen.getByRole('combobox', { name: 'Branch' })
    await within(branch).findByRole('option', { name: 'release/v0.3' })
    fireEvent.change(branch, { target: { value: 'release/v0.3' } })
    expect(router.replace).toHaveBeenCalledWith('/ci?branch=release%2Fv0.3', undefined, {
      shallow: true,
      scroll: false,
    })
  })

  it('asks for the address’s repository, branch and page', async () => {
    const { api } = renderList(
      { repo: 'someone/fork', branch: 'release/v0.3', page: '2' },
      {
        ...listRoutes({ ...SUMMARIES, totalNumberOfPages: 3 }),
      },
    )
    await rowOf('c0ffee03')
    expect(api.calls('GET', '/gitcommitsummary')[0].params).toEqual({
      repoName: 'someone/fork',
      branchName: 'release/v0.3',
      page: 2,
      pageSize: 20,
    })
    expect(api.calls('GET', '/branch')[0].params).toEqual({ repo_name: 'someone/fork' })
    expect(screen.getByRole('combobox', { name: 'Branch' })).toHaveValue('release/v0.3')
    expect(
      screen.getByRole('heading', { name: 'Commits of someone/fork on release/v0.3' }),
    ).toBeInTheDocument()
    // Links keep the filters: to a commit, and to the other pages.
    expect(screen.getByRole('link', { name: 'c0ffee03' })).toHaveAttribute(
      'href',
      `/ci/${NEWEST}?repo=someone%2Ffork&branch=release%2Fv0.3&page=2`,
    )
    expect(screen.getByRole('link', { name: 'Page 3' })).toHaveAttribute(
      'href',
      '/ci?repo=someone%2Ffork&branch=release%2Fv0.3&page=3',
    )
  })

  it('a repository is applied on submit, on all its branches', async () => {
    const { router } = renderList({ branch: 'master' })
    await rowOf('c0ffee03')
    const field = screen.getByRole('textbox', { name: 'Repository' })
    expect(field).toHaveValue(REPO)
    fireEvent.change(field, { target: { value: ' someone/fork ' } })
    expect(router.replace).not.toHaveBeenCalled()
    fireEvent.click(screen.getByRole('button', { name: 'Show' }))
    expect(router.replace).toHaveBeenCalledWith('/ci?repo=someone%2Ffork', undefined, {
      shallow: true,
      scroll: false,
    })
  })

  it('says when the repository and branch have no results', async () => {
    renderList({}, listRoutes({ commit_summaries: [], totalNumberOfPages: 0 }))
    expect(
      await screen.findByText('No CI results for this repository and branch yet.'),
    ).toBeInTheDocument()
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
  })
})

describe('/ci: what’s new in ComfyUI', () => {
  it('lists the releases with project, version, attention, date, and folded notes', async () => {
    renderList()
    const section = (
      await screen.findByRole('heading', { level: 2, name: 'What’s new in ComfyUI' })
    ).closest('section')
    if (!section) throw new Error('no releases section')
    const major = (
      await within(section).findByRole('heading', {
        level: 3,
        name: 'v0.4.0: Python 3.10 or newer',
      })
    ).closest('article')
    if (!major) throw new Error('no release')
    expect(within(major).getByText('ComfyUI')).toBeInTheDocument()
    expect(within(major).getByText('v0.4.0')).toBeInTheDocument()
    expect(within(major).getByText('Important')).toBeInTheDocument()
    expect(within(major).getByText('Feb 20, 2026')).toHaveAttribute(
      'datetime',
      '2026-02-20T16:00:00Z',
    )
    const details = within(major)
      .getByText('Release notes: v0.4.0: Python 3.10 or newer')
      .closest('details')
    expect(details).not.toHaveAttribute('open')
    // Rendered in the browser here (no server HTML given), as sanitised markdown.
    expect((await within(major).findByText('no longer')).tagName).toBe('STRONG')
    expect(within(major).getByRole('heading', { level: 4, name: 'Breaking changes' })).toBeTruthy()

    // Without a title, the version names the release.
    expect(within(section).getByRole('heading', { level: 3, name: 'v1.24.0' })).toBeInTheDocument()
    expect(within(section).getByText('ComfyUI frontend')).toBeInTheDocument()
    expect(within(section).getByText('Minor')).toBeInTheDocument()

    // Newest first; a release without notes has nothing to unfold.
    expect(
      within(section)
        .getAllByRole('heading', { level: 3 })
        .map((heading) => heading.textContent),
    ).toEqual(['ComfyUI Desktop 0.5.0', 'v0.4.0: Python 3.10 or newer', 'v1.24.0'])
    const desktop = within(section)
      .getByRole('heading', { level: 3, name: 'ComfyUI Desktop 0.5.0' })
      .closest('article')
    expect(desktop?.querySelector('details')).toBeNull()
    expect(within(section).getByText('Notable')).toBeInTheDocument()
  })
})

describe('/ci/[commit]: a commit’s results', () => {
  it('shows the commit, its workflows by system, durations, video memory and images', async () => {
    const { api } = renderCommit({ commit: NEWEST, branch: 'release/v0.3' })
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Commit c0ffee0' }),
    ).toBeInTheDocument()
    expect(api.calls('GET', '/gitcommit')[0].params).toEqual({
      commitId: NEWEST,
      repoName: REPO,
      page: 1,
      pageSize: 100,
    })
    expect(screen.getByText('Release v0.3.10')).toBeInTheDocument()
    expect(screen.getByText(NEWEST)).toBeInTheDocument()
    expect(screen.getByText('Nov 2, 2026, 03:00 AM UTC')).toBeInTheDocument()
    // The way back keeps the list's filters.
    expect(screen.getByRole('link', { name: /Back to CI results/ })).toHaveAttribute(
      'href',
      '/ci?branch=release%2Fv0.3',
    )

    // Workflows by name, each with a card per system.
    expect(
      screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent),
    ).toEqual(['flux-dev', 'sd15-basic'])
    const card = (workflow: string, os: string) => {
      const section = screen.getByRole('heading', { level: 2, name: workflow }).closest('section')
      const article = section && within(section).getByRole('article', { name: os })
      if (!article) throw new Error(`no ${workflow} on ${os}`)
      return article
    }
    const fact = (article: HTMLElement, term: string) =>
      within(article).getByText(term, { selector: 'dt' }).nextElementSibling

    const mac = card('flux-dev', 'macOS')
    expect(within(mac).getByText('Failed')).toBeVisible()
    expect(fact(mac, 'GPU')).toHaveTextContent('Apple M2 Max')
    expect(fact(mac, 'CUDA')).toHaveTextContent('Not reported')
    expect(fact(mac, 'Duration')).toHaveTextContent('1 hr 2 min')
    expect(fact(mac, 'Average VRAM')).toHaveTextContent('512 MB')
    expect(fact(mac, 'Peak VRAM')).toHaveTextContent('10 GB')

    const linux = card('sd15-basic', 'Linux')
    expect(fact(linux, 'Python')).toHaveTextContent('3.12')
    expect(fact(linux, 'PyTorch')).toHaveTextContent('2.5.1')
    expect(fact(linux, 'CUDA')).toHaveTextContent('12.4')
    expect(fact(linux, 'Duration')).toHaveTextContent('1 min 30 sec')
    expect(fact(linux, 'Average VRAM')).toHaveTextContent('3.9 GB')
    expect(fact(linux, 'Peak VRAM')).toHaveTextContent('5.9 GB')
    const image = within(linux).getByRole('img', { name: 'Output 1 of sd15-basic on Linux' })
    const src = `${API}/ci-artifacts/00000000-0000-4000-8000-000000000002/output.png`
    expect(image).toHaveAttribute('src', src)
    expect(image).toHaveAttribute('width', '256')
    expect(image).toHaveAttribute('height', '256')
    expect(image.closest('a')).toHaveAttribute('href', src)

    const windows = card('sd15-basic', 'Windows')
    expect(fact(windows, 'Duration')).toHaveTextContent('Running')
    // An output that is not an http(s) address is never a link or an image.
    expect(within(windows).queryByRole('img')).not.toBeInTheDocument()
    expect(within(windows).queryByRole('link')).not.toBeInTheDocument()
  })

  it('a commit without results is the 404 page', async () => {
    renderCommit({ commit: 'deadbeef' }, { jobResults: [], totalNumberOfPages: 0 })
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Page not found')
  })
})

describe('server props', () => {
  it('an unknown commit is the 404 page; an impossible one is not even asked for', async () => {
    const api = fakeApi({
      'GET /gitcommit': { status: 200, data: { jobResults: [], totalNumberOfPages: 0 } },
    })
    await expect(commitProps(context({ commit: 'deadbeef' }))).resolves.toEqual({
      notFound: true,
    })
    expect(api.calls('GET', '/gitcommit')).toHaveLength(1)
    for (const commit of ['xyz', 'abc', 'c0ffee0/../x', 'a'.repeat(41)]) {
      await expect(commitProps(context({ commit }))).resolves.toEqual({ notFound: true })
    }
    expect(api.calls('GET', '/gitcommit')).toHaveLength(1)
  })

  it('a known commit brings its results, and the CI texts other pages leave out', async () => {
    fakeApi({ 'GET /gitcommit': { status: 200, data: RESULTS } })
    const result = await commitProps(context({ commit: NEWEST }))
    if (!('props' in result)) throw new Error('no props')
    const props = await result.props
    expect(props).toHaveProperty('dehydratedState.queries.0.state.data', RESULTS)
    expect(props).toHaveProperty('_nextI18Next.initialI18nStore.en.common.ci.title', 'CI results')
    expect(props).not.toHaveProperty('_nextI18Next.initialI18nStore.en.common.admin')
  })

  it('the list prefetches its data and renders the release notes on the server', async () => {
    const api = fakeApi(listRoutes())
    const result = await listProps(context({}, { branch: 'master' }))
    if (!('props' in result)) throw new Error('no props')
    const props = await result.props
    expect(api.calls('GET', '/gitcommitsummary')[0].params).toEqual({
      repoName: REPO,
      branchName: 'master',
      page: 1,
      pageSize: 20,
    })
    expect(props.releaseNotes?.['3']).toContain('<strong>no longer</strong>')
    expect(props).toHaveProperty('_nextI18Next.initialI18nStore.en.common.ci.title', 'CI results')
  })

  it('sends a page beyond the last to the last', async () => {
    fakeApi(listRoutes({ ...SUMMARIES, totalNumberOfPages: 2 }))
    await expect(listProps(context({}, { page: '9', branch: 'master' }))).resolves.toEqual({
      redirect: { destination: '/ci?branch=master&page=2', permanent: false },
    })
  })
})

describe('the way in', () => {
  it('the footer of every page links to /ci', () => {
    renderWithProviders(<Footer />)
    expect(
      within(screen.getByRole('contentinfo')).getByRole('link', { name: 'CI results' }),
    ).toHaveAttribute('href', '/ci')
  })
})

describe('formatting', () => {
  it('durations and video memory', () => {
    expect(formatDuration(100, 145, 'en')).toBe('45 sec')
    expect(formatDuration(0, 0, 'en')).toBe('0 sec')
    expect(formatDuration(0, 3600, 'en')).toBe('1 hr')
    // French puts a no-break space between number and unit.
    expect(formatDuration(0, 90, 'fr')?.replace(/\s/g, ' ')).toBe('1 min 30 s')
    expect(formatDuration(10, 5, 'en')).toBeUndefined()
    expect(formatDuration(undefined, 5, 'en')).toBeUndefined()
    expect(formatVram(1023, 'en')).toBe('1,023 MB')
    expect(formatVram(1024, 'en')).toBe('1 GB')
    expect(formatVram(24_576, 'en')).toBe('24 GB')
    expect(formatVram(undefined, 'en')).toBeUndefined()
  })
})
