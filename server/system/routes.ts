import fs from 'node:fs'
import { sql } from 'drizzle-orm'
import type { HandlerMap, Schemas } from '../http/operations'
import { CONTRACT_PATH, loadContract } from '../http/contract'
import { HttpError } from '../http/errors'
import { metricsAccess, metricsRefusal } from './metrics'

type FeaturesResponse = Schemas['FeaturesResponse']
type HealthResponse = Schemas['HealthResponse']

const contractYaml = fs.readFileSync(CONTRACT_PATH)
const contractJson = Buffer.from(JSON.stringify(loadContract()))

/** /health waits this long for the database, so monitors get an answer whatever it does. */
export const HEALTH_DATABASE_WAIT_MS = 1000

/** The task's result, or 'timeout' when it takes longer than `ms` (the task is not stopped). */
export function withinTime<T>(task: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms)
  })
  return Promise.race([task, timeout]).finally(() => clearTimeout(timer))
}

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

  /** Loopback, or a scraper with METRICS_TOKEN (server/system/metrics.ts); never cached. */
  async getMetrics(request, reply, context) {
    reply.header('cache-control', 'no-store')
    const access = metricsAccess(
      { remoteAddress: request.socket.remoteAddress, headers: request.headers },
      context.deps.config.metricsToken,
    )
    if (access !== 'allowed') {
      const refusal = metricsRefusal(access)
      throw new HttpError(refusal.status, refusal.error, refusal.message)
    }
    const { contentType, text } = await context.metrics.exposition()
    return reply.type(contentType).send(text)
  },

  async getHealth(_request, reply, context): Promise<HealthResponse> {
    const started = performance.now()
    const database = await withinTime(
      context.deps.db.execute(sql`select 1`).then(() => 'ok' as const),
      HEALTH_DATABASE_WAIT_MS,
    ).catch(() => 'error' as const)
    const latency = Math.round(performance.now() - started)
    const answer = { database, latency_ms: Math.min(latency, HEALTH_DATABASE_WAIT_MS) }
    if (database === 'ok') return { status: 'ok', ...answer }
    reply.status(503)
    return { status: 'error', ...answer }
  },
}
