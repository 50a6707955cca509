// Expressions: literals, strings and f-strings, containers, comprehensions, subscripts,
// comparisons and the argument lists of calls.
import type { Node as SyntaxNode } from 'web-tree-sitter'
import {
  MAX_SEQUENCE,
  MAX_STRING,
  binaryOp,
  compare,
  decodeEscapes,
  parseFloatLiteral,
  parseIntLiteral,
  pyBool,
  sliceIndices,
  toPyStr,
  unaryOp,
} from './operators'
import { Statements } from './statements'
import { named, location, excerpt } from './syntax'
import {
  DYNAMIC,
  NONE,
  bool,
  dictGet,
  dictSet,
  list,
  markIncomplete,
  newDict,
  str,
  truthy,
  type PyDict,
  type PyList,
  type PyValue,
  type Scope,
} from './values'

const MAX_EVAL_DEPTH = 200

export abstract class Expressions extends Statements {
  private evalDepth = 0

  evalExpr(node: SyntaxNode | null, scope: Scope): PyValue {
    if (!node || this.evalDepth > MAX_EVAL_DEPTH) return DYNAMIC
    this.tick()
    this.evalDepth++
    try {
      return this.evaluate(node, scope)
    } finally {
      this.evalDepth--
    }
  }

  protected evaluate(node: SyntaxNode, scope: Scope): PyValue {
    switch (node.type) {
      case 'identifier':
        return this.lookup(scope, node.text)
      case 'string':
        return this.evalString(node, scope)
      case 'concatenated_string': {
        let joined = ''
        for (const part of named(node)) {
          const value = this.evalExpr(part, scope)
          if (value.kind !== 'str') return DYNAMIC
          joined += value.value
        }
        return str(joined)
      }
      case 'integer':
        return parseIntLiteral(node.text)
      case 'float':
        return parseFloatLiteral(node.text)
      case 'true':
        return bool(true)
      case 'false':
        return bool(false)
      case 'none':
        return NONE
      case 'parenthesized_expression':
        return this.evalExpr(named(node)[0] ?? null, scope)
      case 'list':
      case 'set':
        return this.evalSequence(node, scope, false)
      case 'tuple':
      case 'expression_list':
        return this.evalSequence(node, scope, true)
      case 'dictionary':
        return this.evalDict(node, scope)
      case 'list_comprehension':
      case 'set_comprehension':
      case 'generator_expression':
      case 'dictionary_comprehension':
        return this.evalComprehension(node, scope)
      case 'attribute':
        return this.getAttr(
          this.evalExpr(node.childForFieldName('object'), scope),
          node.childForFieldName('attribute')?.text ?? '',
        )
      case 'subscript':
        return this.evalSubscript(node, scope)
      case 'call':
        return this.evalCall(node, scope)
      case 'binary_operator':
        return binaryOp(
          node.childForFieldName('operator')?.text ?? '',
          this.evalExpr(node.childForFieldName('left'), scope),
          this.evalExpr(node.childForFieldName('right'), scope),
        )
      case 'unary_operator':
        return unaryOp(
          node.childForFieldName('operator')?.text ?? '',
          this.evalExpr(node.childForFieldName('argument'), scope),
        )
      case 'not_operator': {
        const value = truthy(this.evalExpr(node.childForFieldName('argument'), scope))
        return pyBool(value === undefined ? undefined : !value)
      }
      case 'boolean_operator': {
        const left = this.evalExpr(node.childForFieldName('left'), scope)
        const known = truthy(left)
        if (known === undefined) return DYNAMIC
        const isAnd = node.childForFieldName('operator')?.text === 'and'
        return known === isAnd ? this.evalExpr(node.childForFieldName('right'), scope) : left
      }
      case 'comparison_operator':
        return this.evalComparison(node, scope)
      case 'conditional_expression': {
        const [consequence, condition, alternative] = named(node)
        const known = truthy(this.evalExpr(condition ?? null, scope))
        if (known === undefined) return DYNAMIC
        return this.evalExpr((known ? consequence : alternative) ?? null, scope)
      }
      case 'lambda':
        return {
          kind: 'function',
          fn: {
            name: '<lambda>',
            node,
            closure: this.nonClassScope(scope),
            decorators: [],
            definingClass: null,
          },
        }
      case 'await':
        return this.evalExpr(named(node)[0] ?? null, scope)
      case 'named_expression': {
        const value = this.evalExpr(node.childForFieldName('value'), scope)
        const name = node.childForFieldName('name')
        if (name) this.bind(scope, name.text, value)
        return value
      }
      default:
        return DYNAMIC
    }
  }

  protected evalString(node: SyntaxNode, scope: Scope): PyValue {
    const start = node.child(0)
    const prefix = (start?.text ?? '').toLowerCase().split('"')[0].split("'")[0]
    if (prefix.includes('b')) return DYNAMIC
    const raw = prefix.includes('r')
    const formatted = prefix.includes('f') || prefix.includes('t')
    let out = ''
    for (const child of node.children) {
      if (!child) continue
      if (child.type === 'string_content') {
        let text = child.text
        if (formatted) text = text.split('{{').join('{').split('}}').join('}')
        const decoded = raw ? text : decodeEscapes(text)
        if (decoded === null) return DYNAMIC
        out += decoded
      } else if (child.type === 'interpolation') {
        if (
          child.childForFieldName('format_specifier') ||
          child.childForFieldName('type_conversion')
        ) {
          return DYNAMIC
        }
        const text = toPyStr(this.evalExpr(child.childForFieldName('expression'), scope))
        if (text === null) return DYNAMIC
        out += text
      } else if (child.type === 'escape_sequence') {
        const decoded = raw ? child.text : decodeEscapes(child.text)
        if (decoded === null) return DYNAMIC
        out += decoded
      }
      if (out.length > MAX_STRING) return DYNAMIC
    }
    return str(out)
  }

  protected evalSequence(node: SyntaxNode, scope: Scope, tuple: boolean): PyList {
    const result = list([], tuple)
    for (const child of named(node)) {
      if (result.items.length > MAX_SEQUENCE) {
        markIncomplete(result, `${location(scope.module, node)}: too many items`)
        break
      }
      if (child.type === 'list_splat' || child.type === 'parenthesized_list_splat') {
        const items = this.iterate(this.evalExpr(named(child)[0] ?? null, scope))
        if (items) result.items.push(...items)
        else
          markIncomplete(
            result,
            `${location(scope.module, child)}: ${excerpt(child)} is not statically known`,
          )
        continue
      }
      result.items.push(this.evalExpr(child, scope))
    }
    return result
  }

  protected evalDict(node: SyntaxNode, scope: Scope): PyDict {
    const result = newDict()
    for (const child of named(node)) {
      if (child.type === 'pair') {
        const key = this.evalExpr(child.childForFieldName('key'), scope)
        const value = this.evalExpr(child.childForFieldName('value'), scope)
        if (!dictSet(result, key, value)) {
          markIncomplete(
            result,
            `${location(scope.module, child)}: the key ${excerpt(child.childForFieldName('key') ?? child)} is not statically known`,
          )
        }
      } else if (child.type === 'dictionary_splat') {
        const where = `${location(scope.module, child)}: ${excerpt(child)}`
        this.update(result, this.evalExpr(named(child)[0] ?? null, scope), where)
      }
    }
    return result
  }

  protected evalComprehension(node: SyntaxNode, scope: Scope): PyValue {
    const isDict = node.type === 'dictionary_comprehension'
    const result: PyDict | PyList = isDict ? newDict() : list([])
    const body = node.childForFieldName('body')
    const clauses = named(node).filter((c) => c.type === 'for_in_clause' || c.type === 'if_clause')
    const local: Scope = {
      vars: new Map(),
      parent: scope,
      module: scope.module,
      kind: 'function',
    }
    const where = (n: SyntaxNode) => `${location(scope.module, n)}: ${excerpt(n)}`
    let produced = 0
    const run = (index: number): void => {
      this.tick()
      if (index === clauses.length) {
        if (++produced > MAX_SEQUENCE) return
        if (result.kind === 'dict') {
          if (body?.type !== 'pair') return
          const key = this.evalExpr(body.childForFieldName('key'), local)
          const value = this.evalExpr(body.childForFieldName('value'), local)
          if (!dictSet(result, key, value)) {
            markIncomplete(result, `${where(body)}: a key that is not statically known`)
          }
        } else {
          result.items.push(this.evalExpr(body, local))
        }
        return
      }
      const clause = clauses[index]
      if (clause.type === 'if_clause') {
        const keep = truthy(this.evalExpr(named(clause)[0] ?? null, local))
        if (keep === false) return
        if (keep === undefined) {
          markIncomplete(
            result,
            `${where(clause)}: a filter that is not statically known (all items kept)`,
          )
        }
        run(index + 1)
        return
      }
      const items = this.iterate(this.evalExpr(clause.childForFieldName('right'), local))
      const left = clause.childForFieldName('left')
      if (!items || !left) {
        markIncomplete(
          result,
          `${where(clause)}: iterates over a value that is not statically known`,
        )
        return
      }
      for (const item of items) {
        this.assign(left, item, local)
        run(index + 1)
      }
    }
    run(0)
    return result
  }

  protected evalSubscript(node: SyntaxNode, scope: Scope): PyValue {
    const object = this.evalExpr(node.childForFieldName('value'), scope)
    const keys = node.childrenForFieldName('subscript').filter((k) => k !== null)
    if (keys.length !== 1) return DYNAMIC
    const [keyNode] = keys
    if (keyNode.type === 'slice') {
      const bounds: (number | null)[] = [null, null, null]
      let slot = 0
      for (const child of keyNode.children) {
        if (!child) continue
        if (child.type === ':') slot++
        else if (child.isNamed && child.type !== 'comment') {
          const value = this.evalExpr(child, scope)
          if (value.kind === 'int') bounds[slot] = Number(value.value)
          else if (value.kind !== 'none') return DYNAMIC
        }
      }
      const sequence =
        object.kind === 'list' && !object.incomplete
          ? object.items
          : object.kind === 'str'
            ? [...object.value]
            : null
      if (!sequence) return DYNAMIC
      const indices = sliceIndices(sequence.length, bounds[0], bounds[1], bounds[2])
      if (!indices) return DYNAMIC
      if (object.kind === 'str') return str(indices.map((i) => sequence[i] as string).join(''))
      return list(
        indices.map((i) => sequence[i] as PyValue),
        object.kind === 'list' && object.tuple,
      )
    }
    const key = this.evalExpr(keyNode, scope)
    if (object.kind === 'dict') return dictGet(object, key) ?? DYNAMIC
    if ((object.kind === 'list' || object.kind === 'str') && key.kind === 'int') {
      const length = object.kind === 'list' ? object.items.length : object.value.length
      const index = Number(key.value) < 0 ? length + Number(key.value) : Number(key.value)
      if (index < 0 || index >= length) return DYNAMIC
      return object.kind === 'list' ? object.items[index] : str(object.value[index])
    }
    return DYNAMIC
  }

  protected evalComparison(node: SyntaxNode, scope: Scope): PyValue {
    const operands: SyntaxNode[] = []
    const operators: string[] = []
    for (const child of node.children) {
      if (!child || child.type === 'comment') continue
      if (child.isNamed) operands.push(child)
      else operators.push(child.type)
    }
    let left = this.evalExpr(operands[0] ?? null, scope)
    for (let i = 0; i < operators.length; i++) {
      const right = this.evalExpr(operands[i + 1] ?? null, scope)
      const result = compare(operators[i], left, right)
      if (result === undefined) return DYNAMIC
      if (!result) return bool(false)
      left = right
    }
    return bool(true)
  }

  protected evalCall(node: SyntaxNode, scope: Scope): PyValue {
    const callee = this.evalExpr(node.childForFieldName('function'), scope)
    const argumentsNode = node.childForFieldName('arguments')
    const args: PyValue[] = []
    const kwargs = new Map<string, PyValue>()
    let known = true
    if (argumentsNode?.type === 'generator_expression') {
      args.push(this.evalExpr(argumentsNode, scope))
    } else {
      for (const child of named(argumentsNode)) {
        if (child.type === 'keyword_argument') {
          const name = child.childForFieldName('name')?.text ?? ''
          kwargs.set(name, this.evalExpr(child.childForFieldName('value'), scope))
        } else if (child.type === 'list_splat') {
          const items = this.iterate(this.evalExpr(named(child)[0] ?? null, scope))
          if (items) args.push(...items)
          else known = false
        } else if (child.type === 'dictionary_splat') {
          const value = this.evalExpr(named(child)[0] ?? null, scope)
          if (value.kind !== 'dict' || value.incomplete) known = false
          else
            for (const { key, value: item } of value.entries.values()) {
              if (key.kind === 'str') kwargs.set(key.value, item)
              else known = false
            }
        } else {
          args.push(this.evalExpr(child, scope))
        }
      }
    }
    if (!known) return callee.kind === 'external' ? { kind: 'call', callee, args, kwargs } : DYNAMIC
    return this.callValue(callee, args, kwargs, { node, scope })
  }
}
