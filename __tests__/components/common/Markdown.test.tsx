import { render } from '@testing-library/react'
import { Markdown, safeUrl } from '@/components/common/Markdown'
import { markdownHtml } from '@/components/common/markdown-html'

function html(markdown: string) {
  return render(<Markdown>{markdown}</Markdown>).container
}

describe('Markdown (sanitised descriptions and changelogs)', () => {
  it('renders GitHub-flavoured markdown: emphasis, lists, tables, strikethrough', () => {
    const root = html(
      'Hello **world**\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n~~old~~',
    )
    expect(root.querySelector('strong')?.textContent).toBe('world')
    expect(root.querySelectorAll('li')).toHaveLength(2)
    expect(root.querySelector('table td')?.textContent).toBe('1')
    expect(root.querySelector('del')?.textContent).toBe('old')
  })

  it('drops raw HTML: no <script>, no element with an onerror handler', () => {
    const root = html(
      'Text <script>alert(1)</script>\n\n<img src="x" onerror="alert(2)">\n\n<div onclick="alert(3)">hi</div>',
    )
    expect(root.querySelector('script')).toBeNull()
    expect(root.querySelector('[onerror]')).toBeNull()
    expect(root.querySelector('[onclick]')).toBeNull()
    expect(root.innerHTML).not.toContain('<script')
    expect(root.textContent).toContain('Text')
  })

  it('strips javascript:, data: and vbscript: links but keeps their text', () => {
    const root = html(
      '[a](javascript:alert(1)) [b](JAVASCRIPT:alert(1)) [c](data:text/html,hi) [d](vbscript:x)',
    )
    expect(root.querySelectorAll('a')).toHaveLength(0)
    expect(root.innerHTML.toLowerCase()).not.toContain('javascript:')
    expect(root.textContent).toContain('a')
  })

  it('keeps http(s) and mailto links; external ones are noopener nofollow', () => {
    const root = html('[site](https://example.com/x) [mail](mailto:dev@example.com)')
    const [site, mail] = Array.from(root.querySelectorAll('a'))
    expect(site).toHaveAttribute('href', 'https://example.com/x')
    expect(site.getAttribute('rel')).toEqual(expect.stringContaining('noopener'))
    expect(site.getAttribute('rel')).toEqual(expect.stringContaining('nofollow'))
    expect(mail).toHaveAttribute('href', 'mailto:dev@example.com')
  })

  it('does not load images from unsafe URLs', () => {
    const root = html('![ok](https://example.com/a.png) ![bad](javascript:alert(1))')
    const images = Array.from(root.querySelectorAll('img'))
    expect(images).toHaveLength(1)
    expect(images[0]).toHaveAttribute('src', 'https://example.com/a.png')
  })

  it('maps headings under the page outline without skipping levels', () => {
    const root = render(<Markdown headingLevel={3}>{'# Top\n\n#### Deep'}</Markdown>).container
    expect(root.querySelector('h3')?.textContent).toBe('Top')
    expect(root.querySelector('h4')?.textContent).toBe('Deep')
    expect(root.querySelector('h1')).toBeNull()
  })

  it('safeUrl allows only absolute http(s) and mailto (images: http(s))', () => {
    expect(safeUrl('https://a.b/c', 'href')).toBe('https://a.b/c')
    expect(safeUrl('mailto:x@y.z', 'href')).toBe('mailto:x@y.z')
    expect(safeUrl('mailto:x@y.z', 'src')).toBeUndefined()
    expect(safeUrl(' javascript:alert(1)', 'href')).toBeUndefined()
    expect(safeUrl('/relative', 'href')).toBeUndefined()
  })
})

describe('remarkHeadingLevels', () => {
  it('starts at the shallowest heading used, whatever its markdown level', () => {
    const root = render(
      <Markdown headingLevel={4}>{'## Added\n\n#### Details'}</Markdown>,
    ).container
    expect(root.querySelector('h4')?.textContent).toBe('Added')
    expect(root.querySelector('h5')?.textContent).toBe('Details')
  })
})

describe('markdownHtml (server rendering of descriptions and changelogs)', () => {
  it('produces the same sanitised HTML: no script, no handler, no javascript: link', () => {
    const out = markdownHtml(
      '# Title\n\n<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">\n\n[x](javascript:alert(3)) **ok**',
      3,
    )
    expect(out).toContain('<h3')
    expect(out).toContain('<strong>ok</strong>')
    expect(out).not.toMatch(/<script|onerror|javascript:/i)
  })
})
