// Why a search hit matched, when its card does not show it (issue: search says why): the name and
// id show the words themselves, and comfy_nodes_matched is shown as a count. Otherwise the hit
// came from a tag, the publisher, the description, or the typo-tolerant match on the name.
import type { Node } from '@/src/api/generated/model'

export type MatchReason =
  | { kind: 'tag'; tag: string }
  | { kind: 'publisher'; publisher: string }
  | { kind: 'description' }
  | { kind: 'similar' }

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[\s,.;:!?()"'“”]+/)
    .filter(Boolean)

/** Whether `word` is in `text`, or its stem (the first five letters of a long word) is. */
function mentions(text: string, word: string): boolean {
  const lowered = text.toLowerCase()
  return lowered.includes(word) || (word.length > 5 && lowered.includes(word.slice(0, 5)))
}

/** The reason to show for a hit of the search `q`, or undefined when the card already shows it. */
export function matchReason(node: Node, q: string): MatchReason | undefined {
  const typed = words(q)
  if (typed.length === 0) return undefined
  const title = `${node.id} ${node.name}`
  if (typed.every((word) => mentions(title, word))) return undefined
  if ((node.comfy_nodes_matched ?? 0) > 0) return undefined
  const tag = (node.tags ?? []).find((candidate) => typed.some((word) => mentions(candidate, word)))
  if (tag) return { kind: 'tag', tag }
  const { publisher } = node
  if (typed.some((word) => mentions(`${publisher.id} ${publisher.name}`, word))) {
    return { kind: 'publisher', publisher: publisher.name || publisher.id }
  }
  if (typed.some((word) => mentions(node.description ?? '', word))) return { kind: 'description' }
  return { kind: 'similar' }
}
