// Statically extracts the ComfyUI node definitions of an uploaded node pack from its Python
// source, the way ComfyUI's /object_info would describe them, without importing or running any
// of it: the source is parsed with tree-sitter and evaluated by a small interpreter that only
// follows literals, the package's own modules, classes and functions (see extract/interpreter.ts).
//
// Outcome rules:
// - Nodes come from `NODE_CLASS_MAPPINGS` in `__init__.py` (in its key order); when it is absent
//   or resolves to nothing, from `comfy_entrypoint()` → `get_node_list()` (the schema style).
// - A mapping entry whose class cannot be found in the package still yields a node carrying only
//   its name (every other field empty), plus a warning. The extraction succeeds when at least one
//   node resolved to a class; when none did, it fails (with those name-only nodes attached).
// - No `__init__.py`, neither mappings nor entrypoint, a syntax error in `__init__.py`, or running
//   past the time budget fail the extraction.
import { Interpreter, ModuleSyntaxError, location, type CallSite } from './extract/interpreter'
import { BudgetExceeded, pythonParser } from './extract/parser'
import { schemaNode } from './extract/schema'
import {
  OutputTooLarge,
  dictGet,
  list,
  str,
  toJson,
  truthy,
  type ClassInfo,
  type PyValue,
} from './extract/values'

export { DYNAMIC_PLACEHOLDER } from './extract/values'

export interface ExtractedComfyNode {
  /** The key in NODE_CLASS_MAPPINGS (node_id for the schema style). */
  comfy_node_name: string
  /** From NODE_DISPLAY_NAME_MAPPINGS / the schema's display_name; '' if none. */
  display_name: string
  category: string
  description: string
  /** JSON text of INPUT_TYPES()'s dict; values that need running code are "<dynamic>". */
  input_types: string
  /** JSON text, e.g. ["IMAGE"]. */
  return_types: string
  /** JSON text, e.g. ["image"]; '' when absent. */
  return_names: string
  output_is_list: boolean[]
  function: string
  deprecated: boolean
  experimental: boolean
}

/**
 * importedModules: the package files (keys as given, normalised: `__init__.py`,
 * `nodes/upscale.py`) whose module-level code runs when ComfyUI imports the package: the entry
 * module and, transitively, what its top level imports (also inside module-level `try:`/`if`, and
 * loaded by folder listing), but not imports inside functions that run later, nor code under
 * `if __name__ == "__main__":`. Entry first, then in the order they started running. null when
 * the entry module could not be evaluated to the end (no `__init__.py`, a syntax error in it,
 * the time budget, nesting too deep): unknown.
 */
export type Extraction =
  | {
      status: 'success'
      nodes: ExtractedComfyNode[]
      warnings: string[]
      importedModules: string[] | null
    }
  | {
      status: 'failed'
      reason: string
      nodes: ExtractedComfyNode[]
      importedModules: string[] | null
    }

export const DEFAULT_EXTRACTION_BUDGET_MS = 5000
const ENTRY = '__init__.py'
const MAX_WARNINGS = 200
// Hand the event loop back this often while extracting many nodes.
const YIELD_EVERY_MS = 20

class ExtractionFailed extends Error {}

function nameOnly(name: string): ExtractedComfyNode {
  return {
    comfy_node_name: name,
    display_name: '',
    category: '',
    description: '',
    input_types: '',
    return_types: '',
    return_names: '',
    output_is_list: [],
    function: '',
    deprecated: false,
    experimental: false,
  }
}

const textOf = (value: PyValue | undefined) => (value?.kind === 'str' ? value.value : '')

/** Normalises archive paths (`./a\\b.py` → `a/b.py`) and keeps only Python files. */
const normalisePath = (path: string) =>
  path
    .split('\\')
    .join('/')
    .split('/')
    .filter((part) => part !== '' && part !== '.')
    .join('/')

function normaliseFiles(files: ReadonlyMap<string, string>): Map<string, string> {
  const normalised = new Map<string, string>()
  for (const [path, source] of files) {
    const clean = normalisePath(path)
    if (clean.endsWith('.py')) normalised.set(clean, source)
  }
  return normalised
}

class NodeExtractor {
  private readonly nodes = new Map<string, ExtractedComfyNode>()
  private resolved = 0
  private lastYield = Date.now()

  constructor(private readonly interp: Interpreter) {}

  private warn(message: string): void {
    this.interp.warn(message)
  }

  private async pause(): Promise<void> {
    this.interp.checkBudget()
    if (Date.now() - this.lastYield < YIELD_EVERY_MS) return
    await new Promise((resolve) => setImmediate(resolve))
    this.lastYield = Date.now()
  }

  private json(value: PyValue, what: string): string {
    try {
      return toJson(value)
    } catch (error) {
      if (!(error instanceof OutputTooLarge)) throw error
      this.warn(`${what} is too large to record`)
      return ''
    }
  }

  private add(node: ExtractedComfyNode, resolved: boolean): void {
    // A repeated name keeps its first position and the last definition, like a Python dict.
    this.nodes.set(node.comfy_node_name, node)
    if (resolved) this.resolved++
  }

  /** One class as a node; `name` is the mapping key, or null for the schema style. */
  private fromClass(cls: ClassInfo, name: string | null, displayName: string): void {
    const { interp } = this
    const site = { node: cls.node, scope: interp.mro(cls)[0].body ?? cls.scope }
    const label = `${name ?? cls.name} (class ${cls.name}, ${location(cls.scope.module, cls.node)})`
    const inputTypes = interp.classAttr(cls, 'INPUT_TYPES')
    const defineSchema = interp.classAttr(cls, 'define_schema')
    if (!inputTypes && defineSchema) {
      const schema = schemaNode(interp.callValue(defineSchema, [], new Map(), site))
      if (!schema) {
        this.warn(`${label}: define_schema() does not statically return io.Schema(...)`)
        this.add(nameOnly(name ?? cls.name), false)
        return
      }
      for (const warning of schema.warnings) this.warn(`${label}: ${warning}`)
      if (!name && !schema.nodeId) this.warn(`${label}: the schema has no static node_id`)
      this.add(
        {
          comfy_node_name: name ?? schema.nodeId ?? cls.name,
          display_name: displayName || schema.displayName,
          category: schema.category,
          description: schema.description,
          input_types: this.json(schema.inputs, `${label}: inputs`),
          return_types: this.json(list(schema.returnTypes), `${label}: outputs`),
          return_names: this.json(list(schema.returnNames), `${label}: output names`),
          output_is_list: schema.outputIsList,
          function: 'execute',
          deprecated: schema.deprecated,
          experimental: schema.experimental,
        },
        true,
      )
      return
    }

    let input = ''
    if (!inputTypes) {
      this.warn(`${label}: no INPUT_TYPES found`)
    } else {
      const value =
        inputTypes.kind === 'function'
          ? interp.callValue(inputTypes, [], new Map(), site)
          : inputTypes
      if (value.kind === 'dict') input = this.json(value, `${label}: INPUT_TYPES`)
      else this.warn(`${label}: INPUT_TYPES() does not statically return a dict`)
    }
    const returnTypes = interp.classAttr(cls, 'RETURN_TYPES')
    let returns = '[]'
    if (returnTypes?.kind === 'list') returns = this.json(returnTypes, `${label}: RETURN_TYPES`)
    else if (returnTypes) {
      returns = ''
      this.warn(`${label}: RETURN_TYPES is not statically known`)
    }
    const returnNames = interp.classAttr(cls, 'RETURN_NAMES')
    const outputIsList = interp.classAttr(cls, 'OUTPUT_IS_LIST')
    const flag = (attribute: string) => {
      const value = interp.classAttr(cls, attribute)
      return value ? truthy(value) === true : false
    }
    this.add(
      {
        comfy_node_name: name ?? cls.name,
        display_name: displayName,
        category: textOf(interp.classAttr(cls, 'CATEGORY')),
        description: textOf(interp.classAttr(cls, 'DESCRIPTION')),
        input_types: input,
        return_types: returns,
        return_names:
          returnNames?.kind === 'list' ? this.json(returnNames, `${label}: RETURN_NAMES`) : '',
        // ComfyUI's default: one `False` per output.
        output_is_list:
          outputIsList?.kind === 'list'
            ? outputIsList.items.map((item) => truthy(item) === true)
            : returnTypes?.kind === 'list'
              ? returnTypes.items.map(() => false)
              : [],
        function: textOf(interp.classAttr(cls, 'FUNCTION')),
        deprecated: flag('DEPRECATED'),
        experimental: flag('EXPERIMENTAL'),
      },
      true,
    )
  }

  private safely(name: string, run: () => void): void {
    try {
      run()
    } catch (error) {
      if (!(error instanceof RangeError)) throw error
      this.warn(`${name}: too deeply nested to evaluate`)
      this.add(nameOnly(name), false)
    }
  }

  async fromMappings(mappings: PyValue, displayNames: PyValue | undefined): Promise<void> {
    if (mappings.kind !== 'dict') return
    for (const reason of mappings.incomplete ?? []) {
      this.warn(`NODE_CLASS_MAPPINGS may be incomplete: ${reason}`)
    }
    for (const { key, value } of mappings.entries.values()) {
      await this.pause()
      if (key.kind !== 'str') {
        this.warn(`NODE_CLASS_MAPPINGS has a key that is not a string (${key.kind})`)
        continue
      }
      const name = key.value
      const display = displayNames?.kind === 'dict' ? textOf(dictGet(displayNames, str(name))) : ''
      if (value.kind !== 'class') {
        this.warn(
          `NODE_CLASS_MAPPINGS[${JSON.stringify(name)}] does not resolve to a class defined in the package`,
        )
        this.add({ ...nameOnly(name), display_name: display }, false)
        continue
      }
      this.safely(name, () => this.fromClass(value.cls, name, display))
    }
  }

  async fromEntrypoint(entrypoint: PyValue, site: CallSite): Promise<void> {
    const { interp } = this
    const extension = interp.callValue(entrypoint, [], new Map(), site)
    const getNodeList =
      extension.kind === 'instance' || extension.kind === 'class'
        ? interp.getAttr(extension, 'get_node_list')
        : null
    const nodeList =
      getNodeList?.kind === 'function' ? interp.callValue(getNodeList, [], new Map(), site) : null
    if (nodeList?.kind !== 'list') {
      throw new ExtractionFailed(
        'comfy_entrypoint() in __init__.py could not be resolved statically to a node list',
      )
    }
    for (const reason of nodeList.incomplete ?? []) {
      this.warn(`get_node_list() may be incomplete: ${reason}`)
    }
    for (const item of nodeList.items) {
      await this.pause()
      if (item.kind !== 'class') {
        this.warn('get_node_list() returns an entry that is not a class defined in the package')
        continue
      }
      this.safely(item.cls.name, () => this.fromClass(item.cls, null, ''))
    }
  }

  result(source: string, importedModules: string[] | null): Extraction {
    const nodes = [...this.nodes.values()]
    if (!nodes.length) {
      // Say why when we know: usually registration code that cannot be followed statically.
      const [why] = this.interp.warnings
      const reason = `${source} in __init__.py resolves to no nodes${why ? ` (${why})` : ''}`
      return { status: 'failed', reason, nodes, importedModules }
    }
    if (!this.resolved) {
      return {
        status: 'failed',
        reason: `None of the ${nodes.length} nodes in ${source} could be resolved to a class in the package`,
        nodes,
        importedModules,
      }
    }
    const warnings = this.interp.warnings.slice(0, MAX_WARNINGS)
    if (this.interp.warnings.length > MAX_WARNINGS) {
      warnings.push(`… and ${this.interp.warnings.length - MAX_WARNINGS} more warnings`)
    }
    return { status: 'success', nodes, warnings, importedModules }
  }
}

/** files: every .py file of the package, keyed by its path relative to the package root (e.g. '__init__.py', 'nodes/upscale.py'). */
export async function extractComfyNodes(
  files: ReadonlyMap<string, string>,
  options?: {
    maxMs?: number
    /**
     * Every file of the package (same relative paths), so folder listings also show non-Python
     * files; without it only the .py files and their folders are known.
     */
    paths?: Iterable<string>
  },
): Promise<Extraction> {
  const maxMs = options?.maxMs ?? DEFAULT_EXTRACTION_BUDGET_MS
  const python = normaliseFiles(files)
  if (!python.has(ENTRY)) {
    return {
      status: 'failed',
      reason: 'No __init__.py found in the package',
      nodes: [],
      importedModules: null,
    }
  }
  // Loading the parser is the registry's own cost; the budget covers the package's code.
  const parse = await pythonParser()
  const paths = options?.paths ? [...options.paths].map(normalisePath) : undefined
  const interp = new Interpreter(python, parse, Date.now() + maxMs, paths)
  const extractor = new NodeExtractor(interp)
  // Known once the entry module ran to its end; later loads (while reading nodes) do not count.
  let importedModules: string[] | null = null
  const failed = (reason: string): Extraction => ({
    status: 'failed',
    reason,
    nodes: [],
    importedModules,
  })
  try {
    const entry = interp.module([])
    if (!entry) throw new ExtractionFailed('No __init__.py found in the package')
    interp.load(entry, { strict: true })
    importedModules = interp.executedModules()
    const vars = entry.scope.vars
    const mappings = vars.get('NODE_CLASS_MAPPINGS')
    const entrypoint = vars.get('comfy_entrypoint')
    const hasMappings = mappings?.kind === 'dict' && mappings.entries.size > 0
    if (hasMappings || (mappings && entrypoint?.kind !== 'function')) {
      if (mappings.kind !== 'dict') {
        throw new ExtractionFailed(
          'NODE_CLASS_MAPPINGS in __init__.py could not be resolved statically',
        )
      }
      await extractor.fromMappings(mappings, vars.get('NODE_DISPLAY_NAME_MAPPINGS'))
      return extractor.result('NODE_CLASS_MAPPINGS', importedModules)
    }
    if (entrypoint?.kind === 'function') {
      await extractor.fromEntrypoint(entrypoint, { node: entrypoint.fn.node, scope: entry.scope })
      return extractor.result('comfy_entrypoint', importedModules)
    }
    throw new ExtractionFailed('No NODE_CLASS_MAPPINGS or comfy_entrypoint found in __init__.py')
  } catch (error) {
    if (error instanceof ExtractionFailed || error instanceof ModuleSyntaxError) {
      return failed(error.message)
    }
    if (error instanceof BudgetExceeded) {
      return failed(`Extracting the node definitions took longer than the ${maxMs} ms budget`)
    }
    if (error instanceof RangeError) return failed('The package is too deeply nested to evaluate')
    throw error
  } finally {
    interp.dispose()
  }
}
