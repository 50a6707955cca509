/**
 * The AI providers whose job status the registry looks up on behalf of ComfyUI's paid API nodes
 * (`GET /proxy/<provider>/...`), where each one lives, and how each wants the server-held key.
 * Configuration comes from the environment: PROXY_<PROVIDER>_URL and PROXY_<PROVIDER>_KEY (both
 * needed), plus PROXY_TIMEOUT_MS for all of them.
 */
import { createHmac, randomUUID } from 'node:crypto'

export const PROVIDERS = [
  'kling',
  'luma',
  'minimax',
  'moonvalley',
  'openai',
  'pika',
  'pixverse',
  'runway',
  'stability',
  'tripo',
] as const

export type Provider = (typeof PROVIDERS)[number]

export interface ProviderEndpoint {
  /** Upstream base URL, http(s), without a trailing slash; the contract's rest of path is appended. */
  url: string
  /** The registry's own API key for that provider (Kling: `accessKey:secretKey`). */
  key: string
}

export interface ProxyConfig {
  /** How long one lookup may take, answer body included (0: no limit of our own). */
  timeoutMs: number
  /** Only the providers whose URL and key are both set. */
  providers: Partial<Record<Provider, ProviderEndpoint>>
}

export const DEFAULT_PROXY_TIMEOUT_MS = 10_000
/** Node's timers overflow (and then fire at once) above 2^31 - 1 ms. */
const MAX_TIMEOUT_MS = 2_147_483_647

export const urlVariable = (provider: Provider) => `PROXY_${provider.toUpperCase()}_URL`
export const keyVariable = (provider: Provider) => `PROXY_${provider.toUpperCase()}_KEY`

/** Headers that authenticate one request; `now` is in milliseconds since the epoch. */
export type AuthHeaders = (key: string, now: number) => Record<string, string>

const bearer: AuthHeaders = (key) => ({ authorization: `Bearer ${key}` })

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url')

/** Kling's key is the pair `accessKey:secretKey` (the secret may itself contain colons). */
function klingKeyPair(key: string): { accessKey: string; secretKey: string } | undefined {
  const colon = key.indexOf(':')
  if (colon <= 0 || colon === key.length - 1) return undefined
  return { accessKey: key.slice(0, colon), secretKey: key.slice(colon + 1) }
}

/**
 * Kling takes no static key: a short-lived JWT (HS256) signed with the secret key, issued by the
 * access key, valid 30 minutes, and from 5 s ago to absorb clock skew (Kling's API docs).
 */
const klingJwt: AuthHeaders = (key, now) => {
  const pair = klingKeyPair(key)
  if (!pair) throw new Error(`${keyVariable('kling')} must be "accessKey:secretKey".`)
  const seconds = Math.floor(now / 1000)
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))
  const payload = base64url(
    JSON.stringify({ iss: pair.accessKey, exp: seconds + 1800, nbf: seconds - 5 }),
  )
  const signature = createHmac('sha256', pair.secretKey)
    .update(`${header}.${payload}`)
    .digest('base64url')
  return { authorization: `Bearer ${header}.${payload}.${signature}` }
}

/** How each provider wants the key (each provider's API reference). */
export const AUTH_HEADERS: Record<Provider, AuthHeaders> = {
  kling: klingJwt,
  luma: bearer,
  minimax: bearer,
  moonvalley: bearer,
  openai: bearer,
  // Pika's developer API (devapi.pika.art) reads the key from X-API-KEY, not Authorization.
  pika: (key) => ({ 'x-api-key': key }),
  // PixVerse reads the key from API-KEY and requires a fresh UUID in Ai-trace-id on every request.
  pixverse: (key) => ({ 'api-key': key, 'ai-trace-id': randomUUID() }),
  // Runway rejects requests that do not name the API version they were written against.
  runway: (key) => ({ ...bearer(key, 0), 'x-runway-version': '2024-11-06' }),
  stability: bearer,
  tripo: bearer,
}

export function authHeaders(provider: Provider, key: string, now: number): Record<string, string> {
  return AUTH_HEADERS[provider](key, now)
}

/** The upstream path of a contract path: `/proxy/kling/v1/x?y=1` → `/v1/x?y=1`. */
export function upstreamPath(provider: Provider, contractPath: string): string {
  const prefix = `/proxy/${provider}`
  const rest = contractPath.slice(prefix.length)
  if (!contractPath.startsWith(prefix) || !(rest === '' || /^[/?]/.test(rest))) {
    throw new RangeError(`Not a path of the ${provider} provider: it must start with ${prefix}/.`)
  }
  return rest.startsWith('/') ? rest : `/${rest}`
}

/** `process.env`, or any plain record of variables (tests, or NodeJS.ProcessEnv without NODE_ENV). */
type Env = Readonly<Record<string, string | undefined>>

const setting = (env: Env, name: string) => {
  const value = env[name]?.trim()
  return value ? value : undefined
}

/** An http(s) base URL without credentials, query or fragment; the value is never echoed. */
function baseUrl(name: string, value: string): string {
  let parsed: URL
  try {
    parsed = new URL(value)
  } catch {
    throw new Error(`${name} must be an http(s) URL such as https://api.example.com.`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`${name} must be an http(s) URL such as https://api.example.com.`)
  }
  if (parsed.username || parsed.password) {
    throw new Error(`${name} must not contain credentials; the key belongs in the _KEY variable.`)
  }
  if (parsed.search || parsed.hash) {
    throw new Error(`${name} must be a base URL without a query or fragment.`)
  }
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`
}

function apiKey(provider: Provider, value: string): string {
  const name = keyVariable(provider)
  // Anything else could not travel in an HTTP header (and fetch would quote it in its error).
  if (!/^[\x21-\x7e]+$/.test(value)) {
    throw new Error(`${name} must be printable ASCII without spaces.`)
  }
  if (provider === 'kling' && !klingKeyPair(value)) {
    throw new Error(`${name} must be "accessKey:secretKey" (both from Kling's developer console).`)
  }
  return value
}

function timeoutMs(value: string | undefined): number {
  if (value === undefined) return DEFAULT_PROXY_TIMEOUT_MS
  const number = Number(value)
  if (!/^\d+$/.test(value) || number > MAX_TIMEOUT_MS) {
    throw new Error(
      `PROXY_TIMEOUT_MS must be a whole number of milliseconds from 0 to ${MAX_TIMEOUT_MS}; it is '${value}'.`,
    )
  }
  return number
}

export function providerConfigFromEnv(env: Env = process.env): ProxyConfig {
  const providers: ProxyConfig['providers'] = {}
  for (const provider of PROVIDERS) {
    // Each variable is checked when set, so a typo is reported even before its partner is set.
    const url = setting(env, urlVariable(provider))
    const key = setting(env, keyVariable(provider))
    const endpoint = {
      url: url === undefined ? undefined : baseUrl(urlVariable(provider), url),
      key: key === undefined ? undefined : apiKey(provider, key),
    }
    if (endpoint.url !== undefined && endpoint.key !== undefined) {
      providers[provider] = { url: endpoint.url, key: endpoint.key }
    }
  }
  return { timeoutMs: timeoutMs(setting(env, 'PROXY_TIMEOUT_MS')), providers }
}
