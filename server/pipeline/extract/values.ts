// The values the static evaluator computes, and how they become JSON text.
import type { Node as SyntaxNode } from 'web-tree-sitter'

/** Stands in for any value that cannot be known without running the code. */
export const DYNAMIC_PLACEHOLDER = '<dynamic>'

export interface Scope {
  vars: Map<string, PyValue>
  parent: Scope | null
  module: ModuleState
  kind: 'module' | 'class' | 'function'
  /** Names declared `global` in a function body. */
  globals?: Set<string>
  /** The function running in this scope, for zero-argument `super()`. */
  fn?: FunctionInfo
  firstArg?: PyValue
  /** For a class body: the class being defined. */
  cls?: ClassInfo
}

export interface ModuleState {
  /** Dotted path inside the package; '' for the package root. */
  name: string
  parts: string[]
  /** Path of its file inside the package; undefined for a directory without `__init__.py`. */
  file: string | undefined
  isPackage: boolean
  scope: Scope
  state: 'new' | 'running' | 'done'
  root: SyntaxNode | null
}

export interface ClassInfo {
  name: string
  node: SyntaxNode
  /** The scope the class statement ran in. */
  scope: Scope
  /** Filled on first use: the class body runs lazily, after its module has finished. */
  body: Scope | null
  bases: PyValue[] | null
  state: 'new' | 'running' | 'done'
}

export interface FunctionInfo {
  name: string
  node: SyntaxNode
  closure: Scope
  decorators: string[]
  definingClass: ClassInfo | null
  isGenerator?: boolean
}

export interface PyList {
  kind: 'list'
  items: PyValue[]
  tuple: boolean
  incomplete?: string[]
}

export interface PyDict {
  kind: 'dict'
  /** Keyed by `dictKey`, in insertion order like a Python dict. */
  entries: Map<string, { key: PyValue; value: PyValue }>
  incomplete?: string[]
}

export interface PyCall {
  kind: 'call'
  callee: PyExternal
  args: PyValue[]
  kwargs: Map<string, PyValue>
}

/** Something outside the package (ComfyUI, torch, …), known only by how it is reached. */
export interface PyExternal {
  kind: 'external'
  path: string[]
  origin?: PyCall
}

export type PyValue =
  | { kind: 'str'; value: string }
  | { kind: 'int'; value: bigint }
  | { kind: 'float'; value: number }
  | { kind: 'bool'; value: boolean }
  | { kind: 'none' }
  | PyList
  | PyDict
  | { kind: 'class'; cls: ClassInfo }
  | { kind: 'instance'; cls: ClassInfo }
  | { kind: 'function'; fn: FunctionInfo; self?: PyValue }
  | { kind: 'module'; mod: ModuleState }
  | PyExternal
  | PyCall
  | { kind: 'super'; cls: ClassInfo; self: PyValue }
  | { kind: 'builtin'; name: string; self?: PyValue }
  /** A `pathlib.Path`; `value` as `str(path)` would give it. */
  | { kind: 'path'; value: string }
  /** What `importlib.util.spec_from_file_location` returns for a module of the package. */
  | { kind: 'spec'; mod: ModuleState }
  /** A member of an `enum.Enum` subclass defined in the package. */
  | { kind: 'enum'; cls: ClassInfo; name: string; value: PyValue }
  | { kind: 'dynamic' }

export const DYNAMIC: PyValue = { kind: 'dynamic' }
export const NONE: PyValue = { kind: 'none' }

export const str = (value: string): PyValue => ({ kind: 'str', value })
export const bool = (value: boolean): PyValue => ({ kind: 'bool', value })
export const list = (items: PyValue[], tuple = false): PyList => ({ kind: 'list', items, tuple })
export const newDict = (): PyDict => ({ kind: 'dict', entries: new Map() })

/** The identity of a hashable value as a dict key; null when it is unhashable or unknown. */
export function dictKey(value: PyValue, budget = { steps: 1_000 }): string | null {
  // Nested tuples can share parts; bound the work rather than expand them exponentially.
  if (--budget.steps < 0) return null
  switch (value.kind) {
    case 'str':
      return `s${value.value}`
    case 'int':
      return `i${value.value}`
    // True == 1 and 2.0 == 2 in Python, so they share a key.
    case 'bool':
      return value.value ? 'i1' : 'i0'
    case 'float':
      return Number.isInteger(value.value) ? `i${BigInt(value.value)}` : `f${value.value}`
    case 'none':
      return 'n'
    case 'list':
      if (!value.tuple) return null
      {
        const keys = value.items.map((item) => dictKey(item, budget))
        return keys.every((key) => key !== null) ? `t${JSON.stringify(keys)}` : null
      }
    case 'class':
      return `c${value.cls.node.id}:${value.cls.scope.module.name}`
    default:
      return null
  }
}

export function dictSet(dict: PyDict, key: PyValue, value: PyValue): boolean {
  const id = dictKey(key)
  if (id === null) return false
  const existing = dict.entries.get(id)
  // Python keeps the first key object and the original position on overwrite.
  dict.entries.set(id, { key: existing?.key ?? key, value })
  return true
}

export function dictGet(dict: PyDict, key: PyValue): PyValue | undefined {
  const id = dictKey(key)
  return id === null ? undefined : dict.entries.get(id)?.value
}

export function markIncomplete(target: PyList | PyDict, reason: string): void {
  target.incomplete ??= []
  if (!target.incomplete.includes(reason)) target.incomplete.push(reason)
}

/** Python truthiness; undefined when it cannot be known. */
export function truthy(value: PyValue): boolean | undefined {
  switch (value.kind) {
    case 'str':
      return value.value.length > 0
    case 'int':
      return value.value !== BigInt(0)
    case 'float':
      return value.value !== 0
    case 'bool':
      return value.value
    case 'none':
      return false
    case 'list':
      return value.incomplete ? (value.items.length > 0 ? true : undefined) : value.items.length > 0
    case 'dict':
      return value.incomplete ? (value.entries.size > 0 ? true : undefined) : value.entries.size > 0
    case 'class':
    case 'function':
    case 'module':
    case 'instance':
    case 'path':
    case 'spec':
      return true
    default:
      return undefined
  }
}

/** Python's `repr(float)`: the shortest round-trip digits, fixed notation for 1e-4 <= |x| < 1e16. */
export function pythonFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'NaN'
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity'
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0'
  const [mantissa, exponentText] = x.toExponential().split('e')
  const exponent = Number(exponentText)
  const negative = mantissa.startsWith('-')
  const digits = mantissa.replace('-', '').replace('.', '')
  const sign = negative ? '-' : ''
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`
    const intPart = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0')
    const fraction = digits.slice(exponent + 1)
    return `${sign}${intPart}.${fraction || '0'}`
  }
  const fraction = digits.length > 1 ? `.${digits.slice(1)}` : ''
  const expSign = exponent < 0 ? '-' : '+'
  return `${sign}${digits[0]}${fraction}e${expSign}${String(Math.abs(exponent)).padStart(2, '0')}`
}

/** How a dict key appears in `json.dumps` output. */
function jsonKey(key: PyValue): string | null {
  switch (key.kind) {
    case 'str':
      return key.value
    case 'int':
      return key.value.toString()
    case 'bool':
      return key.value ? 'true' : 'false'
    case 'none':
      return 'null'
    case 'float':
      return pythonFloatRepr(key.value)
    default:
      return null
  }
}

export class OutputTooLarge extends Error {}

/**
 * Compact JSON text like Python's `json.dumps(value, separators=(',', ':'))`: tuples become
 * arrays, unknown values become "<dynamic>", integers keep every digit and floats keep Python's
 * notation (`1.0`). Throws OutputTooLarge past `maxChars`.
 */
export function toJson(value: PyValue, maxChars = 1_000_000): string {
  const out: string[] = []
  let size = 0
  const active = new Set<PyValue>()
  const emit = (text: string) => {
    size += text.length
    if (size > maxChars) throw new OutputTooLarge()
    out.push(text)
  }
  const visit = (v: PyValue): void => {
    switch (v.kind) {
      case 'str':
        return emit(JSON.stringify(v.value))
      case 'int':
        return emit(v.value.toString())
      case 'float':
        // JSON has no NaN/Infinity; Python would emit them, but the result must stay parseable.
        return emit(Number.isFinite(v.value) ? pythonFloatRepr(v.value) : 'null')
      case 'bool':
        return emit(v.value ? 'true' : 'false')
      case 'none':
        return emit('null')
      case 'list':
      case 'dict':
        if (active.has(v)) return emit(JSON.stringify(DYNAMIC_PLACEHOLDER))
        active.add(v)
        if (v.kind === 'list') {
          emit('[')
          v.items.forEach((item, i) => {
            if (i > 0) emit(',')
            visit(item)
          })
          emit(']')
        } else {
          emit('{')
          let first = true
          for (const { key, value: item } of v.entries.values()) {
            const name = jsonKey(key)
            if (name === null) continue
            if (!first) emit(',')
            first = false
            emit(`${JSON.stringify(name)}:`)
            visit(item)
          }
          emit('}')
        }
        active.delete(v)
        return
      default:
        return emit(JSON.stringify(DYNAMIC_PLACEHOLDER))
    }
  }
  visit(value)
  return out.join('')
}
