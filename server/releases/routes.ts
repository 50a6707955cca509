import type { HandlerMap } from '../http/operations'
import { HttpError, unauthorized } from '../http/errors'
import { requireAdmin } from '../publishers/access'
import { rawBodyOf } from './raw-body'
import {
  createRelease,
  listReleases,
  toApiRelease,
  updateRelease,
  upsertRelease,
  type ReleaseFields,
} from './releases'
import { hasValidSignature, releaseOfEvent } from './webhook'

const date = (value: string | undefined) => (value === undefined ? undefined : new Date(value))

export const releaseHandlers: HandlerMap = {
  async listReleases(request, _reply, context) {
    // `form_factor` and `locale` are accepted (the app sends them) and not used yet.
    const { project, current_version: currentVersion } = request.query
    const rows = await listReleases(context.deps.db, { project, currentVersion })
    return rows.map(toApiRelease)
  },

  async receiveReleaseWebhook(request, _reply, context) {
    const secret = context.deps.config.releasesWebhookSecret
    if (!secret) {
      throw new HttpError(
        503,
        'Service Unavailable',
        'Release webhooks are not received here: set RELEASES_WEBHOOK_SECRET to the secret of the GitHub webhook.',
      )
    }
    const body = rawBodyOf(request)
    // registerRawBodyCapture (http/app.ts) keeps it for this route: without it nothing can be checked.
    if (!body) throw new Error('The raw body of POST /releases was not captured.')
    if (!hasValidSignature(secret, body, request.headers['x-hub-signature-256'])) {
      throw unauthorized(
        'The X-Hub-Signature-256 header does not sign this body: it must be sha256=<hex HMAC-SHA256 of the body with RELEASES_WEBHOOK_SECRET>.',
      )
    }
    const event = request.headers['x-github-event']
    const outcome = releaseOfEvent(typeof event === 'string' ? event : undefined, request.body)
    if ('ignored' in outcome) return { stored: false, reason: outcome.ignored }
    const row = await upsertRelease(context.deps.db, outcome.release)
    return { stored: true, release: toApiRelease(row) }
  },

  async createRelease(request, reply, context) {
    requireAdmin(context.caller)
    const { project, version, attention, title, content, published_at } = request.body
    const row = await createRelease(context.deps.db, {
      project,
      version,
      attention,
      title,
      content,
      publishedAt: date(published_at),
    })
    reply.status(201)
    return toApiRelease(row)
  },

  async updateRelease(request, _reply, context) {
    requireAdmin(context.caller)
    const { attention, title, content, published_at } = request.body
    const fields: ReleaseFields = { attention, title, content, publishedAt: date(published_at) }
    return toApiRelease(await updateRelease(context.deps.db, request.params.releaseId, fields))
  },
}
