// Operation handlers by operationId, one routes.ts per domain (server/<domain>/). An operation
// of openapi.yml without a handler answers 501 (see app.ts) until its issue implements it.
import type { HandlerMap } from './operations'
import { adminHandlers } from '../admin/routes'
import { badgeHandlers } from '../badges/routes'
import { ciHandlers } from '../ci/routes'
import { comfyNodeHandlers } from '../comfy-nodes/routes'
import { customerHandlers } from '../customers/routes'
import { nodeHandlers } from '../nodes/routes'
import { publisherHandlers } from '../publishers/routes'
import { releaseHandlers } from '../releases/routes'
import { proxyHandlers } from '../proxy/routes'
import { systemHandlers } from '../system/routes'
import { tokenHandlers } from '../tokens/routes'
import { trustedPublishingHandlers } from '../trusted-publishing/routes'
import { userHandlers } from '../users/routes'
import { versionHandlers } from '../versions/routes'

export const handlers: HandlerMap = {
  ...nodeHandlers,
  ...versionHandlers,
  ...comfyNodeHandlers,
  ...publisherHandlers,
  ...tokenHandlers,
  ...adminHandlers,
  ...userHandlers,
  ...systemHandlers,
  ...customerHandlers,
  ...proxyHandlers,
  ...ciHandlers,
  ...releaseHandlers,
  ...badgeHandlers,
  ...trustedPublishingHandlers,
}
