// `npm run bench:corpus -- DIR [--expect MAP.json] [--json]`: runs the publishing pipeline's
// checks over every .zip in DIR, as a version's job would (server/pipeline/process-version.ts
// `examineArchive` then `decide`, with the server's settings read by server/config.ts:
// REVIEW_MODE, SCAN_FLAG_SEVERITY, MAX_ARCHIVE_MB), and prints per pack the outcome, the
// findings by rule, the classes extracted and the time, then totals. With --expect (e.g.
// ComfyUI-Manager's extension-node-map.json) it prints recall and precision of the extracted
// class names. Public packs measured this way stay outside the repository; the pure part is in
// corpus-report.ts, tested with look-alike data.
import fs from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { unzipSync } from 'fflate'
import { loadConfig } from '../../server/config'
import { loadContract } from '../../server/http/contract'
import { DEFAULT_ARCHIVE_LIMITS, uploadRefusals } from '../../server/pipeline/archive'
import { SEVERITIES, atLeast, type Finding } from '../../server/pipeline/findings'
import { decide, examineArchive } from '../../server/pipeline/process-version'
import {
  CORPUS_USAGE,
  UsageError,
  countByRule,
  formatRuleCounts,
  formatTable,
  matchRepository,
  median,
  namesMappedInSources,
  overallScore,
  parseCorpusArgs,
  parseExpectations,
  percent,
  percentile,
  readPyproject,
  repositoryFromSidecar,
  repositoryFromZipName,
  score,
  type Expectations,
  type PyprojectFields,
  type RepositoryCandidate,
  type RuleCount,
  type Score,
} from './corpus-report'

/** How many missed or unexpected class names the details list per pack. */
const NAMES_SHOWN = 12

type Outcome = 'Active' | 'Flagged' | 'Pending' | 'Refused at upload'

interface PackResult {
  file: string
  bytes: number
  version: string | null
  /** The pyproject version fails the contract's SemVer: the publish call itself is refused. */
  versionRefused: boolean
  outcome: Outcome
  findings: RuleCount[]
  /** The findings that flagged the version (at or above SCAN_FLAG_SEVERITY). */
  blocking: BriefFinding[]
  /** Findings at or above SCAN_FLAG_SEVERITY that `decide` did not flag for (standards). */
  notBlocking: BriefFinding[]
  classes: number
  extraction: { status: string; reason: string; warnings: string[] }
  /** Wall-clock time of the upload call's archive checks (uploadRefusals). */
  uploadMs: number
  /** Wall-clock time of the version's job: checks, scan, extraction and decision. */
  ms: number
  /** CPU time of the same (less sensitive to a busy machine than `ms`). */
  cpuMs: number
  repository: { url: string; source: string } | null
  score: Score | null
  /** The missed classes, by whether a line of the pack's Python code maps their name to a class. */
  missed: { inSource: string[]; notInSource: string[] } | null
}

type BriefFinding = Pick<
  Finding,
  'issue_type' | 'severity' | 'file_path' | 'line_number' | 'message'
>

const brief = ({ issue_type, severity, file_path, line_number, message }: Finding) => ({
  issue_type,
  severity,
  file_path,
  line_number,
  message,
})

/** The findings `decide` flagged a version for: its status_reason, a JSON array of findings. */
function blockingOf(statusReason: string): Finding[] {
  return statusReason === '' ? [] : (JSON.parse(statusReason) as Finding[])
}

const same = (a: Finding) => (b: Finding) =>
  a.issue_type === b.issue_type &&
  a.file_path === b.file_path &&
  a.line_number === b.line_number &&
  a.severity === b.severity

/** The contract's rule for a version string (components.schemas.SemVer). */
function versionRule(): (version: string) => boolean {
  const contract = loadContract() as { components?: { schemas?: Record<string, unknown> } }
  const schema = contract.components?.schemas?.SemVer as
    { pattern?: string; maxLength?: number } | undefined
  const pattern = new RegExp(schema?.pattern ?? '.*')
  const maxLength = schema?.maxLength ?? Infinity
  return (version) => version.length <= maxLength && pattern.test(version)
}

/** pyproject.toml at the archive root or in its only top-level folder (as the pipeline finds it). */
function pyprojectOf(bytes: Uint8Array): PyprojectFields | null {
  let files: Record<string, Uint8Array>
  try {
    files = unzipSync(bytes, { filter: (file) => /^([^/]+\/)?pyproject\.toml$/.test(file.name) })
  } catch {
    return null
  }
  const name = Object.keys(files).sort((a, b) => a.length - b.length)[0]
  return name === undefined ? null : readPyproject(new TextDecoder().decode(files[name]))
}

function splitMissed(bytes: Uint8Array, missed: string[]) {
  if (missed.length === 0) return { inSource: [], notInSource: [] }
  let files: Record<string, Uint8Array> = {}
  try {
    files = unzipSync(bytes, { filter: (file) => file.name.endsWith('.py') })
  } catch {
    // Unreadable: every missed name counts as not in the source.
  }
  const decoder = new TextDecoder()
  const named = namesMappedInSources(
    missed,
    Object.values(files).map((data) => decoder.decode(data)),
  )
  return {
    inSource: missed.filter((name) => named.has(name)),
    notInSource: missed.filter((name) => !named.has(name)),
  }
}

function sidecarRepository(zipPath: string): string | null {
  const sidecar = zipPath.replace(/\.zip$/i, '.json')
  return fs.existsSync(sidecar) ? repositoryFromSidecar(fs.readFileSync(sidecar, 'utf8')) : null
}

type Settings = ReturnType<typeof loadConfig>

async function examinePack(
  zipPath: string,
  settings: Settings,
  expectations: Expectations | null,
  acceptsVersion: (version: string) => boolean,
): Promise<PackResult> {
  const bytes = new Uint8Array(fs.readFileSync(zipPath))
  const pyproject = pyprojectOf(bytes)
  const version = pyproject?.version ?? null

  // The upload call's own checks, before the archive is stored (timed apart: not the job's).
  const uploadStarted = performance.now()
  const refusals = uploadRefusals(bytes, {
    ...DEFAULT_ARCHIVE_LIMITS,
    maxArchiveBytes: settings.maxArchiveBytes,
  })
  const uploadMs = performance.now() - uploadStarted

  const started = performance.now()
  const cpuBefore = process.cpuUsage()
  const examination =
    refusals.length > 0
      ? null
      : await examineArchive(bytes, pyproject?.dependencies ?? [], settings)
  const decision = examination ? decide(examination.findings, settings) : null
  const ms = performance.now() - started
  const cpu = process.cpuUsage(cpuBefore)

  const findings = examination?.findings ?? refusals
  const extraction = examination?.extraction ?? null
  const found = extraction?.nodes.map((node) => node.comfy_node_name) ?? []
  const outcome: Outcome =
    decision === null
      ? 'Refused at upload'
      : decision.status === 'NodeVersionStatusFlagged'
        ? 'Flagged'
        : decision.status === 'NodeVersionStatusPending'
          ? 'Pending'
          : 'Active'

  const file = path.basename(zipPath)
  const candidates: RepositoryCandidate[] = [
    { source: 'sidecar', url: sidecarRepository(zipPath) },
    { source: 'zip name', url: repositoryFromZipName(file) },
    { source: 'pyproject', url: pyproject?.repository ?? null },
  ]
  const match = expectations ? matchRepository(candidates, expectations) : null
  const packScore = match && score(match.expected, found)
  return {
    file,
    bytes: bytes.length,
    version,
    versionRefused: version !== null && !acceptsVersion(version),
    outcome,
    findings: countByRule(findings, SEVERITIES),
    // What flagged it is what `decide` wrote as status_reason (or what the upload refused).
    blocking: (decision === null ? refusals : blockingOf(decision.statusReason)).map(brief),
    notBlocking: findings
      .filter((f) => atLeast(f.severity, settings.flagSeverity))
      .filter((f) => decision !== null && !blockingOf(decision.statusReason).some(same(f)))
      .map(brief),
    classes: new Set(found).size,
    extraction: {
      status: extraction?.status ?? 'failed',
      reason:
        extraction === null
          ? 'The archive did not pass its checks.'
          : extraction.status === 'failed'
            ? extraction.reason
            : '',
      warnings: extraction?.status === 'success' ? extraction.warnings : [],
    },
    uploadMs,
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    repository: match && { url: match.url, source: match.source },
    score: packScore,
    missed: packScore && splitMissed(bytes, packScore.missed),
  }
}

function totals(results: readonly PackResult[], withExpect: boolean) {
  const times = results.map((r) => r.ms)
  const cpuTimes = results.map((r) => r.cpuMs)
  const outcomes: Record<string, number> = {}
  for (const r of results) outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1
  const scored = results.flatMap((r) => (r.score ? [r.score] : []))
  return {
    packs: results.length,
    outcomes,
    classes: results.reduce((sum, r) => sum + r.classes, 0),
    versionsRefused: results.filter((r) => r.versionRefused).length,
    ms: { median: median(times), p95: percentile(times, 95), max: percentile(times, 100) },
    cpuMs: {
      median: median(cpuTimes),
      p95: percentile(cpuTimes, 95),
      max: percentile(cpuTimes, 100),
    },
    ...(withExpect
      ? { matchedPacks: scored.length, overall: scored.length ? overallScore(scored) : null }
      : {}),
  }
}

const ms = (value: number | null) => (value === null ? '-' : value.toFixed(0))

function printText(results: readonly PackResult[], settings: Settings, withExpect: boolean) {
  console.log(
    `bench:corpus: ${results.length} packs, REVIEW_MODE=${settings.reviewMode}, ` +
      `SCAN_FLAG_SEVERITY=${settings.flagSeverity}, MAX_ARCHIVE_MB=${settings.maxArchiveBytes / 1024 / 1024}\n`,
  )
  const header = [
    'pack',
    'MB',
    'version',
    'outcome',
    'classes',
    'extraction',
    'upload ms',
    'job ms',
    'job cpu ms',
  ]
  if (withExpect) header.splice(5, 0, 'expected', 'recall', 'precision')
  const rows = results.map((r) => {
    const row = [
      r.file.replace(/\.zip$/i, ''),
      (r.bytes / 1024 / 1024).toFixed(1),
      r.version === null ? '-' : `${r.version}${r.versionRefused ? ' (refused)' : ''}`,
      r.outcome,
      String(r.classes),
      r.extraction.status,
      ms(r.uploadMs),
      ms(r.ms),
      ms(r.cpuMs),
    ]
    if (withExpect) {
      row.splice(
        5,
        0,
        r.score ? String(r.score.expected) : 'no match',
        percent(r.score?.recall ?? null),
        percent(r.score?.precision ?? null),
      )
    }
    return row
  })
  console.log(formatTable(header, rows))

  console.log('\nFindings by rule (issue_type:severity×count):')
  for (const r of results) console.log(`- ${r.file}: ${formatRuleCounts(r.findings)}`)

  const notable = results.filter(
    (r) =>
      r.blocking.length > 0 ||
      r.notBlocking.length > 0 ||
      r.versionRefused ||
      r.extraction.reason !== '' ||
      r.extraction.warnings.length > 0 ||
      (r.score !== null && (r.score.missed.length > 0 || r.score.unexpected.length > 0)),
  )
  if (notable.length > 0) console.log('\nDetails:')
  for (const r of notable) {
    console.log(
      `\n${r.file}${r.repository ? ` (${r.repository.url}, by ${r.repository.source})` : ''}`,
    )
    if (r.versionRefused) {
      console.log(`  version ${r.version}: the publish call refuses it (contract's SemVer)`)
    }
    const where = (f: BriefFinding) =>
      f.file_path ? ` ${f.file_path}${f.line_number ? `:${f.line_number}` : ''}` : ''
    for (const f of r.blocking) {
      console.log(
        `  ${r.outcome.toLowerCase()} by ${f.issue_type} (${f.severity})${where(f)}: ${f.message}`,
      )
    }
    for (const f of r.notBlocking) {
      console.log(`  not flagged for ${f.issue_type} (${f.severity})${where(f)}: ${f.message}`)
    }
    if (r.extraction.reason)
      console.log(`  extraction ${r.extraction.status}: ${r.extraction.reason}`)
    if (r.extraction.warnings.length > 0) {
      const shown = r.extraction.warnings.slice(0, 5)
      console.log(`  ${r.extraction.warnings.length} extraction warnings, e.g.:`)
      for (const warning of shown) console.log(`    ${warning}`)
    }
    if (r.missed) {
      const list = (names: string[]) =>
        `${names.slice(0, NAMES_SHOWN).join(', ')}${names.length > NAMES_SHOWN ? ', …' : ''}`
      if (r.missed.inSource.length > 0) {
        console.log(
          `  missed ${r.missed.inSource.length} mapped in the source: ${list(r.missed.inSource)}`,
        )
      }
      if (r.missed.notInSource.length > 0) {
        console.log(
          `  missed ${r.missed.notInSource.length} not mapped in the source (gone or commented out since the map, or built at run time): ${list(r.missed.notInSource)}`,
        )
      }
    }
    if (r.score && r.score.unexpected.length > 0) {
      const more = r.score.unexpected.length > NAMES_SHOWN ? ', …' : ''
      console.log(
        `  not in the map ${r.score.unexpected.length}: ${r.score.unexpected.slice(0, NAMES_SHOWN).join(', ')}${more}`,
      )
    }
  }

  const t = totals(results, withExpect)
  console.log('\nTotals:')
  console.log(
    `  outcomes: ${Object.entries(t.outcomes)
      .map(([outcome, count]) => `${outcome} ${count}`)
      .join(', ')}`,
  )
  console.log(`  classes extracted: ${t.classes}`)
  console.log(`  versions the publish call refuses: ${t.versionsRefused}`)
  console.log(
    `  job time (ms): median ${ms(t.ms.median)}, p95 ${ms(t.ms.p95)}, max ${ms(t.ms.max)}`,
  )
  console.log(
    `  job CPU time (ms): median ${ms(t.cpuMs.median)}, p95 ${ms(t.cpuMs.p95)}, max ${ms(t.cpuMs.max)}`,
  )
  if (withExpect) {
    const overall = t.overall
    console.log(
      `  expectations: ${t.matchedPacks} of ${results.length} packs matched` +
        (overall
          ? `; recall ${percent(overall.recall)} (${overall.matched}/${overall.expected}), ` +
            `precision ${percent(overall.precision)} (${overall.accepted}/${overall.found}) (micro-averaged)`
          : ''),
    )
  }
}

async function main() {
  let args
  try {
    args = parseCorpusArgs(process.argv.slice(2))
    if (!fs.existsSync(args.dir) || !fs.statSync(args.dir).isDirectory()) {
      throw new UsageError(`'${args.dir}' is not a folder.`)
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    console.error(`${error.message}\n${CORPUS_USAGE}`)
    process.exit(2)
  }
  let expectations: Expectations | null = null
  if (args.expect !== undefined) {
    try {
      expectations = parseExpectations(JSON.parse(fs.readFileSync(args.expect, 'utf8')))
    } catch (error) {
      console.error(`Cannot read the expectation map '${args.expect}': ${(error as Error).message}`)
      process.exit(2)
    }
  }
  const zips = fs
    .readdirSync(args.dir)
    .filter((name) => name.toLowerCase().endsWith('.zip'))
    .sort((a, b) => a.localeCompare(b))
  if (zips.length === 0) {
    console.error(`No .zip files in '${args.dir}'.`)
    process.exit(2)
  }
  // The server's own reading of REVIEW_MODE, SCAN_FLAG_SEVERITY and MAX_ARCHIVE_MB.
  const settings = loadConfig(process.env)
  const acceptsVersion = versionRule()
  const results: PackResult[] = []
  for (const zip of zips) {
    if (!args.json) process.stderr.write(`${zip}…\n`)
    results.push(
      await examinePack(path.join(args.dir, zip), settings, expectations, acceptsVersion),
    )
  }
  if (args.json) {
    const output = {
      settings: {
        reviewMode: settings.reviewMode,
        flagSeverity: settings.flagSeverity,
        maxArchiveBytes: settings.maxArchiveBytes,
      },
      packs: results,
      totals: totals(results, expectations !== null),
    }
    console.log(JSON.stringify(output, null, 2))
  } else {
    printText(results, settings, expectations !== null)
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
}
