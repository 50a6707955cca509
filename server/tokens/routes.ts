import type { HandlerMap, Schemas } from '../http/operations'
import { notFound } from '../http/errors'
import { requirePublisherWrite } from '../publishers/access'
import { createToken, deleteToken, listTokens, toApiToken } from './tokens'
import { nonBlank, text } from '../http/validate'

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
    const { row, secret } = await createToken(context.deps.db, publisher.id, {
      name: nonBlank('name', body.name) ?? '',
      description: text(body.description) ?? '',
      expiresInDays: body.expires_in_days ?? null,
    })
    // The only time the full secret leaves the server.
    return reply.status(201).send(toApiToken(row, secret))
  },

  async deletePersonalAccessToken(request, reply, context) {
    const { publisherId, tokenId } = request.params
    const { publisher } = await requirePublisherWrite(context.deps.db, context.caller, publisherId)
    if (!(await deleteToken(context.deps.db, publisher.id, tokenId))) {
      throw notFound(`Publisher '${publisher.id}' has no token '${tokenId}'.`)
    }
    return reply.status(204).send()
  },
}
