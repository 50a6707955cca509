// CI results of ComfyUI's test workflows: CI jobs post them (POST /upload-artifact, one result
// per job id, re-sent to update it; the commit stored once per repository and hash, repositories
// compared in any case), and anyone reads them per commit, per summary, per branch.
// See docs/ARCHITECTURE.md, "CI results".
import { randomUUID } from 'node:crypto'
import { and, asc, count, desc, eq, inArray, like, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../db/client'
import {
  ciCommits,
  ciWorkflowResults,
  type CiCommit,
  type CiOutputFile,
  type CiWorkflowResult,
} from '../db/schema'
import type { Schemas } from '../http/operations'
import type { ArchiveStorage } from '../storage'

type Upload = Schemas['CiArtifactUpload']

export const DEFAULT_CI_REPO = 'comfyanonymous/ComfyUI'

const repoKey = (repo: string) => repo.trim().toLowerCase()
const fromUnix = (seconds: number | undefined) =>
  seconds === undefined ? null : new Date(seconds * 1000)
const toUnix = (date: Date | null) =>
  date ? Math.floor(new Date(date).getTime() / 1000) : undefined

/** Where an output file is served (getCiArtifact). */
export function artifactUrl(publicUrl: string, resultId: string, name: string): string {
  return `${publicUrl}/ci-artifacts/${resultId}/${encodeURIComponent(name)}`
}

export function toApiCommit(row: CiCommit): Schemas['GitCommit'] {
  return {
    id: row.id,
    commit_hash: row.commitHash,
    // The message's first line, as git shows it.
    commit_name: row.commitMessage.split('\n')[0],
    branch_name: row.branchName,
    author: row.author,
    timestamp: new Date(row.commitTime).toISOString(),
  }
}

export function toApiResult(
  result: CiWorkflowResult,
  commit: CiCommit,
  publicUrl: string,
): Schemas['WorkflowResult'] {
  return {
    id: result.id,
    workflow_name: result.workflowName,
    operating_system: result.operatingSystem,
    gpu_type: result.gpuType,
    python_version: result.pythonVersion,
    pytorch_version: result.pytorchVersion,
    cuda_version: result.cudaVersion,
    status: result.status,
    start_time: toUnix(result.startTime),
    end_time: toUnix(result.endTime),
    avg_vram: result.avgVram ?? undefined,
    peak_vram: result.peakVram ?? undefined,
    git_repo: commit.repo,
    job_id: result.jobId,
    run_id: result.runId,
    machine_stats: result.machineStats,
    commit: toApiCommit(commit),
    output_files: result.outputFiles.map((file) => artifactUrl(publicUrl, result.id, file.name)),
  }
}

/** A file's bytes from base64; null when it is not base64. */
function decodeBase64(data: string): Buffer | null {
  const compact = data.replace(/\s+/g, '')
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0) return null
  return Buffer.from(compact, 'base64')
}

export class CiUploadRefused extends Error {}

/**
 * Stores a job's result: the commit once (its message, author and time from the latest upload
 * that sent them), the result by job id, then its output files, which replace the earlier ones
 * when new ones are sent.
 */
export async function ingestResult(
  db: Db,
  /** Null only where no upload carries files (demo data without archives). */
  storage: Pick<ArchiveStorage, 'put' | 'delete'> | null,
  upload: Upload,
): Promise<{ result: CiWorkflowResult; commit: CiCommit }> {
  const files = (upload.output_files ?? []).map((file) => {
    const bytes = decodeBase64(file.data_base64)
    if (!bytes) throw new CiUploadRefused(`Output file '${file.name}' is not base64.`)
    return { name: file.name, contentType: file.content_type, bytes }
  })
  const names = new Set(files.map((file) => file.name))
  if (names.size !== files.length) {
    throw new CiUploadRefused('Two output files have the same name.')
  }
  const { result, commit } = await db.transaction(async (tx) => {
    const [commit] = await tx
      .insert(ciCommits)
      .values({
        repo: upload.repo,
        repoKey: repoKey(upload.repo),
        commitHash: upload.commit_hash.toLowerCase(),
        branchName: upload.branch_name,
        commitMessage: upload.commit_message ?? '',
        author: upload.author ?? '',
        ...(upload.commit_time ? { commitTime: new Date(upload.commit_time) } : {}),
      })
      .onConflictDoUpdate({
        target: [ciCommits.repoKey, ciCommits.commitHash],
        set: {
          branchName: upload.branch_name,
          ...(upload.commit_message !== undefined ? { commitMessage: upload.commit_message } : {}),
          ...(upload.author !== undefined ? { author: upload.author } : {}),
          ...(upload.commit_time ? { commitTime: new Date(upload.commit_time) } : {}),
        },
      })
      .returning()
    const fields = {
      commitId: commit.id,
      runId: upload.run_id ?? '',
      workflowName: upload.workflow_name,
      operatingSystem: upload.os,
      gpuType: upload.gpu_type ?? '',
      pythonVersion: upload.python_version ?? '',
      pytorchVersion: upload.pytorch_version ?? '',
      cudaVersion: upload.cuda_version ?? '',
      status: upload.status,
      startTime: fromUnix(upload.start_time),
      endTime: fromUnix(upload.end_time),
      avgVram: upload.avg_vram ?? null,
      peakVram: upload.peak_vram ?? null,
      machineStats: upload.machine_stats ?? {},
    }
    const [result] = await tx
      .insert(ciWorkflowResults)
      .values({ id: randomUUID(), jobId: upload.job_id, ...fields })
      .onConflictDoUpdate({
        target: ciWorkflowResults.jobId,
        set: { ...fields, updatedAt: sql`now()` },
      })
      .returning()
    return { result, commit }
  })
  if (files.length === 0) return { result, commit }
  if (!storage) throw new Error('Output files need an archive store.')
  const stored: CiOutputFile[] = []
  for (const file of files) {
    const key = `ci/${result.id}/${file.name}`
    await storage.put(key, file.bytes)
    stored.push({ name: file.name, contentType: file.contentType, key, size: file.bytes.length })
  }
  const [updated] = await db
    .update(ciWorkflowResults)
    .set({ outputFiles: stored })
    .where(eq(ciWorkflowResults.id, result.id))
    .returning()
  // Files no longer listed are removed from the store, once the row no longer points at them.
  for (const old of result.outputFiles) {
    if (!names.has(old.name)) await storage.delete(old.key)
  }
  return { result: updated, commit }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export async function findResult(
  db: Db,
  id: string,
): Promise<{ result: CiWorkflowResult; commit: CiCommit } | null> {
  if (!UUID.test(id)) return null
  const [row] = await db
    .select({ result: ciWorkflowResults, commit: ciCommits })
    .from(ciWorkflowResults)
    .innerJoin(ciCommits, eq(ciCommits.id, ciWorkflowResults.commitId))
    .where(eq(ciWorkflowResults.id, id))
  return row ?? null
}

export interface ResultFilters {
  repo: string
  /** A commit's id, or its hash (whole or from 7 characters). */
  commit?: string
  operatingSystem?: string
  workflowName?: string
  branch?: string
}

const pagesOf = (total: number, size: number) => Math.ceil(total / size)

/** Workflow results, newest commit first, then by workflow and operating system. */
export async function listResults(
  db: Db,
  filters: ResultFilters,
  paging: { page: number; pageSize: number },
) {
  const conditions: SQL[] = [eq(ciCommits.repoKey, repoKey(filters.repo))]
  if (filters.commit) {
    conditions.push(
      UUID.test(filters.commit)
        ? eq(ciCommits.id, filters.commit)
        : like(ciCommits.commitHash, `${filters.commit.toLowerCase().replace(/[^0-9a-f]/g, '')}%`),
    )
  }
  if (filters.operatingSystem) {
    conditions.push(eq(ciWorkflowResults.operatingSystem, filters.operatingSystem))
  }
  if (filters.workflowName)
    conditions.push(eq(ciWorkflowResults.workflowName, filters.workflowName))
  if (filters.branch) conditions.push(eq(ciCommits.branchName, filters.branch))
  const where = and(...conditions)
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ result: ciWorkflowResults, commit: ciCommits })
      .from(ciWorkflowResults)
      .innerJoin(ciCommits, eq(ciCommits.id, ciWorkflowResults.commitId))
      .where(where)
      .orderBy(
        desc(ciCommits.commitTime),
        asc(ciWorkflowResults.workflowName),
        asc(ciWorkflowResults.operatingSystem),
        asc(ciWorkflowResults.id),
      )
      .limit(paging.pageSize)
      .offset((paging.page - 1) * paging.pageSize),
    db
      .select({ total: count() })
      .from(ciWorkflowResults)
      .innerJoin(ciCommits, eq(ciCommits.id, ciWorkflowResults.commitId))
      .where(where),
  ])
  return { rows, totalPages: pagesOf(total, paging.pageSize) }
}

/**
 * One row per commit, newest first, with a status per operating system: `failed` if any of its
 * results there failed, else `started` if one is still running, else `completed`. Computed by
 * the database, for the page's commits only (taken first: a status computed in the same query
 * would be computed for every commit an OFFSET skips too).
 */
export async function commitSummaries(
  db: Db,
  repo: string,
  branch: string | undefined,
  paging: { page: number; pageSize: number },
) {
  const conditions: SQL[] = [eq(ciCommits.repoKey, repoKey(repo))]
  if (branch) conditions.push(eq(ciCommits.branchName, branch))
  const where = and(...conditions)
  const [commits, [{ total }]] = await Promise.all([
    db
      .select()
      .from(ciCommits)
      .where(where)
      .orderBy(desc(ciCommits.commitTime), desc(ciCommits.id))
      .limit(paging.pageSize)
      .offset((paging.page - 1) * paging.pageSize),
    db.select({ total: count() }).from(ciCommits).where(where),
  ])
  const statuses = new Map<string, Record<string, string>>()
  if (commits.length > 0) {
    const rows = await db
      .select({
        commitId: ciWorkflowResults.commitId,
        operatingSystem: ciWorkflowResults.operatingSystem,
        status: sql<string>`case
          when bool_or(${ciWorkflowResults.status} = 'failed') then 'failed'
          when bool_or(${ciWorkflowResults.status} = 'started') then 'started'
          else 'completed'
        end`,
      })
      .from(ciWorkflowResults)
      .where(
        inArray(
          ciWorkflowResults.commitId,
          commits.map((commit) => commit.id),
        ),
      )
      .groupBy(ciWorkflowResults.commitId, ciWorkflowResults.operatingSystem)
    for (const row of rows) {
      const perOs = statuses.get(row.commitId) ?? {}
      perOs[row.operatingSystem] = row.status
      statuses.set(row.commitId, perOs)
    }
  }
  return {
    commit_summaries: commits.map((commit) => ({
      ...toApiCommit(commit),
      status_summary: statuses.get(commit.id) ?? {},
    })),
    totalNumberOfPages: pagesOf(total, paging.pageSize),
  }
}

/** The branches of `repo` that have results, by name. */
export async function branchesOf(db: Db, repo: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ branch: ciCommits.branchName })
    .from(ciCommits)
    .where(eq(ciCommits.repoKey, repoKey(repo)))
    .orderBy(asc(ciCommits.branchName))
  return rows.map((row) => row.branch)
}
