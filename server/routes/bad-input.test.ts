import { BACKENDS, createTestApp, expectErrorBody, get, type TestApp } from '../test/harness'

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
})
