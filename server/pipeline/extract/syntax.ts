// Syntax-tree helpers and the small types the evaluator's parts share.
import type { Node as SyntaxNode } from 'web-tree-sitter'

import type { ModuleState, PyValue, Scope } from './values'

/** How a block ended: normally, or by return / break / continue. */
export type Flow =
  { kind: 'normal' } | { kind: 'return'; value: PyValue } | { kind: 'break' } | { kind: 'continue' }

export const NORMAL: Flow = { kind: 'normal' }

/** Where a call happens: for messages and for zero-argument `super()`. */
export interface CallSite {
  node: SyntaxNode
  scope: Scope
}

export class ModuleSyntaxError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly near: string,
  ) {
    super(`Syntax error in ${file} at line ${line}${near ? ` near ${JSON.stringify(near)}` : ''}`)
  }
}

/** The named children of a node, without comments (tree-sitter attaches them anywhere). */
export function named(node: SyntaxNode | null): SyntaxNode[] {
  if (!node) return []
  return node.namedChildren.filter((c): c is SyntaxNode => c !== null && c.type !== 'comment')
}

export function firstSyntaxError(node: SyntaxNode): SyntaxNode {
  for (const child of node.children) {
    if (!child) continue
    if (child.isError || child.isMissing) return child
    if (child.hasError) return firstSyntaxError(child)
  }
  return node
}

export function location(module: ModuleState, node: SyntaxNode): string {
  return `${module.file ?? module.name}:${node.startPosition.row + 1}`
}

export function excerpt(node: SyntaxNode): string {
  const text = node.text.split('\n')[0].trim()
  return text.length > 80 ? `${text.slice(0, 79)}…` : text
}
