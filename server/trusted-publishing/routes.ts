// Trusted publishing (issue 30): a node's trusted publishers (owners and admins), the OIDC
// exchange (anyone holding a matching GitHub Actions token), and the publisher's audit trail.
import type { HandlerMap, Schemas } from '../http/operations'
import { notFound } from '../http/errors'
import { requireNodeWrite, requirePublisherWrite } from '../publishers/access'
import { listPublisherEvents, memberActor, recordPublisherEvent } from '../publishers/events'
import { exchangeToken } from './exchange'
import {
  deleteTrustedPublisher,
  describeTrustedPublisher,
  insertTrustedPublisher,
  listTrustedPublishers,
  lookupGithubOwnerId,
  toApiTrustedPublisher,
} from './store'

type TrustedPublishingExchangeResponse = Schemas['TrustedPublishingExchangeResponse']

export const trustedPublishingHandlers: HandlerMap = {
  async listTrustedPublishers(request, _reply, context) {
    const { publisherId, nodeId } = request.params
    const { node } = await requireNodeWrite(context.deps.db, context.caller, publisherId, nodeId)
    const rows = await listTrustedPublishers(context.deps.db, node.id)
    return rows.map(toApiTrustedPublisher)
  },

  async createTrustedPublisher(request, reply, context) {
    const { publisherId, nodeId } = request.params
    const { db, config } = context.deps
    const { publisher, node } = await requireNodeWrite(db, context.caller, publisherId, nodeId)
    const body = request.body
    const owner = body.repository_owner.trim()
    // Looked up before the transaction: no connection is held while GitHub answers.
    const ownerId = await lookupGithubOwnerId(config.githubApiUrl, owner)
    const actor = context.caller ? memberActor(context.caller) : ''
    const row = await db.transaction(async (tx) => {
      const created = await insertTrustedPublisher(tx, node.id, {
        repositoryOwner: owner,
        repositoryOwnerId: ownerId,
        repositoryName: body.repository_name.trim(),
        workflowFilename: body.workflow_filename.trim(),
        environment: (body.environment ?? '').trim(),
        createdBy: actor,
      })
      await recordPublisherEvent(tx, {
        publisherId: publisher.id,
        kind: 'trusted_publisher.add',
        actor,
        nodeId: node.id,
        detail: `Trusted ${describeTrustedPublisher(created)} to publish node '${node.id}'.`,
      })
      return created
    })
    return reply.status(201).send(toApiTrustedPublisher(row))
  },

  async deleteTrustedPublisher(request, reply, context) {
    const { publisherId, nodeId, trustedPublisherId } = request.params
    const { db } = context.deps
    const { publisher, node } = await requireNodeWrite(db, context.caller, publisherId, nodeId)
    const actor = context.caller ? memberActor(context.caller) : ''
    await db.transaction(async (tx) => {
      const removed = await deleteTrustedPublisher(tx, node.id, trustedPublisherId)
      if (!removed) {
        throw notFound(`Node '${node.id}' has no trusted publisher '${trustedPublisherId}'.`)
      }
      await recordPublisherEvent(tx, {
        publisherId: publisher.id,
        kind: 'trusted_publisher.remove',
        actor,
        nodeId: node.id,
        detail: `Stopped trusting ${describeTrustedPublisher(removed)} to publish node '${node.id}'.`,
      })
    })
    return reply.status(204).send()
  },

  async listPublisherEvents(request, _reply, context) {
    const { publisherId } = request.params
    const { publisher } = await requirePublisherWrite(context.deps.db, context.caller, publisherId)
    const page = request.query.page ?? 1
    const limit = request.query.limit ?? 10
    return listPublisherEvents(context.deps.db, publisher.id, page, limit)
  },

  async exchangeTrustedPublishingToken(request, _reply, context) {
    const { db, config } = context.deps
    const result = await exchangeToken(
      db,
      config.trustedPublishing,
      request.body.token,
      request.body.node_id,
    )
    const answer: TrustedPublishingExchangeResponse = {
      token: result.token,
      expires_at: result.expiresAt.toISOString(),
      publisher_id: result.publisherId,
      node_id: result.nodeId,
    }
    return answer
  },
}
