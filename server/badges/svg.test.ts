import { compactCount, escapeXml, renderBadge, textWidth } from './svg'

describe('renderBadge', () => {
  it('is an accessible SVG image whose title says the label and value', () => {
    const svg = renderBadge({ label: 'downloads', value: '1.2k', color: 'green' })
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true)
    expect(svg).toContain('role="img"')
    expect(svg).toContain('aria-label="downloads: 1.2k"')
    expect(svg).toContain('<title>downloads: 1.2k</title>')
    expect(svg).toContain('fill="#4c1"')
    expect(svg).not.toMatch(/<script|href=|@import|url\(http/)
  })

  it('escapes XML in the label and value', () => {
    const svg = renderBadge({ label: 'a<b>', value: `"x" & 'y'`, color: 'blue' })
    expect(svg).toContain('a&lt;b&gt;')
    expect(svg).toContain('&quot;x&quot; &amp; &apos;y&apos;')
    expect(svg).not.toContain('a<b>')
  })

  it('grows with its text', () => {
    const width = (value: string) =>
      Number(
        /^<svg[^>]* width="(\d+)"/.exec(renderBadge({ label: 'v', value, color: 'blue' }))?.[1],
      )
    expect(width('v1.0.0')).toBeGreaterThan(0)
    expect(width('v1.0.0-beta.12')).toBeGreaterThan(width('v1.0.0'))
    expect(width('mmmm')).toBeGreaterThan(width('iiii'))
  })
})

describe('textWidth and escapeXml', () => {
  it('measures unknown characters too', () => {
    expect(textWidth('')).toBe(0)
    expect(textWidth('节点')).toBeGreaterThan(textWidth('ab'))
  })

  it('escapes the five XML specials', () => {
    expect(escapeXml(`<&>"'`)).toBe('&lt;&amp;&gt;&quot;&apos;')
  })
})

describe('compactCount', () => {
  it.each([
    [0, '0'],
    [950, '950'],
    [999, '999'],
    [1000, '1k'],
    [1234, '1.2k'],
    [9960, '10k'],
    [34_500, '35k'],
    [999_960, '1M'],
    [3_400_000, '3.4M'],
    [2_000_000_000, '2B'],
  ])('%d → %s', (count, text) => {
    expect(compactCount(count)).toBe(text)
  })
})
