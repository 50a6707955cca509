import type { HandlerMap, Schemas } from '../http/operations'
import { notFound } from '../http/errors'
import { requirePublisherWrite } from '../publishers/access'
import { createToken, deleteToken, listTokens, toApiToken } from './tokens'
import { nonBlank, text } from '../http/validate'
import { memberActor, recordPublisherEvent } from '../publishers/events'

type PersonalAccessToken = Schemas['PersonalAccessToken']

export const tokenHandlers: HandlerMap = {
  async listPersonalAccessTokens(request, _reply, context): Promise<PersonalAccessToken[]> {
    const { publisherId } = request.params
    const { publisher } = await requirePublisherWrite(context.deps.db, context.caller, publisherId)
    const rows = await listTokens(context.deps.db, publisher.id)
    return rows.map((row) => toApiToken(row))
  },

  async createPersonalAccessToken(request, reply, context) {
    const { publisherId } = request.params
    const body = request.body
    const { publisher } = await requirePublisherWrite(context.deps.db, context.caller, publisherId)
    const actor = context.caller ? memberActor(context.caller) : ''
    const { row, secret } = await context.deps.db.transaction(async (tx) => {
      const created = await createToken(tx, publisher.id, {
        name: nonBlank('name', body.name) ?? '',
        description: text(body.description) ?? '',
        expiresInDays: body.expires_in_days ?? null,
      })
      await recordPublisherEvent(tx, {
        publisherId: publisher.id,
        kind: 'token.create',
        actor,
        detail: `Created token '${created.row.name}'.`,
      })
      return created
    })
    // The only time the full secret leaves the server.
    return reply.status(201).send(toApiToken(row, secret))
  },

  async deletePersonalAccessToken(request, reply, context) {
    const { publisherId, tokenId } = request.params
    const { publisher } = await requirePublisherWrite(context.deps.db, context.caller, publisherId)
    const actor = context.caller ? memberActor(context.caller) : ''
    await context.deps.db.transaction(async (tx) => {
      const deleted = await deleteToken(tx, publisher.id, tokenId)
      if (!deleted) throw notFound(`Publisher '${publisher.id}' has no token '${tokenId}'.`)
      await recordPublisherEvent(tx, {
        publisherId: publisher.id,
        kind: 'token.delete',
        actor,
        detail: `Deleted token '${deleted.name}'.`,
      })
    })
    return reply.status(204).send()
  },
}
