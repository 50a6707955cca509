// `npm run registry -- worker` has no API: it serves its metrics on a listener of its own
// (WORKER_METRICS_HOST:WORKER_METRICS_PORT, loopback by default), GET /metrics only, with the
// API's access rule (loopback, or METRICS_TOKEN).
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { metricsAccess, metricsRefusal, type RegistryMetrics } from './metrics'

export interface MetricsListener {
  /** Where it listens, e.g. http://127.0.0.1:9464. */
  url: string
  close(): Promise<void>
}

export async function serveWorkerMetrics(
  metrics: RegistryMetrics,
  where: { host: string; port: number },
  token: string | undefined,
): Promise<MetricsListener> {
  const server: Server = createServer((request, response) => {
    const json = (status: number, body: object) => {
      response.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
      })
      response.end(JSON.stringify(body))
    }
    const path = (request.url ?? '').split('?')[0]
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return json(404, { error: 'Not Found', message: 'Only GET /metrics is served here.' })
    }
    const access = metricsAccess(
      { remoteAddress: request.socket.remoteAddress, headers: request.headers },
      token,
    )
    if (access !== 'allowed') {
      const { status, error, message } = metricsRefusal(access)
      return json(status, { error, message })
    }
    metrics.exposition().then(
      ({ contentType, text }) => {
        response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' })
        response.end(request.method === 'HEAD' ? undefined : text)
      },
      () => json(500, { error: 'Internal Server Error', message: 'Metrics could not be read.' }),
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(where.port, where.host, () => resolve())
  })
  const { address, port } = server.address() as AddressInfo
  const host = address.includes(':') ? `[${address}]` : address
  return {
    url: `http://${host}:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
