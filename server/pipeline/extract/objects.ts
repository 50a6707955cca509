// Scopes, classes and attributes: name lookup, lazily run class bodies, the MRO, and what
// `value.name` gives for each kind of value (modules, classes, enums, paths, externals).
import type { Node as SyntaxNode } from 'web-tree-sitter'

import { ModuleLoader } from './imports'
import { pathAttribute, stdlibConstant } from './stdlib'
import { named } from './syntax'
import {
  DYNAMIC,
  bool,
  dictSet,
  newDict,
  str,
  type ClassInfo,
  type PyValue,
  type Scope,
} from './values'

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

export abstract class ObjectModel extends ModuleLoader {
  abstract evalExpr(node: SyntaxNode | null, scope: Scope): PyValue

  protected bind(scope: Scope, name: string, value: PyValue): void {
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

  protected nonClassScope(scope: Scope): Scope {
    let s = scope
    while (s.kind === 'class' && s.parent) s = s.parent
    return s
  }

  protected classBody(cls: ClassInfo): Scope {
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

  protected isEnum(cls: ClassInfo): boolean {
    return this.mro(cls).some((c) =>
      (c.bases ?? []).some(
        (base) => base.kind === 'external' && ENUM_BASES.has(base.path[base.path.length - 1]),
      ),
    )
  }

  protected isStrSubclass(cls: ClassInfo): boolean {
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

  protected bindMember(value: PyValue, owner: PyValue, instance?: PyValue): PyValue {
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

  /** `hasattr`: known for the package's modules, classes and instances; unknown otherwise. */
  protected hasAttr(object: PyValue, name: string): PyValue {
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

  protected superOf(args: PyValue[], scope: Scope): PyValue {
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
}
