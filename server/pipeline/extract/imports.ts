// Modules and imports: which of the package's files an import names, running each module's top
// level once, and the record of what ran. This is the one import resolver: the extractor follows
// it for nodes and `executedModules()` (Extraction.importedModules) is the scanner's reachability.
import type { Node as SyntaxNode, Tree } from 'web-tree-sitter'

import { ArchiveFs, PACKAGE_DIR } from './archive-fs'
import { BudgetExceeded, type ParsePython } from './parser'
import type { StdlibHost } from './stdlib'
import { type Flow, ModuleSyntaxError, named, firstSyntaxError } from './syntax'
import { DYNAMIC, str, type ModuleState, type PyValue, type Scope } from './values'

/** The dotted name the package's modules appear under (`__name__` of `__init__.py`). */
export const PACKAGE_NAME = 'custom_nodes.package'

export abstract class ModuleLoader implements StdlibHost {
  private readonly warned = new Set<string>()
  readonly warnings: string[] = []
  private readonly modules = new Map<string, ModuleState | null>()
  private readonly trees: Tree[] = []
  private readonly dirs = new Set<string>()
  readonly fs: ArchiveFs
  /** Counts imports of package modules that do not exist (they raise ImportError). */
  protected failedImports = 0
  /** Package files whose top level ran, in the order they started; see `executedModules`. */
  private readonly executed: string[] = []
  /** Set when a module's top level stopped early (too deeply nested): imports may be missing. */
  protected truncated = false
  private ticks = 0

  constructor(
    private readonly files: ReadonlyMap<string, string>,
    private readonly parse: ParsePython,
    protected readonly deadline: number,
    /** Every file of the package when known (see ArchiveFs); else only the .py files. */
    paths?: readonly string[],
  ) {
    for (const file of files.keys()) {
      const parts = file.split('/')
      for (let i = 1; i < parts.length; i++) this.dirs.add(parts.slice(0, i).join('/'))
    }
    this.fs = paths ? new ArchiveFs([...files.keys(), ...paths], true) : new ArchiveFs(files.keys())
  }

  abstract execBlock(block: SyntaxNode, scope: Scope): Flow
  protected abstract bind(scope: Scope, name: string, value: PyValue): void

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

  protected tick(): void {
    if (++this.ticks % 256 === 0) this.checkBudget()
  }

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
  protected resolveModule(from: ModuleState, level: number, parts: string[]): ModuleState | null {
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

  protected memberOf(module: ModuleState, name: string): PyValue {
    this.load(module)
    const bound = module.scope.vars.get(name)
    if (bound) return bound
    const sub = this.module([...module.parts, name])
    return sub ? { kind: 'module', mod: this.load(sub) } : DYNAMIC
  }

  protected execImportFrom(node: SyntaxNode, scope: Scope): void {
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

  protected execImport(node: SyntaxNode, scope: Scope): void {
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
}
