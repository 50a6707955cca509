/**
 * One status lookup forwarded to an AI provider: GET on the provider's base URL plus the path
 * after `/proxy/<provider>`, authenticated with the registry's own key. Nothing of the caller's
 * request travels upstream (the function does not even receive its headers), and nothing of the
 * key comes back: failures answer fixed messages, never an error's text.
 */
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

type Read = { bytes: Uint8Array } | { tooLarge: true }

async function readCapped(response: Response, limit: number): Promise<Read> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN)
  if (declared > limit) {
    void response.body?.cancel().catch(() => {})
    return { tooLarge: true }
  }
  if (!response.body) return { bytes: new Uint8Array(0) }
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      void reader.cancel().catch(() => {})
      return { tooLarge: true }
    }
    chunks.push(value)
  }
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
  const url = targetUrl(endpoint.url, provider, pathAndQuery)
  const headers = {
    ...authHeaders(provider, endpoint.key, (options.now ?? Date.now)()),
    accept: 'application/json',
  }

  // The time limit covers the answer's body too: a provider that sends headers and then stalls
  // is as slow as one that never answers.
  const timeout = config.timeoutMs > 0 ? AbortSignal.timeout(config.timeoutMs) : undefined
  const signals = [timeout, options.signal].filter((signal) => signal !== undefined)
  const signal = signals.length > 0 ? AbortSignal.any(signals) : undefined
  /** Why a fetch or a read failed; the error itself is never shown (it may quote the request). */
  const failure = (whileReading: boolean): ProxyAnswer => {
    if (options.signal?.aborted) throw options.signal.reason
    if (timeout?.aborted) {
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

  let response: Response
  try {
    // Redirects are not followed: undici drops Authorization on a cross-origin redirect, but not
    // X-API-KEY or API-KEY, which would carry the key to whatever host the Location names.
    response = await fetch(url, { method: 'GET', headers, redirect: 'manual', signal })
  } catch {
    return failure(false)
  }
  if (response.status >= 300 && response.status < 400) {
    void response.body?.cancel().catch(() => {})
    return badGateway(
      `The ${provider} provider answered with a redirect (HTTP ${response.status}), which is not followed.`,
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
      `The ${provider} provider answered with more than ${MAX_ANSWER_BYTES} bytes (HTTP ${response.status}).`,
      'bad_answer',
    )
  }
  const json = parseJson(read.bytes)
  if (!json) {
    return badGateway(
      `The ${provider} provider answered with something other than JSON (HTTP ${response.status}).`,
      'bad_answer',
    )
  }
  return answer(response.status, json.value, 'answered')
}
