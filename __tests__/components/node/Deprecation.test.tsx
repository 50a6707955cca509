// What visitors see of deprecations: the node's banner, each version's mark and message, the
// install box stepping past deprecated versions unless one was asked for, and the card's badge.
import { screen, within } from '@testing-library/react'
import { NodeView } from '@/components/node/NodeView'
import { NodeCard } from '@/components/nodes/NodeCard'
import { installChoice } from '@/src/lib/install-choice'
import { renderWithProviders } from '../../test-utils'
import { makeNode, makeVersion } from './fixtures'

const v120 = makeVersion({
  version: '1.2.0',
  deprecated: true,
  deprecation_message: 'Breaks saved workflows; use 1.1.0.',
  downloadUrl: 'https://cdn.example.com/demo-node-1.2.0.zip',
})
const v110 = makeVersion({
  version: '1.1.0',
  downloadUrl: 'https://cdn.example.com/demo-node-1.1.0.zip',
})
const v100 = makeVersion({ version: '1.0.0', deprecated: true, deprecation_message: '' })

function installBox() {
  return screen.getByRole('region', { name: 'Install' })
}

describe('deprecation on the node page', () => {
  it('shows the banner with the message for a deprecated node, and none otherwise', () => {
    const { rerender } = renderWithProviders(
      <NodeView
        node={makeNode({ deprecated: true, deprecation_message: 'Use acme/better instead.' })}
        versions={[makeVersion({ version: '1.2.0' })]}
      />,
    )
    const banner = screen.getByRole('region', { name: 'This node is deprecated' })
    expect(banner).toHaveTextContent('Use acme/better instead.')
    rerender(
      <NodeView
        node={makeNode({ deprecated: false, deprecation_message: '' })}
        versions={[makeVersion({ version: '1.2.0' })]}
      />,
    )
    expect(
      screen.queryByRole('region', { name: 'This node is deprecated' }),
    ).not.toBeInTheDocument()
  })

  it('marks deprecated versions with their message in the version history', () => {
    renderWithProviders(
      <NodeView node={makeNode({ latest_version: v120 })} versions={[v120, v110, v100]} />,
    )
    const item = (version: string) =>
      screen.getByRole('heading', { name: version }).closest('li') as HTMLElement
    expect(within(item('1.2.0')).getByText('Deprecated')).toBeInTheDocument()
    expect(item('1.2.0')).toHaveTextContent('Deprecated: Breaks saved workflows; use 1.1.0.')
    expect(within(item('1.1.0')).queryByText('Deprecated')).not.toBeInTheDocument()
    expect(within(item('1.0.0')).getByText('Deprecated')).toBeInTheDocument()
  })

  it('links each deprecated Active version to the install box asking for it by version', () => {
    const pendingDeprecated = makeVersion({
      version: '1.3.0',
      deprecated: true,
      status: 'NodeVersionStatusPending',
    })
    renderWithProviders(
      <NodeView
        node={makeNode({ latest_version: v120 })}
        versions={[pendingDeprecated, v120, v110, v100]}
      />,
    )
    const item = (version: string) =>
      screen.getByRole('heading', { name: version }).closest('li') as HTMLElement
    expect(
      within(item('1.2.0')).getByRole('link', { name: 'Install anyway (version 1.2.0)' }),
    ).toHaveAttribute('href', `/nodes/${v120.node_id}?version=1.2.0`)
    expect(
      within(item('1.0.0')).getByRole('link', { name: 'Install anyway (version 1.0.0)' }),
    ).toBeInTheDocument()
    expect(within(item('1.1.0')).queryByRole('link', { name: /anyway/ })).not.toBeInTheDocument()
    expect(within(item('1.3.0')).queryByRole('link', { name: /anyway/ })).not.toBeInTheDocument()
  })

  it('offers the newest version that is not deprecated, by version, when the latest is', () => {
    renderWithProviders(
      <NodeView node={makeNode({ latest_version: v120 })} versions={[v120, v110, v100]} />,
    )
    const box = installBox()
    expect(within(box).getByText('comfy node install demo-node@1.1.0')).toBeInTheDocument()
    expect(within(box).getByText(/The latest version, 1.2.0, is deprecated/)).toBeInTheDocument()
    expect(within(box).getByRole('link', { name: 'Download 1.1.0 (zip)' })).toHaveAttribute(
      'href',
      'https://cdn.example.com/demo-node-1.1.0.zip',
    )
  })

  it('offers a deprecated version only when it was asked for by version', () => {
    renderWithProviders(
      <NodeView
        node={makeNode({ latest_version: v120 })}
        versions={[v120, v110, v100]}
        requestedVersion="1.2.0"
      />,
    )
    const box = installBox()
    expect(within(box).getByText('comfy node install demo-node')).toBeInTheDocument()
    expect(
      within(box).getByText(
        'You asked for version 1.2.0, which is deprecated: Breaks saved workflows; use 1.1.0.',
      ),
    ).toBeInTheDocument()
  })

  it('offers no command when every version is deprecated', () => {
    renderWithProviders(
      <NodeView node={makeNode({ latest_version: v120 })} versions={[v120, v100]} />,
    )
    expect(screen.queryByText(/comfy node install/)).not.toBeInTheDocument()
    expect(screen.getByText(/Every version of this node is deprecated/)).toBeInTheDocument()
  })

  it('installChoice: latest when fine, skips Pending versions, honours a requested Active one', () => {
    const pending = makeVersion({ version: '1.1.5', status: 'NodeVersionStatusPending' })
    expect(installChoice(v110, [v110, v100])).toEqual({
      version: v110,
      pinned: false,
      requested: false,
    })
    expect(installChoice(v120, [v120, pending, v110])?.version.version).toBe('1.1.0')
    expect(installChoice(v120, [v120, pending, v110], '1.0.0')?.version.version).toBe('1.1.0')
    expect(installChoice(v120, [v120, pending, v110, v100], '1.0.0')).toMatchObject({
      version: v100,
      pinned: true,
      requested: true,
    })
    expect(installChoice(v120, [v120, pending], '1.1.5')).toBeUndefined()
    expect(installChoice(undefined, [v110])).toBeUndefined()
  })
})

describe('NodeCard', () => {
  it('carries a Deprecated badge for a deprecated node only', () => {
    const { rerender } = renderWithProviders(<NodeCard node={makeNode({ deprecated: true })} />)
    expect(screen.getByRole('heading', { name: /Demo Node/ })).toHaveTextContent('Deprecated')
    rerender(<NodeCard node={makeNode({ deprecated: false })} />)
    expect(screen.queryByText('Deprecated')).not.toBeInTheDocument()
  })
})
