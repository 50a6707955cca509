// Statements: blocks, assignments, if / for / try, and function and class definitions.
import type { Node as SyntaxNode } from 'web-tree-sitter'

import { MAX_SEQUENCE, binaryOp } from './operators'
import { ObjectModel } from './objects'
import { type Flow, NORMAL, type CallSite, named, location, excerpt } from './syntax'
import {
  DYNAMIC,
  NONE,
  dictKey,
  dictSet,
  markIncomplete,
  truthy,
  type ClassInfo,
  type FunctionInfo,
  type PyDict,
  type PyList,
  type PyValue,
  type Scope,
} from './values'

const MAX_BLOCK_DEPTH = 60

export abstract class Statements extends ObjectModel {
  private blockDepth = 0

  abstract callValue(
    callee: PyValue,
    args: PyValue[],
    kwargs: Map<string, PyValue>,
    site: CallSite,
  ): PyValue
  abstract iterate(value: PyValue): PyValue[] | null
  protected abstract update(target: PyDict, source: PyValue, where: string): void
  protected abstract extend(target: PyList, items: PyValue[] | null, where: string): void

  execBlock(block: SyntaxNode, scope: Scope): Flow {
    if (this.blockDepth > MAX_BLOCK_DEPTH) {
      this.truncated = true
      return NORMAL
    }
    this.blockDepth++
    try {
      for (const statement of named(block)) {
        const flow = this.execStatement(statement, scope)
        if (flow.kind !== 'normal') return flow
      }
      return NORMAL
    } finally {
      this.blockDepth--
    }
  }

  protected execStatement(node: SyntaxNode, scope: Scope): Flow {
    this.tick()
    switch (node.type) {
      case 'expression_statement':
        for (const child of named(node)) this.execExpressionStatement(child, scope)
        return NORMAL
      case 'return_statement': {
        const value = named(node)[0]
        return { kind: 'return', value: value ? this.evalExpr(value, scope) : NONE }
      }
      case 'if_statement':
        return this.execIf(node, scope)
      case 'for_statement':
        return this.execFor(node, scope)
      case 'while_statement':
        this.taint(node, scope, 'a while loop')
        return NORMAL
      case 'try_statement':
        return this.execTry(node, scope)
      case 'with_statement': {
        const body = node.childForFieldName('body')
        return body ? this.execBlock(body, scope) : NORMAL
      }
      case 'function_definition':
        this.defineFunction(node, scope, [])
        return NORMAL
      case 'class_definition':
        this.defineClass(node, scope, [])
        return NORMAL
      case 'decorated_definition':
        this.execDecorated(node, scope)
        return NORMAL
      case 'import_statement':
        this.execImport(node, scope)
        return NORMAL
      case 'import_from_statement':
        this.execImportFrom(node, scope)
        return NORMAL
      case 'global_statement':
        scope.globals ??= new Set()
        for (const name of named(node)) scope.globals.add(name.text)
        return NORMAL
      case 'delete_statement':
        for (const target of named(node)) this.execDelete(target, scope)
        return NORMAL
      case 'break_statement':
        return { kind: 'break' }
      case 'continue_statement':
        return { kind: 'continue' }
      case 'raise_statement':
        // A function that raises has no value; a module-level raise sits in a branch we follow.
        return scope.kind === 'function' ? { kind: 'return', value: DYNAMIC } : NORMAL
      default:
        return NORMAL
    }
  }

  protected execExpressionStatement(node: SyntaxNode, scope: Scope): void {
    if (node.type === 'assignment') this.execAssignment(node, scope)
    else if (node.type === 'augmented_assignment') this.execAugmented(node, scope)
    else this.evalExpr(node, scope)
  }

  protected execAssignment(node: SyntaxNode, scope: Scope): PyValue {
    const left = node.childForFieldName('left')
    const right = node.childForFieldName('right')
    if (!left || !right) return NONE
    const value =
      right.type === 'assignment' ? this.execAssignment(right, scope) : this.evalExpr(right, scope)
    this.assign(left, value, scope)
    return value
  }

  protected assign(target: SyntaxNode, value: PyValue, scope: Scope): void {
    switch (target.type) {
      case 'identifier':
        this.bind(scope, target.text, value)
        return
      case 'parenthesized_expression': {
        const inner = named(target)[0]
        if (inner) this.assign(inner, value, scope)
        return
      }
      case 'pattern_list':
      case 'tuple_pattern':
      case 'list_pattern':
      case 'tuple':
      case 'list':
      case 'expression_list': {
        const targets = named(target)
        const fits =
          value.kind === 'list' &&
          !value.incomplete &&
          value.items.length === targets.length &&
          targets.every((t) => t.type !== 'list_splat_pattern')
        targets.forEach((t, i) => this.assign(t, fits ? value.items[i] : DYNAMIC, scope))
        return
      }
      case 'subscript': {
        const object = this.evalExpr(target.childForFieldName('value'), scope)
        const keys = target.childrenForFieldName('subscript').filter((k) => k !== null)
        if (keys.length !== 1 || keys[0].type === 'slice') return
        const key = this.evalExpr(keys[0], scope)
        if (object.kind === 'dict') {
          if (!dictSet(object, key, value)) {
            markIncomplete(
              object,
              `${location(scope.module, target)}: a key that is not statically known (${excerpt(target)})`,
            )
          }
        } else if (object.kind === 'list' && !object.tuple && key.kind === 'int') {
          const index =
            Number(key.value) < 0 ? object.items.length + Number(key.value) : Number(key.value)
          if (index >= 0 && index < object.items.length) object.items[index] = value
        }
        return
      }
      case 'attribute': {
        const object = this.evalExpr(target.childForFieldName('object'), scope)
        const name = target.childForFieldName('attribute')?.text ?? ''
        if (object.kind === 'class') this.classBody(object.cls).vars.set(name, value)
        else if (object.kind === 'module') this.load(object.mod).scope.vars.set(name, value)
        return
      }
      default:
        return
    }
  }

  protected execAugmented(node: SyntaxNode, scope: Scope): void {
    const left = node.childForFieldName('left')
    const right = node.childForFieldName('right')
    const operator = node.childForFieldName('operator')?.text ?? ''
    if (!left || !right) return
    const current = this.evalExpr(left, scope)
    const operand = this.evalExpr(right, scope)
    const where = `${location(scope.module, node)}: ${excerpt(node)}`
    // `|=` on a dict and `+=` on a list mutate in place, so aliases see the change.
    if (operator === '|=' && current.kind === 'dict') {
      this.update(current, operand, where)
      return
    }
    if (operator === '+=' && current.kind === 'list' && !current.tuple) {
      this.extend(current, this.iterate(operand), where)
      return
    }
    this.assign(left, binaryOp(operator.slice(0, -1), current, operand), scope)
  }

  protected execDelete(target: SyntaxNode, scope: Scope): void {
    if (target.type === 'expression_list') {
      for (const item of named(target)) this.execDelete(item, scope)
      return
    }
    if (target.type !== 'subscript') return
    const object = this.evalExpr(target.childForFieldName('value'), scope)
    const keys = target.childrenForFieldName('subscript').filter((k) => k !== null)
    if (object.kind !== 'dict' || keys.length !== 1) return
    const key = dictKey(this.evalExpr(keys[0], scope))
    if (key === null) {
      markIncomplete(
        object,
        `${location(scope.module, target)}: del with a key that is not statically known`,
      )
    } else {
      object.entries.delete(key)
    }
  }

  protected execIf(node: SyntaxNode, scope: Scope): Flow {
    const branches: { condition: SyntaxNode | null; body: SyntaxNode | null }[] = [
      {
        condition: node.childForFieldName('condition'),
        body: node.childForFieldName('consequence'),
      },
    ]
    for (const alternative of node.childrenForFieldName('alternative')) {
      if (!alternative) continue
      if (alternative.type === 'elif_clause') {
        branches.push({
          condition: alternative.childForFieldName('condition'),
          body: alternative.childForFieldName('consequence'),
        })
      } else {
        branches.push({ condition: null, body: alternative.childForFieldName('body') })
      }
    }
    // Branches whose condition is not known all run: for registration code that is the useful
    // over-approximation (e.g. `if TYPE_CHECKING:` or optional dependencies).
    for (const { condition, body } of branches) {
      const known = condition ? truthy(this.evalExpr(condition, scope)) : true
      if (known === false) continue
      const flow = body ? this.execBlock(body, scope) : NORMAL
      if (known === true || flow.kind !== 'normal') return flow
    }
    return NORMAL
  }

  protected execTry(node: SyntaxNode, scope: Scope): Flow {
    const body = node.childForFieldName('body')
    const failedBefore = this.failedImports
    const flow = body ? this.execBlock(body, scope) : NORMAL
    if (flow.kind !== 'normal') return flow
    // The happy path: `except` handlers are skipped, `else` and `finally` run. Third-party
    // imports succeed (as opaque values), but a missing module of the package raises
    // ImportError: then the handlers that catch it run instead of `else`.
    const raised = this.failedImports > failedBefore
    for (const clause of named(node)) {
      if (raised && clause.type === 'except_clause' && this.catchesImportError(clause)) {
        const block = named(clause).find((c) => c.type === 'block')
        const result = block ? this.execBlock(block, scope) : NORMAL
        if (result.kind !== 'normal') return result
        continue
      }
      if (raised && clause.type === 'else_clause') continue
      if (clause.type !== 'else_clause' && clause.type !== 'finally_clause') continue
      const block =
        clause.childForFieldName('body') ?? named(clause).find((c) => c.type === 'block')
      if (!block) continue
      const result = this.execBlock(block, scope)
      if (result.kind !== 'normal') return result
    }
    return NORMAL
  }

  protected catchesImportError(clause: SyntaxNode): boolean {
    const caught = named(clause).filter((c) => c.type !== 'block')
    if (!caught.length) return true
    const names = caught[0].descendantsOfType('identifier').map((n) => n?.text ?? '')
    if (caught[0].type === 'identifier') names.push(caught[0].text)
    return names.some((name) =>
      ['ImportError', 'ModuleNotFoundError', 'Exception', 'BaseException'].includes(name),
    )
  }

  protected execFor(node: SyntaxNode, scope: Scope): Flow {
    const left = node.childForFieldName('left')
    const right = node.childForFieldName('right')
    const body = node.childForFieldName('body')
    if (!left || !right || !body) return NORMAL
    const items = this.iterate(this.evalExpr(right, scope))
    if (!items) {
      this.taint(body, scope, 'a for loop over a value that is not statically known', node)
      return NORMAL
    }
    for (const item of items.slice(0, MAX_SEQUENCE)) {
      this.assign(left, item, scope)
      const flow = this.execBlock(body, scope)
      if (flow.kind === 'break') return NORMAL
      if (flow.kind === 'return') return flow
    }
    const otherwise = node.childForFieldName('alternative')
    const block = otherwise?.childForFieldName('body')
    return block ? this.execBlock(block, scope) : NORMAL
  }

  /** Code we cannot follow may change any dict or list it names: say so on those values. */
  protected taint(node: SyntaxNode, scope: Scope, what: string, at: SyntaxNode = node): void {
    const reason = `${location(scope.module, at)}: ${what}`
    const names = new Set(node.descendantsOfType('identifier').map((n) => n?.text ?? ''))
    for (const name of names) {
      const value = this.lookup(scope, name)
      if (value.kind === 'dict' || value.kind === 'list') markIncomplete(value, reason)
    }
  }

  protected decoratorsOf(node: SyntaxNode): SyntaxNode[] {
    return named(node)
      .filter((child) => child.type === 'decorator')
      .map((decorator) => named(decorator)[0])
      .filter((expression): expression is SyntaxNode => expression !== undefined)
  }

  protected execDecorated(node: SyntaxNode, scope: Scope): void {
    const definition = node.childForFieldName('definition')
    if (!definition) return
    const decorators = this.decoratorsOf(node)
    if (definition.type === 'function_definition') {
      // Only the name matters for functions: classmethod, staticmethod, property.
      const names = decorators.map((d) => (d.type === 'call' ? d.childForFieldName('function') : d))
      this.defineFunction(
        definition,
        scope,
        names.map((d) => d?.text.split('.').pop() ?? ''),
      )
    } else if (definition.type === 'class_definition') {
      this.defineClass(definition, scope, decorators)
    }
  }

  protected defineFunction(node: SyntaxNode, scope: Scope, decorators: string[]): void {
    const name = node.childForFieldName('name')?.text ?? ''
    const fn: FunctionInfo = {
      name,
      node,
      closure: this.nonClassScope(scope),
      decorators,
      definingClass: scope.kind === 'class' ? (scope.cls ?? null) : null,
    }
    this.bind(scope, name, { kind: 'function', fn })
  }

  protected defineClass(node: SyntaxNode, scope: Scope, decorators: SyntaxNode[]): void {
    const name = node.childForFieldName('name')?.text ?? ''
    const cls: ClassInfo = { name, node, scope, body: null, bases: null, state: 'new' }
    let value: PyValue = { kind: 'class', cls }
    // Registration decorators defined in the package (`@register("Name")`) run; whatever they
    // return, the name keeps pointing at the class unless they hand back another class.
    for (const expression of [...decorators].reverse()) {
      const decorator = this.evalExpr(expression, scope)
      if (decorator.kind !== 'function') continue
      const result = this.callValue(decorator, [value], new Map(), { node: expression, scope })
      if (result.kind === 'class') value = result
    }
    this.bind(scope, name, value)
  }
}
