// The OIDC exchange (exchangeTrustedPublishingToken): a verified GitHub Actions token that matches
// one of the node's trusted publishers becomes a one-use publish token. Every refusal happens
// before the first write, and the writes (the token id, the publish token, last_used_at) are one
// transaction, so a refused exchange leaves nothing behind, not even its token id.
import { lt } from 'drizzle-orm'
import type { Db } from '../db/client'
import {
  trustedPublishingUsedJtis,
  type TrustedPublisherRow,
  type VersionProvenance,
} from '../db/schema'
import { forbidden, notFound, unauthorized } from '../http/errors'
import { findNodeRow } from '../nodes/writes'
import { findPublisher } from '../publishers/queries'
import { BANNED_PUBLISHER_MESSAGE } from '../publishers/access'
import { verifyActionsToken, type ActionsClaims, type IssuerSettings } from './oidc'
import { mintPublishToken } from './publish-tokens'
import { listTrustedPublishers, touchTrustedPublisher } from './store'

/** Where workflow runs are linked to (GitHub Actions tokens do not say which server). */
export const GITHUB_WEB_URL = 'https://github.com'

export interface ExchangeResult {
  token: string
  expiresAt: Date
  publisherId: string
  nodeId: string
}

const lower = (value: string) => value.toLowerCase()

/** `owner/repo/.github/workflows/<file>@ref` → `<file>` ('' when it is not that shape). */
export function workflowFileOf(jobWorkflowRef: string): string {
  const match = /^[^/]+\/[^/]+\/\.github\/workflows\/([^@]+)@/.exec(jobWorkflowRef)
  return match ? match[1] : ''
}

function matches(row: TrustedPublisherRow, claims: ActionsClaims): boolean {
  const fullName = `${row.repositoryOwner}/${row.repositoryName}`
  return (
    lower(claims.repository) === lower(fullName) &&
    claims.repository_owner_id === row.repositoryOwnerId &&
    lower(claims.job_workflow_ref).startsWith(
      lower(`${fullName}/.github/workflows/${row.workflowFilename}@`),
    ) &&
    (row.environment === '' || lower(claims.environment) === lower(row.environment))
  )
}

/** The 403 for a valid token that matches none: names the first thing that differs. */
function noMatch(nodeId: string, rows: TrustedPublisherRow[], claims: ActionsClaims) {
  if (rows.length === 0) {
    return forbidden(
      `Node '${nodeId}' has no trusted publishers. Add one in the node's settings first.`,
    )
  }
  const sameRepository = rows.filter(
    (row) => lower(`${row.repositoryOwner}/${row.repositoryName}`) === lower(claims.repository),
  )
  if (sameRepository.length === 0) {
    return forbidden(
      `No trusted publisher of node '${nodeId}' matches repository '${claims.repository}'.`,
    )
  }
  const sameOwner = sameRepository.filter(
    (row) => row.repositoryOwnerId === claims.repository_owner_id,
  )
  if (sameOwner.length === 0) {
    return forbidden(
      `The owner of repository '${claims.repository}' has GitHub id ${claims.repository_owner_id}, but node '${nodeId}' trusts the owner with id ${sameRepository[0].repositoryOwnerId} (the account was deleted and re-created?). Remove the trusted publisher and add it again if this is right.`,
    )
  }
  const workflow = workflowFileOf(claims.job_workflow_ref) || claims.job_workflow_ref
  const sameWorkflow = sameOwner.filter((row) =>
    lower(claims.job_workflow_ref).startsWith(
      lower(
        `${row.repositoryOwner}/${row.repositoryName}/.github/workflows/${row.workflowFilename}@`,
      ),
    ),
  )
  if (sameWorkflow.length === 0) {
    return forbidden(
      `No trusted publisher of node '${nodeId}' matches repository '${claims.repository}' workflow '${workflow}'.`,
    )
  }
  const wanted = sameWorkflow.map((row) => `'${row.environment}'`).join(' or ')
  return forbidden(
    claims.environment
      ? `The trusted publisher of node '${nodeId}' for '${claims.repository}' workflow '${workflow}' requires environment ${wanted}; this job ran in environment '${claims.environment}'.`
      : `The trusted publisher of node '${nodeId}' for '${claims.repository}' workflow '${workflow}' requires environment ${wanted}; this job ran in no environment.`,
  )
}

export function provenanceOf(row: TrustedPublisherRow, claims: ActionsClaims): VersionProvenance {
  const provenance: VersionProvenance = {
    method: 'workflow',
    repository: claims.repository,
    commit_sha: claims.sha,
    workflow_filename: row.workflowFilename,
    workflow_ref: claims.job_workflow_ref,
  }
  if (claims.environment) provenance.environment = claims.environment
  if (claims.run_id) {
    provenance.run_url = `${GITHUB_WEB_URL}/${claims.repository}/actions/runs/${encodeURIComponent(claims.run_id)}${
      claims.run_attempt ? `/attempts/${encodeURIComponent(claims.run_attempt)}` : ''
    }`
  }
  return provenance
}

export async function exchangeToken(
  db: Db,
  settings: IssuerSettings,
  oidcToken: string,
  nodeId: string,
  now = new Date(),
): Promise<ExchangeResult> {
  const claims = await verifyActionsToken(settings, oidcToken.trim())
  const node = await findNodeRow(db, nodeId)
  if (!node || node.status === 'NodeStatusDeleted') {
    throw notFound(`Node '${nodeId}' does not exist.`)
  }
  if (node.status === 'NodeStatusBanned') {
    throw forbidden(`Node '${node.id}' is banned; no versions can be published to it.`)
  }
  const publisher = await findPublisher(db, node.publisherId)
  if (!publisher) throw notFound(`Node '${nodeId}' does not exist.`)
  if (publisher.status === 'PublisherStatusBanned') {
    throw forbidden(BANNED_PUBLISHER_MESSAGE(publisher.id))
  }
  const rows = await listTrustedPublishers(db, node.id)
  const trusted = rows.find((row) => matches(row, claims))
  if (!trusted) throw noMatch(node.id, rows, claims)

  return db.transaction(async (tx) => {
    // Token ids that can no longer be replayed (their tokens expired) are forgotten.
    await tx.delete(trustedPublishingUsedJtis).where(lt(trustedPublishingUsedJtis.expiresAt, now))
    const [fresh] = await tx
      .insert(trustedPublishingUsedJtis)
      .values({
        jti: `${claims.iss} ${claims.jti}`,
        // Kept past the token's exp by the clock tolerance the verification allows.
        expiresAt: new Date((claims.exp + 60) * 1000),
      })
      .onConflictDoNothing()
      .returning()
    if (!fresh) {
      throw unauthorized(
        `The OIDC token '${claims.jti}' was already exchanged; request a new OIDC token for each publish.`,
      )
    }
    const { row, secret } = await mintPublishToken(
      tx,
      {
        nodeId: node.id,
        publisherId: publisher.id,
        trustedPublisherId: trusted.id,
        jti: claims.jti,
        provenance: provenanceOf(trusted, claims),
      },
      now,
    )
    await touchTrustedPublisher(tx, trusted.id, now)
    return {
      token: secret,
      expiresAt: new Date(row.expiresAt),
      publisherId: publisher.id,
      nodeId: node.id,
    }
  })
}
