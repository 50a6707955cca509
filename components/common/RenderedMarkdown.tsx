// Markdown the server already rendered and sanitised (see markdown-html.tsx). Without it (an
// owner's Pending or Flagged version, which public pages never prerender), the browser renders the
// source through the same sanitising <Markdown>, loaded on demand so public pages never ship it;
// until it has loaded the source is shown as plain text (never as HTML).
import { lazy, Suspense } from 'react'
import type { MarkdownProps } from './Markdown'

export interface RenderedMarkdownProps {
  /** Sanitised HTML from `markdownHtml`. */
  html?: string | null
  /** The markdown source, rendered in the browser when there is no HTML. */
  source: string
  /** The level of the source's shallowest heading, as `markdownHtml` was given it. */
  headingLevel?: MarkdownProps['headingLevel']
  className?: string
  /** How relative references resolve (READMEs), as `markdownHtml` was given it. */
  links?: MarkdownProps['links']
}

// Its own chunk, fetched the first time a page shows markdown the server did not render.
const Markdown = lazy(() => import('./Markdown').then((module) => ({ default: module.Markdown })))

export function RenderedMarkdown({
  html,
  source,
  headingLevel = 3,
  className = '',
  links,
}: RenderedMarkdownProps) {
  if (html) return <div className={className} dangerouslySetInnerHTML={{ __html: html }} />
  return (
    <Suspense fallback={<p className={`whitespace-pre-line ${className}`}>{source}</p>}>
      <Markdown headingLevel={headingLevel} className={className} links={links}>
        {source}
      </Markdown>
    </Suspense>
  )
}
