// Verifying a GitHub Actions OIDC token (a JWT) with `jose`: the signature against the issuer's
// published keys (its openid-configuration's jwks_uri), then iss, aud, exp/nbf. Every refusal is
// a 401 naming what failed; an issuer that cannot be reached is a 502 (not the caller's fault).
import {
  createRemoteJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  errors as joseErrors,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose'
import { badGateway, unauthorized } from '../http/errors'

/** The claims of GitHub's Actions tokens that trusted publishing reads. */
export interface ActionsClaims {
  iss: string
  jti: string
  exp: number
  repository: string
  repository_owner: string
  repository_owner_id: string
  job_workflow_ref: string
  workflow_ref: string
  sha: string
  run_id: string
  run_attempt: string
  environment: string
}

export interface IssuerSettings {
  issuer: string
  audience: string
}

/** Tokens are minutes long; a little clock skew between GitHub and us is fine. */
const CLOCK_TOLERANCE_S = 30
const FETCH_TIMEOUT_MS = 10_000

/** Key sets by issuer: jose caches the keys and refetches when an unknown key id appears. */
const keySets = new Map<string, Promise<JWTVerifyGetKey>>()

const unreachable = (issuer: string) =>
  badGateway(`The OIDC issuer ${issuer} could not be reached to fetch its keys. Try again later.`)

/** The issuer's jwks_uri from its openid-configuration, else `${issuer}/.well-known/jwks`. */
async function discoverKeys(issuer: string): Promise<JWTVerifyGetKey> {
  let response: Response
  try {
    response = await fetch(`${issuer}/.well-known/openid-configuration`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    })
  } catch {
    throw unreachable(issuer)
  }
  let jwksUri = `${issuer}/.well-known/jwks`
  if (response.ok) {
    const configuration: unknown = await response.json().catch(() => null)
    const found: unknown =
      typeof configuration === 'object' && configuration !== null
        ? Reflect.get(configuration, 'jwks_uri')
        : undefined
    if (typeof found === 'string' && found) jwksUri = found
  } else if (response.status !== 404) {
    throw unreachable(issuer)
  }
  return createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: FETCH_TIMEOUT_MS })
}

function keysOf(issuer: string): Promise<JWTVerifyGetKey> {
  let keys = keySets.get(issuer)
  if (!keys) {
    keys = discoverKeys(issuer)
    // A failed discovery is tried again on the next exchange.
    keys.catch(() => keySets.delete(issuer))
    keySets.set(issuer, keys)
  }
  return keys
}

const quoted = (value: unknown) =>
  Array.isArray(value) ? value.map((item) => `'${String(item)}'`).join(', ') : `'${String(value)}'`

const iso = (seconds: unknown) =>
  typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : 'an unknown time'

/** The claim as a string ('' when absent); GitHub sends ids as strings, numbers are accepted. */
function claim(payload: JWTPayload, name: string): string {
  const value = payload[name]
  return typeof value === 'string' || typeof value === 'number' ? String(value) : ''
}

/** The `alg` of a token's header ('' when unreadable). */
function algorithmOf(token: string): string {
  try {
    return decodeProtectedHeader(token).alg ?? ''
  } catch {
    return ''
  }
}

const REQUIRED = ['jti', 'repository', 'repository_owner_id', 'job_workflow_ref'] as const

/** Verifies `token` and returns its claims, or throws the 401 (or 502) that says why not. */
export async function verifyActionsToken(
  settings: IssuerSettings,
  token: string,
): Promise<ActionsClaims> {
  let unverified: JWTPayload
  try {
    unverified = decodeJwt(token)
  } catch {
    throw unauthorized(
      'The OIDC token is not a JWT (three base64url parts: header.payload.signature).',
    )
  }
  // Checked before any key is fetched: a token of another issuer is refused by name.
  if (unverified.iss !== settings.issuer) {
    throw unauthorized(
      `The OIDC token's issuer is ${quoted(unverified.iss ?? '')}; this registry trusts '${settings.issuer}'.`,
    )
  }
  const keys = await keysOf(settings.issuer)
  let payload: JWTPayload
  try {
    ;({ payload } = await jwtVerify(token, keys, {
      issuer: settings.issuer,
      audience: settings.audience,
      clockTolerance: CLOCK_TOLERANCE_S,
      // GitHub signs with RS256; nothing else is accepted, whatever a token's header says.
      algorithms: ['RS256'],
      requiredClaims: ['exp'],
    }))
  } catch (error) {
    throw refusal(error, settings, unverified, token)
  }
  for (const name of REQUIRED) {
    if (!claim(payload, name)) throw unauthorized(`The OIDC token has no '${name}' claim.`)
  }
  return {
    iss: settings.issuer,
    jti: claim(payload, 'jti'),
    exp: Number(payload.exp),
    repository: claim(payload, 'repository'),
    repository_owner: claim(payload, 'repository_owner'),
    repository_owner_id: claim(payload, 'repository_owner_id'),
    job_workflow_ref: claim(payload, 'job_workflow_ref'),
    workflow_ref: claim(payload, 'workflow_ref'),
    sha: claim(payload, 'sha'),
    run_id: claim(payload, 'run_id'),
    run_attempt: claim(payload, 'run_attempt'),
    environment: claim(payload, 'environment'),
  }
}

function refusal(error: unknown, settings: IssuerSettings, unverified: JWTPayload, token: string) {
  if (error instanceof joseErrors.JWTExpired) {
    return unauthorized(`The OIDC token expired at ${iso(unverified.exp)}; request a new one.`)
  }
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') {
      return unauthorized(
        `The OIDC token's audience is ${quoted(unverified.aud ?? '')}; this registry expects '${settings.audience}'.`,
      )
    }
    if (error.claim === 'nbf') {
      return unauthorized(`The OIDC token is not valid before ${iso(unverified.nbf)}.`)
    }
    if (error.claim === 'iat') {
      return unauthorized(`The OIDC token's issue time ${iso(unverified.iat)} is in the future.`)
    }
    return unauthorized(
      error.reason === 'missing'
        ? `The OIDC token has no '${error.claim}' claim.`
        : `The OIDC token's '${error.claim}' claim is not valid.`,
    )
  }
  if (error instanceof joseErrors.JOSEAlgNotAllowed) {
    return unauthorized(
      `The OIDC token is signed with ${quoted(algorithmOf(token))}; this registry accepts RS256 only.`,
    )
  }
  if (error instanceof joseErrors.JWKSNoMatchingKey) {
    return unauthorized(
      `The OIDC token is signed with a key that ${settings.issuer} does not publish.`,
    )
  }
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
    return unauthorized(
      `The OIDC token's signature does not verify with the keys of ${settings.issuer}.`,
    )
  }
  if (error instanceof joseErrors.JWKSTimeout || error instanceof TypeError) {
    return unreachable(settings.issuer)
  }
  if (error instanceof joseErrors.JOSEError) {
    return unauthorized(`The OIDC token could not be verified (${error.code}).`)
  }
  return unreachable(settings.issuer)
}
