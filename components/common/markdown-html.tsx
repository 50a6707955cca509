// Server-only: untrusted markdown rendered once, on the server, to sanitised HTML through the same
// <Markdown> pipeline (react-markdown, remark-gfm, rehype-sanitize, safe URLs). Pages pass the HTML
// as props, so the markdown toolchain never ships to the browser.
import { renderToStaticMarkup } from 'react-dom/server'
import { Markdown, type MarkdownProps } from './Markdown'

export function markdownHtml(
  markdown: string,
  headingLevel: MarkdownProps['headingLevel'] = 3,
  links?: MarkdownProps['links'],
): string {
  return renderToStaticMarkup(
    <Markdown headingLevel={headingLevel} links={links}>
      {markdown}
    </Markdown>,
  )
}
