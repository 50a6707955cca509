// Publishing from comfy-cli: `POST /publishers/{publisherId}/nodes/{nodeId}/versions` with a
// personal access token in the body. Creates the node on its first publish (or updates its
// metadata), then a Pending version with a single-use upload link. All or nothing.
import type { Schemas } from '../http/operations'
import { UNCLAIMED_PUBLISHER } from '@/src/lib/constants'
import type { Db } from '../db/client'
import type { NodeRow, NodeVersion } from '../db/schema'
import { badRequest, forbidden, notFound, unauthorized } from '../http/errors'
import { BANNED_PUBLISHER_MESSAGE } from '../publishers/access'
import { createNode, findNodeRow, nodeFields, updateNode } from '../nodes/writes'
import { findPublisher } from '../publishers/queries'
import { verifyPersonalAccessToken } from '../tokens/tokens'
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

export async function publishNodeVersion(
  db: Db,
  publisherId: string,
  nodeId: string,
  body: PublishNodeVersionRequest,
): Promise<{ node: NodeRow; version: NodeVersion; uploadToken: string }> {
  // One transaction: a refused publish changes nothing, not even the token's lastUsedAt.
  return db.transaction(async (tx) => {
    const check = await verifyPersonalAccessToken(tx, publisherId, body.personal_access_token)
    if (!check.ok) throw TOKEN_REFUSALS[check.reason]()
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
      check.token.id,
    )
    return { node, version, uploadToken }
  })
}
