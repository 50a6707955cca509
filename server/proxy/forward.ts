/**
 * One status lookup forwarded to an AI provider: GET on the provider's base URL plus the path
 * after `/proxy/<provider>`, authenticated with the registry's own key. Nothing of the caller's
 * request travels upstream (the function does not even receive its headers), and nothing of the
 * key comes back: failures answer fixed messages, never an error's text.
 */
import http, { type IncomingMessage } from 'node:http'
import https from 'node:https'
import { authHeaders, keyVariable, urlVariable, type Provider, type ProxyConfig } from './providers'

/** A broken provider cannot make the registry hold more than this of one answer in memory. */
export const MAX_ANSWER_BYTES = 5 * 1024 * 1024

export type ProxyOutcome = 'answered' | 'not_configured' | 'timeout' | 'unreachable' | 'bad_answer'

export interface ProxyAnswer {
  status: number
  body: unknown
  latencyMs: number
  outcome: ProxyOutcome
}

export interface ForwardOptions {
  /** The caller went away: the lookup stops and the promise rejects with the signal's reason. */
  signal?: AbortSignal
  /** Clock for signed credentials (Kling's JWT), in ms since the epoch. */
  now?: () => number
}

/** The upstream URL, refusing a path that would climb out of the base (`/../`, `/%2e%2e/`). */
function targetUrl(base: string, provider: Provider, pathAndQuery: string): string {
  const root = new URL(base)
  const target = new URL(`${base}${pathAndQuery}`)
  const basePath = root.pathname.replace(/\/+$/, '')
  if (
    target.origin !== root.origin ||
    !(target.pathname === basePath || target.pathname.startsWith(`${basePath}/`))
  ) {
    throw new RangeError(`The path climbs out of the ${provider} provider's base URL.`)
  }
  return target.href
}

/**
 * Connections to providers are kept open between lookups (a client polls the same provider
 * again and again). node:http rather than fetch: fetch's own work was most of a lookup's
 * overhead and its slow tail (`npm run bench:api -- --proxy`).
 */
const agents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
}

/** GET `url`; resolves with the response once its headers are in. Redirects are not followed. */
function get(url: URL, headers: Record<string, string>, signal?: AbortSignal) {
  const client = url.protocol === 'https:' ? https : http
  return new Promise<IncomingMessage>((resolve, reject) => {
    const request = client.get(
      url,
      { headers, signal, agent: url.protocol === 'https:' ? agents['https:'] : agents['http:'] },
      resolve,
    )
    request.on('error', reject)
  })
}

type Read = { bytes: Uint8Array } | { tooLarge: true }

async function readCapped(response: IncomingMessage, limit: number): Promise<Read> {
  const declared = Number(response.headers['content-length'] ?? Number.NaN)
  if (declared > limit) {
    response.destroy()
    return { tooLarge: true }
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of response) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk))
    size += bytes.byteLength
    if (size > limit) {
      response.destroy()
      return { tooLarge: true }
    }
    chunks.push(bytes)
  }
  // A connection cut before the declared length ends the stream without an error.
  if (!response.complete) throw new Error('The answer broke off before its end.')
  return { bytes: Buffer.concat(chunks) }
}

function parseJson(bytes: Uint8Array): { value: unknown } | undefined {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    const value: unknown = JSON.parse(text)
    return { value }
  } catch {
    return undefined
  }
}

export async function forwardLookup(
  config: ProxyConfig,
  provider: Provider,
  pathAndQuery: string,
  options: ForwardOptions = {},
): Promise<ProxyAnswer> {
  const started = performance.now()
  const answer = (status: number, body: unknown, outcome: ProxyOutcome): ProxyAnswer => ({
    status,
    body,
    outcome,
    latencyMs: performance.now() - started,
  })
  const badGateway = (message: string, outcome: ProxyOutcome) =>
    answer(502, { error: 'Bad Gateway', message }, outcome)

  if (!pathAndQuery.startsWith('/')) {
    throw new RangeError(`The path for the ${provider} provider must start with "/".`)
  }
  const endpoint = config.providers[provider]
  if (!endpoint) {
    return answer(
      503,
      {
        error: 'Service Unavailable',
        message: `The ${provider} provider is not configured: set ${urlVariable(provider)} and ${keyVariable(provider)}.`,
      },
      'not_configured',
    )
  }
  const url = new URL(targetUrl(endpoint.url, provider, pathAndQuery))
  const headers = {
    ...authHeaders(provider, endpoint.key, (options.now ?? Date.now)()),
    accept: 'application/json',
  }

  // The time limit covers the answer's body too: a provider that sends headers and then stalls
  // is as slow as one that never answers.
  // A timer and a controller, not AbortSignal.timeout: that one made the slowest twentieth of
  // lookups a millisecond slower (`npm run bench:api -- --proxy`).
  const timeout = config.timeoutMs > 0 ? new AbortController() : undefined
  const timer = timeout && setTimeout(() => timeout.abort(), config.timeoutMs)
  const signals = [timeout?.signal, options.signal].filter((signal) => signal !== undefined)
  const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0]
  try {
    return await exchange()
  } finally {
    clearTimeout(timer)
  }

  async function exchange(): Promise<ProxyAnswer> {
    /** Why a fetch or a read failed; the error itself is never shown (it may quote the request). */
    const failure = (whileReading: boolean): ProxyAnswer => {
      if (options.signal?.aborted) throw options.signal.reason
      if (timeout?.signal.aborted) {
        return answer(
          504,
          {
            error: 'Gateway Timeout',
            message: `The ${provider} provider did not answer within ${config.timeoutMs} ms.`,
          },
          'timeout',
        )
      }
      return whileReading
        ? badGateway(`The ${provider} provider's answer broke off before its end.`, 'bad_answer')
        : badGateway(`The ${provider} provider could not be reached.`, 'unreachable')
    }

    let response: IncomingMessage
    try {
      // Redirects are not followed: a Location elsewhere would carry the key (X-API-KEY, API-KEY
      // or Authorization) to whatever host it names.
      response = await get(url, headers, signal)
    } catch {
      return failure(false)
    }
    const status = response.statusCode ?? 502
    if (status >= 300 && status < 400) {
      response.destroy()
      return badGateway(
        `The ${provider} provider answered with a redirect (HTTP ${status}), which is not followed.`,
        'bad_answer',
      )
    }

    let read: Read
    try {
      read = await readCapped(response, MAX_ANSWER_BYTES)
    } catch {
      return failure(true)
    }
    if ('tooLarge' in read) {
      return badGateway(
        `The ${provider} provider answered with more than ${MAX_ANSWER_BYTES} bytes (HTTP ${status}).`,
        'bad_answer',
      )
    }
    const json = parseJson(read.bytes)
    if (!json) {
      return badGateway(
        `The ${provider} provider answered with something other than JSON (HTTP ${status}).`,
        'bad_answer',
      )
    }
    return answer(status, json.value, 'answered')
  }
}
