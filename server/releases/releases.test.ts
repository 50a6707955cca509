// Release notes over the API: the list (newest first by semver, by project, newer than a
// version), GitHub's signed `release` webhook (stored once, updated by later deliveries, refused
// without a valid signature over the exact bytes) and the admins' writes.
import { createHmac } from 'node:crypto'
import { request as httpRequest } from 'node:http'
import { and, eq } from 'drizzle-orm'
import { buildApp } from '../http/app'
import { firebaseTokenVerifier } from '../auth/verifier'
import { releases } from '../db/schema'
import type { Schemas } from '../http/operations'
import {
  signUpUser,
  signUpVerifiedUser,
  TEST_PROJECT_ID,
  uniqueEmail,
  type TestUser,
} from '../test/auth'
import { snapshotState } from '../test/data'
import {
  BACKENDS,
  createTestApp,
  expectErrorBody,
  get,
  request,
  send,
  type JsonReply,
  type TestApp,
} from '../test/harness'
import { attentionOf } from './releases'

type Release = Schemas['Release']
type WebhookResult = Schemas['ReleaseWebhookResult']

jest.setTimeout(60_000)

const SECRET = 'releases-test-secret'

const sign = (body: string | Buffer, secret = SECRET) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`

let githubIds = 1000

/** A GitHub `release` event, as GitHub sends it (more fields than the registry reads). */
function releaseEvent(
  release: Record<string, unknown>,
  options: { action?: string; repository?: string } = {},
) {
  return {
    action: options.action ?? 'published',
    release: {
      id: ++githubIds,
      html_url: 'https://github.com/comfyanonymous/ComfyUI/releases/tag/v9.0.0',
      tag_name: 'v9.0.0',
      name: 'v9.0.0',
      body: '- Fixes',
      draft: false,
      prerelease: false,
      created_at: '2026-03-01T10:00:00Z',
      published_at: '2026-03-01T12:00:00Z',
      author: { login: 'comfyanonymous', id: 1 },
      assets: [],
      ...release,
    },
    repository: {
      id: 589831718,
      full_name: options.repository ?? 'comfyanonymous/ComfyUI',
      private: false,
    },
    sender: { login: 'comfyanonymous', id: 1 },
  }
}

describe('attentionOf', () => {
  const plain = { title: 'Release', content: '- Fixes' }
  it('is high for "breaking" in the name or notes, or a new major version', () => {
    expect(attentionOf('v0.3.41', { title: 'x', content: '## BREAKING changes' })).toBe('high')
    expect(attentionOf('0.3.41', { title: 'Breaking: Python 3.10', content: '' })).toBe('high')
    expect(attentionOf('v2.0.0', plain)).toBe('high')
  })
  it('is medium for a new minor version, low for the rest', () => {
    expect(attentionOf('v0.4.0', plain)).toBe('medium')
    expect(attentionOf('1.24.0', plain)).toBe('medium')
    expect(attentionOf('v0.3.41', plain)).toBe('low')
    expect(attentionOf('2.0.1', plain)).toBe('low')
  })
})

describe.each(BACKENDS)('releases on %s', (backend) => {
  let h: TestApp
  let admin: TestUser
  let alice: TestUser

  beforeAll(async () => {
    h = await createTestApp({
      postgres: backend === 'postgres',
      nodes: 2,
      publishers: 1,
      env: { RELEASES_WEBHOOK_SECRET: SECRET },
    })
    ;[admin, alice] = await Promise.all([
      signUpVerifiedUser(h.adminEmail),
      signUpUser(uniqueEmail('alice')),
    ])
  })

  afterAll(async () => {
    await h?.close()
  })

  const list = async (query = '') => {
    const reply = await get<Release[]>(h.app, `/releases${query}`)
    expect(reply.status).toBe(200)
    return reply.body
  }
  const names = (rows: Release[]) => rows.map((row) => `${row.project}@${row.version}`)

  /** Posts `body` (sent byte for byte) to the webhook, signed over those bytes unless told. */
  const deliver = (
    body: string,
    headers: Record<string, string | undefined> = {},
  ): Promise<JsonReply<WebhookResult>> => {
    const all: Record<string, string | undefined> = {
      'content-type': 'application/json',
      'x-github-event': 'release',
      'x-hub-signature-256': sign(body),
      ...headers,
    }
    const sent = Object.fromEntries(
      Object.entries(all).flatMap(([key, value]) => (value === undefined ? [] : [[key, value]])),
    )
    return request<WebhookResult>(h.app, {
      method: 'POST',
      url: '/releases',
      headers: sent,
      payload: body,
    })
  }
  const rowsOf = (project: string, version: string) =>
    h.db
      .select()
      .from(releases)
      .where(and(eq(releases.project, project), eq(releases.version, version)))

  describe('the list', () => {
    it('holds the demo releases, newest first by semver across projects', async () => {
      const rows = await list()
      expect(names(rows)).toEqual([
        'comfyui_frontend@v1.24.0',
        'desktop@v0.5.0',
        'desktop@v0.4.60',
        'comfyui@v0.4.0',
        'comfyui@v0.3.41',
        'comfyui@v0.3.40',
      ])
      expect(new Set(rows.map((row) => row.attention))).toEqual(new Set(['low', 'medium', 'high']))
      expect(rows[3]).toMatchObject({
        title: 'v0.4.0: Python 3.10 or newer',
        content: expect.stringContaining('## ⚠️ Breaking changes'),
        published_at: '2026-02-20T16:00:00.000Z',
      })
    })

    it('filters by project; an unknown project has none', async () => {
      expect(names(await list('?project=comfyui'))).toEqual([
        'comfyui@v0.4.0',
        'comfyui@v0.3.41',
        'comfyui@v0.3.40',
      ])
      expect(names(await list('?project=desktop&form_factor=desktop-windows&locale=ja'))).toEqual([
        'desktop@v0.5.0',
        'desktop@v0.4.60',
      ])
      expect(await list('?project=nonexistent')).toEqual([])
    })

    it('with current_version, answers only newer releases (semver, `v` optional)', async () => {
      const newer = ['comfyui@v0.4.0', 'comfyui@v0.3.41']
      expect(names(await list('?project=comfyui&current_version=0.3.40'))).toEqual(newer)
      expect(names(await list('?project=comfyui&current_version=v0.3.40'))).toEqual(newer)
      // As numbers, not text: 0.3.9 is older than 0.3.40.
      expect(await list('?project=comfyui&current_version=0.3.9')).toHaveLength(3)
      expect(await list('?project=comfyui&current_version=v0.4.0')).toEqual([])
      expect(names(await list('?current_version=0.4.60'))).toEqual([
        'comfyui_frontend@v1.24.0',
        'desktop@v0.5.0',
      ])
    })

    it('refuses a current_version that is no semantic version', async () => {
      for (const version of ['latest', '0.3', 'v', '1.2.3.4', '']) {
        const reply = await get(h.app, `/releases?current_version=${encodeURIComponent(version)}`)
        expect(expectErrorBody(reply, 400).message).toContain('current_version')
      }
    })
  })

  describe('the webhook', () => {
    it('stores a published release once; a second delivery updates it', async () => {
      const body = JSON.stringify(
        releaseEvent({
          tag_name: 'v9.1.0',
          name: 'v9.1.0',
          body: '## What’s new\n\n- Subgraphs',
          published_at: '2026-03-02T09:30:00Z',
        }),
      )
      const first = await deliver(body)
      expect(first.status).toBe(200)
      expect(first.body).toEqual({
        stored: true,
        release: {
          id: expect.any(Number),
          project: 'comfyui',
          version: 'v9.1.0',
          attention: 'medium',
          title: 'v9.1.0',
          content: '## What’s new\n\n- Subgraphs',
          published_at: '2026-03-02T09:30:00.000Z',
        },
      })
      const [stored] = await rowsOf('comfyui', 'v9.1.0')
      expect(stored.githubReleaseId).toBe(githubIds)

      const again = await deliver(body)
      expect(again.status).toBe(200)
      expect(again.body).toEqual(first.body)
      const rows = await rowsOf('comfyui', 'v9.1.0')
      expect(rows).toHaveLength(1)
      expect(rows[0].id).toBe(stored.id)
      expect(rows[0].githubReleaseId).toBe(stored.githubReleaseId)
      expect(new Date(rows[0].updatedAt).getTime()).toBeGreaterThanOrEqual(
        new Date(stored.updatedAt).getTime(),
      )
      expect(names(await list('?project=comfyui&current_version=0.4.0'))).toEqual([
        'comfyui@v9.1.0',
      ])
    })

    it('takes an edited release’s new notes (and attention) into the same row', async () => {
      const event = releaseEvent({ tag_name: 'v9.2.1', name: 'v9.2.1', body: '- A fix' })
      const first = await deliver(JSON.stringify(event))
      expect(first.body.release).toMatchObject({ attention: 'low', content: '- A fix' })
      const edited = releaseEvent(
        {
          ...event.release,
          name: 'v9.2.1 (hotfix)',
          body: '- A fix\n- **Breaking:** `--listen` needs an address',
        },
        { action: 'edited' },
      )
      const reply = await deliver(JSON.stringify(edited))
      expect(reply.status).toBe(200)
      expect(reply.body.release).toMatchObject({
        id: first.body.release?.id,
        title: 'v9.2.1 (hotfix)',
        content: '- A fix\n- **Breaking:** `--listen` needs an address',
        attention: 'high',
      })
      expect(await rowsOf('comfyui', 'v9.2.1')).toHaveLength(1)
    })

    it('maps the followed repositories in any case; `released` counts, no event header too', async () => {
      const frontend = await deliver(
        JSON.stringify(
          releaseEvent(
            { tag_name: 'v1.30.2', name: null, body: null },
            { repository: 'COMFY-ORG/comfyui_FRONTEND', action: 'released' },
          ),
        ),
      )
      expect(frontend.body.release).toMatchObject({
        project: 'comfyui_frontend',
        version: 'v1.30.2',
        title: 'v1.30.2',
        content: '',
        attention: 'low',
      })
      const desktop = await deliver(
        JSON.stringify(
          releaseEvent(
            { tag_name: '2.0.0', name: 'Desktop 2' },
            { repository: 'Comfy-Org/desktop' },
          ),
        ),
        { 'x-github-event': undefined },
      )
      expect(desktop.body.release).toMatchObject({
        project: 'desktop',
        version: '2.0.0',
        attention: 'high',
      })
    })

    it('checks the signature over the exact bytes sent', async () => {
      // Unusual spacing and key order: re-serialising the parsed body would not match.
      const spaced =
        '{ "repository": {"full_name":"comfyanonymous/ComfyUI"},\n  "action" : "published",' +
        ' "release": {"tag_name": "v9.3.0", "name": "v9.3.0", "body": "caf\\u00e9", "draft": false} }'
      const reply = await deliver(spaced)
      expect(reply.status).toBe(200)
      expect(reply.body.release).toMatchObject({ version: 'v9.3.0', content: 'café' })

      const before = await snapshotState(h.db)
      const other = spaced.replaceAll('v9.3.0', 'v9.3.1')
      const reserialised = sign(JSON.stringify(JSON.parse(other)))
      expectErrorBody(await deliver(other, { 'x-hub-signature-256': reserialised }), 401)
      expect(await snapshotState(h.db)).toBe(before)
    })

    it('refuses a bad signature with 401 and stores nothing', async () => {
      const body = JSON.stringify(releaseEvent({ tag_name: 'v9.4.0', name: 'v9.4.0' }))
      const before = await snapshotState(h.db)
      const valid = sign(body)
      for (const signature of [
        sign(body, 'another-secret'),
        sign(`${body} `),
        valid.replace('sha256=', 'sha1='),
        valid.slice(0, -2),
        `${valid}00`,
        'sha256=',
        'sha256=zz' + valid.slice(9),
        valid.replace(/^sha256=./, (prefix) => (prefix.endsWith('0') ? 'sha256=1' : 'sha256=0')),
      ]) {
        const reply = await deliver(body, { 'x-hub-signature-256': signature })
        expect({ signature, status: reply.status }).toEqual({ signature, status: 401 })
        expect(expectErrorBody(reply, 401).message).toContain('X-Hub-Signature-256')
      }
      // The header is required by the contract: without it the request is invalid (400).
      const missing = await deliver(body, { 'x-hub-signature-256': undefined })
      expect(expectErrorBody(missing, 400).message).toContain('x-hub-signature-256')
      expect(await snapshotState(h.db)).toBe(before)
      expect(await rowsOf('comfyui', 'v9.4.0')).toEqual([])
    })

    it('acknowledges and ignores what it does not store', async () => {
      const before = await snapshotState(h.db)
      const ignored = [
        [JSON.stringify({ zen: 'Design for failure.', hook_id: 1, repository: {} }), 'ping'],
        [JSON.stringify(releaseEvent({ tag_name: 'v9.5.0' })), 'push'],
        [JSON.stringify(releaseEvent({ tag_name: 'v9.5.0', draft: true }, { action: 'edited' }))],
        [JSON.stringify(releaseEvent({ tag_name: 'v9.5.0', prerelease: true }))],
        [JSON.stringify(releaseEvent({ tag_name: 'v9.5.0' }, { action: 'created' }))],
        [JSON.stringify(releaseEvent({ tag_name: 'v9.5.0' }, { action: 'deleted' }))],
        [JSON.stringify(releaseEvent({ tag_name: 'v9.5.0' }, { repository: 'someone/ComfyUI' }))],
        [JSON.stringify(releaseEvent({ tag_name: 'nightly' }))],
        [JSON.stringify(releaseEvent({ tag_name: 'v9.5' }))],
        [JSON.stringify({ action: 'published' })],
      ] as const
      const reasons: (string | undefined)[] = []
      for (const [body, event] of ignored) {
        const reply = await deliver(body, event ? { 'x-github-event': event } : {})
        expect({ body, status: reply.status }).toEqual({ body, status: 200 })
        expect(reply.body).toEqual({ stored: false, reason: expect.any(String) })
        reasons.push(reply.body.reason)
      }
      expect(reasons[0]).toContain("'ping'")
      expect(reasons[2]).toMatch(/draft/i)
      expect(reasons[3]).toMatch(/prerelease/i)
      expect(reasons[6]).toContain('someone/ComfyUI')
      expect(reasons[7]).toContain('nightly')
      expect(await snapshotState(h.db)).toBe(before)
    })

    it('refuses a body over its limit with 413', async () => {
      const body = JSON.stringify(
        releaseEvent({ tag_name: 'v9.6.0', body: 'x'.repeat(1024 * 1024 + 10) }),
      )
      const before = await snapshotState(h.db)
      const reply = await deliver(body)
      expect(expectErrorBody(reply, 413).message).toContain('1 MB')
      // The media type is checked before the body is read.
      const text = await deliver('{}', { 'content-type': 'text/plain' })
      expect(expectErrorBody(text, 415).message).toContain('application/json')
      expect(await snapshotState(h.db)).toBe(before)
    })

    it('stops reading a streamed body (no Content-Length) at its limit: 413', async () => {
      const app = await buildApp({
        db: h.db,
        storage: h.storage,
        verifier: firebaseTokenVerifier(TEST_PROJECT_ID),
        config: h.config,
      })
      try {
        await app.listen({ port: 0, host: '127.0.0.1' })
        const address = app.server.address()
        const port = typeof address === 'object' && address !== null ? address.port : 0
        const before = await snapshotState(h.db)
        const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
          const outgoing = httpRequest(
            {
              host: '127.0.0.1',
              port,
              method: 'POST',
              path: '/releases',
              headers: {
                'content-type': 'application/json',
                'transfer-encoding': 'chunked',
                'x-github-event': 'release',
                'x-hub-signature-256': sign('{}'),
              },
            },
            (response) => {
              let text = ''
              response.setEncoding('utf8')
              response.on('data', (chunk: string) => (text += chunk))
              response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }))
              response.on('error', reject)
            },
          )
          // The server stops reading and closes the connection: later writes may fail.
          outgoing.on('error', () => undefined)
          outgoing.write('{"action":"published","release":{"body":"')
          const chunk = 'x'.repeat(64 * 1024)
          for (let sent = 0; sent < 2 * 1024 * 1024; sent += chunk.length) outgoing.write(chunk)
          outgoing.end('"}}')
        })
        expect(answer.status).toBe(413)
        expect(JSON.parse(answer.body)).toMatchObject({ error: 'Payload Too Large' })
        expect(await snapshotState(h.db)).toBe(before)
      } finally {
        await app.close()
      }
    })

    it('answers 503 naming RELEASES_WEBHOOK_SECRET when no secret is configured', async () => {
      const app = await buildApp({
        db: h.db,
        storage: h.storage,
        verifier: firebaseTokenVerifier(TEST_PROJECT_ID),
        config: { ...h.config, releasesWebhookSecret: undefined },
      })
      try {
        const body = JSON.stringify(releaseEvent({ tag_name: 'v9.7.0' }))
        const before = await snapshotState(h.db)
        const reply = await request(app, {
          method: 'POST',
          url: '/releases',
          headers: {
            'content-type': 'application/json',
            'x-github-event': 'release',
            'x-hub-signature-256': sign(body),
          },
          payload: body,
        })
        expect(expectErrorBody(reply, 503).message).toContain('RELEASES_WEBHOOK_SECRET')
        expect(await snapshotState(h.db)).toBe(before)
      } finally {
        await app.close()
      }
    })
  })

  describe('the admins’ writes', () => {
    /** As the admin unless told (null: anonymous). */
    const create = (body: unknown, as: TestUser | null = admin) =>
      send<Release>(h.app, 'POST', '/admin/releases', { as: as ?? undefined, body })
    const update = (id: number, body: unknown, as: TestUser | null = admin) =>
      send<Release>(h.app, 'PATCH', `/admin/releases/${id}`, { as: as ?? undefined, body })

    it('adds a release (201); the same project and version again is a 409', async () => {
      const created = await create({
        project: 'desktop',
        version: 'v0.6.0',
        title: 'Desktop 0.6.0',
        content: '- Faster start',
        published_at: '2026-03-05T08:00:00Z',
      })
      expect(created.status).toBe(201)
      expect(created.body).toEqual({
        id: expect.any(Number),
        project: 'desktop',
        version: 'v0.6.0',
        attention: 'low',
        title: 'Desktop 0.6.0',
        content: '- Faster start',
        published_at: '2026-03-05T08:00:00.000Z',
      })
      expect(names(await list('?project=desktop'))).toContain('desktop@v0.6.0')

      const before = await snapshotState(h.db)
      for (const version of ['v0.6.0', '0.6.0']) {
        const again = await create({ project: 'desktop', version, content: 'Again' })
        expect(expectErrorBody(again, 409).message).toContain('v0.6.0')
      }
      for (const body of [
        { project: 'desktop', version: 'latest', content: '' },
        { project: 'krita', version: '1.0.0', content: '' },
        { project: 'desktop', version: '1.0.0' },
        { project: 'desktop', version: '1.0.0', content: '', attention: 'urgent' },
        { project: 'desktop', version: '1.0.0', content: '', extra: true },
      ]) {
        expectErrorBody(await create(body), 400)
      }
      expectErrorBody(
        await create({ project: 'desktop', version: '7.0.0', content: '' }, alice),
        403,
      )
      expectErrorBody(
        await create({ project: 'desktop', version: '7.0.0', content: '' }, null),
        401,
      )
      expect(await snapshotState(h.db)).toBe(before)
    })

    it('changes only the fields sent', async () => {
      const created = await create({
        project: 'comfyui_frontend',
        version: '1.40.0',
        attention: 'medium',
        title: 'Frontend 1.40',
        content: 'Old notes',
        published_at: '2026-03-06T08:00:00Z',
      })
      const { id } = created.body
      const changed = await update(id, { content: 'New notes', attention: 'high' })
      expect(changed.status).toBe(200)
      expect(changed.body).toEqual({ ...created.body, content: 'New notes', attention: 'high' })
      const redated = await update(id, { published_at: '2026-03-07T00:00:00Z' })
      expect(redated.body).toEqual({
        ...changed.body,
        published_at: '2026-03-07T00:00:00.000Z',
      })
      const [row] = await h.db.select().from(releases).where(eq(releases.id, id))
      expect(row.updatedAt.getTime()).toBeGreaterThanOrEqual(row.createdAt.getTime())

      const before = await snapshotState(h.db)
      expectErrorBody(await update(id, {}), 400)
      expectErrorBody(await update(id, { version: '2.0.0' }), 400)
      expectErrorBody(await update(987_654, { title: 'Nobody' }), 404)
      expectErrorBody(await update(id, { title: 'Mine' }, alice), 403)
      expectErrorBody(await update(id, { title: 'Mine' }, null), 401)
      expect(await snapshotState(h.db)).toBe(before)
    })

    it('orders equal versions by their publication, newest first', async () => {
      await create({
        project: 'comfyui',
        version: 'v20.0.0',
        content: '',
        published_at: '2026-04-01T00:00:00Z',
      })
      await create({
        project: 'desktop',
        version: '20.0.0',
        content: '',
        published_at: '2026-04-02T00:00:00Z',
      })
      expect(names(await list('?current_version=19.9.9'))).toEqual([
        'desktop@20.0.0',
        'comfyui@v20.0.0',
      ])
    })
  })
})
