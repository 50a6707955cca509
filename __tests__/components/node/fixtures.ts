import type { Node, NodeVersion } from '@/src/api/generated/model'

export function makeVersion(overrides: Partial<NodeVersion> = {}): NodeVersion {
  return {
    id: `v-${overrides.version ?? '1.0.0'}`,
    version: '1.0.0',
    createdAt: '2024-03-05T12:00:00Z',
    changelog: 'First release',
    downloadUrl: 'https://cdn.example.com/demo-node-1.0.0.zip',
    status: 'NodeVersionStatusActive',
    node_id: 'demo-node',
    ...overrides,
  }
}

export function makeNode(overrides: Partial<Node> = {}): Node {
  return {
    id: 'demo-node',
    name: 'Demo Node',
    description: '# Demo\n\nA **demo** node. [Docs](https://example.com/docs)',
    license: 'MIT',
    repository: 'https://github.com/demo/demo-node',
    tags: ['image', 'upscale'],
    downloads: 12345,
    github_stars: 678,
    status: 'NodeStatusActive',
    supported_os: ['Windows', 'Linux'],
    supported_accelerators: ['CUDA'],
    supported_comfyui_version: '>=0.3.0',
    supported_comfyui_frontend_version: '>=1.2.0',
    publisher: { id: 'demo-publisher', name: 'Demo Publisher' },
    latest_version: makeVersion({ version: '1.2.0' }),
    ...overrides,
  }
}
