import { summary } from '@/src/lib/markdown'

describe('summary', () => {
  it('keeps prose and drops headings, lists and code blocks', () => {
    const markdown =
      '## Title\n\nUpscale nodes for **ComfyUI**.\n\n- a list item\n\n```bash\ncomfy node install x\n```\n\nSee [the repo](https://github.com/a/b).'
    expect(summary(markdown)).toBe('Upscale nodes for ComfyUI. See the repo.')
  })

  it('shortens long text with an ellipsis', () => {
    const text = summary('word '.repeat(100), 20)
    expect(text).toHaveLength(20)
    expect(text.endsWith('…')).toBe(true)
  })

  it('copes with no description', () => {
    expect(summary(undefined)).toBe('')
  })
})
