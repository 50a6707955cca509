import { fireEvent, screen, within } from '@testing-library/react'
import { ComfyNodeList } from '@/components/node/ComfyNodeList'
import { COMFY_NODES_SHOWN } from '@/components/node/node-lists'
import { parseInputs, parseOutputs } from '@/components/node/comfy-node-io'
import type { ComfyNode } from '@/src/api/generated/model'
import { renderWithProviders } from '../../test-utils'

const blend: ComfyNode = {
  comfy_node_name: 'ImageBlendAmount',
  display_name: 'Blend Images',
  category: 'image/filters',
  description: 'Blends an image by an amount.',
  input_types: JSON.stringify({
    required: { image: ['IMAGE'], amount: ['FLOAT', { default: 0.5 }], mode: [['add', 'mix']] },
    optional: { mask: ['MASK'] },
    hidden: { unique_id: 'UNIQUE_ID' },
  }),
  return_types: '["IMAGE","MASK"]',
  return_names: '["blended"]',
}

function card(name: string) {
  return screen.getByRole('heading', { level: 3, name }).closest('li') as HTMLElement
}

describe('ComfyNodeList', () => {
  it('shows the display name, class name, category, description, inputs and outputs', () => {
    renderWithProviders(<ComfyNodeList comfyNodes={[blend]} total={1} />)
    const item = card('Blend Images')
    expect(within(item).getByText('ImageBlendAmount')).toBeInTheDocument()
    expect(within(item).getByText('Category: image/filters')).toBeInTheDocument()
    expect(within(item).getByText('Blends an image by an amount.')).toBeInTheDocument()

    const inputs = within(item).getByRole('heading', { level: 4, name: 'Inputs' })
      .nextElementSibling as HTMLElement
    expect(
      within(inputs)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['image IMAGE', 'amount FLOAT', 'mode list of 2 choices', 'mask MASK(optional)'])
    const outputs = within(item).getByRole('heading', { level: 4, name: 'Outputs' })
      .nextElementSibling as HTMLElement
    expect(
      within(outputs)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['IMAGEblended', 'MASK'])
    // Hidden inputs are ComfyUI's own plumbing, not sockets.
    expect(within(item).queryByText('unique_id')).toBeNull()
  })

  it('falls back to the class name and marks values computed when the pack loads', () => {
    renderWithProviders(
      <ComfyNodeList
        comfyNodes={[
          {
            comfy_node_name: 'DynamicNode',
            input_types: '{"required":{"model":"<dynamic>"},"optional":"<dynamic>"}',
            return_types: '"<dynamic>"',
          },
        ]}
        total={1}
      />,
    )
    const item = card('DynamicNode')
    expect(within(item).getAllByText('DynamicNode')).toHaveLength(1)
    expect(within(item).getByText('set when loaded')).toBeInTheDocument()
    expect(within(item).queryByRole('heading', { name: 'Outputs' })).toBeNull()
  })

  it('survives bad JSON: the sections are left out, never shown raw', () => {
    const { container } = renderWithProviders(
      <ComfyNodeList
        comfyNodes={[
          {
            comfy_node_name: 'Broken',
            input_types: '{"required": {"image": [',
            return_types: 'IMAGE',
            return_names: '{',
          },
          { comfy_node_name: 'Odd', input_types: '[1,2]', return_types: '{"a":1}' },
        ]}
        total={2}
      />,
    )
    expect(card('Broken')).toBeInTheDocument()
    expect(card('Odd')).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Inputs' })).toBeNull()
    expect(screen.queryByRole('heading', { name: 'Outputs' })).toBeNull()
    expect(container.textContent).not.toContain('{')
  })

  it('shows the first classes of a big pack, and loads and shows all of them on demand', () => {
    const many = Array.from({ length: 130 }, (_, index) => ({ comfy_node_name: `Node${index}` }))
    const rest = { load: jest.fn(), loading: false, failed: false }
    const { rerender } = renderWithProviders(
      <ComfyNodeList comfyNodes={many.slice(0, COMFY_NODES_SHOWN)} total={130} rest={rest} />,
    )
    expect(screen.getByText('130 nodes')).toBeInTheDocument()
    expect(screen.getAllByRole('heading', { level: 3 })).toHaveLength(COMFY_NODES_SHOWN)
    const toggle = screen.getByRole('button', { name: 'Show all 130' })
    expect(toggle).toHaveAttribute('aria-expanded', 'false')
    fireEvent.click(toggle)
    expect(rest.load).toHaveBeenCalledTimes(1)
    // While the rest loads, the first classes stay and the list says it is loading.
    rerender(
      <ComfyNodeList
        comfyNodes={many.slice(0, COMFY_NODES_SHOWN)}
        total={130}
        rest={{ ...rest, loading: true }}
      />,
    )
    expect(screen.getAllByRole('heading', { level: 3 })).toHaveLength(COMFY_NODES_SHOWN)
    expect(screen.getByRole('status')).toHaveTextContent('Loading')
    rerender(<ComfyNodeList comfyNodes={many} total={130} rest={rest} />)
    expect(screen.getAllByRole('heading', { level: 3 })).toHaveLength(130)
    expect(screen.queryByRole('status')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Show fewer' }))
    expect(screen.getAllByRole('heading', { level: 3 })).toHaveLength(COMFY_NODES_SHOWN)
    // Already loaded: opening the list again asks for nothing more.
    fireEvent.click(screen.getByRole('button', { name: 'Show all 130' }))
    expect(rest.load).toHaveBeenCalledTimes(1)
  })

  it('says when the rest could not be loaded, and asks again on request', () => {
    const many = Array.from({ length: 30 }, (_, index) => ({ comfy_node_name: `Node${index}` }))
    const rest = { load: jest.fn(), loading: false, failed: true }
    renderWithProviders(
      <ComfyNodeList comfyNodes={many.slice(0, COMFY_NODES_SHOWN)} total={30} rest={rest} />,
    )
    fireEvent.click(screen.getByRole('button', { name: 'Show all 30' }))
    expect(screen.getByRole('alert')).toHaveTextContent('The rest could not be loaded.')
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(rest.load).toHaveBeenCalledTimes(2)
  })

  it('a small pack has no toggle; an empty one says so', () => {
    const { unmount } = renderWithProviders(<ComfyNodeList comfyNodes={[blend]} total={1} />)
    expect(screen.queryByRole('button')).toBeNull()
    unmount()
    renderWithProviders(<ComfyNodeList comfyNodes={[]} total={0} />)
    expect(screen.getByText('No ComfyUI nodes are listed for this version.')).toBeInTheDocument()
  })
})

describe('comfy-node-io', () => {
  it.each([undefined, '', 'not json', '"<dynamic>"', 'null', '[]'])(
    'inputs of %p: not INPUT_TYPES',
    (text) => {
      expect(parseInputs(text)).toBeUndefined()
    },
  )

  it('outputs pair types with names where given', () => {
    expect(parseOutputs('["LATENT","<dynamic>"]', '["samples","<dynamic>"]')).toEqual([
      { type: { kind: 'type', name: 'LATENT' }, name: 'samples' },
      { type: { kind: 'dynamic' } },
    ])
    expect(parseOutputs('["IMAGE"]', 'garbage')).toEqual([
      { type: { kind: 'type', name: 'IMAGE' } },
    ])
    expect(parseOutputs('{}', undefined)).toBeUndefined()
  })
})
