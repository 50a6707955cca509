// Operation handlers by operationId, one module per contract tag. An operation of openapi.yml
// without a handler here answers 501 (see app.ts) until its issue implements it.
import type { HandlerMap } from '../http/operations'
import { adminHandlers } from './admin'
import { comfyNodeHandlers } from './comfy-nodes'
import { nodeHandlers } from './nodes'
import { publisherHandlers } from './publishers'
import { systemHandlers } from './system'
import { tokenHandlers } from './tokens'
import { userHandlers } from './users'
import { versionHandlers } from './versions'

export const handlers: HandlerMap = {
  ...nodeHandlers,
  ...versionHandlers,
  ...comfyNodeHandlers,
  ...publisherHandlers,
  ...tokenHandlers,
  ...adminHandlers,
  ...userHandlers,
  ...systemHandlers,
}
