// Long ids, addresses, emails and commands wrap at their natural joints instead of mid-word: a
// <wbr> (a line-break opportunity that copies as nothing) after each `/`, `-`, `_`, `.` and `@`.
// Containers add `break-words` so a single joint-less run still wraps as the last resort rather
// than overflowing; `break-all` (which splits every word anywhere) is never needed.
import { Fragment, type ReactNode } from 'react'

const JOINT = /([/\-_.@:])/
// Code identifiers (ComfyUI class names) also break between a lower-case letter and a capital.
const JOINT_OR_CAMEL = /([/\-_.@:]|(?<=[a-z0-9])(?=[A-Z]))/

/**
 * `text` as text nodes with a <wbr> after each joint (and, with `camelCase`, between the words of
 * an identifier); no wrapper element, so the text stays one piece for search and assistive tech.
 */
export function breakable(text: string, { camelCase = false } = {}): ReactNode {
  const parts = text.split(camelCase ? JOINT_OR_CAMEL : JOINT)
  if (parts.length === 1) return text
  const nodes: ReactNode[] = []
  let started = false
  parts.forEach((part, index) => {
    // split() with a capture group puts each joint (empty between camel-case words) at odd
    // indexes. A break helps only between two runs: after the last joint of "a--b", never after
    // the "@" of "@acme" or a trailing "/".
    if (index % 2 === 1 && started && parts[index + 1]) {
      nodes.push(
        <Fragment key={index}>
          {part}
          <wbr />
        </Fragment>,
      )
    } else {
      nodes.push(part)
    }
    if (index % 2 === 0 && part) started = true
  })
  return nodes
}

/** A component form of `breakable`, for JSX that reads better with one. */
export function BreakableText({ children, camelCase }: { children: string; camelCase?: boolean }) {
  return <>{breakable(children, { camelCase })}</>
}
