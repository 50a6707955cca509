// A small static evaluator over tree-sitter's Python syntax tree. It follows a package's own
// modules, classes and functions and computes literal values; anything that would need the code to
// run (ComfyUI, torch, file listings, I/O) becomes DYNAMIC or an opaque external reference.
// Nothing here executes uploaded code.
import type { Node as SyntaxNode, Tree } from 'web-tree-sitter'

import {
  MAX_SEQUENCE,
  MAX_STRING,
  binaryOp,
  compare,
  decodeEscapes,
  formatString,
  parseFloatLiteral,
  parseIntLiteral,
  pyBool,
  sliceIndices,
  toPyStr,
  unaryOp,
} from './operators'
import { ArchiveFs, PACKAGE_DIR } from './archive-fs'
import { BudgetExceeded, type ParsePython } from './parser'
import {
  callPathMethod,
  callStdlib,
  dunderImport,
  pathAttribute,
  stdlibConstant,
  type StdlibHost,
} from './stdlib'
import {
  DYNAMIC,
  NONE,
  bool,
  dictGet,
  dictKey,
  dictSet,
  list,
  markIncomplete,
  newDict,
  str,
  truthy,
  type ClassInfo,
  type FunctionInfo,
  type ModuleState,
  type PyDict,
  type PyExternal,
  type PyList,
  type PyValue,
  type Scope,
} from './values'

const MAX_CALL_DEPTH = 24
const MAX_EVAL_DEPTH = 200
const MAX_BLOCK_DEPTH = 60

type Flow =
  { kind: 'normal' } | { kind: 'return'; value: PyValue } | { kind: 'break' } | { kind: 'continue' }

const NORMAL: Flow = { kind: 'normal' }

const BUILTINS = new Set([
  'dict',
  'list',
  'tuple',
  'set',
  'frozenset',
  'sorted',
  'reversed',
  'str',
  'int',
  'float',
  'bool',
  'len',
  'range',
  'zip',
  'enumerate',
  'print',
  'super',
  'getattr',
  'object',
  'type',
  'isinstance',
  'hasattr',
  'callable',
  '__import__',
  'dir',
])

/** The dotted name the package's modules appear under (`__name__` of `__init__.py`). */
const PACKAGE_NAME = 'custom_nodes.package'

/** Base classes whose class attributes are enum members. */
const ENUM_BASES = new Set(['Enum', 'IntEnum', 'StrEnum', 'Flag', 'IntFlag'])

const METHODS: Record<'dict' | 'list' | 'str', ReadonlySet<string>> = {
  dict: new Set(['update', 'copy', 'items', 'keys', 'values', 'get', 'setdefault', 'pop']),
  list: new Set(['append', 'extend', 'insert', 'copy']),
  str: new Set([
    'format',
    'join',
    'upper',
    'lower',
    'strip',
    'lstrip',
    'rstrip',
    'replace',
    'startswith',
    'endswith',
    'split',
  ]),
}

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

function firstSyntaxError(node: SyntaxNode): SyntaxNode {
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

function excerpt(node: SyntaxNode): string {
  const text = node.text.split('\n')[0].trim()
  return text.length > 80 ? `${text.slice(0, 79)}…` : text
}

export class Interpreter implements StdlibHost {
  private readonly warned = new Set<string>()
  readonly warnings: string[] = []
  private readonly modules = new Map<string, ModuleState | null>()
  private readonly trees: Tree[] = []
  private readonly dirs = new Set<string>()
  readonly fs: ArchiveFs
  /** Counts imports of package modules that do not exist (they raise ImportError). */
  private failedImports = 0
  /** Package files whose top level ran, in the order they started; see `executedModules`. */
  private readonly executed: string[] = []
  /** Set when a module's top level stopped early (too deeply nested): imports may be missing. */
  private truncated = false
  private ticks = 0
  private evalDepth = 0
  private blockDepth = 0
  private callDepth = 0

  constructor(
    private readonly files: ReadonlyMap<string, string>,
    private readonly parse: ParsePython,
    private readonly deadline: number,
  ) {
    for (const file of files.keys()) {
      const parts = file.split('/')
      for (let i = 1; i < parts.length; i++) this.dirs.add(parts.slice(0, i).join('/'))
    }
    this.fs = new ArchiveFs(files.keys())
  }

  /** Frees the wasm memory of every parsed tree; nodes are unusable afterwards. */
  dispose(): void {
    for (const tree of this.trees) tree.delete()
    this.trees.length = 0
  }

  warn(message: string): void {
    if (this.warned.has(message)) return
    this.warned.add(message)
    this.warnings.push(message)
  }

  checkBudget(): void {
    if (Date.now() > this.deadline) throw new BudgetExceeded()
  }

  private tick(): void {
    if (++this.ticks % 256 === 0) this.checkBudget()
  }

  // ---------------------------------------------------------------------------------------------
  // Modules and imports

  module(parts: string[]): ModuleState | null {
    const name = parts.join('.')
    const cached = this.modules.get(name)
    if (cached !== undefined) return cached
    const base = parts.join('/')
    const init = parts.length ? `${base}/__init__.py` : '__init__.py'
    let file: string | undefined
    let isPackage = true
    if (this.files.has(init)) file = init
    else if (parts.length && this.files.has(`${base}.py`)) {
      file = `${base}.py`
      isPackage = false
    } else if (!parts.length || !this.dirs.has(base)) {
      this.modules.set(name, null)
      return null
    }
    // The module and its scope point at each other; the scope is filled in right after.
    const state: ModuleState = {
      name,
      parts,
      file,
      isPackage,
      scope: null as unknown as Scope,
      state: 'new',
      root: null,
    }
    state.scope = { vars: new Map(), parent: null, module: state, kind: 'module' }
    // A stand-in for the real import name, so `if __name__ == "__main__":` is known to be false.
    const dotted = [PACKAGE_NAME, ...parts].join('.')
    state.scope.vars.set('__name__', str(dotted))
    state.scope.vars.set(
      '__package__',
      str(isPackage ? dotted : [PACKAGE_NAME, ...parts.slice(0, -1)].join('.')),
    )
    if (file) state.scope.vars.set('__file__', str(`${PACKAGE_DIR}/${file}`))
    this.modules.set(name, state)
    return state
  }

  /** Runs a module's top level once. Circular imports see the partial namespace, as in Python. */
  load(module: ModuleState, options: { strict?: boolean } = {}): ModuleState {
    if (module.state !== 'new') return module
    // Python imports `a` and `a.b` before `a.b.c`: their __init__.py run first.
    if (module.parts.length) {
      const parent = this.module(module.parts.slice(0, -1))
      if (parent) this.load(parent)
    }
    if (module.file === undefined) return module
    module.state = 'running'
    this.executed.push(module.file)
    try {
      this.checkBudget()
      const tree = this.parse(this.files.get(module.file) ?? '', this.deadline)
      this.trees.push(tree)
      module.root = tree.rootNode
      if (module.root.hasError) {
        const bad = firstSyntaxError(module.root)
        const error = new ModuleSyntaxError(
          module.file,
          bad.startPosition.row + 1,
          bad.text.split('\n')[0].slice(0, 40),
        )
        if (options.strict) throw error
        this.warn(`${error.message}; what could be read of it was used`)
      }
      this.execBlock(module.root, module.scope)
    } catch (error) {
      if (error instanceof BudgetExceeded || error instanceof ModuleSyntaxError) throw error
      if (!(error instanceof RangeError)) throw error
      this.truncated = true
      this.warn(`${module.file}: too deeply nested to evaluate`)
    } finally {
      module.state = 'done'
    }
    return module
  }

  /**
   * The package files whose top level has run so far, entry first, or null when one of them
   * stopped early (its later imports are unknown). Taken right after the entry module ran, this
   * is what importing the package executes: the scanner's reachability is this import graph.
   */
  executedModules(): string[] | null {
    return this.truncated ? null : [...this.executed]
  }

  /**
   * The package module an import names, or null (a third-party module, or one missing from the
   * package: a relative import of that raises ImportError, which execTry counts on).
   */
  private resolveModule(from: ModuleState, level: number, parts: string[]): ModuleState | null {
    if (level > 0) {
      const base = from.isPackage ? from.parts : from.parts.slice(0, -1)
      const up = level - 1
      const found =
        up > base.length ? null : this.module([...base.slice(0, base.length - up), ...parts])
      if (!found) this.failedImports++
      return found
    }
    if (!parts.length) return null
    // The package's own import name (`custom_nodes.package.nodes` from `f"{__name__}.nodes"`).
    const own = PACKAGE_NAME.split('.')
    if (own.every((part, i) => parts[i] === part)) {
      const found = this.module(parts.slice(own.length))
      if (!found) this.failedImports++
      return found
    }
    // Package-absolute first; then the importing file's directory, which packs reach by putting
    // it on sys.path.
    const direct = this.module(parts)
    if (direct) return direct
    const dir = from.isPackage ? from.parts : from.parts.slice(0, -1)
    return dir.length ? this.module([...dir, ...parts]) : null
  }

  /** `importlib.import_module(name, package)`: relative names resolve against `anchor`. */
  importByName(name: string, anchor: string | null, from: ModuleState): ModuleState | null {
    let level = 0
    while (name[level] === '.') level++
    const parts = name.slice(level).split('.').filter(Boolean)
    let base = from
    if (level > 0 && anchor !== null) {
      // The anchor names a package: resolve as if imported from its __init__.py.
      const own = PACKAGE_NAME.split('.')
      const anchorParts = anchor.split('.')
      if (!own.every((part, i) => anchorParts[i] === part)) return null
      const pkg = this.module(anchorParts.slice(own.length))
      if (!pkg) return null
      base = pkg
    }
    return this.resolveModule(base, level, parts)
  }

  /** The package module stored at an absolute path (`spec_from_file_location`). */
  moduleAtPath(path: string): ModuleState | null {
    const rel = this.fs.relative(path)
    if (rel === null || !rel.endsWith('.py')) return null
    const parts = rel.slice(0, -3).split('/')
    if (parts[parts.length - 1] === '__init__') parts.pop()
    return this.module(parts)
  }

  private memberOf(module: ModuleState, name: string): PyValue {
    this.load(module)
    const bound = module.scope.vars.get(name)
    if (bound) return bound
    const sub = this.module([...module.parts, name])
    return sub ? { kind: 'module', mod: this.load(sub) } : DYNAMIC
  }

  private execImportFrom(node: SyntaxNode, scope: Scope): void {
    const source = node.childForFieldName('module_name')
    if (!source) return
    let level = 0
    let parts: string[] = []
    if (source.type === 'relative_import') {
      for (const child of named(source)) {
        if (child.type === 'import_prefix') level = child.text.length
        else if (child.type === 'dotted_name') parts = child.text.split('.').map((p) => p.trim())
      }
    } else {
      parts = source.text.split('.').map((p) => p.trim())
    }
    const target = this.resolveModule(scope.module, level, parts)
    if (named(node).some((child) => child.type === 'wildcard_import')) {
      if (!target) return
      this.load(target)
      const exported = target.scope.vars.get('__all__')
      const names =
        exported?.kind === 'list'
          ? exported.items.flatMap((item) => (item.kind === 'str' ? [item.value] : []))
          : [...target.scope.vars.keys()].filter((name) => !name.startsWith('_'))
      for (const name of names) this.bind(scope, name, this.memberOf(target, name))
      return
    }
    for (const item of node.childrenForFieldName('name')) {
      if (!item) continue
      const nameNode = item.type === 'aliased_import' ? item.childForFieldName('name') : item
      const alias = item.type === 'aliased_import' ? item.childForFieldName('alias') : null
      const name = nameNode?.text ?? ''
      const value: PyValue = target
        ? this.memberOf(target, name)
        : { kind: 'external', path: [...parts, name] }
      // `from .module import missing` raises ImportError (see execTry).
      if (target && value.kind === 'dynamic' && target.state === 'done' && target.file) {
        this.failedImports++
      }
      this.bind(scope, alias?.text ?? name, value)
    }
  }

  private execImport(node: SyntaxNode, scope: Scope): void {
    for (const item of node.childrenForFieldName('name')) {
      if (!item) continue
      const dotted = item.type === 'aliased_import' ? item.childForFieldName('name') : item
      const alias = item.type === 'aliased_import' ? item.childForFieldName('alias') : null
      const parts = (dotted?.text ?? '').split('.').map((p) => p.trim())
      if (alias) {
        const target = this.resolveModule(scope.module, 0, parts)
        this.bind(
          scope,
          alias.text,
          target ? { kind: 'module', mod: this.load(target) } : { kind: 'external', path: parts },
        )
      } else {
        // `import a.b` binds `a`; `a.b` is then reached as an attribute.
        const top = this.resolveModule(scope.module, 0, parts.slice(0, 1))
        const full = this.resolveModule(scope.module, 0, parts)
        if (full) this.load(full)
        this.bind(
          scope,
          parts[0],
          top
            ? { kind: 'module', mod: this.load(top) }
            : { kind: 'external', path: parts.slice(0, 1) },
        )
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Scopes, classes and attributes

  private bind(scope: Scope, name: string, value: PyValue): void {
    if (scope.globals?.has(name)) scope.module.scope.vars.set(name, value)
    else scope.vars.set(name, value)
  }

  lookup(scope: Scope, name: string): PyValue {
    for (let s: Scope | null = scope; s; s = s.parent) {
      const value = s.vars.get(name)
      if (value) return value
    }
    return BUILTINS.has(name) ? { kind: 'builtin', name } : DYNAMIC
  }

  private nonClassScope(scope: Scope): Scope {
    let s = scope
    while (s.kind === 'class' && s.parent) s = s.parent
    return s
  }

  private classBody(cls: ClassInfo): Scope {
    if (cls.body) return cls.body
    const body: Scope = {
      vars: new Map(),
      parent: cls.scope,
      module: cls.scope.module,
      kind: 'class',
      cls,
    }
    cls.body = body
    cls.state = 'running'
    try {
      cls.bases = named(cls.node.childForFieldName('superclasses'))
        .filter((base) => base.type !== 'keyword_argument')
        .map((base) => this.evalExpr(base, cls.scope))
      const block = cls.node.childForFieldName('body')
      if (block) this.execBlock(block, body)
    } finally {
      cls.state = 'done'
    }
    return body
  }

  /** The method resolution order, approximated depth-first (enough for node packs). */
  mro(cls: ClassInfo): ClassInfo[] {
    const order: ClassInfo[] = []
    const visit = (c: ClassInfo, depth: number) => {
      if (order.includes(c) || depth > 32) return
      order.push(c)
      this.classBody(c)
      for (const base of c.bases ?? []) if (base.kind === 'class') visit(base.cls, depth + 1)
    }
    visit(cls, 0)
    return order
  }

  private isEnum(cls: ClassInfo): boolean {
    return this.mro(cls).some((c) =>
      (c.bases ?? []).some(
        (base) => base.kind === 'external' && ENUM_BASES.has(base.path[base.path.length - 1]),
      ),
    )
  }

  private isStrSubclass(cls: ClassInfo): boolean {
    return this.mro(cls).some((c) =>
      (c.bases ?? []).some((base) => base.kind === 'builtin' && base.name === 'str'),
    )
  }

  /** A class attribute found along the MRO (unbound), or undefined when no class defines it. */
  classMember(cls: ClassInfo, name: string, after?: ClassInfo): PyValue | undefined {
    const order = this.mro(cls)
    const start = after ? order.indexOf(after) + 1 : 0
    for (const c of order.slice(start)) {
      const value = this.classBody(c).vars.get(name)
      if (value) return value
    }
    return undefined
  }

  /** `cls.name` as Python would give it, with classmethods bound to the class. */
  classAttr(cls: ClassInfo, name: string): PyValue | undefined {
    const value = this.classMember(cls, name)
    return value && this.bindMember(value, { kind: 'class', cls })
  }

  private bindMember(value: PyValue, owner: PyValue, instance?: PyValue): PyValue {
    if (value.kind !== 'function' || value.self) return value
    const { decorators } = value.fn
    if (decorators.includes('classmethod')) return { ...value, self: owner }
    if (decorators.includes('staticmethod')) return value
    if (decorators.includes('property')) return DYNAMIC
    return instance ? { ...value, self: instance } : value
  }

  getAttr(object: PyValue, name: string): PyValue {
    switch (object.kind) {
      case 'module':
        if (name === '__dict__') {
          const namespace = newDict()
          for (const [key, value] of this.load(object.mod).scope.vars) {
            dictSet(namespace, str(key), value)
          }
          return namespace
        }
        return this.memberOf(object.mod, name)
      case 'class': {
        if (name === '__name__' || name === '__qualname__') return str(object.cls.name)
        const member = this.classMember(object.cls, name)
        if (member && member.kind !== 'function' && this.isEnum(object.cls)) {
          return { kind: 'enum', cls: object.cls, name, value: member }
        }
        return member ? this.bindMember(member, object) : DYNAMIC
      }
      case 'enum':
        return name === 'value' ? object.value : name === 'name' ? str(object.name) : DYNAMIC
      case 'path':
        return pathAttribute(object.value, name)
      case 'spec':
        // `spec.loader.exec_module(module)`: the loader is the spec itself here.
        if (name === 'loader') return object
        return name === 'exec_module' ? { kind: 'builtin', name: 'spec.exec_module' } : DYNAMIC
      case 'instance': {
        const owner: PyValue = { kind: 'class', cls: object.cls }
        if (name === '__class__') return owner
        const member = this.classMember(object.cls, name)
        return member ? this.bindMember(member, owner, object) : DYNAMIC
      }
      case 'super': {
        const self = object.self
        const cls = self.kind === 'class' || self.kind === 'instance' ? self.cls : null
        if (!cls) return DYNAMIC
        const member = this.classMember(cls, name, object.cls)
        const owner: PyValue = { kind: 'class', cls }
        return member
          ? this.bindMember(member, owner, self.kind === 'instance' ? self : undefined)
          : DYNAMIC
      }
      case 'external':
        if (!object.origin) {
          const constant = stdlibConstant([...object.path, name].join('.'))
          if (constant) return constant
        }
        return { kind: 'external', path: [...object.path, name], origin: object.origin }
      case 'call':
        return { kind: 'external', path: [name], origin: object }
      case 'dict':
      case 'list':
      case 'str':
        return METHODS[object.kind].has(name)
          ? { kind: 'builtin', name: `${object.kind}.${name}`, self: object }
          : DYNAMIC
      default:
        return DYNAMIC
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Statements

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

  private execStatement(node: SyntaxNode, scope: Scope): Flow {
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

  private execExpressionStatement(node: SyntaxNode, scope: Scope): void {
    if (node.type === 'assignment') this.execAssignment(node, scope)
    else if (node.type === 'augmented_assignment') this.execAugmented(node, scope)
    else this.evalExpr(node, scope)
  }

  private execAssignment(node: SyntaxNode, scope: Scope): PyValue {
    const left = node.childForFieldName('left')
    const right = node.childForFieldName('right')
    if (!left || !right) return NONE
    const value =
      right.type === 'assignment' ? this.execAssignment(right, scope) : this.evalExpr(right, scope)
    this.assign(left, value, scope)
    return value
  }

  private assign(target: SyntaxNode, value: PyValue, scope: Scope): void {
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

  private execAugmented(node: SyntaxNode, scope: Scope): void {
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

  private execDelete(target: SyntaxNode, scope: Scope): void {
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

  private execIf(node: SyntaxNode, scope: Scope): Flow {
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

  private execTry(node: SyntaxNode, scope: Scope): Flow {
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

  private catchesImportError(clause: SyntaxNode): boolean {
    const caught = named(clause).filter((c) => c.type !== 'block')
    if (!caught.length) return true
    const names = caught[0].descendantsOfType('identifier').map((n) => n?.text ?? '')
    if (caught[0].type === 'identifier') names.push(caught[0].text)
    return names.some((name) =>
      ['ImportError', 'ModuleNotFoundError', 'Exception', 'BaseException'].includes(name),
    )
  }

  private execFor(node: SyntaxNode, scope: Scope): Flow {
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
  private taint(node: SyntaxNode, scope: Scope, what: string, at: SyntaxNode = node): void {
    const reason = `${location(scope.module, at)}: ${what}`
    const names = new Set(node.descendantsOfType('identifier').map((n) => n?.text ?? ''))
    for (const name of names) {
      const value = this.lookup(scope, name)
      if (value.kind === 'dict' || value.kind === 'list') markIncomplete(value, reason)
    }
  }

  private decoratorsOf(node: SyntaxNode): SyntaxNode[] {
    return named(node)
      .filter((child) => child.type === 'decorator')
      .map((decorator) => named(decorator)[0])
      .filter((expression): expression is SyntaxNode => expression !== undefined)
  }

  private execDecorated(node: SyntaxNode, scope: Scope): void {
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

  private defineFunction(node: SyntaxNode, scope: Scope, decorators: string[]): void {
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

  private defineClass(node: SyntaxNode, scope: Scope, decorators: SyntaxNode[]): void {
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

  // ---------------------------------------------------------------------------------------------
  // Expressions

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

  private evaluate(node: SyntaxNode, scope: Scope): PyValue {
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

  private evalString(node: SyntaxNode, scope: Scope): PyValue {
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

  private evalSequence(node: SyntaxNode, scope: Scope, tuple: boolean): PyList {
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

  private evalDict(node: SyntaxNode, scope: Scope): PyDict {
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

  /** Merges `source` into `target` like `dict.update`; marks the target when it cannot. */
  private update(target: PyDict, source: PyValue, where: string): void {
    if (source.kind === 'dict') {
      for (const { key, value } of source.entries.values()) dictSet(target, key, value)
      for (const reason of source.incomplete ?? []) markIncomplete(target, reason)
      return
    }
    if (source.kind === 'list') {
      let ok = true
      for (const pair of source.items) {
        if (pair.kind === 'list' && pair.items.length === 2)
          dictSet(target, pair.items[0], pair.items[1])
        else ok = false
      }
      if (ok && !source.incomplete) return
    }
    markIncomplete(target, `${where} is not statically known`)
  }

  private evalComprehension(node: SyntaxNode, scope: Scope): PyValue {
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

  private evalSubscript(node: SyntaxNode, scope: Scope): PyValue {
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

  private evalComparison(node: SyntaxNode, scope: Scope): PyValue {
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

  private evalCall(node: SyntaxNode, scope: Scope): PyValue {
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

  private callExternal(
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

  private invoke(
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

  /** Appends in place, refusing to grow a list past MAX_SEQUENCE (loops can double lists). */
  private extend(target: PyList, items: PyValue[] | null, where: string): void {
    if (!items) markIncomplete(target, `${where} is not statically known`)
    else if (target.items.length + items.length > MAX_SEQUENCE) {
      markIncomplete(target, `${where}: too many items`)
    } else target.items.push(...items)
  }

  /** The items of an iterable that is statically known; null otherwise. */
  iterate(value: PyValue): PyValue[] | null {
    switch (value.kind) {
      case 'list':
        return value.items
      case 'dict':
        return [...value.entries.values()].map(({ key }) => key)
      case 'str':
        return value.value.length > MAX_SEQUENCE ? null : [...value.value].map(str)
      default:
        return null
    }
  }

  private callBuiltin(
    name: string,
    self: PyValue | undefined,
    args: PyValue[],
    kwargs: Map<string, PyValue>,
    site: CallSite,
  ): PyValue {
    const where = `${location(site.scope.module, site.node)}: ${excerpt(site.node)}`
    const [first, second] = args
    switch (name) {
      case 'dict': {
        const result = newDict()
        if (first) this.update(result, first, where)
        for (const [key, value] of kwargs) dictSet(result, str(key), value)
        return result
      }
      case 'list':
      case 'tuple':
      case 'set':
      case 'frozenset':
      case 'reversed':
      case 'sorted': {
        const items = first ? this.iterate(first) : []
        if (!items || (first?.kind === 'list' && first.incomplete) || kwargs.size) return DYNAMIC
        const copy = [...items]
        if (name === 'reversed') copy.reverse()
        if (name === 'sorted') {
          // Strings, or pathlib paths (which sort by their text on POSIX).
          const kind = copy[0]?.kind
          if (copy.every((item) => item.kind === 'str') || copy.every((i) => i.kind === 'path')) {
            copy.sort((a, b) =>
              (a.kind === 'str' || a.kind === 'path') &&
              (b.kind === 'str' || b.kind === 'path') &&
              a.value < b.value
                ? -1
                : 1,
            )
          } else if (kind !== undefined) return DYNAMIC
        }
        return list(copy, name === 'tuple')
      }
      case 'str':
        if (!first) return str('')
        return ((text) => (text === null ? DYNAMIC : str(text)))(toPyStr(first))
      case 'int':
        if (!first) return { kind: 'int', value: BigInt(0) }
        if (first.kind === 'int') return first
        if (first.kind === 'bool') return { kind: 'int', value: BigInt(first.value ? 1 : 0) }
        if (first.kind === 'float' && Number.isFinite(first.value)) {
          return { kind: 'int', value: BigInt(Math.trunc(first.value)) }
        }
        return first.kind === 'str' ? parseIntLiteral(first.value.trim()) : DYNAMIC
      case 'float':
        if (!first) return { kind: 'float', value: 0 }
        if (first.kind === 'int') return { kind: 'float', value: Number(first.value) }
        if (first.kind === 'float') return first
        if (first.kind === 'str') {
          const text = first.value.trim().toLowerCase()
          if (text === 'inf' || text === '+inf') return { kind: 'float', value: Infinity }
          if (text === '-inf') return { kind: 'float', value: -Infinity }
          return parseFloatLiteral(text)
        }
        return DYNAMIC
      case 'bool':
        return pyBool(first ? truthy(first) : false)
      case 'len': {
        if (first?.kind === 'list' && !first.incomplete)
          return { kind: 'int', value: BigInt(first.items.length) }
        if (first?.kind === 'dict' && !first.incomplete)
          return { kind: 'int', value: BigInt(first.entries.size) }
        if (first?.kind === 'str') return { kind: 'int', value: BigInt(first.value.length) }
        return DYNAMIC
      }
      case 'range': {
        if (!args.every((a) => a.kind === 'int') || !args.length) return DYNAMIC
        const [a, b, c] = args.map((a) => (a.kind === 'int' ? Number(a.value) : 0))
        const start = args.length === 1 ? 0 : a
        const stop = args.length === 1 ? a : b
        const step = args.length === 3 ? c : 1
        if (step === 0 || Math.abs((stop - start) / step) > MAX_SEQUENCE) return DYNAMIC
        const items: PyValue[] = []
        for (let i = start; step > 0 ? i < stop : i > stop; i += step) {
          items.push({ kind: 'int', value: BigInt(i) })
        }
        return list(items)
      }
      case 'zip': {
        const sources = args.map((a) => this.iterate(a))
        if (!sources.length || sources.some((s) => s === null)) return DYNAMIC
        const length = Math.min(...sources.map((s) => s?.length ?? 0))
        return list(
          Array.from({ length }, (_, i) =>
            list(
              sources.map((s) => (s as PyValue[])[i]),
              true,
            ),
          ),
        )
      }
      case 'enumerate': {
        const items = first ? this.iterate(first) : null
        const start = second?.kind === 'int' ? Number(second.value) : 0
        if (!items) return DYNAMIC
        return list(
          items.map((item, i) => list([{ kind: 'int', value: BigInt(i + start) }, item], true)),
        )
      }
      case 'print':
        return NONE
      case 'super':
        return this.superOf(args, site.scope)
      case 'getattr': {
        if (!first || second?.kind !== 'str') return DYNAMIC
        const value = this.getAttr(first, second.value)
        return value.kind === 'dynamic' && args[2] ? args[2] : value
      }
      case 'hasattr':
        return second?.kind === 'str' && first ? this.hasAttr(first, second.value) : DYNAMIC
      case 'dir': {
        // Python's dir() of a module is its namespace, sorted.
        if (first?.kind !== 'module') return DYNAMIC
        return list([...this.load(first.mod).scope.vars.keys()].sort().map(str))
      }
      case 'isinstance':
        // `isinstance(value, type)`: is it a class.
        if (second?.kind === 'builtin' && second.name === 'type' && first) {
          if (first.kind === 'class') return bool(true)
          if (
            ['str', 'int', 'float', 'bool', 'none', 'list', 'dict', 'function', 'module'].includes(
              first.kind,
            )
          ) {
            return bool(false)
          }
        }
        return DYNAMIC
      case '__import__':
        return dunderImport(this, args, kwargs, site.scope.module)
      case 'spec.exec_module':
        if (first?.kind === 'module') this.load(first.mod)
        return NONE
    }
    if (name.startsWith('Path.') && self?.kind === 'path') {
      return callPathMethod(this, name, self.value, args)
    }
    if (self) return this.callMethod(name, self, args, kwargs, where)
    return DYNAMIC
  }

  /** `hasattr`: known for the package's modules, classes and instances; unknown otherwise. */
  private hasAttr(object: PyValue, name: string): PyValue {
    if (object.kind === 'module') {
      const loaded = this.load(object.mod)
      if (loaded.scope.vars.has(name)) return bool(true)
      if (this.module([...loaded.parts, name])) return bool(true)
      return loaded.file !== undefined ? bool(false) : DYNAMIC
    }
    if (object.kind === 'class' || object.kind === 'instance') {
      // Instances may gain attributes in __init__: only a class member is a sure yes.
      if (this.classMember(object.cls, name)) return bool(true)
      return object.kind === 'class' ? bool(false) : DYNAMIC
    }
    return DYNAMIC
  }

  private superOf(args: PyValue[], scope: Scope): PyValue {
    const [first, second] = args
    if (first?.kind === 'class' && second) return { kind: 'super', cls: first.cls, self: second }
    if (args.length) return DYNAMIC
    for (let s: Scope | null = scope; s; s = s.parent) {
      if (s.kind !== 'function' || !s.fn) continue
      const cls = s.fn.definingClass
      return cls && s.firstArg ? { kind: 'super', cls, self: s.firstArg } : DYNAMIC
    }
    return DYNAMIC
  }

  private callMethod(
    name: string,
    self: PyValue,
    args: PyValue[],
    kwargs: Map<string, PyValue>,
    where: string,
  ): PyValue {
    const [first, second] = args
    if (self.kind === 'dict') {
      switch (name) {
        case 'dict.update':
          if (first) this.update(self, first, where)
          for (const [key, value] of kwargs) dictSet(self, str(key), value)
          return NONE
        case 'dict.copy': {
          const copy = newDict()
          this.update(copy, self, where)
          return copy
        }
        case 'dict.keys':
          return list([...self.entries.values()].map(({ key }) => key))
        case 'dict.values':
          return list([...self.entries.values()].map(({ value }) => value))
        case 'dict.items':
          return list([...self.entries.values()].map(({ key, value }) => list([key, value], true)))
        case 'dict.get':
        case 'dict.setdefault':
        case 'dict.pop': {
          if (!first) return DYNAMIC
          const found = dictGet(self, first)
          if (found) {
            if (name === 'dict.pop') {
              const key = dictKey(first)
              if (key !== null) self.entries.delete(key)
            }
            return found
          }
          if (self.incomplete) return DYNAMIC
          const fallback = second ?? NONE
          if (name === 'dict.setdefault') dictSet(self, first, fallback)
          return fallback
        }
      }
    }
    if (self.kind === 'list') {
      switch (name) {
        case 'list.append':
          this.extend(self, first ? [first] : null, where)
          return NONE
        case 'list.extend':
          this.extend(self, first ? this.iterate(first) : null, where)
          return NONE
        case 'list.insert':
          if (first?.kind === 'int' && second && self.items.length < MAX_SEQUENCE) {
            self.items.splice(
              Math.max(0, Math.min(self.items.length, Number(first.value))),
              0,
              second,
            )
          } else markIncomplete(self, `${where} is not statically known`)
          return NONE
        case 'list.copy':
          return list([...self.items], self.tuple)
      }
    }
    if (self.kind === 'str') return this.callStrMethod(name, self.value, args, kwargs)
    return DYNAMIC
  }

  private callStrMethod(
    name: string,
    text: string,
    args: PyValue[],
    kwargs: Map<string, PyValue>,
  ): PyValue {
    const result = this.strMethod(name, text, args, kwargs)
    return result.kind === 'str' && result.value.length > MAX_STRING ? DYNAMIC : result
  }

  private strMethod(
    name: string,
    text: string,
    args: PyValue[],
    kwargs: Map<string, PyValue>,
  ): PyValue {
    const [first, second] = args
    const strings = args.every((a) => a.kind === 'str')
    const arg = (value: PyValue | undefined) => (value?.kind === 'str' ? value.value : undefined)
    switch (name) {
      case 'str.format': {
        const formatted = formatString(text, args, kwargs)
        return formatted === null ? DYNAMIC : str(formatted)
      }
      case 'str.join': {
        const items = first ? this.iterate(first) : null
        if (!items || !items.every((i) => i.kind === 'str')) return DYNAMIC
        return str(items.map((i) => (i.kind === 'str' ? i.value : '')).join(text))
      }
      case 'str.upper':
        return str(text.toUpperCase())
      case 'str.lower':
        return str(text.toLowerCase())
      case 'str.strip':
      case 'str.lstrip':
      case 'str.rstrip':
        if (args.length) return DYNAMIC
        return str(
          name === 'str.strip'
            ? text.trim()
            : name === 'str.lstrip'
              ? text.trimStart()
              : text.trimEnd(),
        )
      case 'str.replace':
        if (!strings || args.length !== 2) return DYNAMIC
        return str(text.split(arg(first) ?? '').join(arg(second) ?? ''))
      case 'str.startswith':
        return first?.kind === 'str' ? bool(text.startsWith(first.value)) : DYNAMIC
      case 'str.endswith':
        return first?.kind === 'str' ? bool(text.endsWith(first.value)) : DYNAMIC
      case 'str.split':
        if (first?.kind !== 'str' || args.length !== 1 || !first.value) return DYNAMIC
        return list(text.split(first.value).map(str))
      default:
        return DYNAMIC
    }
  }
}
