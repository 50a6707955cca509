// Untrusted markdown (node descriptions, changelogs) rendered safely: GitHub-flavoured markdown,
// raw HTML dropped, the tree sanitised, only http(s)/mailto links (images: http(s) only), and
// external links marked noopener nofollow. Heading levels are remapped under the page's outline.
import type { Heading, Root, RootContent } from 'mdast'
import type { ComponentPropsWithoutRef, ReactNode } from 'react'
import ReactMarkdown, { type Components } from 'react-markdown'
import rehypeSanitize from 'rehype-sanitize'
import remarkGfm from 'remark-gfm'

const LINK_PROTOCOLS = new Set(['http:', 'https:', 'mailto:'])
const IMAGE_PROTOCOLS = new Set(['http:', 'https:'])

/** The URL when it is absolute and uses an allowed protocol, else undefined (dropped). */
export function safeUrl(value: string, key: string): string | undefined {
  let url: URL
  try {
    url = new URL(value.trim())
  } catch {
    return undefined // relative or malformed: nothing to point at outside this site
  }
  const allowed = key === 'src' ? IMAGE_PROTOCOLS : LINK_PROTOCOLS
  return allowed.has(url.protocol) ? value.trim() : undefined
}

type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6

function heading(level: HeadingLevel) {
  const Tag = `h${level}` as const
  const size = level <= 3 ? 'text-lg' : 'text-base'
  return function Heading({ children }: { children?: ReactNode }) {
    return <Tag className={`mt-4 mb-2 font-semibold ${size}`}>{children}</Tag>
  }
}

function Anchor({ href, children }: ComponentPropsWithoutRef<'a'>) {
  if (!href) return <span>{children}</span>
  const external = /^https?:/i.test(href)
  return (
    <a
      href={href}
      rel={external ? 'noopener noreferrer nofollow ugc' : undefined}
      className="text-blue-700 underline hover:no-underline dark:text-blue-300"
    >
      {children}
    </a>
  )
}

function Image({ src, alt }: ComponentPropsWithoutRef<'img'>) {
  if (typeof src !== 'string' || !src) return null
  // eslint-disable-next-line @next/next/no-img-element -- arbitrary third-party images
  return <img src={src} alt={alt ?? ''} loading="lazy" className="my-2 inline-block max-w-full" />
}

const HEADINGS = {
  h1: heading(1),
  h2: heading(2),
  h3: heading(3),
  h4: heading(4),
  h5: heading(5),
  h6: heading(6),
}

/**
 * A remark plugin: the shallowest heading of the document becomes `base`, every deeper one
 * `base + 1`, so the markdown never skips a level under the page's own headings.
 */
export function remarkHeadingLevels(base: HeadingLevel) {
  return () => (tree: Root) => {
    const headings: Heading[] = []
    const walk = (node: Root | RootContent) => {
      if (node.type === 'heading') headings.push(node)
      if ('children' in node) node.children.forEach(walk)
    }
    walk(tree)
    if (headings.length === 0) return
    const shallowest = Math.min(...headings.map((heading) => heading.depth))
    for (const heading of headings) {
      heading.depth = Math.min(
        6,
        base + Math.min(heading.depth - shallowest, 1),
      ) as Heading['depth']
    }
  }
}

// Wide code blocks and tables scroll sideways; keyboard users can focus them to scroll.
function Pre(props: ComponentPropsWithoutRef<'pre'>) {
  return <pre tabIndex={0} {...props} />
}

function Table(props: ComponentPropsWithoutRef<'table'>) {
  return (
    <div tabIndex={0} className="overflow-x-auto">
      <table {...props} />
    </div>
  )
}

/** How a README's relative references are shown (components/node/Readme.tsx). */
export interface MarkdownLinks {
  /** A relative link or image source → its address, or undefined to drop it. */
  resolve: (value: string, key: string) => string | undefined
  /**
   * Images at these addresses load; any other image is shown as a link to it (third-party
   * images are not loaded: page weight, and visitors' addresses stay with this site).
   */
  loads: (src: string) => boolean
}

export interface MarkdownProps {
  children: string
  /** The HTML level of the document's shallowest heading; deeper ones become the next level. */
  headingLevel?: HeadingLevel
  className?: string
  links?: MarkdownLinks
}

function linkedImage(loads: MarkdownLinks['loads']) {
  return function LinkedImage(props: ComponentPropsWithoutRef<'img'>) {
    const { src, alt } = props
    if (typeof src !== 'string' || !src || loads(src)) return <Image src={src} alt={alt} />
    return <Anchor href={src}>{alt || src}</Anchor>
  }
}

export function Markdown({ children, headingLevel = 3, className = '', links }: MarkdownProps) {
  const components: Components = {
    ...HEADINGS,
    a: Anchor,
    img: links ? linkedImage(links.loads) : Image,
    pre: Pre,
    table: Table,
  }
  const urlTransform = links
    ? (value: string, key: string) => safeUrl(value, key) ?? links.resolve(value, key)
    : safeUrl
  return (
    <div
      // The styles of the rendered elements: one class (styles/globals.css), not a long list of
      // utilities repeated in every page's markup and data.
      className={`markdown-body ${className}`}
    >
      <ReactMarkdown
        remarkPlugins={[remarkGfm, remarkHeadingLevels(headingLevel)]}
        rehypePlugins={[rehypeSanitize]}
        skipHtml
        urlTransform={urlTransform}
        components={components}
      >
        {children}
      </ReactMarkdown>
    </div>
  )
}
