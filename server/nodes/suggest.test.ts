// GET /nodes/suggest on both databases: node names, class names, publishers and tags by prefix
// and despite a typo, best first, only what the public sees, and clear refusals.
import { eq } from 'drizzle-orm'
import { comfyNodes, nodes, nodeVersions, publishers } from '../db/schema'
import { refreshLatestVersion } from '../db/latest-version'
import { semverSortKey } from '../db/semver'
import type { Schemas } from '../http/operations'
import { insertNodeWithVersions, setNodeStatus, setPublisherStatus } from '../test/data'
import { BACKENDS, createTestApp, expectErrorBody, get, query, type TestApp } from '../test/harness'
import { editsToPrefix } from '@/src/lib/edit-distance'
import { pastPrefix, tagTier, withinOneEdit } from './suggest'

type SuggestionList = Schemas['SuggestionList']

jest.setTimeout(60_000)

describe('typo matching of tags', () => {
  it('allows one insert, delete, change or swap', () => {
    expect(withinOneEdit('upscale', 'upscale')).toBe(true)
    expect(withinOneEdit('upscale', 'upscal')).toBe(true)
    expect(withinOneEdit('upscale', 'upsccale')).toBe(true)
    expect(withinOneEdit('upscale', 'upscxle')).toBe(true)
    expect(withinOneEdit('upscale', 'upsclae')).toBe(true)
    expect(withinOneEdit('upscale', 'upsclea')).toBe(false)
    expect(withinOneEdit('upscale', 'downscale')).toBe(false)
  })

  it('ranks exact, prefix, word, inside, then typos of four letters or more', () => {
    expect(tagTier('video', 'video')).toBeGreaterThan(tagTier('video-edit', 'video') ?? -1)
    expect(tagTier('video-edit', 'video')).toBeGreaterThan(tagTier('ai-video', 'video') ?? -1)
    expect(tagTier('ai-video', 'video')).toBeGreaterThan(tagTier('aivideo', 'video') ?? -1)
    expect(tagTier('aivideo', 'video')).toBeGreaterThan(tagTier('vidoe', 'video') ?? -1)
    expect(tagTier('vidoe', 'video')).toBeDefined()
    expect(tagTier('mask', 'msk')).toBeUndefined()
    expect(tagTier('lora', 'audio')).toBeUndefined()
  })
})

describe('the end of a prefix range', () => {
  it('is the least text past every text with the prefix, in code point order', () => {
    expect(pastPrefix('ksam')).toBe('ksan')
    expect(pastPrefix('ab_')).toBe('ab`')
    expect(pastPrefix('放大')).toBe('放夨')
    // Past U+D7FF come the surrogates, which no text holds alone.
    expect(pastPrefix('a\ud7ff')).toBe('a\ue000')
    for (const [prefix, text] of [
      ['upsc', 'upscale'],
      ['upsc', 'upsc'],
      ['ab', 'ab\u{1f600}'],
    ]) {
      const bytes = (value: string) => Buffer.from(value, 'utf8')
      expect(Buffer.compare(bytes(text), bytes(prefix))).toBeGreaterThanOrEqual(0)
      expect(Buffer.compare(bytes(text), bytes(pastPrefix(prefix)))).toBeLessThan(0)
    }
    expect(Buffer.compare(Buffer.from('upsd'), Buffer.from(pastPrefix('upsc')))).toBe(0)
  })
})

describe('typo matching of labels', () => {
  it('counts the edits to the closest start of a label', () => {
    expect(editsToPrefix('upscale', 'upscale model loader', 1)).toBe(0)
    expect(editsToPrefix('upscalr', 'upscale model loader', 1)).toBe(1)
    expect(editsToPrefix('controlnt', 'controlnet apply', 2)).toBe(1)
    expect(editsToPrefix('zephyrwrot upsc', 'zephyrwort upscaler', 2)).toBe(1)
    expect(editsToPrefix('ksmplerr', 'ksampleradvanced', 2)).toBe(2)
  })

  it('gives up beyond the allowed edits', () => {
    expect(editsToPrefix('upscxxe', 'upscale', 1)).toBe(Number.POSITIVE_INFINITY)
    expect(editsToPrefix('video', 'audio', 2)).toBe(Number.POSITIVE_INFINITY)
  })
})

describe.each(BACKENDS)('GET /nodes/suggest on %s', (backend) => {
  let h: TestApp

  const PUBLISHER = 'zephyr-labs'
  const NODE = 'comfyui-zephyrwort'

  beforeAll(async () => {
    h = await createTestApp({ postgres: backend === 'postgres' })
    await h.db.insert(publishers).values([
      { id: PUBLISHER, name: 'Zephyr Labs' },
      { id: 'zephyr-banned', name: 'Zephyr Banned' },
    ])
    await insertNodeWithVersions(
      h.db,
      { id: NODE, publisherId: PUBLISHER, name: 'Zephyrwort Upscaler', tags: ['zephyr-tools'] },
      [{ version: '1.0.0', status: 'NodeVersionStatusActive' }],
    )
    const [node] = await h.db.select().from(nodes).where(eq(nodes.id, NODE))
    await h.db.insert(comfyNodes).values([
      { nodeVersionId: node.latestVersionId ?? '', comfyNodeName: 'ZephyrSamplerAdvanced' },
      { nodeVersionId: node.latestVersionId ?? '', comfyNodeName: 'ZephyrLatentBlend' },
    ])
    // What the public does not see: a deleted node and a banned publisher's node.
    await insertNodeWithVersions(
      h.db,
      { id: 'zephyr-deleted', publisherId: PUBLISHER, name: 'Zephyrwort Deleted' },
      [{ version: '1.0.0', status: 'NodeVersionStatusActive' }],
    )
    await setNodeStatus(h.db, 'zephyr-deleted', 'NodeStatusDeleted')
    await insertNodeWithVersions(
      h.db,
      { id: 'zephyr-hidden', publisherId: 'zephyr-banned', name: 'Zephyrwort Hidden' },
      [{ version: '1.0.0', status: 'NodeVersionStatusActive' }],
    )
    await setPublisherStatus(h.db, 'zephyr-banned', 'PublisherStatusBanned')
  })

  afterAll(async () => {
    await h?.close()
  })

  async function suggest(q: string, limit?: number) {
    const reply = await get<SuggestionList>(h.app, `/nodes/suggest${query({ q, limit })}`)
    expect(reply.status).toBe(200)
    return reply.body.suggestions
  }

  it('suggests a node by the start of its name, with its id as target', async () => {
    const [first] = await suggest('zephyrw')
    expect(first).toEqual({
      kind: 'node',
      text: 'Zephyrwort Upscaler',
      target: NODE,
      detail: NODE,
    })
  })

  it('suggests class names by prefix, aimed at the node that contains them', async () => {
    const found = await suggest('ZephyrSampler')
    expect(found[0]).toEqual({
      kind: 'comfy_node',
      text: 'ZephyrSamplerAdvanced',
      target: NODE,
      detail: 'Zephyrwort Upscaler',
    })
  })

  it('suggests despite a typo', async () => {
    const found = await suggest('zephyrwrot upscaler')
    expect(found.map((item) => item.target)).toContain(NODE)
    const classes = await suggest('ZephyrSamplerAdvnced')
    expect(classes.some((item) => item.text === 'ZephyrSamplerAdvanced')).toBe(true)
  })

  it('suggests publishers and tags with their own targets', async () => {
    const found = await suggest('zephyr')
    expect(found).toContainEqual({
      kind: 'publisher',
      text: 'Zephyr Labs',
      target: PUBLISHER,
      detail: PUBLISHER,
    })
    expect(found).toContainEqual({ kind: 'tag', text: 'zephyr-tools', target: 'zephyr-tools' })
  })

  it('never suggests what the public does not see', async () => {
    const targets = (await suggest('zephyrwort')).map((item) => item.target)
    expect(targets).toContain(NODE)
    expect(targets).not.toContain('zephyr-deleted')
    expect(targets).not.toContain('zephyr-hidden')
    expect(targets).not.toContain('zephyr-banned')
  })

  it('answers at most `limit`, eight by default, best tier first', async () => {
    expect((await suggest('zephyr', 2)).length).toBeLessThanOrEqual(2)
    expect((await suggest('e')).length).toBeLessThanOrEqual(8)
    const found = await suggest('zephyr labs')
    expect(found[0]).toMatchObject({ kind: 'publisher', target: PUBLISHER })
  })

  it('finds a class name typed with spaces, and by a later word of it', async () => {
    expect((await suggest('zephyr sampler adv'))[0]).toMatchObject({
      kind: 'comfy_node',
      text: 'ZephyrSamplerAdvanced',
    })
    expect(await suggest('latent blend')).toContainEqual(
      expect.objectContaining({ kind: 'comfy_node', text: 'ZephyrLatentBlend' }),
    )
  })

  it('follows renames, new latest versions and deletions at once', async () => {
    const id = 'comfyui-quillfern'
    await insertNodeWithVersions(h.db, { id, publisherId: PUBLISHER, name: 'Quillfern Tools' }, [
      { version: '1.0.0', status: 'NodeVersionStatusActive' },
    ])
    const [first] = await h.db.select().from(nodes).where(eq(nodes.id, id))
    await h.db
      .insert(comfyNodes)
      .values({ nodeVersionId: first.latestVersionId ?? '', comfyNodeName: 'QuillfernOldLoader' })
    const texts = async (q: string) => (await suggest(q)).map((item) => item.text)
    expect(await texts('quillfern')).toEqual(
      expect.arrayContaining(['Quillfern Tools', 'QuillfernOldLoader']),
    )

    await h.db.update(nodes).set({ name: 'Quillfern Suite' }).where(eq(nodes.id, id))
    expect(await texts('quillfern')).toContain('Quillfern Suite')
    expect(await texts('quillfern')).not.toContain('Quillfern Tools')

    // A new version becomes the latest: its classes replace the old version's.
    const [second] = await h.db
      .insert(nodeVersions)
      .values({
        nodeId: id,
        version: '2.0.0',
        ...semverSortKey('2.0.0'),
        status: 'NodeVersionStatusActive',
      })
      .returning()
    await h.db
      .insert(comfyNodes)
      .values({ nodeVersionId: second.id, comfyNodeName: 'QuillfernNewLoader' })
    expect(await texts('quillfernnew')).not.toContain('QuillfernNewLoader')
    await refreshLatestVersion(h.db, id)
    expect(await texts('quillfern')).toContain('QuillfernNewLoader')
    expect(await texts('quillfern')).not.toContain('QuillfernOldLoader')

    await h.db.update(publishers).set({ name: 'Zephyr Studio' }).where(eq(publishers.id, PUBLISHER))
    expect(await suggest('zephyr stu')).toContainEqual(
      expect.objectContaining({ kind: 'publisher', text: 'Zephyr Studio' }),
    )

    await h.db.delete(nodeVersions).where(eq(nodeVersions.nodeId, id))
    await h.db.delete(nodes).where(eq(nodes.id, id))
    expect(await texts('quillfern')).toEqual([])
  })

  it('treats LIKE wildcards as letters', async () => {
    // Unescaped, `%%%` would be `%%%%%`: everything.
    expect(await suggest('%%%')).toEqual([])
  })

  it('refuses a missing, empty, too long text or a bad limit, with a message', async () => {
    for (const url of [
      '/nodes/suggest',
      '/nodes/suggest?q=',
      `/nodes/suggest?q=${'x'.repeat(201)}`,
      '/nodes/suggest?q=a&limit=9',
      '/nodes/suggest?q=a&limit=0',
    ]) {
      const reply = await get(h.app, url)
      expect(reply.status).toBe(400)
      expect(expectErrorBody(reply, 400).message).toBeTruthy()
    }
  })
})
