// The static security scan of a checked archive: the rules of `scan-rules.ts` over its Python and
// JavaScript sources, requirements.txt and the declared dependencies. Pure and synchronous, with
// a time budget per file and per archive, so a hostile archive ends in findings, never a hang.
import { editDistance } from '@/src/lib/edit-distance'
import type { CheckedArchive } from './archive'
import { snippet, type Finding, type Scanner, type Severity } from './findings'
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

export function scanArchive(
  archive: CheckedArchive,
  dependencies: string[],
  budget: Partial<ScanBudget> = {},
): ScanResult {
  const limits = { ...DEFAULT_SCAN_BUDGET, ...budget }
  const archiveDeadline = performance.now() + limits.perArchiveMs
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
    if (performance.now() >= archiveDeadline) {
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
      const deadline = Math.min(performance.now() + limits.perFileMs, archiveDeadline)
      const result = scanSource(name, text, kind.language, deadline)
      findings.push(...result.findings)
      if (result.timedOut) {
        filesScanned--
        if (performance.now() >= archiveDeadline) {
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
  /** Python: outside function bodies and `if __name__ == '__main__'`. */
  importTime: boolean
}

function scanSource(
  name: string,
  source: string,
  language: Language,
  deadline: number,
): { findings: Finding[]; timedOut: boolean } {
  const { units, longLine } = language === 'python' ? pythonUnits(source) : scriptUnits(source)
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
    })
  }
  // One pass over the whole file per regex rules out most matchers before the line loop.
  const rules = codeRules
    .filter(
      (rule) =>
        rule.languages.includes(language) &&
        (rule.fileRequires === undefined || rule.fileRequires.test(source)),
    )
    .map((rule) => ({
      rule,
      lines: (rule.lines ?? []).filter((matcher) => matcher.all.every((p) => p.test(source))),
      flows: (rule.flows ?? []).filter((flow) => flow.sink.test(source)),
    }))
    .filter(({ lines, flows }) => lines.length > 0 || flows.length > 0)
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
    findings.push(ruleFinding(rule, 'static-scan', name, line, excerpt(text, index), rule.message))
  }
  for (const unit of units) {
    if (performance.now() >= deadline) return { findings, timedOut: true }
    for (const { rule, lines, flows } of rules) {
      if (rule.importTimeOnly && !unit.importTime) continue
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
  return { findings, timedOut: false }
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
function windows(text: string, line: number, importTime: boolean): Unit[] {
  if (text.length <= MAX_LINE_LENGTH)
    return [{ text, firstLine: line, lineStarts: [0], importTime }]
  const units: Unit[] = []
  for (let start = 0; start < text.length; start += MAX_LINE_LENGTH - WINDOW_OVERLAP) {
    units.push({
      text: text.slice(start, start + MAX_LINE_LENGTH),
      firstLine: line,
      lineStarts: [0],
      importTime,
    })
    if (start + MAX_LINE_LENGTH >= text.length) break
  }
  return units
}

/** JavaScript: physical lines; whole-line comments are left out. */
function scriptUnits(source: string): { units: Unit[]; longLine: number } {
  const units: Unit[] = []
  let longLine = 0
  splitLines(source).forEach((text, index) => {
    const trimmed = text.trimStart()
    if (trimmed === '' || /^(?:\/\/|\/\*|\*)/.test(trimmed)) return
    if (text.length > MAX_LINE_LENGTH && longLine === 0) longLine = index + 1
    units.push(...windows(text, index + 1, true))
  })
  return { units, longLine }
}

interface Part {
  text: string
  line: number
}

/**
 * Python: logical lines (joined across brackets, triple-quoted strings and backslashes), with
 * comments removed, each marked whether it runs at import time. Class bodies run at import
 * time, so only `def` bodies and `if __name__ == '__main__':` blocks count as deferred.
 */
function pythonUnits(source: string): { units: Unit[]; longLine: number } {
  const units: Unit[] = []
  let longLine = 0
  const state: TokenState = { quote: 0, triple: false, depth: 0 }
  let parts: Part[] = []
  const deferred: number[] = []
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
    while (deferred.length > 0 && deferred[deferred.length - 1] >= indent) deferred.pop()
    const header = DEFERRED_HEADER.test(first.text)
    const importTime = deferred.length === 0 && !header
    if (header) deferred.push(indent)
    if (group.length === 1 && length <= MAX_LINE_LENGTH) {
      units.push({ text: group[0].text, firstLine: group[0].line, lineStarts: [0], importTime })
    } else if (length <= MAX_LINE_LENGTH) {
      const lineStarts: number[] = []
      let offset = 0
      for (const part of group) {
        lineStarts.push(offset)
        offset += part.text.length + 1
      }
      units.push({
        text: group.map((part) => part.text).join(' '),
        firstLine: group[0].line,
        lineStarts,
        importTime,
      })
    } else {
      for (const part of group) units.push(...windows(part.text, part.line, importTime))
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
  return { units, longLine }
}

const BLANK = /^\s*$/
const DEFERRED_HEADER = /^\s*(?:async\s+)?def\b|^\s*if\s+__name__\s*==\s*['"]__main__['"]/

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
  rule: { id: string; severity: Severity },
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
  }
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
