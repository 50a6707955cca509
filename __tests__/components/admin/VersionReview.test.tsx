import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { VersionReview } from '@/components/admin/review/VersionReview'
import {
  resolveArchivePath,
  selectionFromQuery,
  splitLines,
} from '@/components/admin/review/review-utils'
import type { AdminVersionFiles, NodeVersion, ScanFinding } from '@/src/api/generated/model'
import { renderWithProviders } from '../../test-utils'
import { makeNode, makeVersion } from '../node/fixtures'
import { fakeApi, type FakeRequest, type FakeResponse } from '../manage/fake-api'

jest.mock('@/src/lib/firebase', () => ({
  getFirebaseAuth: () => ({ authStateReady: () => Promise.resolve(), currentUser: null }),
}))

const BASE = '/admin/nodes/demo-node/versions/1.1.0'

const lowFinding: ScanFinding = {
  issue_type: 'network-call',
  severity: 'low',
  file_path: 'demo-node-main/util.py',
  line_number: 7,
  code_snippet: 'requests.get(URL)',
  message: 'Makes a network call.',
  scanner: 'static-scan',
}
const criticalFinding: ScanFinding = {
  issue_type: 'exec-decoded-payload',
  severity: 'critical',
  file_path: 'demo-node-main/__init__.py',
  line_number: 2,
  code_snippet: 'exec(base64.b64decode(PAYLOAD))',
  message: 'Runs a decoded payload.',
  scanner: 'static-scan',
}

const decision = JSON.stringify({
  message: 'Looks suspicious',
  by: 'admin@example.com',
  statusHistory: [
    { status: 'NodeVersionStatusPending', message: 'Published', by: 'publisher@example.com' },
    { status: 'NodeVersionStatusFlagged', message: 'Looks suspicious', by: 'admin@example.com' },
  ],
})

const version: NodeVersion = makeVersion({
  id: 'v-110',
  version: '1.1.0',
  status: 'NodeVersionStatusFlagged',
  changelog: '## Fixes\n\n- **faster** loading',
  dependencies: ['numpy>=1.26', 'requests'],
  scan_findings: [lowFinding, criticalFinding],
  status_reason: decision,
  archive_size: 4096,
  pipeline_state: 'done',
})

const files: AdminVersionFiles = {
  node_id: 'demo-node',
  version: '1.1.0',
  archive_size: 4096,
  files: [
    { path: 'demo-node-main/__init__.py', size: 120, compressed_size: 80 },
    { path: 'demo-node-main/util.py', size: 300, compressed_size: 150 },
    { path: 'demo-node-main/new_feature.py', size: 50, compressed_size: 40 },
    { path: 'demo-node-main/pyproject.toml', size: 200, compressed_size: 100 },
    { path: 'demo-node-main/logo.png', size: 2048, compressed_size: 2000 },
  ],
  previous_version: '1.0.0',
  diff: {
    added: ['demo-node-main/new_feature.py'],
    removed: ['demo-node-main/old_module.py'],
    changed: ['demo-node-main/__init__.py'],
  },
}

const TEXTS: Record<string, string> = {
  'demo-node-main/__init__.py':
    'import base64\nexec(base64.b64decode(PAYLOAD))\nprint("<script>alert(1)</script>")\n',
  'demo-node-main/util.py': 'import requests\n'.repeat(10),
}

function fileRoute(request: FakeRequest): FakeResponse {
  const path = String(request.params?.path ?? '')
  if (path === 'demo-node-main/logo.png') {
    return { status: 415, data: { error: 'UnsupportedMediaType', message: 'Not UTF-8 text.' } }
  }
  if (path === 'demo-node-main/big.json') {
    return { status: 200, data: { path, size: 5 * 1024 * 1024, text: '', truncated: true } }
  }
  const text = TEXTS[path]
  if (text === undefined) return { status: 404, data: { error: 'NotFound', message: 'No file.' } }
  return { status: 200, data: { path, size: text.length, text, truncated: false } }
}

function renderReview(
  routes: Record<string, FakeResponse | ((request: FakeRequest) => FakeResponse)> = {},
  query: Record<string, string> = {},
) {
  const api = fakeApi({
    'GET /nodes/demo-node/versions/1.1.0': { status: 200, data: version },
    'GET /nodes/demo-node': { status: 200, data: makeNode() },
    [`GET ${BASE}/files`]: { status: 200, data: files },
    [`GET ${BASE}/file`]: fileRoute,
    ...routes,
  })
  const result = renderWithProviders(<VersionReview nodeId="demo-node" version="1.1.0" />, {
    router: {
      pathname: '/admin/versions/[nodeId]/[version]',
      asPath: '/admin/versions/demo-node/1.1.0',
      query: { nodeId: 'demo-node', version: '1.1.0', ...query },
    },
  })
  return { ...result, api }
}

const findingsSection = () => screen.findByRole('region', { name: /^Findings/ })

describe('VersionReview', () => {
  it('shows the findings worst first with rule, place, snippet and message', async () => {
    renderReview()
    const section = await findingsSection()
    const items = within(section).getAllByRole('listitem')
    expect(items).toHaveLength(2)
    // Critical before low, whatever order the API sent.
    expect(items[0]).toHaveTextContent('Critical')
    expect(items[0]).toHaveTextContent('exec-decoded-payload')
    expect(items[0]).toHaveTextContent('Runs a decoded payload.')
    expect(within(items[0]).getByText('exec(base64.b64decode(PAYLOAD))').tagName).toBe('CODE')
    expect(
      within(items[0]).getByRole('button', { name: 'Open demo-node-main/__init__.py at line 2' }),
    ).toHaveTextContent('demo-node-main/__init__.py:2')
    expect(items[1]).toHaveTextContent('Low')
    expect(items[1]).toHaveTextContent('demo-node-main/util.py:7')
  })

  it('shows the node, publisher, status, size, decision history, changelog and dependencies', async () => {
    renderReview()
    expect(await screen.findByRole('link', { name: 'Demo Node' })).toHaveAttribute(
      'href',
      '/admin/nodes?q=demo-node',
    )
    expect(await screen.findByRole('link', { name: 'Demo Publisher' })).toBeInTheDocument()
    const summary = screen.getByRole('region', { name: 'About this version' })
    expect(summary).toHaveTextContent('Flagged')
    expect(summary).toHaveTextContent(/4.1 kB/)
    expect(summary).toHaveTextContent('Mar 5, 2024')
    const history = screen.getByRole('region', { name: 'Decision history' })
    expect(history).toHaveTextContent('Reason: Looks suspicious')
    expect(history).toHaveTextContent('by admin@example.com')
    expect(within(history).getAllByRole('listitem')).toHaveLength(2)
    const changelog = screen.getByRole('region', { name: 'Changelog' })
    expect(within(changelog).getByRole('heading', { name: 'Fixes' })).toBeInTheDocument()
    expect(within(changelog).getByText('faster').tagName).toBe('STRONG')
    const dependencies = screen.getByRole('region', { name: 'Dependencies' })
    expect(dependencies).toHaveTextContent('numpy>=1.26')
    expect(screen.getByRole('link', { name: /Back to the review queue/ })).toHaveAttribute(
      'href',
      '/admin/versions',
    )
  })

  it('opens a finding’s file at its line: the request names the path, the line is highlighted', async () => {
    const { api, router } = renderReview()
    const section = await findingsSection()
    fireEvent.click(
      within(section).getByRole('button', { name: 'Open demo-node-main/__init__.py at line 2' }),
    )
    const contents = await screen.findByRole('region', { name: 'File contents' })
    const calls = api.calls('GET', `${BASE}/file`)
    expect(calls.at(-1)?.params).toEqual({ path: 'demo-node-main/__init__.py' })
    const highlighted = within(contents).getByText('Highlighted line').closest('[data-line]')
    expect(highlighted).toHaveAttribute('data-line', '2')
    expect(highlighted).toHaveTextContent('exec(base64.b64decode(PAYLOAD))')
    // Only that line is marked.
    expect(within(contents).getAllByText('Highlighted line')).toHaveLength(1)
    // The place is kept in the URL, so it can be shared.
    expect(router.replace).toHaveBeenLastCalledWith(
      {
        pathname: '/admin/versions/[nodeId]/[version]',
        query: {
          nodeId: 'demo-node',
          version: '1.1.0',
          file: 'demo-node-main/__init__.py',
          line: '2',
        },
      },
      undefined,
      { shallow: true, scroll: false },
    )
  })

  it('shows file text containing markup as text, never as HTML', async () => {
    const { container } = renderReview({}, { file: 'demo-node-main/__init__.py', line: '3' })
    const contents = await screen.findByRole('region', { name: 'File contents' })
    expect(contents).toHaveTextContent('print("<script>alert(1)</script>")')
    expect(container.querySelector('script')).toBeNull()
    // A shared link (?file=…&line=…) highlights its line.
    expect(within(contents).getByText('Highlighted line').closest('[data-line]')).toHaveAttribute(
      'data-line',
      '3',
    )
  })

  it('lists what changed since the previous version and marks added and changed files', async () => {
    renderReview()
    const section = await screen.findByRole('region', { name: 'Files' })
    expect(
      await within(section).findByRole('heading', { name: 'Changes since 1.0.0' }),
    ).toBeInTheDocument()
    const added = within(section).getByText('Added: 1 file').closest('details')
    expect(added).toHaveTextContent('demo-node-main/new_feature.py')
    const changed = within(section).getByText('Changed: 1 file').closest('details')
    expect(changed).toHaveTextContent('demo-node-main/__init__.py')
    const removed = within(section).getByText('Removed: 1 file').closest('details')
    expect(removed).toHaveTextContent('demo-node-main/old_module.py')

    // The tree: the lone wrapper folder open, its files listed with their marks.
    const tree = within(section).getByRole('list', { name: 'All files' })
    expect(within(tree).getByRole('button', { name: 'demo-node-main/' })).toHaveAttribute(
      'aria-expanded',
      'true',
    )
    const rowOf = (path: string) =>
      within(tree)
        .getByRole('button', { name: `Open ${path}` })
        .closest('li')
    expect(rowOf('demo-node-main/new_feature.py')).toHaveTextContent('Added')
    expect(rowOf('demo-node-main/__init__.py')).toHaveTextContent('Changed')
    expect(rowOf('demo-node-main/util.py')).not.toHaveTextContent(/Added|Changed/)
  })

  it('says when there is no previous version to compare with', async () => {
    renderReview({
      [`GET ${BASE}/files`]: {
        status: 200,
        data: { ...files, previous_version: undefined, diff: undefined },
      },
    })
    expect(await screen.findByText(/first version with an archive/)).toBeInTheDocument()
  })

  it('explains a file that is not text (415) instead of showing it', async () => {
    const { api } = renderReview()
    const section = await screen.findByRole('region', { name: 'Files' })
    fireEvent.click(
      await within(section).findByRole('button', { name: 'Open demo-node-main/logo.png' }),
    )
    expect(
      await screen.findByText('demo-node-main/logo.png is not a text file, so it cannot be shown.'),
    ).toBeInTheDocument()
    expect(api.calls('GET', `${BASE}/file`).at(-1)?.params).toEqual({
      path: 'demo-node-main/logo.png',
    })
    expect(screen.queryByRole('region', { name: 'File contents' })).not.toBeInTheDocument()
  })

  it('says a file is too large to show when the API truncated it', async () => {
    renderReview({}, { file: 'demo-node-main/big.json' })
    expect(
      await screen.findByText(/demo-node-main\/big\.json is too large to show/),
    ).toBeInTheDocument()
  })

  it('explains a missing archive (404)', async () => {
    renderReview({
      [`GET ${BASE}/files`]: { status: 404, data: { error: 'NotFound', message: 'No archive.' } },
    })
    expect(
      await screen.findByText('No archive has been uploaded for this version yet.'),
    ).toBeInTheDocument()
  })

  it('explains an archive that failed the checks (409)', async () => {
    renderReview({
      [`GET ${BASE}/files`]: { status: 409, data: { error: 'Conflict', message: 'Bad zip.' } },
    })
    expect(await screen.findByText(/failed the archive checks/)).toBeInTheDocument()
  })

  it('says clearly when the version does not exist', async () => {
    renderReview({
      'GET /nodes/demo-node/versions/1.1.0': {
        status: 404,
        data: { error: 'NotFound', message: 'Version 1.1.0 does not exist.' },
      },
    })
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'There is no version 1.1.0 of node “demo-node”.',
    )
  })

  it('opens the decision dialog from the buttons and sends the decision', async () => {
    const { api } = renderReview({
      [`PUT ${BASE}`]: { status: 200, data: { ...version, status: 'NodeVersionStatusActive' } },
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Approve' }))
    const dialog = await screen.findByRole('dialog', { name: 'Decide on 1 version' })
    expect(within(dialog).getByRole('radio', { name: 'Approve' })).toBeChecked()
    expect(dialog).toHaveTextContent('demo-node@1.1.0')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }))
    await waitFor(() => expect(api.calls('PUT', BASE)).toHaveLength(1))
    expect(api.calls('PUT', BASE)[0].body).toEqual({ status: 'NodeVersionStatusActive' })
    expect(await screen.findByText('Approved demo-node 1.1.0.')).toBeInTheDocument()
  })

  it('opens the dialog on the keys f and b, but not while typing or with a dialog open', async () => {
    renderReview()
    await findingsSection()
    expect(screen.getByText(/Keyboard shortcuts: A approves, F flags, B bans/)).toBeInTheDocument()
    fireEvent.keyDown(document.body, { key: 'f' })
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByRole('radio', { name: 'Flag' })).toBeChecked()
    // Typing "b" into the reason neither switches the decision nor opens another dialog.
    const reason = within(dialog).getByRole('textbox')
    fireEvent.keyDown(reason, { key: 'b' })
    expect(within(dialog).getByRole('radio', { name: 'Flag' })).toBeChecked()
    expect(screen.getAllByRole('dialog')).toHaveLength(1)
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())

    fireEvent.keyDown(document.body, { key: 'b' })
    const ban = await screen.findByRole('dialog')
    expect(within(ban).getByRole('radio', { name: 'Ban' })).toBeChecked()
  })
})

describe('review helpers', () => {
  it('resolves a finding path named without the top-level folder', () => {
    expect(resolveArchivePath('pyproject.toml', files.files)).toBe('demo-node-main/pyproject.toml')
    expect(resolveArchivePath('demo-node-main/util.py', files.files)).toBe('demo-node-main/util.py')
    expect(resolveArchivePath('missing.py', files.files)).toBe('missing.py')
  })

  it('reads the selection from the URL and splits lines of any ending', () => {
    expect(selectionFromQuery({ file: 'a.py', line: '12' })).toEqual({ file: 'a.py', line: 12 })
    expect(selectionFromQuery({ file: 'a.py', line: 'x' })).toEqual({ file: 'a.py', line: 0 })
    expect(selectionFromQuery({ line: '3' })).toBeUndefined()
    expect(splitLines('a\r\nb\rc\n')).toEqual(['a', 'b', 'c'])
  })
})
