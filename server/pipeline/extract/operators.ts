// Python literals and operators on statically known values. Anything else yields DYNAMIC.
import { joinPath } from './archive-fs'
import {
  DYNAMIC,
  bool,
  dictKey,
  dictSet,
  list,
  newDict,
  pythonFloatRepr,
  type PyValue,
} from './values'

export const MAX_SEQUENCE = 10_000
export const MAX_STRING = 100_000
// Integers beyond this many bits are not worth computing (and could stall the event loop).
const MAX_INT_HEX_DIGITS = 4096

const SIMPLE_ESCAPES: Record<string, string> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
}

const isHex = (c: string) =>
  (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
const isOctal = (c: string) => c >= '0' && c <= '7'

/** Decodes the backslash escapes of a (non-raw) string literal body; null when unsupported. */
export function decodeEscapes(text: string): string | null {
  if (!text.includes('\\')) return text
  let out = ''
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c !== '\\' || i + 1 >= text.length) {
      out += c
      continue
    }
    const next = text[i + 1]
    if (next === '\n') {
      i += 1
    } else if (next === '\r') {
      i += text[i + 2] === '\n' ? 2 : 1
    } else if (next in SIMPLE_ESCAPES) {
      out += SIMPLE_ESCAPES[next]
      i += 1
    } else if (isOctal(next)) {
      let digits = ''
      while (digits.length < 3 && isOctal(text[i + 1 + digits.length] ?? '')) {
        digits += text[i + 1 + digits.length]
      }
      out += String.fromCodePoint(parseInt(digits, 8))
      i += digits.length
    } else if (next === 'x' || next === 'u' || next === 'U') {
      const length = next === 'x' ? 2 : next === 'u' ? 4 : 8
      const digits = text.slice(i + 2, i + 2 + length)
      if (digits.length !== length || ![...digits].every(isHex)) return null
      const code = parseInt(digits, 16)
      if (code > 0x10ffff) return null
      out += String.fromCodePoint(code)
      i += 1 + length
    } else if (next === 'N') {
      // \N{NAME} needs the Unicode name database.
      return null
    } else {
      out += c
    }
  }
  return out
}

export function parseIntLiteral(text: string): PyValue {
  let digits = text.split('_').join('')
  if (digits.endsWith('j') || digits.endsWith('J')) return DYNAMIC
  if (digits.endsWith('l') || digits.endsWith('L')) digits = digits.slice(0, -1)
  try {
    return { kind: 'int', value: BigInt(digits) }
  } catch {
    return DYNAMIC
  }
}

export function parseFloatLiteral(text: string): PyValue {
  const digits = text.split('_').join('')
  if (digits.endsWith('j') || digits.endsWith('J')) return DYNAMIC
  const value = Number(digits)
  return Number.isNaN(value) ? DYNAMIC : { kind: 'float', value }
}

/** `str(value)` for the scalar kinds; null otherwise. */
export function toPyStr(value: PyValue): string | null {
  switch (value.kind) {
    case 'str':
      return value.value
    case 'int':
      return value.value.toString()
    case 'float':
      if (Number.isNaN(value.value)) return 'nan'
      if (!Number.isFinite(value.value)) return value.value > 0 ? 'inf' : '-inf'
      return pythonFloatRepr(value.value)
    case 'bool':
      return value.value ? 'True' : 'False'
    case 'none':
      return 'None'
    case 'class':
      return `<class '${value.cls.name}'>`
    case 'path':
      return value.value
    default:
      return null
  }
}

type Num = { int: bigint } | { float: number }

function numeric(value: PyValue): Num | null {
  if (value.kind === 'int') return { int: value.value }
  if (value.kind === 'bool') return { int: value.value ? BigInt(1) : BigInt(0) }
  if (value.kind === 'float') return { float: value.value }
  return null
}

const asFloat = (n: Num) => ('int' in n ? Number(n.int) : n.float)

function intResult(value: bigint): PyValue {
  const magnitude = value < BigInt(0) ? -value : value
  return magnitude.toString(16).length > MAX_INT_HEX_DIGITS ? DYNAMIC : { kind: 'int', value }
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b
  return a % b !== BigInt(0) && a < BigInt(0) !== b < BigInt(0) ? q - BigInt(1) : q
}

function intOp(op: string, a: bigint, b: bigint): PyValue {
  const zero = BigInt(0)
  switch (op) {
    case '+':
      return intResult(a + b)
    case '-':
      return intResult(a - b)
    case '*':
      return intResult(a * b)
    case '/':
      return b === zero ? DYNAMIC : { kind: 'float', value: Number(a) / Number(b) }
    case '//':
      return b === zero ? DYNAMIC : intResult(floorDiv(a, b))
    case '%':
      return b === zero ? DYNAMIC : intResult(a - floorDiv(a, b) * b)
    case '**': {
      if (b < zero) return { kind: 'float', value: Number(a) ** Number(b) }
      const bits = (a < zero ? -a : a).toString(2).length
      if (BigInt(bits) * b > BigInt(MAX_INT_HEX_DIGITS * 4)) return DYNAMIC
      return intResult(a ** b)
    }
    case '<<':
      return b < zero || b > BigInt(MAX_INT_HEX_DIGITS * 4) ? DYNAMIC : intResult(a << b)
    case '>>':
      return b < zero ? DYNAMIC : intResult(a >> b)
    case '|':
      return intResult(a | b)
    case '&':
      return intResult(a & b)
    case '^':
      return intResult(a ^ b)
    default:
      return DYNAMIC
  }
}

function floatOp(op: string, a: number, b: number): PyValue {
  switch (op) {
    case '+':
      return { kind: 'float', value: a + b }
    case '-':
      return { kind: 'float', value: a - b }
    case '*':
      return { kind: 'float', value: a * b }
    case '/':
      return b === 0 ? DYNAMIC : { kind: 'float', value: a / b }
    case '//':
      return b === 0 ? DYNAMIC : { kind: 'float', value: Math.floor(a / b) }
    case '%':
      return b === 0 ? DYNAMIC : { kind: 'float', value: ((a % b) + b) % b }
    case '**':
      return { kind: 'float', value: a ** b }
    default:
      return DYNAMIC
  }
}

function repeat(value: PyValue, times: PyValue): PyValue {
  if (times.kind !== 'int' && times.kind !== 'bool') return DYNAMIC
  const count = Math.max(0, Number(times.kind === 'int' ? times.value : times.value ? 1 : 0))
  if (value.kind === 'str') {
    return value.value.length * count > MAX_STRING
      ? DYNAMIC
      : { kind: 'str', value: value.value.repeat(count) }
  }
  if (value.kind === 'list' && !value.incomplete) {
    if (value.items.length * count > MAX_SEQUENCE) return DYNAMIC
    const items: PyValue[] = []
    for (let i = 0; i < count; i++) items.push(...value.items)
    return list(items, value.tuple)
  }
  return DYNAMIC
}

export function binaryOp(op: string, left: PyValue, right: PyValue): PyValue {
  // `Path(...) / "name"` and `"dir" / Path(...)`.
  if (op === '/' && (left.kind === 'path' || right.kind === 'path')) {
    const a = left.kind === 'path' || left.kind === 'str' ? left.value : null
    const b = right.kind === 'path' || right.kind === 'str' ? right.value : null
    return a === null || b === null ? DYNAMIC : { kind: 'path', value: joinPath([a, b]) }
  }
  if (op === '+') {
    if (left.kind === 'str' && right.kind === 'str') {
      const joined = left.value + right.value
      return joined.length > MAX_STRING ? DYNAMIC : { kind: 'str', value: joined }
    }
    if (left.kind === 'list' && right.kind === 'list' && left.tuple === right.tuple) {
      if (left.items.length + right.items.length > MAX_SEQUENCE) return DYNAMIC
      const joined = list([...left.items, ...right.items], left.tuple)
      const reasons = [...(left.incomplete ?? []), ...(right.incomplete ?? [])]
      if (reasons.length) joined.incomplete = reasons
      return joined
    }
  }
  if (op === '*') {
    if (left.kind === 'str' || left.kind === 'list') return repeat(left, right)
    if (right.kind === 'str' || right.kind === 'list') return repeat(right, left)
  }
  if (op === '|' && left.kind === 'dict' && right.kind === 'dict') {
    const merged = newDict()
    for (const source of [left, right]) {
      for (const { key, value } of source.entries.values()) dictSet(merged, key, value)
      for (const reason of source.incomplete ?? []) (merged.incomplete ??= []).push(reason)
    }
    return merged
  }
  const a = numeric(left)
  const b = numeric(right)
  if (!a || !b) return DYNAMIC
  if ('int' in a && 'int' in b) return intOp(op, a.int, b.int)
  return floatOp(op, asFloat(a), asFloat(b))
}

export function unaryOp(op: string, operand: PyValue): PyValue {
  const n = numeric(operand)
  if (!n) return DYNAMIC
  if (op === '+') return 'int' in n ? { kind: 'int', value: n.int } : operand
  if (op === '-')
    return 'int' in n ? { kind: 'int', value: -n.int } : { kind: 'float', value: -n.float }
  if (op === '~' && 'int' in n) return { kind: 'int', value: ~n.int }
  return DYNAMIC
}

/** `a == b` when both sides are known well enough; undefined otherwise. */
export function pyEquals(a: PyValue, b: PyValue, budget = { steps: 10_000 }): boolean | undefined {
  // Shared nested lists could make a naive comparison exponential.
  if (--budget.steps < 0) return undefined
  if (a === b && a.kind !== 'float') return true
  const x = numeric(a)
  const y = numeric(b)
  if (x && y) {
    if ('int' in x && 'int' in y) return x.int === y.int
    return asFloat(x) === asFloat(y)
  }
  const scalar = (v: PyValue) => v.kind === 'str' || v.kind === 'none' || numeric(v) !== null
  if (scalar(a) && scalar(b)) {
    if (a.kind === 'str' && b.kind === 'str') return a.value === b.value
    return a.kind === 'none' && b.kind === 'none'
  }
  if (a.kind === 'list' && b.kind === 'list') {
    if (a.incomplete || b.incomplete) return undefined
    if (a.tuple !== b.tuple || a.items.length !== b.items.length) return false
    for (let i = 0; i < a.items.length; i++) {
      const same = pyEquals(a.items[i], b.items[i], budget)
      if (same !== true) return same
    }
    return true
  }
  if (a.kind === 'class' && b.kind === 'class') return a.cls === b.cls
  if (a.kind === 'path' && b.kind === 'path') return a.value === b.value
  if (a.kind === 'enum' && b.kind === 'enum') return a.cls === b.cls && a.name === b.name
  if ((scalar(a) && b.kind === 'list') || (a.kind === 'list' && scalar(b))) return false
  return undefined
}

function contains(container: PyValue, item: PyValue): boolean | undefined {
  if (container.kind === 'str' && item.kind === 'str') return container.value.includes(item.value)
  if (container.kind === 'dict') {
    const key = dictKey(item)
    if (key === null) return undefined
    return container.entries.has(key) ? true : container.incomplete ? undefined : false
  }
  if (container.kind === 'list') {
    let unknown = false
    for (const element of container.items) {
      const same = pyEquals(element, item)
      if (same === true) return true
      if (same === undefined) unknown = true
    }
    return unknown || container.incomplete ? undefined : false
  }
  return undefined
}

export function compare(op: string, a: PyValue, b: PyValue): boolean | undefined {
  switch (op) {
    case '==':
      return pyEquals(a, b)
    case '!=': {
      const same = pyEquals(a, b)
      return same === undefined ? undefined : !same
    }
    case 'in':
      return contains(b, a)
    case 'not in': {
      const found = contains(b, a)
      return found === undefined ? undefined : !found
    }
    case 'is':
    case 'is not': {
      // Only identity with None and the booleans is meaningful here.
      const singleton = (v: PyValue) => v.kind === 'none' || v.kind === 'bool'
      const opaque = (v: PyValue) =>
        v.kind === 'dynamic' || v.kind === 'external' || v.kind === 'call' || v.kind === 'builtin'
      if (!singleton(a) && !singleton(b)) return undefined
      if (opaque(a) || opaque(b)) return undefined
      const same = a.kind === b.kind && (a.kind !== 'bool' || pyEquals(a, b) === true)
      return op === 'is' ? same : !same
    }
  }
  let order: number | undefined
  const x = numeric(a)
  const y = numeric(b)
  if (x && y) {
    const p = asFloat(x)
    const q = asFloat(y)
    order = 'int' in x && 'int' in y ? (x.int < y.int ? -1 : x.int > y.int ? 1 : 0) : p - q
  } else if (a.kind === 'str' && b.kind === 'str') {
    order = a.value < b.value ? -1 : a.value > b.value ? 1 : 0
  }
  if (order === undefined || Number.isNaN(order)) return undefined
  switch (op) {
    case '<':
      return order < 0
    case '<=':
      return order <= 0
    case '>':
      return order > 0
    case '>=':
      return order >= 0
    default:
      return undefined
  }
}

export const pyBool = (value: boolean | undefined): PyValue =>
  value === undefined ? DYNAMIC : bool(value)

/** Python's slice semantics for a sequence of `length` items; null for a zero step. */
export function sliceIndices(
  length: number,
  start: number | null,
  stop: number | null,
  step: number | null,
): number[] | null {
  const by = step ?? 1
  if (by === 0) return null
  const lower = by > 0 ? 0 : -1
  const upper = by > 0 ? length : length - 1
  const clamp = (value: number | null, fallback: number) =>
    value === null ? fallback : value < 0 ? Math.max(value + length, lower) : Math.min(value, upper)
  const from = clamp(start, by > 0 ? lower : upper)
  const to = clamp(stop, by > 0 ? upper : lower)
  const indices: number[] = []
  for (let i = from; by > 0 ? i < to : i > to; i += by) indices.push(i)
  return indices
}

/** `template.format(*args, **kwargs)` for plain `{}`, `{0}` and `{name}` fields. */
export function formatString(
  template: string,
  args: PyValue[],
  kwargs: ReadonlyMap<string, PyValue>,
): string | null {
  let out = ''
  let auto = 0
  for (let i = 0; i < template.length; i++) {
    const c = template[i]
    if ((c === '{' || c === '}') && template[i + 1] === c) {
      out += c
      i += 1
      continue
    }
    if (c === '}') return null
    if (c !== '{') {
      out += c
      continue
    }
    const end = template.indexOf('}', i)
    if (end < 0) return null
    const field = template.slice(i + 1, end)
    i = end
    if (field.includes(':') || field.includes('!') || field.includes('.') || field.includes('[')) {
      return null
    }
    const isIndex = field !== '' && [...field].every((d) => d >= '0' && d <= '9')
    const value = field === '' ? args[auto++] : isIndex ? args[Number(field)] : kwargs.get(field)
    const text = value ? toPyStr(value) : null
    if (text === null) return null
    out += text
  }
  return out
}
