import fs from 'node:fs'
import path from 'node:path'
import { githubRepositoryOf, publishSteps } from '@/src/lib/trusted-publishing'

/** The workflow of docs/PUBLISHING.md, as published. */
function documentedWorkflow(): string {
  const doc = fs.readFileSync(path.join(__dirname, '../../docs/PUBLISHING.md'), 'utf8')
  const match = /```yaml\n(name: Publish to the Comfy Registry\n[\s\S]*?)```/.exec(doc)
  if (!match) throw new Error('docs/PUBLISHING.md has no workflow')
  return match[1]
}

describe('publishSteps (the workflow the node settings show)', () => {
  const shown = publishSteps({ apiUrl: 'https://api.comfy.org/', nodeId: 'comfyui-demo-upscaler' })

  it('has the same permissions and steps as docs/PUBLISHING.md', () => {
    const documented = documentedWorkflow()
    const steps = shown.slice(shown.indexOf('    steps:\n'))
    expect(documented).toContain(steps)
    expect(documented).toContain(shown.slice(0, shown.indexOf('\njobs:')))
    expect(documented).toContain('      REGISTRY: https://api.comfy.org\n')
    expect(documented).toContain('      NODE_ID: comfyui-demo-upscaler\n')
  })

  it('names the registry, the node and the environment it is given', () => {
    const steps = publishSteps({
      apiUrl: 'http://localhost:8080',
      nodeId: 'my-node',
      environment: 'release',
    })
    expect(steps).toContain('      REGISTRY: http://localhost:8080\n')
    expect(steps).toContain('      NODE_ID: my-node\n')
    expect(steps).toContain('    runs-on: ubuntu-latest\n    environment: release\n')
    expect(shown).not.toContain('environment:')
  })
})

describe('githubRepositoryOf', () => {
  it.each([
    ['https://github.com/acme/comfy-nodes', { owner: 'acme', name: 'comfy-nodes' }],
    ['https://github.com/acme/comfy-nodes.git', { owner: 'acme', name: 'comfy-nodes' }],
    ['github.com/Acme-Org/My.Nodes/', { owner: 'Acme-Org', name: 'My.Nodes' }],
  ])('reads %s', (url, expected) => {
    expect(githubRepositoryOf(url)).toEqual(expected)
  })

  it.each(['https://gitlab.com/acme/nodes', 'https://github.com/acme', '', undefined])(
    'ignores %s',
    (url) => {
      expect(githubRepositoryOf(url)).toBeUndefined()
    },
  )
})
