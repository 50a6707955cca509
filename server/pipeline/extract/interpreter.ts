// A small static evaluator over tree-sitter's Python syntax tree. It follows a package's own
// modules, classes and functions and computes literal values; anything that would need the code to
// run (ComfyUI, torch, I/O) becomes DYNAMIC or an opaque external reference; the package's own
// folder listings are read from the archive. Nothing here executes uploaded code.
//
// The evaluator is one class built in layers, one file per concern; a layer reaches the methods
// of later ones through abstract declarations:
//   imports.ts      modules and imports (the import graph; Extraction.importedModules)
//   objects.ts      scopes, classes, attributes
//   statements.ts   statements
//   expressions.ts  expressions
//   builtins.ts     builtins and methods of dict / list / str
//   this file       calls: functions of the package, classes, builtins and the stdlib models
//                   (stdlib.ts over archive-fs.ts)
import { Builtins } from './builtins'
import { callStdlib } from './stdlib'
import { type CallSite, named } from './syntax'
import {
  DYNAMIC,
  NONE,
  dictSet,
  list,
  newDict,
  str,
  type FunctionInfo,
  type PyExternal,
  type PyValue,
  type Scope,
} from './values'

const MAX_CALL_DEPTH = 24

export class Interpreter extends Builtins {
  private callDepth = 0

  callValue(
    callee: PyValue,
    args: PyValue[],
    kwargs: Map<string, PyValue>,
    site: CallSite,
  ): PyValue {
    switch (callee.kind) {
      case 'function':
        return this.invoke(callee.fn, callee.self, args, kwargs)
      case 'class':
        // `any_type = AnyType("*")` with `class AnyType(str)` is the string itself.
        if (args.length === 1 && args[0].kind === 'str' && this.isStrSubclass(callee.cls)) {
          return args[0]
        }
        return { kind: 'instance', cls: callee.cls }
      case 'builtin':
        return this.callBuiltin(callee.name, callee.self, args, kwargs, site)
      case 'external':
        return this.callExternal(callee, args, kwargs, site)
      default:
        return DYNAMIC
    }
  }

  protected callExternal(
    callee: PyExternal,
    args: PyValue[],
    kwargs: Map<string, PyValue>,
    site: CallSite,
  ): PyValue {
    if (!callee.origin) {
      const modelled = callStdlib(this, callee.path.join('.'), args, kwargs, site.scope.module)
      if (modelled) return modelled
    }
    return { kind: 'call', callee, args, kwargs }
  }

  protected invoke(
    fn: FunctionInfo,
    self: PyValue | undefined,
    args: PyValue[],
    kwargs: Map<string, PyValue>,
  ): PyValue {
    if (this.callDepth >= MAX_CALL_DEPTH) return DYNAMIC
    const body = fn.node.childForFieldName('body')
    if (!body) return DYNAMIC
    fn.isGenerator ??= fn.node.type !== 'lambda' && body.descendantsOfType('yield').length > 0
    if (fn.isGenerator) return DYNAMIC
    const local: Scope = {
      vars: new Map(),
      parent: fn.closure,
      module: fn.closure.module,
      kind: 'function',
      fn,
    }
    const positional = self ? [self, ...args] : [...args]
    const remaining = new Map(kwargs)
    let keywordOnly = false
    let first = true
    for (const parameter of named(fn.node.childForFieldName('parameters'))) {
      let value: PyValue | undefined
      let name = ''
      const inner =
        parameter.type === 'typed_parameter' ? (named(parameter)[0] ?? parameter) : parameter
      if (inner.type === 'list_splat_pattern') {
        name = named(inner)[0]?.text ?? ''
        value = list(positional.splice(0), true)
        keywordOnly = true
      } else if (inner.type === 'dictionary_splat_pattern') {
        name = named(inner)[0]?.text ?? ''
        const rest = newDict()
        for (const [key, item] of remaining) dictSet(rest, str(key), item)
        remaining.clear()
        value = rest
      } else if (inner.type === 'keyword_separator') {
        keywordOnly = true
        continue
      } else if (inner.type === 'positional_separator') {
        continue
      } else {
        const isDefault =
          inner.type === 'default_parameter' || inner.type === 'typed_default_parameter'
        name = (isDefault ? inner.childForFieldName('name') : inner)?.text ?? ''
        if (!keywordOnly && positional.length) value = positional.shift()
        else if (remaining.has(name)) {
          value = remaining.get(name)
          remaining.delete(name)
        } else if (isDefault) value = this.evalExpr(inner.childForFieldName('value'), fn.closure)
        else value = DYNAMIC
      }
      if (first) local.firstArg = value
      first = false
      local.vars.set(name, value ?? DYNAMIC)
    }
    this.callDepth++
    try {
      if (fn.node.type === 'lambda') return this.evalExpr(body, local)
      const flow = this.execBlock(body, local)
      return flow.kind === 'return' ? flow.value : NONE
    } finally {
      this.callDepth--
    }
  }
}

export { ModuleSyntaxError, location, named, type CallSite } from './syntax'
