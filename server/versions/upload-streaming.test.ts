/**
 * Archive uploads over real HTTP: the link is checked before the body is read, so large bodies
 * sent to unknown links are never buffered (anonymous requests cannot fill the API's memory),
 * and an oversized archive is cut off at the cap with a 413.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Schemas } from '../http/operations'
import { buildNodeArchive } from '../seed/archive'
import { signUpUser } from '../test/auth'
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../test/harness'

type PersonalAccessToken = Schemas['PersonalAccessToken']
type Publisher = Schemas['Publisher']
type PublishNodeVersionResponse = Schemas['PublishNodeVersionResponse']

jest.setTimeout(120_000)

const MB = 1024 * 1024
const MAX_ARCHIVE_MB = 2

interface Sent {
  status: number
  /** Bytes of the body the client managed to hand to the connection before the answer. */
  written: number
  body: string
}

/** PUTs `size` bytes (announced with Content-Length), writing only as fast as the server reads. */
function putLargeBody(port: number, path: string, size: number): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const request = http.request({
      host: '127.0.0.1',
      port,
      path,
      method: 'PUT',
      headers: { 'content-type': 'application/zip', 'content-length': size },
    })
    const chunk = Buffer.alloc(64 * 1024, 7)
    let written = 0
    let answered = false
    const writeMore = () => {
      while (!answered && written < size) {
        written += chunk.byteLength
        if (!request.write(chunk)) return void request.once('drain', writeMore)
      }
      if (!answered) request.end()
    }
    request.on('response', (response) => {
      answered = true
      let body = ''
      response.on('data', (data: Buffer) => (body += data.toString()))
      response.on('end', () => {
        request.destroy()
        resolve({ status: response.statusCode ?? 0, written, body })
      })
    })
    // The server closes the connection after refusing: writing further then fails.
    request.on('error', (error) => {
      if (!answered) reject(error)
    })
    writeMore()
  })
}

describe('archive uploads over HTTP', () => {
  let h: TestApp
  let port: number
  let publish: () => Promise<string>

  beforeAll(async () => {
    h = await createTestApp({
      nodes: 0,
      publishers: 1,
      env: { MAX_ARCHIVE_MB: String(MAX_ARCHIVE_MB) },
    })
    await h.app.listen({ host: '127.0.0.1', port: 0 })
    port = (h.app.server.address() as AddressInfo).port
    const owner = await signUpUser()
    const publisherId = 'streams'
    expect(
      (
        await send<Publisher>(h.app, 'POST', '/publishers', {
          as: owner,
          body: { id: publisherId, name: 'S' },
        })
      ).status,
    ).toBe(201)
    const token = (
      await send<PersonalAccessToken>(h.app, 'POST', `/publishers/${publisherId}/tokens`, {
        as: owner,
        body: { name: 'cli' },
      })
    ).body.token
    let n = 0
    publish = async () => {
      const reply = await send<PublishNodeVersionResponse>(
        h.app,
        'POST',
        `/publishers/${publisherId}/nodes/stream-node/versions`,
        {
          body: { personal_access_token: token, node: {}, node_version: { version: `1.0.${n++}` } },
        },
      )
      expect(reply.status).toBe(201)
      return reply.body.signedUrl.replace(TEST_PUBLIC_URL, '')
    }
  })

  afterAll(async () => {
    await h?.close()
  })

  it('answers 404 to unknown links without reading their bodies', async () => {
    const size = 49 * MB
    for (let i = 0; i < 8; i++) {
      const sent = await putLargeBody(port, `/uploads/made-up-token-${i}-xxxxxxxx`, size)
      expect(sent.status).toBe(404)
      expect(JSON.parse(sent.body)).toMatchObject({ error: 'Not Found' })
      // What was written sat in socket buffers: a few MB at most of the 49 MB.
      expect(sent.written).toBeLessThan(8 * MB)
    }
  })

  it('cuts an oversized archive off at the cap with a 413, and the link still works', async () => {
    const link = await publish()
    // The demo data's files (its CI output images) are there already.
    const stored = h.storage.size
    const sent = await putLargeBody(port, link, 40 * MB)
    expect(sent.status).toBe(413)
    expect(JSON.parse(sent.body).message).toMatch(/at most 2 MB/)
    expect(sent.written).toBeLessThan(MAX_ARCHIVE_MB * MB + 8 * MB)
    expect(h.storage.size).toBe(stored)

    const zip = Buffer.from(
      buildNodeArchive({
        publisherId: 'streams',
        node: {
          id: 'stream-node',
          name: 'S',
          description: '',
          license: 'MIT',
          repository: '',
          icon: '',
        },
        version: '1.0.0',
        dependencies: [],
        comfyNodes: [],
      }),
    )
    const response = await fetch(`http://127.0.0.1:${port}${link}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/zip' },
      body: zip,
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ size: zip.byteLength })
    expect(h.storage.size).toBe(stored + 1)
  })
})
