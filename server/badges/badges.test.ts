import { eq } from 'drizzle-orm'
import { nodes, publishers } from '../db/schema'
import { insertNodeWithVersions, setNodeStatus, setPublisherStatus } from '../test/data'
import { BACKENDS, createTestApp, expectErrorBody, get, type TestApp } from '../test/harness'
import { BADGE_CACHE_CONTROL, BADGE_CSP, NOT_FOUND_CACHE_CONTROL } from './routes'

jest.setTimeout(60_000)

describe.each(BACKENDS)('badges on %s', (backend) => {
  let h: TestApp
  const publisherId = `badge-pub-${backend}`
  const bannedPublisherId = `badge-banned-pub-${backend}`

  beforeAll(async () => {
    h = await createTestApp({ postgres: backend === 'postgres', nodes: 2, publishers: 1 })
    await h.db.insert(publishers).values([
      { id: publisherId, name: 'Badges' },
      { id: bannedPublisherId, name: 'Banned badges' },
    ])
    // Newest Active by semver is 1.10.0 (not 1.9.0, not the Pending 2.0.0).
    await insertNodeWithVersions(h.db, { id: 'badge-active', publisherId }, [
      { version: '1.9.0', status: 'NodeVersionStatusActive' },
      { version: '1.10.0', status: 'NodeVersionStatusActive' },
      { version: '2.0.0', status: 'NodeVersionStatusPending' },
    ])
    await h.db.update(nodes).set({ downloads: 1234 }).where(eq(nodes.id, 'badge-active'))
    await insertNodeWithVersions(h.db, { id: 'badge-unreleased', publisherId }, [
      { version: '1.0.0', status: 'NodeVersionStatusPending' },
    ])
    await insertNodeWithVersions(h.db, { id: 'badge-banned', publisherId }, [
      { version: '1.0.0', status: 'NodeVersionStatusActive' },
    ])
    await setNodeStatus(h.db, 'badge-banned', 'NodeStatusBanned')
    await insertNodeWithVersions(h.db, { id: 'badge-of-banned', publisherId: bannedPublisherId }, [
      { version: '1.0.0', status: 'NodeVersionStatusActive' },
    ])
    await setPublisherStatus(h.db, bannedPublisherId, 'PublisherStatusBanned')
    await insertNodeWithVersions(h.db, { id: 'badge-deleted', publisherId }, [
      { version: '1.0.0', status: 'NodeVersionStatusActive' },
    ])
    await setNodeStatus(h.db, 'badge-deleted', 'NodeStatusDeleted')
  })

  afterAll(async () => {
    await h?.close()
  })

  async function badge(url: string) {
    const reply = await get<string>(h.app, url)
    const title = /<title>([^<]*)<\/title>/.exec(reply.body)?.[1]
    return { status: reply.status, title, headers: reply.response.headers }
  }

  it('shows the latest Active version and the downloads of a public node', async () => {
    const version = await badge('/badges/badge-active/version.svg')
    expect(version).toMatchObject({ status: 200, title: 'comfy registry: v1.10.0' })
    const downloads = await badge('/badges/badge-active/downloads.svg')
    expect(downloads).toMatchObject({ status: 200, title: 'downloads: 1.2k' })
  })

  it('finds the node whatever the case of its id', async () => {
    expect(await badge('/badges/BADGE-Active/version.svg')).toMatchObject({
      status: 200,
      title: 'comfy registry: v1.10.0',
    })
  })

  it('says "no release" when no version is Active', async () => {
    expect(await badge('/badges/badge-unreleased/version.svg')).toMatchObject({
      status: 200,
      title: 'comfy registry: no release',
    })
    expect(await badge('/badges/badge-unreleased/downloads.svg')).toMatchObject({
      status: 200,
      title: 'downloads: 0',
    })
  })

  it('says "banned" for a banned node and a node of a banned publisher', async () => {
    for (const id of ['badge-banned', 'badge-of-banned']) {
      for (const kind of ['version', 'downloads']) {
        const label = kind === 'version' ? 'comfy registry' : 'downloads'
        expect(await badge(`/badges/${id}/${kind}.svg`)).toMatchObject({
          status: 200,
          title: `${label}: banned`,
        })
      }
    }
  })

  it('answers a not-found badge with 404 for deleted and unknown nodes', async () => {
    for (const id of ['badge-deleted', 'no-such-node']) {
      for (const kind of ['version', 'downloads']) {
        const reply = await badge(`/badges/${id}/${kind}.svg`)
        expect(reply).toMatchObject({ status: 404, title: 'node: not found' })
        expect(reply.headers['content-type']).toBe('image/svg+xml; charset=utf-8')
        expect(reply.headers['cache-control']).toBe(NOT_FOUND_CACHE_CONTROL)
      }
    }
  })

  it('refuses an id that cannot be a node id with a JSON 400', async () => {
    expectErrorBody(await get(h.app, '/badges/-bad!id-/version.svg'), 400)
    expectErrorBody(await get(h.app, `/badges/${'x'.repeat(101)}/downloads.svg`), 400)
  })

  it('is a cacheable SVG that runs nothing', async () => {
    const { headers } = await badge('/badges/badge-active/version.svg')
    expect(headers['content-type']).toBe('image/svg+xml; charset=utf-8')
    expect(headers['cache-control']).toBe(BADGE_CACHE_CONTROL)
    expect(headers['content-security-policy']).toBe(BADGE_CSP)
    expect(headers['x-content-type-options']).toBe('nosniff')
  })

  it('reads the node afresh on every request', async () => {
    await insertNodeWithVersions(h.db, { id: 'badge-moving', publisherId }, [
      { version: '0.1.0', status: 'NodeVersionStatusActive' },
    ])
    expect((await badge('/badges/badge-moving/version.svg')).title).toBe('comfy registry: v0.1.0')
    await h.db.update(nodes).set({ downloads: 3_400_000 }).where(eq(nodes.id, 'badge-moving'))
    expect((await badge('/badges/badge-moving/downloads.svg')).title).toBe('downloads: 3.4M')
  })
})
