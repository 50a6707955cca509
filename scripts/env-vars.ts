// The environment variables the product reads, found in its source, and the variable table of
// docs/DEPLOY.md, so a test (server/system/deploy-doc.test.ts) can hold the two together.
// `npx tsx scripts/env-vars.ts` prints every variable with the places that read it.
import fs from 'node:fs'
import path from 'node:path'
import { PROVIDERS, keyVariable, urlVariable } from '../server/proxy/providers'

export const ROOT = path.resolve(__dirname, '..')
export const DEPLOY_DOC = 'docs/DEPLOY.md'

/** Which process reads a file: the table's "read by" column must name it. */
export type Reader = 'api, worker' | 'web' | 'npm start' | 'image'

/** Where the product's code lives, and which process reads each place. */
const SOURCES: { path: string; reader: Reader }[] = [
  { path: 'server', reader: 'api, worker' },
  { path: 'pages', reader: 'web' },
  { path: 'src', reader: 'web' },
  { path: 'components', reader: 'web' },
  { path: 'proxy.ts', reader: 'web' },
  { path: 'next.config.js', reader: 'web' },
  { path: 'next-i18next.config.js', reader: 'web' },
  { path: 'public-cache.config.js', reader: 'web' },
  { path: 'security-headers.config.js', reader: 'web' },
  { path: 'compile-hints.config.js', reader: 'web' },
  { path: 'cache-handler.js', reader: 'web' },
  { path: 'scripts', reader: 'npm start' },
  { path: 'scripts/entrypoint.sh', reader: 'image' },
]

/**
 * Files that are not part of a running registry: tests and their helpers, benchmarks and checks
 * run by developers. The variables only they read need no row.
 */
const NOT_PRODUCT = [
  /\.test\.tsx?$/,
  /^server\/test\//,
  /^server\/db\/test-db\.ts$/, // the test databases (TEST_DATABASE_URL, TEST_DB)
  /^server\/storage\/test-s3\.ts$/, // the tests' S3-compatible server
  /^server\/seed\/bench\.ts$/, // the benchmarks' data
  /^scripts\/bench\//,
  /^scripts\/(test|with-auth-emulator|image-smoke)\.sh$/, // test tools
  /^scripts\/(check-generated|check-migrations|chromium|env-vars)\.ts$/,
  /^src\/api\/generated\//,
]

/** Reads of `process.env` with a computed name, each with the names it can produce. */
const COMPUTED_NAMES: Record<string, () => string[]> = {
  // PROXY_<PROVIDER>_URL and PROXY_<PROVIDER>_KEY, one pair per provider.
  'server/proxy/providers.ts': () => PROVIDERS.flatMap((p) => [urlVariable(p), keyVariable(p)]),
}

export interface Read {
  file: string
  line: number
  reader: Reader
}

export interface Found {
  /** Each variable with every place that reads it. */
  reads: Map<string, Read[]>
  /** `env[...]` with a computed name in a file COMPUTED_NAMES does not know. */
  unknownComputed: Read[]
}

const NAME = '[A-Z][A-Z0-9_]*'
const TS_PATTERNS = [
  new RegExp(`\\benv\\??\\.(${NAME})\\b`, 'g'), // env.NAME, process.env.NAME, env?.NAME
  new RegExp(`\\benv\\[\\s*['"\`](${NAME})['"\`]\\s*\\]`, 'g'), // env['NAME']
  new RegExp(`\\(\\s*env\\s*,\\s*['"](${NAME})['"]`, 'g'), // setting(env, 'NAME')
]
const COMPUTED = /\benv\[(?!\s*['"`])/g
const SHELL_PATTERN = new RegExp(`\\$\\{?(${NAME})`, 'g')

function filesUnder(relative: string): string[] {
  const full = path.join(ROOT, relative)
  if (!fs.existsSync(full)) return []
  if (!fs.statSync(full).isDirectory()) return [relative]
  return fs
    .readdirSync(full, { withFileTypes: true })
    .filter((entry) => entry.name !== 'node_modules' && !entry.name.startsWith('.'))
    .flatMap((entry) => filesUnder(path.posix.join(relative, entry.name)))
}

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length

/** Every variable read by the product's code, with where. */
export function collectEnvReads(): Found {
  const reads = new Map<string, Read[]>()
  const unknownComputed: Read[] = []
  const add = (name: string, read: Read) => {
    const list = reads.get(name) ?? []
    if (!list.some((r) => r.file === read.file && r.line === read.line)) list.push(read)
    reads.set(name, list)
  }
  // A file of a more specific source (scripts/entrypoint.sh) belongs to that one only.
  const owner = new Map<string, Reader>()
  for (const source of SOURCES) {
    for (const file of filesUnder(source.path)) owner.set(file, source.reader)
  }
  for (const [file, reader] of owner) {
    if (NOT_PRODUCT.some((pattern) => pattern.test(file))) continue
    const shell = file.endsWith('.sh')
    if (!shell && !/\.(ts|tsx|js|mjs|cjs)$/.test(file)) continue
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8')
    for (const pattern of shell ? [SHELL_PATTERN] : TS_PATTERNS) {
      for (const match of text.matchAll(pattern)) {
        add(match[1], { file, line: lineOf(text, match.index), reader })
      }
    }
    if (shell) continue
    for (const match of text.matchAll(COMPUTED)) {
      const read = { file, line: lineOf(text, match.index), reader }
      const names = COMPUTED_NAMES[file]
      if (names) names().forEach((name) => add(name, read))
      else unknownComputed.push(read)
    }
  }
  return { reads, unknownComputed }
}

export interface TableRow {
  /** The names in the row's first cell, `<PROVIDER>` expanded. */
  names: string[]
  /** The row's "read by" cell. */
  readBy: string
  line: number
}

/** The rows of the table between `<!-- env-table -->` and `<!-- /env-table -->`. */
export function readEnvTable(markdown: string): TableRow[] {
  const lines = markdown.split('\n')
  const start = lines.findIndex((line) => line.trim() === '<!-- env-table -->')
  const end = lines.findIndex((line) => line.trim() === '<!-- /env-table -->')
  if (start < 0 || end < start) {
    throw new Error(`${DEPLOY_DOC} has no <!-- env-table --> ... <!-- /env-table --> block.`)
  }
  const rows: TableRow[] = []
  for (let index = start + 1; index < end; index++) {
    const cells = lines[index].split('|').map((cell) => cell.trim())
    // | name | read by | default | what |  (cells[0] is before the first bar)
    if (cells.length < 5 || /^-+$/.test(cells[1]) || cells[1] === 'variable') continue
    const names = [...cells[1].matchAll(/`([A-Z][A-Z0-9_<>]*)`/g)].flatMap(([, name]) =>
      name.includes('<PROVIDER>')
        ? PROVIDERS.map((provider) => name.replace('<PROVIDER>', provider.toUpperCase()))
        : [name],
    )
    rows.push({ names, readBy: cells[2], line: index + 1 })
  }
  return rows
}

if (require.main === module) {
  const { reads } = collectEnvReads()
  for (const name of [...reads.keys()].sort()) {
    const places = reads.get(name) ?? []
    console.log(`${name}\n  ${places.map((r) => `${r.file}:${r.line} (${r.reader})`).join('\n  ')}`)
  }
}
