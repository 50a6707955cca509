import { fireEvent, screen, within } from '@testing-library/react'
import { markdownHtml } from '@/components/common/markdown-html'
import { NodeView } from '@/components/node/NodeView'
import type { ReadmeFirstPart } from '@/components/node/Readme'
import { getGetNodeVersionReadmeQueryKey } from '@/src/api/generated/versions/versions'
import type { NodeVersionReadme } from '@/src/api/generated/model'
import { publicEnv } from '@/src/lib/public-env'
import { firstPart, readmeLinks } from '@/src/lib/readme'
import { makeTestQueryClient, renderWithProviders } from '../../test-utils'
import { makeNode, makeVersion } from './fixtures'

const API = publicEnv().apiUrl
const FILES = `${API}/nodes/demo-node/versions/1.2.0/file?path=`

const README = [
  '# Demo Node',
  '',
  '![Screenshot](docs/shot.png) ![Badge](https://img.example.com/badge.svg)',
  '',
  '[Usage](docs/usage.md), [site](https://example.com) and ![gone](missing.png)',
  '',
  ...Array.from({ length: 40 }, (_, index) => `Paragraph ${index} of the long part.\n`),
  'The very last paragraph.',
].join('\n')

const WHOLE: NodeVersionReadme = {
  path: 'README.md',
  format: 'markdown',
  text: README,
  truncated: false,
  images: ['docs/shot.png'],
}

/** The first part as the page's getStaticProps renders it. */
function firstOf(readme: NodeVersionReadme, maxChars: number): ReadmeFirstPart {
  const first = firstPart(readme.text, maxChars)
  const links = readmeLinks(API, 'demo-node', '1.2.0', readme.images)
  return {
    format: 'markdown',
    html: markdownHtml(first.text, 3, links),
    more: first.more,
    truncated: readme.truncated,
  }
}

function renderNode(readme: ReadmeFirstPart, node = makeNode()) {
  const queryClient = makeTestQueryClient()
  // What "Show the whole README" asks the API for.
  queryClient.setQueryData(getGetNodeVersionReadmeQueryKey('demo-node', '1.2.0'), WHOLE)
  return renderWithProviders(
    <NodeView
      node={node}
      versions={[makeVersion({ version: '1.2.0' })]}
      markdown={{ description: null, changelogs: {}, readme }}
    />,
    { queryClient },
  )
}

describe('the README on the node page', () => {
  it('shows the first part collapsed, images of the archive from the API, and the rest on demand', async () => {
    renderNode(firstOf(WHOLE, 300))
    const section = screen.getByRole('region', { name: 'README' })
    expect(within(section).getByRole('img', { name: 'Screenshot' })).toHaveAttribute(
      'src',
      `${FILES}docs%2Fshot.png`,
    )
    // A third-party image is a link, not loaded; relative links that the API does not serve
    // are dropped; absolute ones stay.
    expect(within(section).getByRole('link', { name: 'Badge' })).toHaveAttribute(
      'href',
      'https://img.example.com/badge.svg',
    )
    expect(within(section).queryByRole('img', { name: 'Badge' })).toBeNull()
    expect(within(section).queryByRole('link', { name: 'Usage' })).toBeNull()
    expect(within(section).getByText('Usage')).toBeInTheDocument()
    expect(within(section).getByRole('link', { name: 'site' })).toHaveAttribute(
      'href',
      'https://example.com',
    )
    expect(within(section).queryByText('The very last paragraph.')).toBeNull()

    const more = within(section).getByRole('button', { name: 'Show the whole README' })
    expect(more).toHaveAttribute('aria-expanded', 'false')
    fireEvent.click(more)
    // The rest is rendered once its Markdown is parsed: seconds on CI's busy machine.
    const rest = await within(section).findByText('The very last paragraph.', undefined, {
      timeout: 10_000,
    })
    expect(rest).toBeInTheDocument()
    expect(within(section).getByRole('img', { name: 'Screenshot' })).toHaveAttribute(
      'src',
      `${FILES}docs%2Fshot.png`,
    )
    const less = within(section).getByRole('button', { name: 'Show less' })
    expect(less).toHaveAttribute('aria-expanded', 'true')
    fireEvent.click(less)
    expect(within(section).queryByText('The very last paragraph.')).toBeNull()
  })

  it('shows a short README whole, without a button, and plain-text READMEs as text', () => {
    const { unmount } = renderNode(firstOf(WHOLE, 100_000))
    const section = screen.getByRole('region', { name: 'README' })
    expect(within(section).getByText('The very last paragraph.')).toBeInTheDocument()
    expect(within(section).queryByRole('button')).toBeNull()
    unmount()
    renderNode({
      format: 'text',
      text: 'Title\n=====\n\n<b>not html</b>',
      more: false,
      truncated: true,
    })
    const text = screen.getByRole('region', { name: 'README' })
    expect(text.querySelector('pre')).toHaveTextContent('<b>not html</b>')
    expect(within(text).getByText(/longer than the registry keeps/)).toBeInTheDocument()
  })

  it('shows no README section when the version has none', () => {
    renderWithProviders(
      <NodeView node={makeNode()} markdown={{ description: null, changelogs: {} }} />,
    )
    expect(screen.queryByRole('region', { name: 'README' })).toBeNull()
  })
})

describe('the licence on the node page', () => {
  function licence(node: Partial<Parameters<typeof makeNode>[0]>) {
    const { unmount } = renderWithProviders(<NodeView node={makeNode(node)} />)
    const term = screen.getByText('License', { selector: 'dt' })
    const value = term.nextElementSibling as HTMLElement
    return { value, unmount }
  }

  it('shows the derived SPDX id linked to SPDX, and the licence file from the API', () => {
    const { value, unmount } = licence({
      license: '{"file": "LICENSE"}',
      license_spdx: 'MIT',
      license_file: 'LICENSE',
    })
    expect(value).not.toHaveTextContent('{')
    expect(within(value).getByRole('link', { name: 'MIT' })).toHaveAttribute(
      'href',
      'https://spdx.org/licenses/MIT.html',
    )
    expect(within(value).getByRole('link', { name: 'License file' })).toHaveAttribute(
      'href',
      `${FILES}LICENSE`,
    )
    unmount()
  })

  it('links an unidentified licence file by its name, and never shows the JSON', () => {
    let shown = licence({ license: '{"file": "LICENSE.txt"}', license_file: 'LICENSE.txt' })
    expect(within(shown.value).getByRole('link', { name: 'LICENSE.txt' })).toBeInTheDocument()
    shown.unmount()
    shown = licence({ license: '{"text": "Do as you like, but credit me."}' })
    expect(shown.value).toHaveTextContent('Custom license')
    shown.unmount()
    shown = licence({ license: 'See the repository' })
    expect(shown.value).toHaveTextContent('See the repository')
    shown.unmount()
    shown = licence({ license: '' })
    expect(shown.value).toHaveTextContent('Not specified')
    shown.unmount()
  })
})
