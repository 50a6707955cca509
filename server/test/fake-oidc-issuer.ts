/**
 * A stand-in for GitHub Actions' OIDC issuer on an ephemeral loopback port: it serves
 * `/.well-known/openid-configuration` (whose `jwks_uri` points at `/.well-known/jwks`, GitHub's
 * layout) and signs tokens with GitHub's claim names, for the trusted publishing tests
 * (TRUSTED_PUBLISHING_ISSUER = its `url`). `sign({ …, key: 'unpublished' })` signs with a key
 * whose public half is not in the JWKS (a forged token).
 *
 * It also answers `GET /token?audience=…&repository=owner/name&owner_id=…&workflow=…&environment=…`
 * with `{"value": "<jwt>"}`, the shape of GitHub's ACTIONS_ID_TOKEN_REQUEST_URL, so a simulated
 * workflow (an end-to-end test, `npx tsx scripts/fake-oidc-issuer.ts`) can request tokens over
 * HTTP as a real job does.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomUUID } from 'node:crypto'
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose'

export interface ActionsTokenOptions {
  /** `owner/name` (sets repository, repository_owner, job_workflow_ref's prefix). */
  repository: string
  /** The numeric id of the repository's owner (GitHub sends it as a string). */
  ownerId: string | number
  /** The workflow file, e.g. `publish.yml`. */
  workflow?: string
  environment?: string
  audience?: string | string[]
  issuer?: string
  /** Seconds since the epoch; default now. */
  issuedAt?: number
  /** Seconds the token lasts (GitHub: about 5 minutes). */
  lifetime?: number
  /** Seconds after issue before it is valid (nbf); default 0. */
  notBefore?: number
  jti?: string
  sha?: string
  ref?: string
  runId?: string
  runAttempt?: string
  /** Sign with a key the JWKS does not publish. */
  key?: 'published' | 'unpublished'
  /** Claims to drop (to test missing ones). */
  omit?: string[]
}

export interface FakeOidcIssuer {
  /** The issuer (`iss`), also its base URL. */
  url: string
  /** Requests received, by path (to check the keys are fetched once, not per token). */
  readonly requests: string[]
  sign(options: ActionsTokenOptions): Promise<string>
  close(): Promise<void>
}

const KID = 'fake-issuer-key'

export async function startFakeOidcIssuer(
  options: { port?: number; host?: string } = {},
): Promise<FakeOidcIssuer> {
  const published = await generateKeyPair('RS256', { extractable: true })
  const unpublished = await generateKeyPair('RS256', { extractable: true })
  const jwk = { ...(await exportJWK(published.publicKey)), kid: KID, alg: 'RS256', use: 'sig' }
  const requests: string[] = []
  let url = ''

  const server = http.createServer((request, response) => {
    const path = request.url ?? ''
    requests.push(path)
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' })
      response.end(JSON.stringify(body))
    }
    if (path === '/.well-known/openid-configuration') {
      return send(200, {
        issuer: url,
        jwks_uri: `${url}/.well-known/jwks`,
        subject_types_supported: ['public', 'pairwise'],
        response_types_supported: ['id_token'],
        id_token_signing_alg_values_supported: ['RS256'],
      })
    }
    if (path === '/.well-known/jwks') return send(200, { keys: [jwk] })
    const query = new URL(path, url).searchParams
    const repository = query.get('repository')
    if (request.method === 'GET' && path.startsWith('/token?') && repository) {
      return void sign({
        repository,
        ownerId: query.get('owner_id') ?? '1',
        workflow: query.get('workflow') ?? undefined,
        environment: query.get('environment') ?? undefined,
        audience: query.get('audience') ?? undefined,
        sha: query.get('sha') ?? undefined,
      }).then(
        (value) => send(200, { count: 1, value }),
        () => send(500, { message: 'signing failed' }),
      )
    }
    return send(404, { message: 'Not Found' })
  })
  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve))
  url = `http://${host}:${(server.address() as AddressInfo).port}`

  async function sign(options: ActionsTokenOptions): Promise<string> {
    const [owner] = options.repository.split('/')
    const workflow = options.workflow ?? 'publish.yml'
    const ref = options.ref ?? 'refs/tags/v1.0.0'
    const now = options.issuedAt ?? Math.floor(Date.now() / 1000)
    const environment = options.environment
    const workflowRef = `${options.repository}/.github/workflows/${workflow}@${ref}`
    const claims: JWTPayload = {
      jti: options.jti ?? randomUUID(),
      sub: `repo:${options.repository}:${environment ? `environment:${environment}` : `ref:${ref}`}`,
      repository: options.repository,
      repository_owner: owner,
      repository_owner_id: String(options.ownerId),
      repository_id: '123456789',
      repository_visibility: 'public',
      actor: owner,
      actor_id: String(options.ownerId),
      ref,
      ref_type: 'tag',
      sha: options.sha ?? 'abc1234def5678abc1234def5678abc1234def56',
      workflow: 'Publish',
      workflow_ref: workflowRef,
      job_workflow_ref: workflowRef,
      event_name: 'push',
      run_id: options.runId ?? '9876543210',
      run_number: '7',
      run_attempt: options.runAttempt ?? '1',
      runner_environment: 'github-hosted',
      ...(environment ? { environment } : {}),
    }
    for (const name of options.omit ?? []) delete claims[name]
    const key: CryptoKey =
      options.key === 'unpublished' ? unpublished.privateKey : published.privateKey
    return new SignJWT(claims)
      .setProtectedHeader({
        alg: 'RS256',
        typ: 'JWT',
        kid: options.key === 'unpublished' ? 'not-published' : KID,
      })
      .setIssuer(options.issuer ?? url)
      .setAudience(options.audience ?? 'comfy-registry')
      .setIssuedAt(now)
      .setNotBefore(now + (options.notBefore ?? 0))
      .setExpirationTime(now + (options.lifetime ?? 300))
      .sign(key)
  }

  return {
    get url() {
      return url
    },
    requests,
    sign,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
