// The static security scan of a checked archive: the rules of `scan-rules.ts` over its Python and
// JavaScript sources, requirements.txt and the declared dependencies. Pure and synchronous, with
// a time budget per file and per archive, so a hostile archive ends in findings, never a hang.
import { editDistance } from '@/src/lib/edit-distance'
import type { CheckedArchive } from './archive'
import { snippet, type Finding, type Scanner } from './findings'
import {
  ALLOWED_NEAR_NAMES,
  KNOWN_MALICIOUS_PACKAGES,
  POPULAR_PACKAGES,
  SCAN_RULES,
  type CodeRule,
  type DependencyRule,
  type FileRule,
  type Language,
  type ScanRule,
} from './scan-rules'
import { STANDARDS, type FindingKind, type StandardKey } from './standards'

export interface ScanBudget {
  /** Larger files are not read (a `scan-file-too-large` finding). */
  maxFileBytes: number
  perFileMs: number
  perArchiveMs: number
}

export const DEFAULT_SCAN_BUDGET: ScanBudget = {
  maxFileBytes: 2 * 1024 * 1024,
  perFileMs: 200,
  perArchiveMs: 1500,
}

export interface ScanOptions extends Partial<ScanBudget> {
  /**
   * The archive paths of the Python modules ComfyUI runs when it imports the pack (the
   * extractor's import graph from the entry module, `Extraction.importedModules` under
   * `archive.packageRoot`). Import-time and runtime rules only look at these; payload rules look
   * at every file. null or absent: unknown, and every file counts as imported (the scan then
   * reports module-level code of scripts the pack never imports, as it did before).
   */
  reachable?: ReadonlySet<string> | null
}

export interface ScanResult {
  findings: Finding[]
  /** Files read and scanned to the end (sources, requirements.txt, text .pth files). */
  filesScanned: number
}

/** Lines longer than this are scanned in overlapping windows of this size. */
export const MAX_LINE_LENGTH = 10_000
const WINDOW_OVERLAP = 500
/** A rule reports at most this many lines of one file. */
const MAX_FINDINGS_PER_RULE_AND_FILE = 10
const MAX_NAME_LENGTH = 100

/** The scan's own findings, beside the rule ids of `scan-rules.ts`. */
export const SCAN_ISSUES = {
  fileTooLarge: 'scan-file-too-large',
  notText: 'scan-not-text',
  timeout: 'scan-timeout',
  minified: 'minified-or-obfuscated',
} as const

const ALL_RULES: readonly ScanRule[] = SCAN_RULES
const codeRules: readonly CodeRule[] = ALL_RULES.filter(
  (rule: ScanRule): rule is CodeRule => rule.kind === 'code',
)
const fileRules: readonly FileRule[] = ALL_RULES.filter(
  (rule: ScanRule): rule is FileRule => rule.kind === 'file',
)
const dependencyRules: readonly DependencyRule[] = ALL_RULES.filter(
  (rule: ScanRule): rule is DependencyRule => rule.kind === 'dependency',
)

/**
 * The process's CPU time in ms. Budgets count CPU, not wall-clock time: on a busy machine a
 * wall-clock budget ran out on small packs, and a scan cut short must not depend on the load.
 */
function cpuNow(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

export function scanArchive(
  archive: CheckedArchive,
  dependencies: string[],
  options: ScanOptions = {},
): ScanResult {
  const { reachable = null, ...budget } = options
  const limits = { ...DEFAULT_SCAN_BUDGET, ...budget }
  const archiveDeadline = cpuNow() + limits.perArchiveMs
  const findings: Finding[] = []
  let filesScanned = 0
  const files = new Set(archive.entries.filter((e) => !e.isDirectory).map((e) => e.name))
  const pyproject = `${archive.packageRoot}pyproject.toml`
  findings.push(
    ...scanRequirements(
      dependencies.map((text) => ({ text, line: 0 })),
      files.has(pyproject) ? pyproject : '',
    ),
  )
  for (const entry of archive.entries) {
    if (entry.isDirectory) continue
    const kind = classify(entry.name)
    if (kind === null) continue
    if (cpuNow() >= archiveDeadline) {
      findings.push(timeoutFinding('', limits.perArchiveMs, 'archive'))
      break
    }
    const { name } = entry
    const pathRule = kind.type === 'file-rule' ? kind.rule : null
    if (pathRule !== null && !pathRule.textOnly) {
      findings.push(ruleFinding(pathRule, 'static-scan', name, 0, '', pathRule.message))
      continue
    }
    if (entry.uncompressedSize > limits.maxFileBytes) {
      // A big .pth is PyTorch weights, not a path file.
      if (pathRule === null) findings.push(tooLargeFinding(name, limits.maxFileBytes))
      continue
    }
    const text = archive.readText(name, limits.maxFileBytes)
    if (text === null) {
      if (pathRule === null) findings.push(notTextFinding(name))
      continue
    }
    filesScanned++
    if (kind.type === 'file-rule') {
      findings.push(ruleFinding(kind.rule, 'static-scan', name, 0, '', kind.rule.message))
    } else if (kind.type === 'requirements') {
      findings.push(
        ...scanRequirements(
          text.split(/\r\n?|\n/).map((line, index) => ({ text: line, line: index + 1 })),
          name,
        ),
      )
    } else {
      const deadline = Math.min(cpuNow() + limits.perFileMs, archiveDeadline)
      const imported = reachable === null || reachable.has(name)
      const result = scanSource(name, text, kind.language, deadline, imported)
      findings.push(...result.findings)
      if (result.timedOut) {
        filesScanned--
        if (cpuNow() >= archiveDeadline) {
          findings.push(timeoutFinding('', limits.perArchiveMs, 'archive'))
          break
        }
        findings.push(timeoutFinding(name, limits.perFileMs, 'file'))
      }
    }
  }
  return { findings, filesScanned }
}

type FileKind =
  | { type: 'source'; language: Language }
  | { type: 'requirements' }
  | { type: 'file-rule'; rule: FileRule }

const EXTENSIONS: readonly [string, Language][] = [
  ['.py', 'python'],
  ['.pyw', 'python'],
  ['.js', 'javascript'],
  ['.mjs', 'javascript'],
  ['.cjs', 'javascript'],
  ['.ts', 'javascript'],
]

function classify(name: string): FileKind | null {
  const base = name.slice(name.lastIndexOf('/') + 1)
  // macOS resource forks (binary) beside the real files.
  if (name.startsWith('__MACOSX/') && base.startsWith('._')) return null
  const lower = base.toLowerCase()
  const rule = fileRules.find((candidate) => candidate.path.test(name))
  if (rule !== undefined) return { type: 'file-rule', rule }
  if (lower === 'requirements.txt') return { type: 'requirements' }
  const match = EXTENSIONS.find(([extension]) => lower.endsWith(extension))
  return match === undefined ? null : { type: 'source', language: match[1] }
}

// ---------------------------------------------------------------------------------------------
// Sources

/** A piece of source matched at once: a logical line, a physical line or a window of one. */
interface Unit {
  text: string
  /** 1-based line of the first character. */
  firstLine: number
  /** Offsets in `text` where each following physical line starts ([0] is 0). */
  lineStarts: number[]
  /**
   * Python: `module` runs at import time (module level and class bodies), `function` in a def
   * body, `main` under `if __name__ == '__main__':` (never when imported). JavaScript: `module`.
   */
  context: CodeContext
  /** The innermost enclosing def (an index of `SourceUnits.functions`); -1 at module level. */
  fn: number
}

type CodeContext = 'module' | 'function' | 'main'

interface PythonFunction {
  /** The enclosing def; -1 for a module-level one (or a method). */
  parent: number
  /** Its parameters, except self and cls. */
  params: string[]
  /** A method (first parameter self or cls): where a node's inputs arrive. */
  method: boolean
}

interface SourceUnits {
  units: Unit[]
  /** The first line longer than MAX_LINE_LENGTH, 0 if none. */
  longLine: number
  functions: PythonFunction[]
}

/** Whether a rule looks at a unit of a file ComfyUI does (`imported`) or does not import. */
function inScope(rule: CodeRule, unit: Unit, imported: boolean): boolean {
  switch (rule.scope) {
    case undefined:
      return true
    case 'import-time':
      return imported && unit.context === 'module'
    case 'runtime':
      return imported && unit.context === 'function'
    case 'reachable':
      return imported
  }
}

function scanSource(
  name: string,
  source: string,
  language: Language,
  deadline: number,
  imported: boolean,
): { findings: Finding[]; timedOut: boolean } {
  const { units, longLine, functions } =
    language === 'python' ? pythonUnits(source) : scriptUnits(source)
  const findings: Finding[] = []
  if (longLine > 0) {
    findings.push({
      issue_type: SCAN_ISSUES.minified,
      severity: 'low',
      file_path: name,
      line_number: longLine,
      code_snippet: '',
      message: `Line ${longLine} is longer than ${MAX_LINE_LENGTH} characters: minified or obfuscated code is hard to review. It was scanned in pieces.`,
      scanner: 'static-scan',
      ...enforced('noObfuscation', 'standard'),
    })
  }
  // One pass over the whole file per regex rules out most matchers before the line loop.
  const rules = codeRules
    .filter(
      (rule) =>
        rule.languages.includes(language) &&
        (rule.scope === undefined || imported) &&
        (rule.fileRequires === undefined || rule.fileRequires.test(source)),
    )
    .map((rule) => ({
      rule,
      lines: (rule.lines ?? []).filter((matcher) => matcher.all.every((p) => p.test(source))),
      flows: (rule.flows ?? []).filter((flow) => flow.sink.test(source)),
    }))
    .filter(({ lines, flows }) => lines.length > 0 || flows.length > 0)
  const taint = rules.some(({ rule }) => rule.untaintedSeverity !== undefined)
    ? new Taint(functions, NODE_FILE.test(source))
    : null
  const reported = new Set<string>()
  const counts = new Map<string, number>()
  const tainted = new Map<string, Set<string>>()
  const report = (rule: CodeRule, unit: Unit, index: number) => {
    const { line, text } = physicalLine(unit, index)
    const key = `${rule.id}:${line}`
    const count = counts.get(rule.id) ?? 0
    if (reported.has(key) || count >= MAX_FINDINGS_PER_RULE_AND_FILE) return
    reported.add(key)
    counts.set(rule.id, count + 1)
    const finding = ruleFinding(rule, 'static-scan', name, line, excerpt(text, index), rule.message)
    if (rule.untaintedSeverity !== undefined && taint?.reaches(unit) === false) {
      finding.severity = rule.untaintedSeverity
    }
    findings.push(finding)
  }
  for (const unit of units) {
    if (cpuNow() >= deadline) return { findings, timedOut: true }
    taint?.follow(unit)
    for (const { rule, lines, flows } of rules) {
      if (!inScope(rule, unit, imported)) continue
      for (const matcher of lines) {
        const index = matchAll(matcher.all, matcher.unless, unit.text)
        if (index >= 0) {
          report(rule, unit, index)
          break
        }
      }
      flows.forEach((flow, flowIndex) => {
        const key = `${rule.id}#${flowIndex}`
        const variables = tainted.get(key) ?? new Set<string>()
        tainted.set(key, variables)
        const sink = flow.sink.exec(unit.text)
        if (sink !== null && variables.has(sink[1])) report(rule, unit, sink.index)
        const source = flow.source.exec(unit.text)
        if (source !== null) variables.add(source[1])
      })
    }
  }
  return { findings: withoutSuperseded(findings), timedOut: false }
}

/** Drops the findings of rules superseded by another rule's finding on the same line. */
function withoutSuperseded(findings: Finding[]): Finding[] {
  const at = new Set(findings.map((finding) => `${finding.issue_type}:${finding.line_number}`))
  return findings.filter((finding) => {
    const rule = codeRules.find((candidate) => candidate.id === finding.issue_type)
    return !rule?.supersededBy?.some((id) => at.has(`${id}:${finding.line_number}`))
  })
}

// ---------------------------------------------------------------------------------------------
// Outside input (for rules with an `untaintedSeverity`)

/**
 * Where a value comes from outside the package: the environment, the command line, the
 * terminal, the network. (A node's inputs arrive as function parameters, which count too.)
 */
/** A file that defines ComfyUI nodes. */
const NODE_FILE = /\b(?:INPUT_TYPES|define_schema)\b/

const EXTERNAL_SOURCE = new RegExp(
  [
    /\bos\.environ\b/,
    /\b(?:os\.)?getenv\s*\(/,
    /\bsys\.argv\b/,
    /(?<![\w.])(?:raw_)?input\s*\(/,
    /\brequests\.\w/,
    /\burllib\b/,
    /\burlopen\s*\(/,
    /\bhttpx\.\w/,
    /\baiohttp\b/,
    /\bhttp\.client\b/,
    /\.recv\s*\(/,
  ]
    .map((pattern) => pattern.source)
    .join('|'),
)

/** `a = …`, `a, b = …`, `a: T = …`, `a += …` at the start of a logical line. */
const ASSIGNMENT =
  /^\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*(?::[^=\n]{1,200})?(?:[-+*/%|&^@]|\/\/|\*\*|<<|>>)?=(?!=)(.*)$/s

/**
 * A simple intra-function taint check over the line-based scan, for a sink such as a shell
 * command built from an f-string: does anything from outside the package reach the line?
 * Outside are the parameters of the enclosing functions where a node's inputs can arrive: methods
 * (self and cls excepted) and any function of a file that defines nodes; a module-level function
 * of a library file (a vendored `which(cmd)`) is called by the package with its own values. And names assigned (anywhere before, in the function or at
 * module level) from EXTERNAL_SOURCE or from names that are already outside. Names read in the
 * line are those of its code and of f-string replacement fields, not of plain string text, and
 * not attribute names (`.path`). It does not follow values through calls, returns, attributes
 * or containers: `path = os.path.join(find_cuda(), "bin")` is not outside, while
 * `path = os.environ["CUDA_HOME"]` and `def run(self, path)` are. A heuristic that errs towards
 * "outside" for what it sees, and is only used to lower a severity.
 */
class Taint {
  /** Outside names by function (-1: module level). */
  private readonly names = new Map<number, Set<string>>()

  /** nodeFile: the file defines nodes (INPUT_TYPES / define_schema), so any function may get their inputs. */
  constructor(
    private readonly functions: readonly PythonFunction[],
    private readonly nodeFile: boolean,
  ) {}

  /** Parameters are outside in methods and in node files; a plain function of a library is not. */
  private paramsOutside(fn: number): readonly string[] {
    if (fn < 0) return []
    const { params, method } = this.functions[fn]
    return method || this.nodeFile ? params : []
  }

  private namesOf(fn: number): Set<string> {
    let names = this.names.get(fn)
    if (names === undefined) {
      names = new Set(this.paramsOutside(fn))
      this.names.set(fn, names)
    }
    return names
  }

  private isOutside(name: string, fn: number): boolean {
    for (let at = fn; ; at = this.functions[at].parent) {
      if (this.namesOf(at).has(name)) return true
      if (at < 0) return false
    }
  }

  private carriesOutside(code: string, fn: number): boolean {
    if (EXTERNAL_SOURCE.test(code)) return true
    for (const name of codeNames(code)) if (this.isOutside(name, fn)) return true
    return false
  }

  /** Records the names a unit assigns from outside values. */
  follow(unit: Unit): void {
    const assignment = ASSIGNMENT.exec(unit.text)
    if (assignment === null || !this.carriesOutside(assignment[2], unit.fn)) return
    const names = this.namesOf(unit.fn)
    for (const target of assignment[1].split(',')) names.add(target.trim())
  }

  /** Whether something from outside flows into the unit's code. */
  reaches(unit: Unit): boolean {
    return this.carriesOutside(unit.text, unit.fn)
  }
}

const STRING_PREFIX = /(?<![\w.])([rRbBuUfF]{1,2})$/

/**
 * The names a piece of Python code reads: identifiers outside string literals and inside
 * f-string replacement fields, but not attribute names.
 */
export function codeNames(text: string): Set<string> {
  let code = ''
  let at = 0
  const length = text.length
  while (at < length) {
    const char = text[at]
    if (char !== '"' && char !== "'") {
      code += char
      at++
      continue
    }
    const prefix = STRING_PREFIX.exec(code)?.[1] ?? ''
    const formatted = /f/i.test(prefix)
    code = code.slice(0, code.length - prefix.length) + ' '
    const quote = text.startsWith(char.repeat(3), at) ? char.repeat(3) : char
    at += quote.length
    let depth = 0
    while (at < length && !(depth === 0 && text.startsWith(quote, at))) {
      const inner = text[at]
      if (depth === 0 && inner === '\\') {
        at += 2
      } else if (formatted && inner === '{' && depth === 0 && text[at + 1] === '{') {
        at += 2
      } else if (formatted && inner === '{') {
        depth++
        code += ' '
        at++
      } else if (formatted && inner === '}' && depth > 0) {
        depth--
        code += ' '
        at++
      } else {
        if (depth > 0) code += inner
        at++
      }
    }
    at += quote.length
    code += ' '
  }
  const names = new Set<string>()
  for (const match of code.matchAll(/(?<![\w.])[A-Za-z_]\w*/g)) names.add(match[0])
  return names
}

/** Where the first regex matched, when all match and none of `unless` does; else -1. */
function matchAll(all: readonly RegExp[], unless: readonly RegExp[] | undefined, text: string) {
  let first = -1
  for (const pattern of all) {
    const match = pattern.exec(text)
    if (match === null) return -1
    if (first < 0) first = match.index
  }
  if (unless?.some((pattern) => pattern.test(text))) return -1
  return first
}

function physicalLine(unit: Unit, index: number): { line: number; text: string } {
  let at = 0
  while (at + 1 < unit.lineStarts.length && unit.lineStarts[at + 1] <= index) at++
  const end = at + 1 < unit.lineStarts.length ? unit.lineStarts[at + 1] : unit.text.length
  return { line: unit.firstLine + at, text: unit.text.slice(unit.lineStarts[at], end) }
}

/** The line, or for a long one the part around the match. */
function excerpt(line: string, index: number): string {
  if (line.length <= 200) return snippet(line)
  return snippet(line.slice(Math.max(0, index - 60), index + 140))
}

function splitLines(source: string): string[] {
  return source.split(/\r\n?|\n/)
}

/** Units of a long line: overlapping windows, so that no match is cut in two. */
function windows(text: string, line: number, context: CodeContext, fn: number): Unit[] {
  if (text.length <= MAX_LINE_LENGTH)
    return [{ text, firstLine: line, lineStarts: [0], context, fn }]
  const units: Unit[] = []
  for (let start = 0; start < text.length; start += MAX_LINE_LENGTH - WINDOW_OVERLAP) {
    units.push({
      text: text.slice(start, start + MAX_LINE_LENGTH),
      firstLine: line,
      lineStarts: [0],
      context,
      fn,
    })
    if (start + MAX_LINE_LENGTH >= text.length) break
  }
  return units
}

/** JavaScript: physical lines; whole-line comments are left out. */
function scriptUnits(source: string): SourceUnits {
  const units: Unit[] = []
  let longLine = 0
  splitLines(source).forEach((text, index) => {
    const trimmed = text.trimStart()
    if (trimmed === '' || /^(?:\/\/|\/\*|\*)/.test(trimmed)) return
    if (text.length > MAX_LINE_LENGTH && longLine === 0) longLine = index + 1
    units.push(...windows(text, index + 1, 'module', -1))
  })
  return { units, longLine, functions: [] }
}

interface Part {
  text: string
  line: number
}

/** An open `def` or `if __name__ == '__main__':` block. */
interface Block {
  indent: number
  context: 'function' | 'main'
  fn: number
}

/**
 * Python: logical lines (joined across brackets, triple-quoted strings and backslashes), with
 * comments removed, each with the context it runs in. Class bodies run at import time, so only
 * `def` bodies (`function`) and `if __name__ == '__main__':` blocks (`main`) are not `module`.
 * A header line belongs to the block it opens.
 */
function pythonUnits(source: string): SourceUnits {
  const units: Unit[] = []
  const functions: PythonFunction[] = []
  let longLine = 0
  const state: TokenState = { quote: 0, triple: false, depth: 0 }
  let parts: Part[] = []
  const blocks: Block[] = []
  const emit = () => {
    const group = parts
    parts = []
    let first: Part | undefined
    let length = 0
    for (const part of group) {
      if (first === undefined && !BLANK.test(part.text)) first = part
      length += part.text.length + 1
    }
    if (first === undefined) return
    const indent = indentWidth(first.text)
    while (blocks.length > 0 && blocks[blocks.length - 1].indent >= indent) blocks.pop()
    const enclosing = blocks.length > 0 ? blocks[blocks.length - 1].fn : -1
    const joined = group.length === 1 ? group[0].text : group.map((part) => part.text).join(' ')
    if (DEF_HEADER.test(first.text)) {
      functions.push({
        parent: enclosing,
        params: parameters(joined),
        method: METHOD_HEADER.test(joined),
      })
      blocks.push({ indent, context: 'function', fn: functions.length - 1 })
    } else if (MAIN_HEADER.test(first.text)) {
      blocks.push({ indent, context: 'main', fn: enclosing })
    }
    const innermost = blocks.length > 0 ? blocks[blocks.length - 1] : undefined
    const context: CodeContext = innermost?.context ?? 'module'
    const fn = innermost?.fn ?? -1
    if (group.length === 1 && length <= MAX_LINE_LENGTH) {
      units.push({ text: joined, firstLine: group[0].line, lineStarts: [0], context, fn })
    } else if (length <= MAX_LINE_LENGTH) {
      const lineStarts: number[] = []
      let offset = 0
      for (const part of group) {
        lineStarts.push(offset)
        offset += part.text.length + 1
      }
      units.push({ text: joined, firstLine: group[0].line, lineStarts, context, fn })
    } else {
      for (const part of group) units.push(...windows(part.text, part.line, context, fn))
    }
  }
  const lines = splitLines(source)
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]
    const cut = tokenizeLine(line, state)
    let text = cut === line.length ? line : line.slice(0, cut)
    if (text.length > MAX_LINE_LENGTH && longLine === 0) longLine = index + 1
    const backslash = state.quote === 0 && cut === line.length && text.endsWith('\\')
    if (backslash) text = text.slice(0, -1)
    parts.push({ text, line: index + 1 })
    if (state.quote === 0 && state.depth === 0 && !backslash) emit()
  }
  emit()
  return { units, longLine, functions }
}

const BLANK = /^\s*$/
const DEF_HEADER = /^\s*(?:async\s+)?def\b/
const METHOD_HEADER = /^\s*(?:async\s+)?def\s+\w+\s*\(\s*(?:self|cls)\s*[,)]/
const MAIN_HEADER =
  /^\s*if\s+(?:__name__\s*==\s*['"]__main__['"]|['"]__main__['"]\s*==\s*__name__)\s*:/

/** The parameter names of a `def` line (self and cls left out). */
function parameters(header: string): string[] {
  const open = header.indexOf('(')
  if (open < 0) return []
  const names: string[] = []
  let depth = 0
  let piece = ''
  const take = () => {
    const name = /^\s*\**\s*([A-Za-z_]\w*)/.exec(piece)?.[1]
    if (name !== undefined && name !== 'self' && name !== 'cls') names.push(name)
    piece = ''
  }
  for (let at = open + 1; at < header.length && at < open + MAX_HEADER_LENGTH; at++) {
    const char = header[at]
    if (char === '(' || char === '[' || char === '{') depth++
    else if (char === ')' || char === ']' || char === '}') {
      if (depth === 0) break
      depth--
    } else if (char === ',' && depth === 0) {
      take()
      continue
    }
    piece += char
  }
  take()
  return names
}

const MAX_HEADER_LENGTH = 2000

/** What the Python tokenizer carries from one physical line to the next. */
interface TokenState {
  /** 0 outside strings, else the char code of the open string's quote. */
  quote: number
  triple: boolean
  depth: number
}

const HASH = 35
const DOUBLE = 34
const SINGLE = 39
const BACKSLASH = 92

/**
 * Follows strings and brackets through one line; returns where a comment starts (or the line's
 * length). A char-code loop: it runs over every character of every Python file.
 */
function tokenizeLine(line: string, state: TokenState): number {
  const length = line.length
  let at = 0
  while (at < length) {
    const code = line.charCodeAt(at)
    if (state.quote !== 0) {
      if (code === BACKSLASH) {
        at += 2
        continue
      }
      if (code === state.quote) {
        if (!state.triple) {
          state.quote = 0
        } else if (line.charCodeAt(at + 1) === code && line.charCodeAt(at + 2) === code) {
          state.quote = 0
          at += 2
        }
      }
      at++
      continue
    }
    if (code === HASH) return at
    if (code === DOUBLE || code === SINGLE) {
      state.quote = code
      state.triple = line.charCodeAt(at + 1) === code && line.charCodeAt(at + 2) === code
      at += state.triple ? 3 : 1
      continue
    }
    if (code === 40 || code === 91 || code === 123) state.depth++
    else if ((code === 41 || code === 93 || code === 125) && state.depth > 0) state.depth--
    at++
  }
  // A one-quote string ends with its line unless the newline is escaped.
  if (state.quote !== 0 && !state.triple && line.charCodeAt(length - 1) !== BACKSLASH) {
    state.quote = 0
  }
  return length
}

function indentWidth(text: string): number {
  let width = 0
  for (const char of text) {
    if (char === ' ') width++
    else if (char === '\t') width = width - (width % 8) + 8
    else break
  }
  return width
}

// ---------------------------------------------------------------------------------------------
// Dependencies

interface RequirementLine {
  text: string
  /** 1-based; 0 for a dependency declared in pyproject (passed in by the publish call). */
  line: number
}

interface Requirement {
  name: string | null
  outsidePypi: boolean
}

const INDEX_OPTIONS = new Set([
  '-i',
  '--index-url',
  '--extra-index-url',
  '-f',
  '--find-links',
  '-e',
  '--editable',
])

/** The name of a PEP 508 requirement (or requirements.txt line), normalised as PEP 503 does. */
export function parseRequirement(raw: string): Requirement {
  const text = raw
    .slice(0, MAX_LINE_LENGTH)
    .replace(/(?:^|\s)#.*$/, '')
    .trim()
  if (text === '') return { name: null, outsidePypi: false }
  if (text.startsWith('-')) {
    const option = text.split(/[\s=]/, 1)[0]
    return { name: null, outsidePypi: INDEX_OPTIONS.has(option) }
  }
  if (/^(?:[A-Za-z][\w+.-]*:\/\/|git\+)/.test(text)) return { name: null, outsidePypi: true }
  const match = /^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)/.exec(text)
  if (match === null) return { name: null, outsidePypi: false }
  const rest = text.slice(match[1].length)
  return {
    name: normalizeName(match[1]),
    outsidePypi: /^\s*(?:\[[^\]]*\])?\s*@/.test(rest),
  }
}

export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-')
}

const popular = new Set(POPULAR_PACKAGES)
const allowed = new Set(ALLOWED_NEAR_NAMES)
const malicious = new Set(KNOWN_MALICIOUS_PACKAGES.map(normalizeName))

/** The popular package `name` imitates, if it is one or two edits away (one for short names). */
export function imitatedPackage(name: string): string | null {
  if (popular.has(name) || allowed.has(name) || name.length > MAX_NAME_LENGTH) return null
  for (const target of POPULAR_PACKAGES) {
    const threshold = target.length <= 5 ? 1 : 2
    if (Math.abs(target.length - name.length) > threshold) continue
    const distance = editDistance(name, target, threshold)
    if (distance >= 1 && distance <= threshold) return target
  }
  return null
}

function scanRequirements(lines: RequirementLine[], filePath: string): Finding[] {
  const findings: Finding[] = []
  for (const { text, line } of lines) {
    const requirement = parseRequirement(text)
    for (const rule of dependencyRules) {
      const detail = dependencyDetail(rule, requirement)
      if (detail === null) continue
      const message = `${rule.message}: ${detail}.`
      findings.push(ruleFinding(rule, 'dependency-scan', filePath, line, snippet(text), message))
      // The worst finding about a name is enough.
      if (rule.check !== 'outside-pypi') break
    }
  }
  return findings
}

function dependencyDetail(rule: DependencyRule, requirement: Requirement): string | null {
  const { name } = requirement
  switch (rule.check) {
    case 'known-malicious':
      return name !== null && malicious.has(name) ? `"${name}"` : null
    case 'typo-squat': {
      const target = name === null ? null : imitatedPackage(name)
      return target === null ? null : `"${name}" looks like "${target}"`
    }
    case 'outside-pypi':
      return requirement.outsidePypi ? (name === null ? 'see this line' : `"${name}"`) : null
  }
}

// ---------------------------------------------------------------------------------------------
// Findings

function ruleFinding(
  rule: ScanRule,
  scanner: Scanner,
  filePath: string,
  line: number,
  code: string,
  message: string,
): Finding {
  return {
    issue_type: rule.id,
    severity: rule.severity,
    file_path: filePath,
    line_number: line,
    code_snippet: code,
    message,
    scanner,
    ...enforced(rule.standard, rule.outcome),
  }
}

/** The fields a finding gets from the standard its rule enforces. */
export function enforced(
  standard: StandardKey,
  kind: FindingKind,
): Required<Pick<Finding, 'kind' | 'standard'>> {
  return { kind, standard: { ...STANDARDS[standard] } }
}

function metaFinding(issueType: string, filePath: string, message: string): Finding {
  return {
    issue_type: issueType,
    severity: 'medium',
    file_path: filePath,
    line_number: 0,
    code_snippet: '',
    message,
    scanner: 'static-scan',
  }
}

function tooLargeFinding(name: string, maxBytes: number): Finding {
  return metaFinding(
    SCAN_ISSUES.fileTooLarge,
    name,
    `The file is larger than ${Math.round(maxBytes / 1024)} KiB and was not scanned; it needs a manual review.`,
  )
}

function notTextFinding(name: string): Finding {
  return metaFinding(
    SCAN_ISSUES.notText,
    name,
    'The file is not valid UTF-8 text and was not scanned; it needs a manual review.',
  )
}

function timeoutFinding(name: string, budgetMs: number, what: 'file' | 'archive'): Finding {
  return metaFinding(
    SCAN_ISSUES.timeout,
    name,
    what === 'file'
      ? `Scanning this file took longer than ${budgetMs} ms and was stopped; it needs a manual review.`
      : `Scanning the archive took longer than ${budgetMs} ms and was stopped; the remaining files need a manual review.`,
  )
}
