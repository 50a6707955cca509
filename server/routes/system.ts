import fs from 'node:fs'
import { sql } from 'drizzle-orm'
import type { FeaturesResponse, HealthResponse } from '@/src/api/generated/model'
import type { HandlerMap } from '../context'
import { CONTRACT_PATH, loadContract } from '../contract'

const contractYaml = fs.readFileSync(CONTRACT_PATH)
const contractJson = Buffer.from(JSON.stringify(loadContract()))

export const systemHandlers: HandlerMap = {
  async getFeatures(_request, reply, context): Promise<FeaturesResponse> {
    reply.header('cache-control', 'public, max-age=300')
    return {
      partner_node_conversion_rate: context.deps.config.partnerNodeConversionRate,
      featureFlags: { comfy_node_search: true, node_claiming: true, download_statistics: true },
    }
  },

  /** The contract itself: YAML by default, JSON when the client prefers it. */
  async getOpenApi(request, reply) {
    const wantsJson =
      /application\/json/.test(request.headers.accept ?? '') &&
      !/yaml/.test(request.headers.accept ?? '')
    // Buffers are sent as they are (no schema serialisation).
    return reply
      .type(wantsJson ? 'application/json' : 'application/yaml')
      .header('cache-control', 'public, max-age=300')
      .send(wantsJson ? contractJson : contractYaml)
  },

  async getHealth(_request, reply, context): Promise<HealthResponse> {
    try {
      await context.deps.db.execute(sql`select 1`)
      return { status: 'ok', database: 'ok' }
    } catch {
      reply.status(503)
      return { status: 'error', database: 'error' }
    }
  },
}
