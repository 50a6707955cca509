// The pure part of `npm run bench:corpus` (scripts/bench/corpus.ts): its arguments, the
// expectation map (repository URL → class names, the shape of ComfyUI-Manager's
// extension-node-map.json), matching a zip to its repository, recall and precision, the
// pyproject fields the publish call sends, and the report's table and totals.

export interface CorpusArgs {
  dir: string
  /** A JSON map of repository URL → class names. */
  expect?: string
  json: boolean
}

export const CORPUS_USAGE =
  'usage: npm run bench:corpus -- DIR [--expect MAP.json] [--json]\n' +
  '  DIR            a folder of node pack zips (kept outside the repository)\n' +
  '  --expect MAP   JSON {"<repository URL>": [["Class", ...], {...}]} (or {"<url>": ["Class", ...]}),\n' +
  "                 e.g. ComfyUI-Manager's extension-node-map.json: prints recall and precision\n" +
  '  --json         print the results as JSON instead of tables'

export class UsageError extends Error {}

export function parseCorpusArgs(argv: readonly string[]): CorpusArgs {
  let dir: string | undefined
  let expect: string | undefined
  let json = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--json') {
      json = true
    } else if (arg === '--expect' || arg.startsWith('--expect=')) {
      const value = arg === '--expect' ? argv[++i] : arg.slice('--expect='.length)
      if (value === undefined || value === '' || value.startsWith('--')) {
        throw new UsageError('--expect needs the path of a JSON map of repository → class names.')
      }
      if (expect !== undefined) throw new UsageError('--expect is given twice.')
      expect = value
    } else if (arg.startsWith('-')) {
      throw new UsageError(`Unknown option '${arg}'.`)
    } else if (dir === undefined) {
      dir = arg
    } else {
      throw new UsageError(`One folder only: got '${dir}' and '${arg}'.`)
    }
  }
  if (dir === undefined) throw new UsageError('The folder of zips (DIR) is missing.')
  return { dir, expect, json }
}

/** `https://github.com/Owner/Repo.git/` and `git@github.com:owner/repo` → `github.com/owner/repo`. */
export function normaliseRepositoryUrl(url: string): string {
  return url
    .trim()
    .replace(/^git@([^:]+):/, '$1/')
    .replace(/^[a-z+]+:\/\//i, '')
    .replace(/^www\./i, '')
    .replace(/[?#].*$/, '')
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '')
    .toLowerCase()
}

export interface Expectation {
  names: string[]
  /**
   * The map's `nodename_pattern`: ComfyUI-Manager counts class names matching it as the pack's
   * too (for packs whose list is short or empty). null when absent or not a valid pattern.
   */
  pattern: RegExp | null
}

/** Normalised repository URL → what the pack is expected to register. */
export type Expectations = Map<string, Expectation>

function patternOf(meta: unknown): RegExp | null {
  if (typeof meta !== 'object' || meta === null) return null
  const source: unknown = (meta as { nodename_pattern?: unknown }).nodename_pattern
  if (typeof source !== 'string' || source === '') return null
  try {
    return new RegExp(source)
  } catch {
    return null
  }
}

/**
 * Reads `{url: [[names...], meta]}` (ComfyUI-Manager's extension-node-map.json) or
 * `{url: [names...]}`; throws a clear error for any other shape.
 */
export function parseExpectations(data: unknown): Expectations {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new UsageError('The expectation map must be a JSON object of repository URL → classes.')
  }
  const map: Expectations = new Map()
  for (const [url, value] of Object.entries(data)) {
    const managerShape = Array.isArray(value) && Array.isArray(value[0])
    const names: unknown = managerShape ? value[0] : value
    if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) {
      throw new UsageError(
        `The expectation map's entry for '${url}' must be [["Class", ...], {...}] or ["Class", ...].`,
      )
    }
    const key = normaliseRepositoryUrl(url)
    const before = map.get(key)
    map.set(key, {
      names: [...new Set([...(before?.names ?? []), ...names])],
      pattern: (managerShape ? patternOf(value[1]) : null) ?? before?.pattern ?? null,
    })
  }
  return map
}

/** `owner__repo.zip` → `https://github.com/owner/repo` (GitHub owners cannot contain `_`). */
export function repositoryFromZipName(fileName: string): string | null {
  const match = /^([A-Za-z0-9-]+)__(.+?)\.zip$/i.exec(fileName)
  return match ? `https://github.com/${match[1]}/${match[2]}` : null
}

/** A sidecar `<zip name without .zip>.json`: `{"repository": "<url>"}`. */
export function repositoryFromSidecar(text: string): string | null {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    return null
  }
  if (typeof data !== 'object' || data === null) return null
  const repository: unknown = (data as { repository?: unknown }).repository
  return typeof repository === 'string' && repository.trim() !== '' ? repository : null
}

export type MatchSource = 'sidecar' | 'zip name' | 'pyproject'

export interface RepositoryCandidate {
  source: MatchSource
  url: string | null
}

export interface RepositoryMatch {
  source: MatchSource
  url: string
  expected: Expectation
}

/** The first candidate (in the order given) whose repository the map knows. */
export function matchRepository(
  candidates: readonly RepositoryCandidate[],
  expectations: Expectations,
): RepositoryMatch | null {
  for (const { source, url } of candidates) {
    if (url === null) continue
    const expected = expectations.get(normaliseRepositoryUrl(url))
    if (expected !== undefined) return { source, url, expected }
  }
  return null
}

export interface Score {
  /** Classes the map lists for the pack. */
  expected: number
  found: number
  /** Listed classes that were found (recall's numerator). */
  matched: number
  /** Found classes the map accounts for: listed, or matching its pattern (precision's numerator). */
  accepted: number
  /** matched / expected; null when the map lists nothing. */
  recall: number | null
  /** accepted / found; null when nothing was found, or the map says nothing about the pack. */
  precision: number | null
  missed: string[]
  unexpected: string[]
}

/** Class names compare exactly, as ComfyUI's NODE_CLASS_MAPPINGS keys do. */
export function score(expectation: Expectation, found: readonly string[]): Score {
  const want = new Set(expectation.names)
  const got = [...new Set(found)]
  const accounted = (name: string) => want.has(name) || expectation.pattern?.test(name) === true
  const matched = got.filter((name) => want.has(name)).length
  const accepted = got.filter(accounted).length
  const saysSomething = want.size > 0 || expectation.pattern !== null
  return {
    expected: want.size,
    found: got.length,
    matched,
    accepted,
    recall: want.size === 0 ? null : matched / want.size,
    precision: got.length === 0 || !saysSomething ? null : accepted / got.length,
    missed: [...want].filter((name) => !got.includes(name)),
    unexpected: got.filter((name) => !accounted(name)),
  }
}

/**
 * Micro-averaged: recall over the packs whose classes the map lists, precision over the packs
 * it says anything about (a list or a pattern).
 */
export function overallScore(scores: readonly Score[]): Omit<Score, 'missed' | 'unexpected'> {
  const listed = scores.filter((s) => s.recall !== null)
  const judged = scores.filter((s) => s.precision !== null)
  const sum = (of: readonly Score[], pick: (s: Score) => number) =>
    of.reduce((total, s) => total + pick(s), 0)
  const expected = sum(listed, (s) => s.expected)
  const matched = sum(listed, (s) => s.matched)
  const found = sum(judged, (s) => s.found)
  const accepted = sum(judged, (s) => s.accepted)
  return {
    expected,
    found,
    matched,
    accepted,
    recall: expected === 0 ? null : matched / expected,
    precision: found === 0 ? null : accepted / found,
  }
}

export function percent(ratio: number | null): string {
  return ratio === null ? '-' : `${(ratio * 100).toFixed(1)} %`
}

/** The median (mean of the two middle values for an even count); null when empty. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/** Nearest-rank percentile (p in 0..100); null when empty. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length))
  return sorted[Math.min(rank, sorted.length) - 1]
}

export interface RuleCount {
  issue_type: string
  severity: string
  count: number
}

/** Findings counted by rule and severity, the most severe first, then by count. */
export function countByRule(
  findings: readonly { issue_type: string; severity: string }[],
  severities: readonly string[],
): RuleCount[] {
  const counts = new Map<string, RuleCount>()
  for (const { issue_type, severity } of findings) {
    const key = `${issue_type}\0${severity}`
    const entry = counts.get(key) ?? { issue_type, severity, count: 0 }
    entry.count++
    counts.set(key, entry)
  }
  return [...counts.values()].sort(
    (a, b) =>
      severities.indexOf(b.severity) - severities.indexOf(a.severity) ||
      b.count - a.count ||
      a.issue_type.localeCompare(b.issue_type),
  )
}

export function formatRuleCounts(counts: readonly RuleCount[]): string {
  if (counts.length === 0) return 'none'
  return counts.map((c) => `${c.issue_type}:${c.severity}×${c.count}`).join(', ')
}

/** A Markdown table whose columns line up in a terminal too. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]) {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  )
  const line = (cells: readonly string[]) =>
    `| ${widths.map((width, column) => (cells[column] ?? '').padEnd(width)).join(' | ')} |`
  return [
    line(header),
    `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
    ...rows.map(line),
  ].join('\n')
}

/** The pyproject.toml fields `comfy node publish` sends that the bench uses. */
export interface PyprojectFields {
  name?: string
  version?: string
  dependencies: string[]
  /** `[project.urls] Repository`. */
  repository?: string
  /** Set when the file could not be read to the end (what was read before is kept). */
  error?: string
}

type TomlValue = string | number | boolean | TomlValue[] | TomlTable
interface TomlTable {
  [key: string]: TomlValue
}

class TomlError extends Error {}

/**
 * A small TOML reader, enough for the [project] table of a pyproject.toml: tables and array
 * tables, dotted and quoted keys, the four kinds of strings, arrays, inline tables. Other
 * scalars (numbers, dates, booleans) are kept as their text.
 */
export function parseToml(text: string): { table: TomlTable; error?: string } {
  const root: TomlTable = {}
  let at = 0
  let current = root

  const peek = () => text[at]
  const skipSpaces = () => {
    while (at < text.length && (text[at] === ' ' || text[at] === '\t')) at++
  }
  const skipComment = () => {
    if (peek() === '#') while (at < text.length && text[at] !== '\n') at++
  }
  // Whitespace, newlines and comments (inside arrays and between statements).
  const skipBlank = () => {
    for (;;) {
      const before = at
      skipSpaces()
      skipComment()
      if (peek() === '\n' || peek() === '\r') at++
      if (at === before) return
    }
  }
  const fail = (what: string): never => {
    const line = text.slice(0, at).split('\n').length
    throw new TomlError(`line ${line}: ${what}`)
  }

  const escapes: Record<string, string> = {
    b: '\b',
    t: '\t',
    n: '\n',
    f: '\f',
    r: '\r',
    '"': '"',
    '\\': '\\',
  }
  const readString = (): string => {
    const quote = peek()
    const multi = text.startsWith(quote.repeat(3), at)
    const close = multi ? quote.repeat(3) : quote
    at += close.length
    if (multi && text[at] === '\n') at++
    else if (multi && text.startsWith('\r\n', at)) at += 2
    let out = ''
    for (;;) {
      if (at >= text.length) fail('unterminated string')
      if (text.startsWith(close, at)) {
        // `"""a""""` is `a"`: up to two quotes just before the closing three belong to the string.
        let run = 0
        while (multi && run < 5 && text[at + run] === quote) run++
        const extra = multi ? run - 3 : 0
        out += quote.repeat(extra)
        at += close.length + extra
        return out
      }
      const char = text[at]
      if (!multi && char === '\n') fail('newline in a string')
      if (quote === '"' && char === '\\') {
        const next = text[at + 1]
        if (next === 'u' || next === 'U') {
          const length = next === 'u' ? 4 : 8
          out += String.fromCodePoint(parseInt(text.slice(at + 2, at + 2 + length), 16))
          at += 2 + length
        } else if (multi && (next === '\n' || next === ' ' || next === '\r')) {
          at++
          while (at < text.length && /\s/.test(text[at])) at++
        } else {
          out += escapes[next] ?? next
          at += 2
        }
        continue
      }
      out += char
      at++
    }
  }

  const readKeyPart = (): string => {
    skipSpaces()
    if (peek() === '"' || peek() === "'") return readString()
    const start = at
    while (at < text.length && /[A-Za-z0-9_-]/.test(text[at])) at++
    if (at === start) fail('a key is expected')
    return text.slice(start, at)
  }
  const readKey = (): string[] => {
    const parts = [readKeyPart()]
    skipSpaces()
    while (peek() === '.') {
      at++
      parts.push(readKeyPart())
      skipSpaces()
    }
    return parts
  }

  const tableAt = (base: TomlTable, path: readonly string[]): TomlTable => {
    let table = base
    for (const part of path) {
      let next = table[part]
      if (Array.isArray(next)) next = next[next.length - 1]
      if (next === undefined) {
        next = {}
        table[part] = next
      }
      if (typeof next !== 'object' || Array.isArray(next)) fail(`'${part}' is not a table`)
      table = next as TomlTable
    }
    return table
  }

  const readValue = (): TomlValue => {
    skipSpaces()
    const char = peek()
    if (char === '"' || char === "'") return readString()
    if (char === '[') {
      at++
      const items: TomlValue[] = []
      for (;;) {
        skipBlank()
        if (peek() === ']') {
          at++
          return items
        }
        items.push(readValue())
        skipBlank()
        if (peek() === ',') at++
        else if (peek() !== ']') fail("',' or ']' is expected in an array")
      }
    }
    if (char === '{') {
      at++
      const table: TomlTable = {}
      skipSpaces()
      if (peek() === '}') {
        at++
        return table
      }
      for (;;) {
        const key = readKey()
        if (peek() !== '=') fail("'=' is expected")
        at++
        tableAt(table, key.slice(0, -1))[key[key.length - 1]] = readValue()
        skipSpaces()
        if (peek() === ',') at++
        else if (peek() === '}') {
          at++
          return table
        } else fail("',' or '}' is expected in an inline table")
      }
    }
    const start = at
    while (at < text.length && !/[,\]}\n\r#]/.test(text[at])) at++
    const raw = text.slice(start, at).trim()
    if (raw === '') fail('a value is expected')
    if (raw === 'true' || raw === 'false') return raw === 'true'
    return raw
  }

  try {
    for (;;) {
      skipBlank()
      if (at >= text.length) break
      if (peek() === '[') {
        const isArray = text.startsWith('[[', at)
        at += isArray ? 2 : 1
        const path = readKey()
        if (!text.startsWith(isArray ? ']]' : ']', at)) fail('unterminated table header')
        at += isArray ? 2 : 1
        if (isArray) {
          const parent = tableAt(root, path.slice(0, -1))
          const last = path[path.length - 1]
          const list = parent[last] ?? []
          if (!Array.isArray(list)) fail(`'${last}' is not an array of tables`)
          const table: TomlTable = {}
          ;(list as TomlValue[]).push(table)
          parent[last] = list
          current = table
        } else {
          current = tableAt(root, path)
        }
      } else {
        const key = readKey()
        if (peek() !== '=') fail("'=' is expected")
        at++
        tableAt(current, key.slice(0, -1))[key[key.length - 1]] = readValue()
      }
      skipSpaces()
      skipComment()
      if (at < text.length && peek() !== '\n' && peek() !== '\r') fail('end of line expected')
    }
    return { table: root }
  } catch (error) {
    if (error instanceof TomlError) return { table: root, error: error.message }
    throw error
  }
}

const isTable = (value: TomlValue | undefined): value is TomlTable =>
  typeof value === 'object' && !Array.isArray(value)

export function readPyproject(text: string): PyprojectFields {
  const { table, error } = parseToml(text)
  const project = isTable(table.project) ? table.project : {}
  const str = (value: TomlValue | undefined) => (typeof value === 'string' ? value : undefined)
  const dependencies = Array.isArray(project.dependencies)
    ? project.dependencies.filter((item): item is string => typeof item === 'string')
    : []
  const urls = isTable(project.urls) ? project.urls : {}
  // comfy-cli reads `Repository`; other spellings are accepted for matching only.
  const repositoryKey =
    'Repository' in urls
      ? 'Repository'
      : Object.keys(urls).find((key) => key.toLowerCase() === 'repository')
  return {
    name: str(project.name),
    version: str(project.version),
    dependencies,
    repository: repositoryKey === undefined ? undefined : str(urls[repositoryKey]),
    ...(error === undefined ? {} : { error }),
  }
}

/**
 * The names that some code line (not a comment line) of the sources maps to a class, the way a
 * registration reads: `"Name": SomeClass` or `MAPPINGS["Name"] = SomeClass`. A missed class
 * whose name no line maps is likely gone from the pack (the map is older than the code, or the
 * line is commented out) or built at run time, rather than missed by the extractor. Display
 * names (`"Name": "Shown name"`) do not count.
 */
export function namesMappedInSources(
  names: readonly string[],
  sources: Iterable<string>,
): Set<string> {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const patterns = names.map(
    (name) =>
      [name, new RegExp(`(["'])${escape(name)}\\1\\s*(?::\\s*[A-Za-z_]|\\]\\s*=)`)] as const,
  )
  const found = new Set<string>()
  for (const source of sources) {
    const code = source
      .split('\n')
      .filter((line) => !line.trimStart().startsWith('#'))
      .join('\n')
    for (const [name, pattern] of patterns) {
      if (!found.has(name) && code.includes(name) && pattern.test(code)) found.add(name)
    }
  }
  return found
}
