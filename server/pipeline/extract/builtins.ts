// Python builtins and the methods of dict, list and str on statically known values.
import {
  MAX_SEQUENCE,
  MAX_STRING,
  formatString,
  parseFloatLiteral,
  parseIntLiteral,
  pyBool,
  toPyStr,
} from './operators'
import { Expressions } from './expressions'
import { callPathMethod, dunderImport } from './stdlib'
import { type CallSite, location, excerpt } from './syntax'
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
  type PyDict,
  type PyList,
  type PyValue,
} from './values'

export abstract class Builtins extends Expressions {
  /** Merges `source` into `target` like `dict.update`; marks the target when it cannot. */
  protected update(target: PyDict, source: PyValue, where: string): void {
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

  /** Appends in place, refusing to grow a list past MAX_SEQUENCE (loops can double lists). */
  protected extend(target: PyList, items: PyValue[] | null, where: string): void {
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

  protected callBuiltin(
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
          const text = (item: PyValue) =>
            item.kind === 'str' || item.kind === 'path' ? item.value : null
          const kinds = new Set(copy.map((item) => item.kind))
          if (kinds.size > 1 || copy.some((item) => text(item) === null)) return DYNAMIC
          copy.sort((a, b) => ((text(a) ?? '') < (text(b) ?? '') ? -1 : 1))
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

  protected callMethod(
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

  protected callStrMethod(
    name: string,
    text: string,
    args: PyValue[],
    kwargs: Map<string, PyValue>,
  ): PyValue {
    const result = this.strMethod(name, text, args, kwargs)
    return result.kind === 'str' && result.value.length > MAX_STRING ? DYNAMIC : result
  }

  protected strMethod(
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
