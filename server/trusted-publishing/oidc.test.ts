/**
 * The OIDC token verification alone (no database): what GitHub's real tokens carry passes, a
 * forged signature under a published key id is refused, and an issuer that cannot be reached is
 * a 502 rather than the caller's fault.
 */
import { SignJWT } from 'jose'
import { HttpError } from '../http/errors'
import { startFakeOidcIssuer, type FakeOidcIssuer } from '../test/fake-oidc-issuer'
import { verifyActionsToken } from './oidc'

jest.setTimeout(30_000)

describe('verifyActionsToken', () => {
  let issuer: FakeOidcIssuer

  beforeAll(async () => {
    issuer = await startFakeOidcIssuer()
  })

  afterAll(async () => {
    await issuer?.close()
  })

  const settings = () => ({ issuer: issuer.url, audience: 'comfy-registry' })

  async function refusal(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
    try {
      await promise
    } catch (error) {
      if (error instanceof HttpError) return { status: error.statusCode, message: error.message }
      throw error
    }
    throw new Error('expected a refusal')
  }

  it('reads the claims of a valid token, fetching the keys once through the discovery document', async () => {
    const before = issuer.requests.length
    const token = await issuer.sign({
      repository: 'octo/repo',
      ownerId: 7,
      environment: 'release',
      runId: '5',
      runAttempt: '3',
    })
    const claims = await verifyActionsToken(settings(), token)
    expect(claims).toMatchObject({
      iss: issuer.url,
      repository: 'octo/repo',
      repository_owner: 'octo',
      repository_owner_id: '7',
      job_workflow_ref: 'octo/repo/.github/workflows/publish.yml@refs/tags/v1.0.0',
      environment: 'release',
      run_id: '5',
      run_attempt: '3',
    })
    await verifyActionsToken(settings(), await issuer.sign({ repository: 'octo/repo', ownerId: 7 }))
    expect(issuer.requests.slice(before)).toEqual([
      '/.well-known/openid-configuration',
      '/.well-known/jwks',
    ])
  })

  it('refuses a token whose signature does not match the published key of its key id', async () => {
    const token = await issuer.sign({ repository: 'octo/repo', ownerId: 7 })
    const [header, payload] = token.split('.')
    const other = (await issuer.sign({ repository: 'octo/other', ownerId: 7 })).split('.')[2]
    expect(await refusal(verifyActionsToken(settings(), `${header}.${payload}.${other}`))).toEqual({
      status: 401,
      message: `The OIDC token's signature does not verify with the keys of ${issuer.url}.`,
    })
  })

  it('refuses a token signed with anything but RS256, even one of the right shape', async () => {
    const now = Math.floor(Date.now() / 1000)
    const token = await new SignJWT({
      repository: 'octo/repo',
      repository_owner_id: '7',
      job_workflow_ref: 'octo/repo/.github/workflows/publish.yml@refs/tags/v1.0.0',
      jti: 'hmac',
    })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(issuer.url)
      .setAudience('comfy-registry')
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .sign(new TextEncoder().encode('a secret anyone could choose, 32+ bytes long'))
    expect(await refusal(verifyActionsToken(settings(), token))).toEqual({
      status: 401,
      message: "The OIDC token is signed with 'HS256'; this registry accepts RS256 only.",
    })
  })

  it('answers 502 when the issuer cannot be reached', async () => {
    const unreachable = 'http://127.0.0.1:9'
    const token = await issuer.sign({ repository: 'octo/repo', ownerId: 7, issuer: unreachable })
    expect(
      await refusal(verifyActionsToken({ issuer: unreachable, audience: 'comfy-registry' }, token)),
    ).toEqual({
      status: 502,
      message: `The OIDC issuer ${unreachable} could not be reached to fetch its keys. Try again later.`,
    })
  })
})
