// Markdown the server already rendered and sanitised (see markdown-html.tsx); when there is none,
// the source is shown as plain text (never as HTML).
export interface RenderedMarkdownProps {
  /** Sanitised HTML from `markdownHtml`. */
  html?: string | null
  /** The markdown source, shown as text when there is no HTML. */
  source: string
  className?: string
}

export function RenderedMarkdown({ html, source, className = '' }: RenderedMarkdownProps) {
  if (html) return <div className={className} dangerouslySetInnerHTML={{ __html: html }} />
  return <p className={`whitespace-pre-line ${className}`}>{source}</p>
}
