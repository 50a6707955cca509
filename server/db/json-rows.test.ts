// Rows read as one JSON object each give what drizzle's own select of the columns gives.
import { eq, getTableColumns } from 'drizzle-orm'
import { date, pgTable } from 'drizzle-orm/pg-core'
import { BACKENDS, createTestApp, type TestApp } from '../test/harness'
import { jsonRow } from './json-rows'
import { nodeColumns, nodes, nodeVersions, publishers } from './schema'

jest.setTimeout(60_000)

describe.each(BACKENDS)('rows read as JSON on %s', (backend) => {
  let h: TestApp

  beforeAll(async () => {
    h = await createTestApp({ postgres: backend === 'postgres' })
  })

  afterAll(async () => {
    await h?.close()
  })

  it('equal the columns drizzle selects, a left join that found none as null', async () => {
    const byColumns = await h.db
      .select({ node: nodeColumns, latestVersion: nodeVersions, publisher: publishers })
      .from(nodes)
      .leftJoin(nodeVersions, eq(nodeVersions.id, nodes.latestVersionId))
      .innerJoin(publishers, eq(publishers.id, nodes.publisherId))
      .orderBy(nodes.id)
    const byJson = await h.db
      .select({
        node: jsonRow(nodeColumns),
        latestVersion: jsonRow(getTableColumns(nodeVersions), nodeVersions.id),
        publisher: jsonRow(getTableColumns(publishers)),
      })
      .from(nodes)
      .leftJoin(nodeVersions, eq(nodeVersions.id, nodes.latestVersionId))
      .innerJoin(publishers, eq(publishers.id, nodes.publisherId))
      .orderBy(nodes.id)
    expect(byJson).toEqual(byColumns)
    // The demo data has what could differ: no version, timestamps, numerics, JSON, arrays.
    expect(byJson.some((row) => row.latestVersion === null)).toBe(true)
    const version = byJson.find((row) => row.latestVersion)?.latestVersion
    expect(version?.createdAt).toBeInstanceOf(Date)
    expect(typeof version?.major).toBe('string')
    expect(byJson.some((row) => row.node.tags.length > 0)).toBe(true)
  })
})

describe('jsonRow', () => {
  it('refuses a column type it has no JSON form for', () => {
    const table = pgTable('dated', { day: date('day') })
    expect(() => jsonRow(getTableColumns(table))).toThrow(/no JSON form for PgDateString \(day\)/)
  })
})
