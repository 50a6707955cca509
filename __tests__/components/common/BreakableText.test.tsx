import { render } from '@testing-library/react'
import { BreakableText, breakable } from '@/components/common/BreakableText'

function html(node: ReturnType<typeof breakable>) {
  return render(<p>{node}</p>).container.querySelector('p')?.innerHTML
}

describe('breakable', () => {
  it('adds a line-break hint after each joint of an id, address or email', () => {
    expect(html(breakable('comfyui-impact_pack.v2'))).toBe('comfyui-<wbr>impact_<wbr>pack.<wbr>v2')
    expect(html(breakable('github.com/org/repo'))).toBe('github.<wbr>com/<wbr>org/<wbr>repo')
    expect(html(breakable('ada@example.com'))).toBe('ada@<wbr>example.<wbr>com')
  })

  it('keeps the text whole: the hints add no characters', () => {
    const { container } = render(<p>{breakable('comfy node install my-node_x')}</p>)
    expect(container.textContent).toBe('comfy node install my-node_x')
  })

  it('adds no hint at either end, and one after a run of joints', () => {
    expect(html(breakable('@acme'))).toBe('@acme')
    expect(html(breakable('a--b/'))).toBe('a--<wbr>b/')
    expect(breakable('plain')).toBe('plain')
  })

  it('breaks identifiers between camel-case words only when asked', () => {
    expect(html(breakable('ImpactKSamplerBasicPipe'))).toBe('ImpactKSamplerBasicPipe')
    expect(html(breakable('ImpactKSamplerBasicPipe', { camelCase: true }))).toBe(
      'Impact<wbr>KSampler<wbr>Basic<wbr>Pipe',
    )
    const { container } = render(
      <p>
        <BreakableText camelCase>LoadImage2x</BreakableText>
      </p>,
    )
    expect(container.querySelector('p')?.innerHTML).toBe('Load<wbr>Image2x')
  })
})
