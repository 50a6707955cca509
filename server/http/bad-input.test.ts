import type { Schemas } from './operations'
import { signUpUser, type TestUser } from '../test/auth'
import { snapshotState } from '../test/data'
import { BACKENDS, createTestApp, expectErrorBody, get, send, type TestApp } from '../test/harness'

type PersonalAccessToken = Schemas['PersonalAccessToken']
type Publisher = Schemas['Publisher']

jest.setTimeout(60_000)

describe.each(BACKENDS)('bad input on %s', (backend) => {
  let h: TestApp

  beforeAll(async () => {
    // Validation happens before any query: no demo data needed.
    h = await createTestApp({ postgres: backend === 'postgres', nodes: 0, publishers: 1 })
  })

  afterAll(async () => {
    await h?.close()
  })

  const long = 'x'.repeat(201)

  it.each([
    // [url, the field the message must name]
    ['/nodes?page=0', 'page'],
    ['/nodes?page=-1', 'page'],
    ['/nodes?page=abc', 'page'],
    ['/nodes?page=1.5', 'page'],
    ['/nodes?limit=0', 'limit'],
    ['/nodes?limit=101', 'limit'],
    ['/nodes?limit=ten', 'limit'],
    ['/nodes?sort=popularity', 'sort'],
    ['/nodes?include_banned=maybe', 'include_banned'],
    [`/nodes?publisher_id=${'p'.repeat(101)}`, 'publisher_id'],
    ['/nodes/search?page=0', 'page'],
    ['/nodes/search?sort=best', 'sort'],
    [`/nodes/search?search=${long}`, 'search'],
    [`/nodes/search?comfy_node_search=${long}`, 'comfy_node_search'],
    ['/nodes/-leading-dash', 'nodeId'],
    ['/nodes/trailing.', 'nodeId'],
    ['/nodes/has%20space', 'nodeId'],
    [`/nodes/${'n'.repeat(101)}`, 'nodeId'],
    ['/nodes/ok-node/install?version=not-semver', 'version'],
    ['/nodes/ok-node/install?version=1.0.18446744073709551616', 'version'],
    ['/nodes/ok-node/versions/1.0', 'versionId'],
    ['/nodes/ok-node/versions?statuses=NodeVersionStatusBogus', 'statuses'],
    ['/versions?nodeId=bad%20id', 'nodeId'],
    ['/versions?statuses=Active', 'statuses'],
    ['/versions?limit=101', 'limit'],
    ['/publishers/Bad_Id', 'publisherId'],
    ['/publishers/1abc/nodes', 'publisherId'],
    ['/publishers/comfy-demo/nodes/v2?page=0', 'page'],
    ['/publishers/validate', 'username'],
    [`/publishers/validate?username=${'u'.repeat(201)}`, 'username'],
    ['/archives/ok-node/not-a-version.zip', 'fileName'],
    ['/archives/ok-node/1.0.0.tar.gz', 'fileName'],
    // Found by probing: these were 500s.
    ['/nodes/search?search=%00', 'search'],
    ['/nodes/search?search=ok%00ok', 'search'],
    ['/nodes?page=99999999999999999999999', 'page'],
    ['/nodes?page=100001', 'page'],
    ['/comfy-nodes/Sampler%00/node', 'comfyNodeName'],
    ['/comfy-nodes?comfy_node_name=%00', 'comfy_node_name'],
    ['/nodes/ok-node/versions/01.0.0', 'versionId'],
  ])('GET %s → 400 naming %s', async (url, field) => {
    const body = expectErrorBody(await get(h.app, url), 400)
    expect(body.error).toBe('Bad Request')
    expect(body.message).toContain(field)
  })

  it('lists the allowed values of an enum', async () => {
    const body = expectErrorBody(await get(h.app, '/nodes?sort=popularity'), 400)
    for (const sort of ['downloads', 'stars', 'recent', 'newest', 'name']) {
      expect(body.message).toContain(sort)
    }
  })

  it('accepts path parameters up to the contract’s maxLength (not 414)', async () => {
    // ComfyUI class names may have up to 300 characters; node ids up to 100.
    expectErrorBody(await get(h.app, `/comfy-nodes/${'C'.repeat(300)}/node`), 404)
    expectErrorBody(await get(h.app, `/nodes/${'n'.repeat(100)}`), 404)
    expectErrorBody(await get(h.app, `/comfy-nodes/${'C'.repeat(301)}/node`), 400)
  })

  it('answers 404 JSON for an unknown node', async () => {
    const body = expectErrorBody(await get(h.app, '/nodes/unknown-node'), 404)
    expect(body.error).toBe('Not Found')
  })

  it.each([
    ['GET', '/no/such/route'],
    ['GET', '/nodes/a/b/c/d/e'],
    ['PATCH', '/nodes'],
    ['DELETE', '/health'],
  ])('answers 404 JSON for an unknown route: %s %s', async (method, url) => {
    const reply = await h.app.inject({ method: method as 'GET', url })
    expect(reply.statusCode).toBe(404)
    expect(reply.headers['content-type']).toContain('application/json')
    expect(reply.json()).toEqual({ error: 'Not Found', message: expect.stringContaining(url) })
  })

  it('answers 400 for malformed JSON bodies', async () => {
    const reply = await h.app.inject({
      method: 'POST',
      url: '/publishers',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    })
    expect(reply.statusCode).toBe(400)
    expect(reply.json()).toEqual({ error: expect.any(String), message: expect.any(String) })
  })

  describe('bodies', () => {
    let user: TestUser
    const publisherId = `bodies-${backend}`
    let token: string

    beforeAll(async () => {
      user = await signUpUser()
      const created = await send<Publisher>(h.app, 'POST', '/publishers', {
        as: user,
        body: { id: publisherId, name: 'Bodies' },
      })
      expect(created.status).toBe(201)
      token = (
        await send<PersonalAccessToken>(h.app, 'POST', `/publishers/${publisherId}/tokens`, {
          as: user,
          body: { name: 'cli' },
        })
      ).body.token
    })

    /** Sends a raw body and checks the refusal changed nothing. */
    async function refused(
      url: string,
      payload: string,
      status: number,
      contentType = 'application/json',
      method: 'POST' | 'PUT' = 'POST',
    ) {
      const before = await snapshotState(h.db)
      const reply = await h.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${user.idToken}`, 'content-type': contentType },
        payload,
      })
      const body = expectErrorBody(
        { status: reply.statusCode, body: reply.json(), response: reply },
        status,
      )
      expect(await snapshotState(h.db)).toBe(before)
      return body.message
    }

    it('does not coerce types: a boolean, number or one-element array is not a string', async () => {
      for (const id of [true, 12, ['abc']]) {
        const message = await refused('/publishers', JSON.stringify({ id, name: 'X' }), 400)
        expect(message).toContain("'id'")
      }
      expect((await get(h.app, '/publishers/true')).status).toBe(404)
      const message = await refused(
        `/publishers/${publisherId}/tokens`,
        JSON.stringify({ name: 'ok', expires_in_days: '30' }),
        400,
      )
      expect(message).toContain('expires_in_days')
    })

    it('refuses NUL characters in any JSON string field (400 naming it, not 500)', async () => {
      expect(
        await refused('/publishers', JSON.stringify({ id: 'nul-id', name: 'a\u0000b' }), 400),
      ).toContain("'name'")
      expect(
        await refused(
          `/publishers/${publisherId}`,
          JSON.stringify({ description: 'x', website: 'https://x.example/\u0000' }),
          400,
          'application/json',
          'PUT',
        ),
      ).toContain("'website'")
      expect(
        await refused(
          `/publishers/${publisherId}/tokens`,
          JSON.stringify({ name: 'ok', description: ['\u0000'] }),
          400,
        ),
      ).toContain('description')
    })

    it('refuses deeply nested JSON with 400 (found by fuzzing: 20,000 levels were a 500)', async () => {
      for (const depth of [1000, 20_000]) {
        const nested = `${'['.repeat(depth)}1${']'.repeat(depth)}`
        expect(await refused('/publishers', `{"id":${nested},"name":"Deep"}`, 400)).toContain(
          'nested',
        )
        expect(await refused(`/publishers/${publisherId}/tokens`, nested, 400)).toContain('nested')
      }
      // Nesting within reach of any request the contract describes is still validated as usual.
      expect(
        await refused('/publishers', `{"id":${'['.repeat(10)}1${']'.repeat(10)},"name":"X"}`, 400),
      ).toContain("'id'")
    })

    it('answers 415 to media types the operation does not declare, before reading them', async () => {
      // text/plain used to skip validation: a token with an empty name was created.
      expect(
        await refused(`/publishers/${publisherId}/tokens`, 'name=x', 415, 'text/plain'),
      ).toMatch(/application\/json/)
      expect(
        await refused(
          `/publishers/${publisherId}/nodes/new-node/versions`,
          JSON.stringify({
            personal_access_token: token,
            node: {},
            node_version: { version: '1.0.0' },
          }),
          415,
          'text/plain',
        ),
      ).toMatch(/not text\/plain/)
      await refused('/publishers', '<p/>', 415, 'application/xml')
    })

    it('keeps JSON bodies small: 413 beyond the operation’s limit', async () => {
      const big = JSON.stringify({ id: 'big-one', name: 'Big', description: 'x'.repeat(70 * 1024) })
      expect(await refused('/publishers', big, 413)).toMatch(/64 KB|65536|at most/)
      // Publishing allows 128 kB (a long changelog), and no more.
      const publish = (changelog: string) =>
        JSON.stringify({
          personal_access_token: token,
          node: {},
          node_version: { version: '1.0.0', changelog },
        })
      expect(
        await refused(
          `/publishers/${publisherId}/nodes/big-node/versions`,
          publish('y'.repeat(140 * 1024)),
          413,
        ),
      ).toMatch(/at most/)
    })

    it('accepts only strict semantic versions, with a message that says so', async () => {
      for (const version of [
        '01.0.0',
        '1.02.0',
        '999999999999999999999.0.0',
        '18446744073709551616.0.0',
        '1.0.0-01',
        '1.0',
      ]) {
        const message = await refused(
          `/publishers/${publisherId}/nodes/semver-node/versions`,
          JSON.stringify({ personal_access_token: token, node: {}, node_version: { version } }),
          400,
        )
        expect({ version, message }).toEqual({
          version,
          message: expect.stringContaining('semantic version'),
        })
        expect(message).not.toMatch(/already published/)
      }
    })
  })
})
