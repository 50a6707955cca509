// The publishing pipeline's job: after a version's zip is stored, check the archive, scan it,
// extract its ComfyUI nodes and decide: Active (REVIEW_MODE=auto), Flagged with the findings as
// `status_reason`, or Pending for a reviewer (REVIEW_MODE=manual). docs/ARCHITECTURE.md,
// walkthrough 2, follows a publish through it.
import { and, eq } from 'drizzle-orm'
import type { Db } from '../db/client'
import { refreshLatestVersion } from '../db/latest-version'
import { comfyNodes, nodeVersions, type NodeVersion, type NodeVersionStatus } from '../db/schema'
import type { ArchiveStorage } from '../storage'
import { untimedSteps, type StepTimer } from '../system/metrics'
import { checkArchive, DEFAULT_ARCHIVE_LIMITS } from './archive'
import { nodeLicenseField, readDocuments, storeDocuments, type ArchiveDocuments } from './documents'
import { extractComfyNodes, type Extraction } from './extract'
import {
  atLeast,
  DEFAULT_FLAG_SEVERITY,
  SEVERITIES,
  snippet,
  type Finding,
  type Severity,
} from './findings'
import { enqueueJob } from './jobs'
import { DEFAULT_SCAN_BUDGET, SCAN_ISSUES, scanArchive } from './scan'
import type { JobHandler } from './worker'

export const PROCESS_VERSION_JOB = 'process-version'

export type ReviewMode = 'auto' | 'manual'

export interface PipelineSettings {
  /** auto: a clean version becomes Active by itself; manual: it waits, Pending, for an admin. */
  reviewMode: ReviewMode
  /**
   * Findings at or above this severity flag the version; findings about a standard only when it
   * is set below the default (`standardFlagSeverity`).
   */
  flagSeverity: Severity
  maxArchiveBytes: number
}

export interface PipelineDeps {
  db: Db
  storage: ArchiveStorage
  settings: PipelineSettings
  /** Told after a version became Active (the website regenerates the node's page). */
  onActive?: (nodeId: string) => void
}

/** Queues the checks of a version whose archive is stored (inside the upload's transaction). */
export async function queueVersionChecks(
  db: Db,
  versionId: string,
  now = new Date(),
): Promise<NodeVersion> {
  await enqueueJob(db, PROCESS_VERSION_JOB, versionId, now)
  const [queued] = await db
    .update(nodeVersions)
    .set({ pipelineState: 'queued' })
    .where(eq(nodeVersions.id, versionId))
    .returning()
  return queued
}

export interface Examination {
  /** Worst first. */
  findings: Finding[]
  /** null when the archive failed its checks and was not read further. */
  extraction: Extraction | null
  filesScanned: number
  /** README and licence; null when the archive failed its checks. */
  documents?: ArchiveDocuments | null
}

const bySeverity = (a: Finding, b: Finding) =>
  SEVERITIES.indexOf(b.severity) - SEVERITIES.indexOf(a.severity)

/** Checks, scans and reads the comfy nodes of an archive, all in memory. */
export async function examineArchive(
  bytes: Uint8Array,
  dependencies: string[],
  settings: Pick<PipelineSettings, 'maxArchiveBytes'>,
  /** The node's `license` as sent (names the licence file); see documents.ts. */
  licenseField = '',
  /** Times the steps (registry_pipeline_step_duration_seconds). */
  timeStep: StepTimer = untimedSteps,
): Promise<Examination> {
  const checked = timeStep('check_archive', () =>
    checkArchive(bytes, { ...DEFAULT_ARCHIVE_LIMITS, maxArchiveBytes: settings.maxArchiveBytes }),
  )
  if (!checked.ok) {
    return { findings: checked.findings.sort(bySeverity), extraction: null, filesScanned: 0 }
  }
  const { archive } = checked
  const sources = new Map<string, string>()
  // Every file's path too: packs list their own folders (see extract/archive-fs.ts).
  const paths: string[] = []
  for (const entry of archive.entries) {
    const inPackage = entry.name.startsWith(archive.packageRoot)
    if (!entry.isDirectory && inPackage) paths.push(entry.name.slice(archive.packageRoot.length))
    if (entry.isDirectory || !inPackage || !entry.name.endsWith('.py')) continue
    // Sources too large for the scan are not parsed either (the scan reports them).
    const text = archive.readText(entry.name, DEFAULT_SCAN_BUDGET.maxFileBytes)
    if (text !== null) sources.set(entry.name.slice(archive.packageRoot.length), text)
  }
  // The extraction first: its import graph tells the scan which modules ComfyUI runs when it
  // loads the pack. Unknown (null) when the entry module could not be followed to its end; the
  // scan then treats every file as imported.
  const extraction = await timeStep('extract', () => extractComfyNodes(sources, { paths }))
  const reachable =
    extraction.importedModules === null
      ? null
      : new Set(extraction.importedModules.map((path) => `${archive.packageRoot}${path}`))
  const scan = timeStep('scan', () => scanArchive(archive, dependencies, { reachable }))
  return {
    findings: [...checked.findings, ...scan.findings].sort(bySeverity),
    extraction,
    filesScanned: scan.filesScanned,
    documents: timeStep('documents', () => readDocuments(archive, licenseField)),
  }
}

export interface Decision {
  status: NodeVersionStatus
  statusReason: string
}

/**
 * The severity from which findings about a published standard (kind `standard`) flag a version:
 * only when SCAN_FLAG_SEVERITY is set stricter (lower) than its default, and then from that
 * severity; with the default, such a version stays installable and its publisher sees the
 * findings. Other findings (malicious, and those of the archive checks) flag from
 * SCAN_FLAG_SEVERITY itself.
 */
export function standardFlagSeverity(flagSeverity: Severity): Severity | null {
  return atLeast(flagSeverity, DEFAULT_FLAG_SEVERITY) ? null : flagSeverity
}

/** Whether a finding flags the version by itself. */
export function blocks(finding: Finding, flagSeverity: Severity): boolean {
  const threshold = finding.kind === 'standard' ? standardFlagSeverity(flagSeverity) : flagSeverity
  return threshold !== null && atLeast(finding.severity, threshold)
}

/** Flagged with the findings that flag it as `status_reason`, else by review mode. */
export function decide(findings: Finding[], settings: PipelineSettings): Decision {
  const blocking = findings.filter((finding) => blocks(finding, settings.flagSeverity))
  if (blocking.length > 0) {
    return { status: 'NodeVersionStatusFlagged', statusReason: JSON.stringify(blocking) }
  }
  // A scan cut short by its budget read only part of the archive: a reviewer decides.
  const complete = !findings.some((finding) => finding.issue_type === SCAN_ISSUES.timeout)
  return {
    status:
      settings.reviewMode === 'auto' && complete
        ? 'NodeVersionStatusActive'
        : 'NodeVersionStatusPending',
    statusReason: '',
  }
}

/** The finding a version gets when its checks could not run at all. */
export function pipelineFailure(error: string): Finding {
  return {
    issue_type: 'checks-failed',
    severity: 'high',
    file_path: '',
    line_number: 0,
    code_snippet: snippet(''),
    message: `The archive's checks could not be completed: ${error}. An admin can queue them again.`,
    scanner: 'pipeline',
  }
}

async function findVersionById(db: Db, id: string): Promise<NodeVersion | null> {
  const [row] = await db.select().from(nodeVersions).where(eq(nodeVersions.id, id))
  return row ?? null
}

/** Writes the outcome of an examination, unless the version left Pending meanwhile. */
async function recordOutcome(
  db: Db,
  versionId: string,
  examination: Examination,
  decision: Decision,
): Promise<NodeVersion | null> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(nodeVersions)
      .where(eq(nodeVersions.id, versionId))
      .for('update')
    if (!current) return null
    await storeDocuments(tx, versionId, examination.documents ?? null)
    // Decided by an admin (or deleted) while the checks ran: their decision stands, and the
    // findings are kept for them to read.
    if (current.status !== 'NodeVersionStatusPending') {
      await tx
        .update(nodeVersions)
        .set({ scanFindings: examination.findings, scannedAt: new Date(), pipelineState: 'done' })
        .where(eq(nodeVersions.id, versionId))
      return null
    }
    const { extraction } = examination
    await tx.delete(comfyNodes).where(eq(comfyNodes.nodeVersionId, versionId))
    const seen = new Set<string>()
    const rows = (extraction?.nodes ?? [])
      .filter((node) => !seen.has(node.comfy_node_name) && seen.add(node.comfy_node_name))
      .map((node) => ({
        nodeVersionId: versionId,
        comfyNodeName: node.comfy_node_name,
        displayName: node.display_name,
        category: node.category,
        description: node.description,
        inputTypes: node.input_types,
        returnTypes: node.return_types,
        returnNames: node.return_names,
        outputIsList: node.output_is_list,
        function: node.function,
        deprecated: node.deprecated,
        experimental: node.experimental,
      }))
    for (let start = 0; start < rows.length; start += 500) {
      await tx.insert(comfyNodes).values(rows.slice(start, start + 500))
    }
    const [updated] = await tx
      .update(nodeVersions)
      .set({
        status: decision.status,
        statusReason: decision.statusReason,
        scanFindings: examination.findings,
        scannedAt: new Date(),
        pipelineState: 'done',
        comfyNodeExtractStatus: extraction?.status ?? 'failed',
        comfyNodeExtractReason:
          extraction === null
            ? 'The archive did not pass its checks.'
            : extraction.status === 'failed'
              ? extraction.reason
              : '',
      })
      .where(eq(nodeVersions.id, versionId))
      .returning()
    await refreshLatestVersion(tx, current.nodeId)
    return updated
  })
}

export function versionChecksHandler(deps: PipelineDeps): JobHandler {
  const { db, storage, settings } = deps
  return {
    async run(job, timeStep = untimedSteps) {
      const version = await findVersionById(db, job.subject)
      // Nothing to do any more (deleted, decided) or yet (no archive): a retry is harmless.
      if (!version || version.status !== 'NodeVersionStatusPending' || !version.storageKey) return
      await db
        .update(nodeVersions)
        .set({ pipelineState: 'checking' })
        .where(eq(nodeVersions.id, version.id))
      const storageKey = version.storageKey
      const bytes = await timeStep('read_archive', () => storage.get(storageKey))
      if (!bytes) throw new Error('the archive is missing from storage')
      const license = await nodeLicenseField(db, version.nodeId)
      const examination = await examineArchive(
        bytes,
        version.dependencies,
        settings,
        license,
        timeStep,
      )
      const updated = await timeStep('record', () =>
        recordOutcome(db, version.id, examination, decide(examination.findings, settings)),
      )
      if (updated?.status === 'NodeVersionStatusActive') deps.onActive?.(updated.nodeId)
    },

    async giveUp(job, error) {
      const finding = pipelineFailure(error)
      await db.transaction(async (tx) => {
        const [flagged] = await tx
          .update(nodeVersions)
          .set({
            status: 'NodeVersionStatusFlagged',
            statusReason: JSON.stringify([finding]),
            scanFindings: [finding],
            pipelineState: 'done',
          })
          .where(
            and(
              eq(nodeVersions.id, job.subject),
              eq(nodeVersions.status, 'NodeVersionStatusPending'),
            ),
          )
          .returning()
        if (flagged) await refreshLatestVersion(tx, flagged.nodeId)
      })
    },
  }
}
