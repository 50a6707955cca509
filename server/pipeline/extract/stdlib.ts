// Models of the few standard-library calls packs use to find and load their own modules: os,
// os.path, glob and pathlib over the archive (see archive-fs.ts), importlib and `__import__`.
// Anything else from outside the package stays an opaque external value.
import { ArchiveFs, basename, dirname, joinPath, normpath, splitext } from './archive-fs'
import { pyBool } from './operators'
import { DYNAMIC, list, str, truthy, type ModuleState, type PyValue } from './values'

/** What the models need from the interpreter. */
export interface StdlibHost {
  readonly fs: ArchiveFs
  /** `importlib.import_module(name, package)` from `from`; null when not a package module. */
  importByName(name: string, anchor: string | null, from: ModuleState): ModuleState | null
  /** The package module whose file is at `path` (absolute), if any. */
  moduleAtPath(path: string): ModuleState | null
  load(module: ModuleState): ModuleState
}

const path = (value: string): PyValue => ({ kind: 'path', value })
const strings = (values: string[]): PyValue => list(values.map(str))

/** A str or a Path as text (`os.fspath`); null otherwise. */
export function fsPath(value: PyValue | undefined): string | null {
  return value?.kind === 'str' || value?.kind === 'path' ? value.value : null
}

function importedModule(host: StdlibHost, module: ModuleState | null): PyValue {
  return module ? { kind: 'module', mod: host.load(module) } : DYNAMIC
}

/** `__import__(name, globals, locals, fromlist, level)`: the top package unless fromlist is set. */
export function dunderImport(
  host: StdlibHost,
  args: PyValue[],
  kwargs: Map<string, PyValue>,
  from: ModuleState,
): PyValue {
  const name = args[0]
  if (name?.kind !== 'str') return DYNAMIC
  const fromlist = args[3] ?? kwargs.get('fromlist')
  const levelValue = args[4] ?? kwargs.get('level')
  const level = levelValue?.kind === 'int' ? Number(levelValue.value) : 0
  const dotted = `${'.'.repeat(level)}${name.value}`
  const leaf = host.importByName(dotted, null, from)
  if (!leaf) return DYNAMIC
  host.load(leaf)
  if ((fromlist && truthy(fromlist) === true) || !name.value.includes('.')) {
    return importedModule(host, leaf)
  }
  return importedModule(
    host,
    host.importByName(`${'.'.repeat(level)}${name.value.split('.')[0]}`, null, from),
  )
}

/**
 * A call to `dotted` (e.g. `os.path.join`) with known arguments; undefined when it is not
 * modelled, DYNAMIC when it is but the answer cannot be known.
 */
export function callStdlib(
  host: StdlibHost,
  dotted: string,
  args: PyValue[],
  kwargs: Map<string, PyValue>,
  from: ModuleState,
): PyValue | undefined {
  const { fs } = host
  const [first, second] = args
  const text = fsPath(first)
  const texts = args.map(fsPath)
  const known = texts.every((t) => t !== null) && args.length > 0
  switch (dotted) {
    case 'os.path.join':
      return known ? str(joinPath(texts as string[])) : DYNAMIC
    case 'os.path.dirname':
      return text === null ? DYNAMIC : str(dirname(text))
    case 'os.path.basename':
      return text === null ? DYNAMIC : str(basename(text))
    case 'os.path.split':
      return text === null ? DYNAMIC : list([str(dirname(text)), str(basename(text))], true)
    case 'os.path.splitext':
      return text === null ? DYNAMIC : list(splitext(text).map(str), true)
    case 'os.path.relpath': {
      const start = fsPath(second ?? kwargs.get('start'))
      if (text === null || start === null || !text.startsWith('/') || !start.startsWith('/')) {
        return DYNAMIC
      }
      const to = normpath(text).split('/').filter(Boolean)
      const base = normpath(start).split('/').filter(Boolean)
      let common = 0
      while (common < to.length && common < base.length && to[common] === base[common]) common++
      const up = base.slice(common).map(() => '..')
      return str([...up, ...to.slice(common)].join('/') || '.')
    }
    case 'os.path.normpath':
      return text === null ? DYNAMIC : str(normpath(text))
    case 'os.path.abspath':
    case 'os.path.realpath':
      // Relative paths depend on the working directory (ComfyUI's), unknown here.
      return text?.startsWith('/') ? str(normpath(text)) : DYNAMIC
    case 'os.path.exists':
      return text === null ? DYNAMIC : pyBool(fs.exists(text))
    case 'os.path.isdir':
      return text === null ? DYNAMIC : pyBool(fs.isDir(text))
    case 'os.path.isfile':
      return text === null ? DYNAMIC : pyBool(fs.isFile(text))
    case 'os.fspath':
      return text === null ? DYNAMIC : str(text)
    case 'os.listdir': {
      const names = text === null ? null : fs.listdir(text)
      return names ? strings(names) : DYNAMIC
    }
    case 'os.walk': {
      const walked = text === null ? null : fs.walk(text)
      if (!walked) return DYNAMIC
      return list(
        walked.map(([dir, dirs, files]) => list([str(dir), strings(dirs), strings(files)], true)),
      )
    }
    case 'glob.glob':
    case 'glob.iglob': {
      const recursive = kwargs.get('recursive')
      const found =
        text === null ? null : fs.glob(text, recursive ? truthy(recursive) === true : false)
      return found ? strings(found) : DYNAMIC
    }
    case 'pathlib.Path':
    case 'pathlib.PurePath':
    case 'pathlib.PosixPath':
      if (!args.length) return DYNAMIC
      return known ? path(joinPath(texts as string[])) : DYNAMIC
    case 'importlib.import_module': {
      if (first?.kind !== 'str') return DYNAMIC
      const anchor = second ?? kwargs.get('package')
      const target = host.importByName(
        first.value,
        anchor?.kind === 'str' ? anchor.value : null,
        from,
      )
      return importedModule(host, target)
    }
    case 'importlib.util.spec_from_file_location': {
      const location = fsPath(second ?? kwargs.get('location'))
      const target = location === null ? null : host.moduleAtPath(location)
      return target ? { kind: 'spec', mod: target } : DYNAMIC
    }
    case 'importlib.util.module_from_spec':
      return first?.kind === 'spec' ? { kind: 'module', mod: first.mod } : DYNAMIC
    case 'inspect.isclass':
      return !first ||
        first.kind === 'dynamic' ||
        first.kind === 'external' ||
        first.kind === 'call'
        ? DYNAMIC
        : pyBool(first.kind === 'class')
    default:
      return undefined
  }
}

/** Module constants such as `os.sep` (POSIX, as ComfyUI on Linux sees them). */
export function stdlibConstant(dotted: string): PyValue | undefined {
  switch (dotted) {
    case 'os.sep':
    case 'os.path.sep':
      return str('/')
    case 'os.extsep':
      return str('.')
    case 'os.curdir':
      return str('.')
    default:
      return undefined
  }
}

/** `path.attribute` on a pathlib.Path: its properties, or its methods as bound builtins. */
export function pathAttribute(value: string, name: string): PyValue {
  const self = path(value)
  switch (name) {
    case 'parent':
      return path(dirname(normpath(value)) || '.')
    case 'name':
      return str(basename(value))
    case 'stem':
      return str(splitext(basename(value))[0])
    case 'suffix':
      return str(splitext(basename(value))[1])
    case 'parts': {
      const parts = value.split('/').filter(Boolean)
      return list(value.startsWith('/') ? [str('/'), ...parts.map(str)] : parts.map(str), true)
    }
    case 'resolve':
    case 'absolute':
    case 'iterdir':
    case 'glob':
    case 'rglob':
    case 'is_dir':
    case 'is_file':
    case 'exists':
    case 'joinpath':
    case 'with_suffix':
    case 'relative_to':
      return { kind: 'builtin', name: `Path.${name}`, self }
    default:
      return DYNAMIC
  }
}

/** A call of a Path method (see pathAttribute). */
export function callPathMethod(
  host: StdlibHost,
  name: string,
  value: string,
  args: PyValue[],
): PyValue {
  const { fs } = host
  const [first] = args
  const arg = fsPath(first)
  switch (name) {
    case 'Path.resolve':
    case 'Path.absolute':
      return value.startsWith('/') ? path(normpath(value)) : DYNAMIC
    case 'Path.iterdir': {
      const names = fs.listdir(value)
      return names ? list(names.map((n) => path(joinPath([value, n])))) : DYNAMIC
    }
    case 'Path.glob':
    case 'Path.rglob': {
      if (arg === null) return DYNAMIC
      const pattern = name === 'Path.rglob' ? `**/${arg}` : arg
      const found = fs.glob(joinPath([value, pattern]), true)
      return found ? list(found.map(path)) : DYNAMIC
    }
    case 'Path.is_dir':
      return pyBool(fs.isDir(value))
    case 'Path.is_file':
      return pyBool(fs.isFile(value))
    case 'Path.exists':
      return pyBool(fs.exists(value))
    case 'Path.joinpath': {
      const parts = args.map(fsPath)
      return parts.every((p) => p !== null)
        ? path(joinPath([value, ...(parts as string[])]))
        : DYNAMIC
    }
    case 'Path.with_suffix':
      return arg === null ? DYNAMIC : path(splitext(value)[0] + arg)
    case 'Path.relative_to': {
      if (arg === null) return DYNAMIC
      const base = normpath(arg)
      const full = normpath(value)
      return full.startsWith(`${base}/`) ? path(full.slice(base.length + 1)) : DYNAMIC
    }
    default:
      return DYNAMIC
  }
}
