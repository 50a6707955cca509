// A small closed-loop HTTP load generator: N connections, each sending its next request as soon as
// the previous answer arrives, for a fixed time. Records every latency, so percentiles are exact.
import http from 'node:http'
import { performance } from 'node:perf_hooks'

export interface LoadResult {
  requests: number
  errors: number
  seconds: number
  requestsPerSecond: number
  p50: number
  p95: number
  p99: number
}

function get(agent: http.Agent, url: URL, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, headers }, (response) => {
      response.resume()
      response.on('end', () => resolve(response.statusCode ?? 0))
    })
    request.on('error', reject)
  })
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? 0
    : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]

export async function runLoad(
  urls: () => string,
  options: { connections: number; seconds: number; headers?: Record<string, string> },
): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections })
  const latencies: number[] = []
  let errors = 0
  const started = performance.now()
  const deadline = started + options.seconds * 1000
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      while (performance.now() < deadline) {
        const sent = performance.now()
        try {
          const status = await get(agent, new URL(urls()), options.headers ?? {})
          if (status !== 200) errors += 1
        } catch {
          errors += 1
        }
        latencies.push(performance.now() - sent)
      }
    }),
  )
  agent.destroy()
  const seconds = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  return {
    requests: latencies.length,
    errors,
    seconds,
    requestsPerSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
  }
}
