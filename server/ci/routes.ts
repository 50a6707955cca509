import { matchesHash, secretHash } from '../auth/secrets'
import type { HandlerMap } from '../http/operations'
import { badRequest, notFound, unauthorized } from '../http/errors'
import { redirectMaxAgeS } from '../storage'
import {
  branchesOf,
  CiUploadRefused,
  commitSummaries,
  DEFAULT_CI_REPO,
  findResult,
  ingestResult,
  listResults,
  toApiResult,
} from './results'

/**
 * Whether `token` is one of `tokens`: each compared in constant time as a digest, like personal
 * access tokens (server/auth/secrets.ts), and all of them, so the time says nothing of which.
 */
function isCiToken(token: string, tokens: readonly string[]): boolean {
  return tokens.map((known) => matchesHash(secretHash(known), token)).includes(true)
}

export const ciHandlers: HandlerMap = {
  async uploadCiArtifact(request, _reply, context) {
    const { config, db, storage } = context.deps
    if (config.ciUploadTokens.length === 0) {
      throw unauthorized('No CI tokens are configured here: set CI_UPLOAD_TOKENS.')
    }
    const token = request.headers['x-ci-token']
    if (typeof token !== 'string' || !isCiToken(token, config.ciUploadTokens)) {
      throw unauthorized('The X-CI-Token is not one of CI_UPLOAD_TOKENS.')
    }
    try {
      const { result, commit } = await ingestResult(db, storage, request.body)
      return toApiResult(result, commit, config.publicUrl)
    } catch (error) {
      if (error instanceof CiUploadRefused) throw badRequest(error.message)
      throw error
    }
  },

  async getGitcommit(request, _reply, context) {
    const query = request.query
    const page = query.page ?? 1
    const pageSize = query.pageSize ?? 10
    const { rows, totalPages } = await listResults(
      context.deps.db,
      {
        repo: query.repoName ?? DEFAULT_CI_REPO,
        commit: query.commitId,
        operatingSystem: query.operatingSystem,
        workflowName: query.workflowName,
        branch: query.branch,
      },
      { page, pageSize },
    )
    return {
      jobResults: rows.map(({ result, commit }) =>
        toApiResult(result, commit, context.deps.config.publicUrl),
      ),
      totalNumberOfPages: totalPages,
    }
  },

  async getGitcommitsummary(request, _reply, context) {
    const query = request.query
    return commitSummaries(context.deps.db, query.repoName ?? DEFAULT_CI_REPO, query.branchName, {
      page: query.page ?? 1,
      pageSize: query.pageSize ?? 10,
    })
  },

  async getBranch(request, _reply, context) {
    return {
      branches: await branchesOf(context.deps.db, request.query.repo_name ?? DEFAULT_CI_REPO),
    }
  },

  async getWorkflowResult(request, _reply, context) {
    const { workflowResultId } = request.params
    const found = await findResult(context.deps.db, workflowResultId)
    if (!found) throw notFound(`There is no workflow result '${workflowResultId}'.`)
    return toApiResult(found.result, found.commit, context.deps.config.publicUrl)
  },

  async getCiArtifact(request, reply, context) {
    const { workflowResultId, fileName } = request.params
    const found = await findResult(context.deps.db, workflowResultId)
    const file = found?.result.outputFiles.find((candidate) => candidate.name === fileName)
    const missing = notFound(`Workflow result '${workflowResultId}' has no file '${fileName}'.`)
    if (!file) throw missing
    // A re-sent job may replace a file of the same name: cached briefly, not forever.
    const direct = await context.deps.storage.directUrl(file.key, {
      public: true,
      contentType: file.contentType,
    })
    if (direct) {
      return reply
        .header('cache-control', `public, max-age=${redirectMaxAgeS(direct, 300)}`)
        .redirect(direct.url, 302)
    }
    const bytes = await context.deps.storage.get(file.key)
    if (!bytes) throw missing
    return reply
      .header('content-type', file.contentType)
      .header('cache-control', 'public, max-age=300')
      .header('x-content-type-options', 'nosniff')
      .send(Buffer.from(bytes))
  },
}
