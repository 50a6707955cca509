// Publishing from comfy-cli: `POST /publishers/{publisherId}/nodes/{nodeId}/versions` with a
// personal access token in the body, or a publish token minted by trusted publishing (a GitHub
// Actions workflow's OIDC token exchanged, server/trusted-publishing/). Creates the node on its
// first publish (or updates its metadata), then a Pending version with a single-use upload link.
// All or nothing; the publisher's audit trail records how it was published.
import type { Schemas } from '../http/operations'
import { UNCLAIMED_PUBLISHER } from '@/src/lib/constants'
import type { Db } from '../db/client'
import type { NodeRow, NodeVersion, VersionProvenance } from '../db/schema'
import { badRequest, forbidden, notFound, unauthorized } from '../http/errors'
import { BANNED_PUBLISHER_MESSAGE } from '../publishers/access'
import { createNode, findNodeRow, nodeFields, updateNode } from '../nodes/writes'
import { findPublisher } from '../publishers/queries'
import { verifyPersonalAccessToken } from '../tokens/tokens'
import { recordPublisherEvent } from '../publishers/events'
import { isPublishToken, spendPublishToken } from '../trusted-publishing/publish-tokens'
import { createPendingVersion } from './writes'

type PublishNodeVersionRequest = Schemas['PublishNodeVersionRequest']

const TOKEN_REFUSALS = {
  invalid: () =>
    unauthorized(
      "Invalid field 'personal_access_token': the token is not valid (mistyped, or deleted). Create a new token in the publisher's settings.",
    ),
  expired: () =>
    unauthorized(
      "Invalid field 'personal_access_token': the token has expired. Create a new token in the publisher's settings.",
    ),
  otherPublisher: () =>
    forbidden(
      "Invalid field 'personal_access_token': the token belongs to another publisher; a token only works for its own publisher.",
    ),
}

interface Credential {
  /** The personal access token's id (its upload link follows it), null for a publish token. */
  tokenId: string | null
  provenance: VersionProvenance
  /** Who published, for the publisher's audit trail. */
  actor: string
}

/**
 * The token comfy-cli sent as `personal_access_token`: a personal access token, or a publish
 * token minted by trusted publishing (marked used here, in the publish's transaction).
 */
async function checkCredential(
  db: Db,
  publisherId: string,
  nodeId: string,
  secret: string,
): Promise<Credential> {
  if (isPublishToken(secret)) {
    const minted = await spendPublishToken(db, publisherId, nodeId, secret)
    return {
      tokenId: null,
      provenance: minted.provenance,
      actor: `workflow ${minted.provenance.repository ?? ''}`.trim(),
    }
  }
  const check = await verifyPersonalAccessToken(db, publisherId, secret)
  if (!check.ok) throw TOKEN_REFUSALS[check.reason]()
  return {
    tokenId: check.token.id,
    provenance: { method: 'token', token_name: check.token.name },
    actor: `token ${check.token.name}`,
  }
}

/** "from owner/repo@abc1234 by workflow publish.yml", or "with token 'ci'". */
export function howPublished(provenance: VersionProvenance): string {
  if (provenance.method === 'workflow') {
    const commit = provenance.commit_sha ? `@${provenance.commit_sha.slice(0, 7)}` : ''
    return `from ${provenance.repository ?? ''}${commit} by workflow ${provenance.workflow_filename ?? ''}`
  }
  if (provenance.method === 'token') return `with token '${provenance.token_name ?? ''}'`
  return 'by an unknown method'
}

export async function publishNodeVersion(
  db: Db,
  publisherId: string,
  nodeId: string,
  body: PublishNodeVersionRequest,
): Promise<{ node: NodeRow; version: NodeVersion; uploadToken: string }> {
  // One transaction: a refused publish changes nothing, not even the token's lastUsedAt.
  return db.transaction(async (tx) => {
    const credential = await checkCredential(tx, publisherId, nodeId, body.personal_access_token)
    const publisher = await findPublisher(tx, publisherId)
    if (!publisher) throw notFound(`Publisher '${publisherId}' does not exist.`)
    if (publisher.status === 'PublisherStatusBanned') {
      throw forbidden(BANNED_PUBLISHER_MESSAGE(publisher.id))
    }
    const sent = body.node
    if (sent.id !== undefined && sent.id.toLowerCase() !== nodeId.toLowerCase()) {
      throw badRequest(
        `Invalid field 'node.id': '${sent.id}' does not match the node id in the path ('${nodeId}').`,
      )
    }
    // comfy-cli sends an empty DisplayName when pyproject.toml has none: keep the current name.
    const fields = nodeFields({ ...sent, name: sent.name?.trim() ? sent.name : undefined })
    let node = await findNodeRow(tx, nodeId)
    if (node) {
      if (node.publisherId !== publisher.id) {
        throw forbidden(
          node.publisherId === UNCLAIMED_PUBLISHER.id
            ? `Node '${node.id}' is unclaimed. Claim it for '${publisher.id}' on the node's page first, then publish.`
            : `Node '${node.id}' belongs to another publisher.`,
        )
      }
      if (node.status !== 'NodeStatusActive') {
        throw forbidden(
          `Node '${node.id}' is ${node.status === 'NodeStatusDeleted' ? 'deleted' : 'banned'}; no versions can be published to it.`,
        )
      }
    }
    // A repository already registered by another node is a 400 here, as comfy-cli reports it.
    if (node) await updateNode(tx, node, { ...sent, name: fields.name }, badRequest)
    else node = await createNode(tx, publisher.id, nodeId, fields, badRequest)
    const { version, uploadToken } = await createPendingVersion(
      tx,
      node,
      body.node_version,
      credential.tokenId,
      credential.provenance,
    )
    await recordPublisherEvent(tx, {
      publisherId: publisher.id,
      kind: 'version.publish',
      actor: credential.actor,
      nodeId: node.id,
      detail: `Published version ${version.version} of node '${node.id}' ${howPublished(credential.provenance)}.`,
    })
    return { node, version, uploadToken }
  })
}
