// The archive as a file system, for packs that list their own folder to find their modules
// (`os.listdir(os.path.dirname(__file__))`, `glob`, `pathlib`, `os.walk`). The package sits at
// PACKAGE_DIR. Paths outside it are unknown rather than absent; so are non-Python files inside
// it unless the whole file list was given (`complete`).
//
// Listings are sorted: on Linux `os.listdir`/`glob`/`iterdir` come in directory order, which is
// arbitrary, and sorting is what a reader of the pack would expect (and deterministic).

/** Where the package appears to be installed, as seen through `__file__`. */
export const PACKAGE_DIR = '/comfyui/custom_nodes/package'

/** Collapses `.`, `..` and repeated slashes, like `os.path.normpath` on POSIX. */
export function normpath(path: string): string {
  if (!path) return '.'
  const absolute = path.startsWith('/')
  const out: string[] = []
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..') {
      if (out.length && out[out.length - 1] !== '..') out.pop()
      else if (!absolute) out.push('..')
    } else out.push(part)
  }
  const joined = out.join('/')
  return absolute ? `/${joined}` : joined || '.'
}

export function joinPath(parts: string[]): string {
  let result = ''
  for (const part of parts) {
    if (part.startsWith('/')) result = part
    else if (!result || result.endsWith('/')) result += part
    else result += `/${part}`
  }
  return result
}

export function dirname(path: string): string {
  const index = path.lastIndexOf('/')
  if (index < 0) return ''
  const head = path.slice(0, index + 1)
  return /^\/+$/.test(head) ? head : head.replace(/\/+$/, '')
}

export const basename = (path: string): string => path.slice(path.lastIndexOf('/') + 1)

/** `os.path.splitext`: a leading dot is not an extension. */
export function splitext(path: string): [string, string] {
  const name = basename(path)
  const dot = name.lastIndexOf('.')
  if (dot <= 0 || /^\.+$/.test(name.slice(0, dot + 1))) return [path, '']
  const cut = path.length - name.length + dot
  return [path.slice(0, cut), path.slice(cut)]
}

/** fnmatch-style pattern of one path segment as a RegExp (`*`, `?`, `[...]`). */
function segmentPattern(pattern: string): RegExp {
  let source = ''
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]
    if (c === '*') source += '[^/]*'
    else if (c === '?') source += '[^/]'
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 2)
      if (end < 0) source += '\\['
      else {
        let set = pattern.slice(i + 1, end).replace(/\\/g, '\\\\')
        if (set.startsWith('!')) set = `^${set.slice(1)}`
        source += `[${set}]`
        i = end
      }
    } else source += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  }
  return new RegExp(`^${source}$`)
}

export class ArchiveFs {
  private readonly files = new Set<string>()
  private readonly dirs = new Set<string>([''])

  /**
   * files: package-relative paths, e.g. `__init__.py`, `nodes/upscale.py`; complete: they are
   * all the package's files, not only its Python ones.
   */
  constructor(
    files: Iterable<string>,
    private readonly complete = false,
  ) {
    for (const file of files) {
      this.files.add(file)
      const parts = file.split('/')
      for (let i = 1; i < parts.length; i++) this.dirs.add(parts.slice(0, i).join('/'))
    }
  }

  /** A path as package-relative ('' for the root), or null when it lies outside the package. */
  relative(path: string): string | null {
    const clean = normpath(path)
    if (clean === PACKAGE_DIR) return ''
    return clean.startsWith(`${PACKAGE_DIR}/`) ? clean.slice(PACKAGE_DIR.length + 1) : null
  }

  isDir(path: string): boolean | undefined {
    const rel = this.relative(path)
    if (rel === null) return undefined
    if (this.dirs.has(rel)) return true
    return this.files.has(rel) || this.complete ? false : undefined
  }

  isFile(path: string): boolean | undefined {
    const rel = this.relative(path)
    if (rel === null) return undefined
    if (this.files.has(rel)) return true
    // A .py file or a folder we would know about.
    return this.dirs.has(rel) || rel.endsWith('.py') || this.complete ? false : undefined
  }

  exists(path: string): boolean | undefined {
    const rel = this.relative(path)
    if (rel === null) return undefined
    if (this.files.has(rel) || this.dirs.has(rel)) return true
    return rel.endsWith('.py') || this.complete ? false : undefined
  }

  /** The names in a folder of the package, sorted; null when it is not one. */
  listdir(path: string): string[] | null {
    const rel = this.relative(path)
    if (rel === null || !this.dirs.has(rel)) return null
    const prefix = rel ? `${rel}/` : ''
    const names = new Set<string>()
    for (const entry of [...this.files, ...this.dirs]) {
      if (!entry || !entry.startsWith(prefix) || entry === rel) continue
      names.add(entry.slice(prefix.length).split('/')[0])
    }
    return [...names].sort()
  }

  /** `os.walk(top)`, top-down: [dirpath, dirnames, filenames] per folder, sorted. */
  walk(path: string): [string, string[], string[]][] | null {
    const names = this.listdir(path)
    if (!names) return null
    const top = normpath(path)
    const dirs = names.filter((name) => this.isDir(`${top}/${name}`) === true)
    const files = names.filter((name) => !dirs.includes(name))
    const result: [string, string[], string[]][] = [[path, dirs, files]]
    for (const dir of dirs) result.push(...(this.walk(joinPath([path, dir])) ?? []))
    return result
  }

  /** `glob.glob(pattern, recursive=…)` over the package; sorted; null outside the package. */
  glob(pattern: string, recursive: boolean): string[] | null {
    const absolute = pattern.startsWith('/')
    if (!absolute) return null
    // Split into the literal folder before the first wildcard and the segments after it.
    const segments = pattern.split('/').filter((s, i) => s !== '' || i === 0)
    const first = segments.findIndex((s) => /[*?[]/.test(s))
    if (first < 0) return this.exists(pattern) === true ? [pattern] : []
    const base = segments.slice(0, first).join('/') || '/'
    if (this.relative(base) === null || this.isDir(base) !== true) return null
    let current: string[] = [base]
    for (const segment of segments.slice(first)) {
      const next: string[] = []
      for (const dir of current) {
        if (segment === '**' && recursive) {
          next.push(...this.descendantDirs(dir))
          continue
        }
        const matcher = segmentPattern(segment === '**' ? '*' : segment)
        for (const name of this.listdir(dir) ?? []) {
          // Like glob, `*` does not match names starting with a dot.
          if (name.startsWith('.') && !segment.startsWith('.')) continue
          if (matcher.test(name)) next.push(joinPath([dir, name]))
        }
      }
      current = next
    }
    return [...new Set(current)].sort()
  }

  /** A folder and every folder below it (what `**` matches). */
  private descendantDirs(dir: string): string[] {
    const result = [dir]
    for (const name of this.listdir(dir) ?? []) {
      const child = joinPath([dir, name])
      if (this.isDir(child) === true) result.push(...this.descendantDirs(child))
    }
    return result
  }
}
