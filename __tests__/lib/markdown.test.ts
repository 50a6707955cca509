import { changelogSummary, summary } from '@/src/lib/markdown'

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

describe('changelogSummary', () => {
  it('keeps prose and list items (bullets and numbers), drops headings and code blocks', () => {
    const markdown =
      '## 1.2.0\n\nA **faster** release.\n\n- Added [tiling](https://x.test).\n* Fixed `seams`.\n1. Dropped Python 3.8.\n\n```\n- not an item\n```'
    expect(changelogSummary(markdown)).toBe(
      'A faster release. Added tiling. Fixed seams. Dropped Python 3.8.',
    )
  })

  it('shortens long changelogs with an ellipsis', () => {
    const text = changelogSummary(`- ${'word '.repeat(100)}`, 30)
    expect(text).toHaveLength(30)
    expect(text.endsWith('…')).toBe(true)
  })

  it('copes with no changelog', () => {
    expect(changelogSummary(undefined)).toBe('')
  })
})
