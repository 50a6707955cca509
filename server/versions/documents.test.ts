/**
 * READMEs and licences through the real publishing path (publish, upload, the pipeline's job),
 * on PGlite and PostgreSQL: what the node and getNodeVersionReadme answer, and what
 * getNodeVersionFile serves and refuses (types, caps, traversal, hidden versions).
 */
import { strToU8, zipSync } from 'fflate'
import type { Schemas } from '../http/operations'
import { createToken } from '../tokens/tokens'
import { signUpUser, uniqueEmail, type TestUser } from '../test/auth'
import { BACKENDS, createTestApp, get, query, request, send, type TestApp } from '../test/harness'
import { pipelineHandlers } from '../pipeline/handlers'
import { drainJobs, type JobHandlers } from '../pipeline/worker'
import { NODE_VERSION_FILES } from '@/src/lib/constants'

type Node = Schemas['Node']
type Readme = Schemas['NodeVersionReadme']
type PublishNodeVersionResponse = Schemas['PublishNodeVersionResponse']

jest.setTimeout(90_000)

const INIT = 'NODE_CLASS_MAPPINGS = {}\n'
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4])
const GIF = strToU8('GIF89a\x01\x00\x01\x00')
const MIT = `MIT License

Copyright (c) 2026 Look-alike

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software")...

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.
`
const GPL3 = `                    GNU GENERAL PUBLIC LICENSE
                       Version 3, 29 June 2007
`
const APACHE_NOTICE = `Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.`

const README = `# Look-alike pack

![screenshot](docs/shot.png "Shot") and ![anim](./anim.gif)

![fake](fake.png) ![vector](vector.svg) ![big](big.png) ![out](../escape.png)
![missing](missing.png) ![remote](https://example.com/remote.png)

[the docs](docs/usage.md) and [a reference][ref]

[ref]: docs/shot.png
`

describe.each(BACKENDS)('READMEs and licences on %s', (backend) => {
  let h: TestApp
  let owner: TestUser
  let secret: string
  let handlers: JobHandlers
  const publisherId = `docs-${backend}`
  let counter = 0

  beforeAll(async () => {
    h = await createTestApp({ postgres: backend === 'postgres', nodes: 2, publishers: 1 })
    owner = await signUpUser(uniqueEmail('docs-owner'))
    const created = await send(h.app, 'POST', '/publishers', {
      as: owner,
      body: { id: publisherId, name: 'Docs' },
    })
    expect(created.status).toBe(201)
    secret = (
      await createToken(h.db, publisherId, { name: 'cli', description: '', expiresInDays: null })
    ).secret
    handlers = pipelineHandlers(h.db, h.storage, h.config)
  })

  afterAll(async () => {
    await h?.close()
  })

  /** Publishes and uploads a new node as comfy-cli does, then runs the pipeline. */
  async function publish(
    files: Record<string, string | Uint8Array | [Uint8Array, { level: 0 }]>,
    license?: string,
  ) {
    const nodeId = `docs-node-${++counter}`
    const published = await request<PublishNodeVersionResponse>(h.app, {
      method: 'POST',
      url: `/publishers/${publisherId}/nodes/${nodeId}/versions`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        personal_access_token: secret,
        node: {
          id: nodeId,
          name: nodeId,
          repository: `https://github.com/docs/${nodeId}`,
          license,
        },
        node_version: { version: '1.0.0', dependencies: [] },
      }),
    })
    expect(published.status).toBe(201)
    const zip = zipSync(
      Object.fromEntries(
        Object.entries(files).map(([name, data]) => [
          name,
          typeof data === 'string' ? strToU8(data) : data,
        ]),
      ),
    )
    const upload = await request(h.app, {
      method: 'PUT',
      url: new URL(published.body.signedUrl).pathname,
      headers: { 'content-type': 'application/zip' },
      payload: Buffer.from(zip),
    })
    expect(upload.status).toBe(200)
    await drainJobs(h.db, handlers)
    return nodeId
  }

  const file = (nodeId: string, path: string, version = '1.0.0') =>
    h.app.inject({
      method: 'GET',
      url: `/nodes/${nodeId}/versions/${version}/file${query({ path })}`,
    })

  it('keeps the README with the images it shows, and identifies a {"file": "LICENSE"} licence', async () => {
    const big = new Uint8Array(NODE_VERSION_FILES.maxImageBytes + 1)
    big.set(PNG)
    const nodeId = await publish(
      {
        'pack/__init__.py': INIT,
        'pack/README.md': README,
        'pack/LICENSE': MIT,
        'pack/docs/shot.png': PNG,
        'pack/docs/usage.md': '# Usage',
        'pack/anim.gif': GIF,
        'pack/fake.png': 'not an image at all',
        'pack/vector.svg':
          '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        // Stored, not deflated: zeros would look like a zip bomb.
        'pack/big.png': [big, { level: 0 }],
        'escape.png': PNG,
      },
      '{"file": "LICENSE"}',
    )
    const node = await get<Node>(h.app, `/nodes/${nodeId}`)
    expect(node.body).toMatchObject({
      license: '{"file": "LICENSE"}',
      license_spdx: 'MIT',
      license_file: 'LICENSE',
    })

    const readme = await get<Readme>(h.app, `/nodes/${nodeId}/versions/1.0.0/readme`)
    expect(readme.status).toBe(200)
    expect(readme.body).toEqual({
      path: 'README.md',
      format: 'markdown',
      text: README,
      truncated: false,
      images: ['docs/shot.png', 'anim.gif'],
    })
    expect((await get<Readme>(h.app, `/nodes/${nodeId}/versions/latest/readme`)).body.path).toBe(
      'README.md',
    )

    const shot = await file(nodeId, 'docs/shot.png')
    expect(shot.statusCode).toBe(200)
    expect(shot.headers['content-type']).toBe('image/png')
    expect(shot.headers['x-content-type-options']).toBe('nosniff')
    expect(shot.headers['content-security-policy']).toContain('sandbox')
    expect(shot.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(new Uint8Array(shot.rawPayload)).toEqual(PNG)
    expect((await file(nodeId, './docs/../anim.gif')).headers['content-type']).toBe('image/gif')
    expect((await file(nodeId, 'anim.gif', 'latest')).headers['cache-control']).toBe(
      'public, max-age=300',
    )

    const license = await file(nodeId, 'LICENSE')
    expect(license.statusCode).toBe(200)
    expect(license.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(license.body).toBe(MIT)

    for (const path of [
      'fake.png', // not an image's bytes
      'vector.svg', // never served
      'big.png', // over the cap
      '../escape.png', // outside the package
      'docs/../../escape.png',
      '%2e%2e/escape.png',
      '/etc/passwd',
      'missing.png',
      'docs/usage.md', // not an image
      '__init__.py',
      'README.md',
    ]) {
      const refused = await file(nodeId, path)
      expect({ path, status: refused.statusCode }).toEqual({ path, status: 404 })
      expect(refused.json()).toEqual({ error: 'Not Found', message: expect.any(String) })
    }
    for (const url of [
      `/nodes/${nodeId}/versions/1.0.0/file`,
      `/nodes/${nodeId}/versions/1.0.0/file?path=`,
    ]) {
      const bad = await h.app.inject({ method: 'GET', url })
      expect(bad.statusCode).toBe(400)
      expect(bad.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) })
    }
    expect((await file(nodeId, 'docs/shot.png', '9.9.9')).statusCode).toBe(404)
  })

  it('derives the licence from an SPDX id, a {"text": …} and a COPYING file; unknown is omitted', async () => {
    const spdx = await publish({ '__init__.py': INIT, 'LICENSE.md': MIT }, 'mit')
    expect((await get<Node>(h.app, `/nodes/${spdx}`)).body).toMatchObject({
      license: 'mit',
      license_spdx: 'MIT',
      license_file: 'LICENSE.md',
    })
    const text = await publish({ '__init__.py': INIT }, JSON.stringify({ text: APACHE_NOTICE }))
    const textNode = (await get<Node>(h.app, `/nodes/${text}`)).body
    expect(textNode.license_spdx).toBe('Apache-2.0')
    expect('license_file' in textNode).toBe(false)
    const copying = await publish({ '__init__.py': INIT, COPYING: GPL3 })
    expect((await get<Node>(h.app, `/nodes/${copying}`)).body).toMatchObject({
      license_spdx: 'GPL-3.0',
      license_file: 'COPYING',
    })
    const unknown = await publish(
      { '__init__.py': INIT, LICENSE: 'All rights reserved.' },
      '{"file": "LICENSE"}',
    )
    const unknownNode = (await get<Node>(h.app, `/nodes/${unknown}`)).body
    expect(unknownNode).toMatchObject({ license: '{"file": "LICENSE"}', license_file: 'LICENSE' })
    expect('license_spdx' in unknownNode).toBe(false)
    expect((await get(h.app, `/nodes/${unknown}/versions/1.0.0/readme`)).status).toBe(404)
  })

  it('keeps plain-text READMEs as text, and long ones truncated', async () => {
    const rst = await publish({ '__init__.py': INIT, 'readme.rst': 'Title\n=====\n\nText.' })
    expect((await get<Readme>(h.app, `/nodes/${rst}/versions/1.0.0/readme`)).body).toMatchObject({
      path: 'readme.rst',
      format: 'text',
      truncated: false,
    })
    const line = 'A line of a very long README, écrit en UTF-8.\n'
    const long = line.repeat(Math.ceil((NODE_VERSION_FILES.maxReadmeBytes * 1.5) / line.length))
    const longNode = await publish({ '__init__.py': INIT, 'README.md': long, 'README.txt': 'no' })
    const readme = (await get<Readme>(h.app, `/nodes/${longNode}/versions/1.0.0/readme`)).body
    expect(readme.truncated).toBe(true)
    expect(readme.path).toBe('README.md')
    expect(Buffer.byteLength(readme.text)).toBeLessThanOrEqual(NODE_VERSION_FILES.maxReadmeBytes)
    expect(long.startsWith(readme.text)).toBe(true)
  })

  it("hides a Flagged version's README and files from all but its owners", async () => {
    const nodeId = await publish({
      '__init__.py': `${INIT}import base64\nexec(base64.b64decode("cHJpbnQoJ2hpJyk="))\n`,
      'README.md': '![shot](shot.png)',
      'shot.png': PNG,
    })
    const asOwner = { authorization: `Bearer ${owner.idToken}` }
    expect((await get(h.app, `/nodes/${nodeId}/versions/1.0.0/readme`)).status).toBe(404)
    expect((await get(h.app, `/nodes/${nodeId}/versions/1.0.0/readme`, asOwner)).status).toBe(200)
    expect((await file(nodeId, 'shot.png')).statusCode).toBe(404)
    const own = await h.app.inject({
      method: 'GET',
      url: `/nodes/${nodeId}/versions/1.0.0/file?path=shot.png`,
      headers: asOwner,
    })
    expect(own.statusCode).toBe(200)
    expect(own.headers['cache-control']).toContain('no-store')
  })
})
