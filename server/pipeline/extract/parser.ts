// Parses Python with tree-sitter (WebAssembly), initialised once per process.
import { Language, Parser, type Tree } from 'web-tree-sitter'

let ready: Promise<Parser> | null = null

function load(): Promise<Parser> {
  ready ??= (async () => {
    // Point the runtime at its wasm explicitly: the default lookup is relative to the script's
    // URL, which differs between tsx (ESM/CJS) and Jest's module registry.
    await Parser.init({ locateFile: () => require.resolve('web-tree-sitter/tree-sitter.wasm') })
    const python = await Language.load(
      require.resolve('tree-sitter-python/tree-sitter-python.wasm'),
    )
    const parser = new Parser()
    parser.setLanguage(python)
    return parser
  })().catch((error: unknown) => {
    // Let a later call retry rather than caching the failure forever.
    ready = null
    throw error
  })
  return ready
}

export class BudgetExceeded extends Error {
  constructor() {
    super('time budget exceeded')
  }
}

/** Parses, giving up past `deadline` (epoch ms); the caller deletes the returned tree. */
export type ParsePython = (source: string, deadline: number) => Tree

export async function pythonParser(): Promise<ParsePython> {
  const parser = await load()
  return (source, deadline) => {
    // Parsing is synchronous, so the shared parser is never used by two parses at once.
    const tree = parser.parse(source, null, {
      progressCallback: () => Date.now() > deadline,
    })
    if (!tree) {
      parser.reset()
      throw new BudgetExceeded()
    }
    return tree
  }
}
