/**
 * Migration 0018 (numbers up to 2^64 − 1): rows written before it, with integer major/minor/patch
 * and no prerelease key, keep their values and afterwards sort by semver with the new ones.
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { eq, sql } from 'drizzle-orm'
import { Client } from 'pg'
import { MIGRATIONS_DIR, migrate, openDatabase, type Database } from './client'
import { versionSemverDesc } from './ordering'
import { nodeVersions } from './schema'
import { compareVersions, semverSortKey } from './semver'
import { hasTestPostgres } from './test-db'

jest.setTimeout(180_000)

const MIGRATION = '0018_semver_64bit'

/** A copy of the migrations folder without `tag` and those after it. */
function migrationsBefore(tag: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-migrations-'))
  const journalFile = path.join(MIGRATIONS_DIR, 'meta', '_journal.json')
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as {
    entries: { tag: string }[]
  }
  const cut = journal.entries.findIndex((entry) => entry.tag === tag)
  expect(cut).toBeGreaterThan(0)
  const kept = journal.entries.slice(0, cut)
  fs.mkdirSync(path.join(dir, 'meta'))
  fs.writeFileSync(
    path.join(dir, 'meta', '_journal.json'),
    JSON.stringify({ ...journal, entries: kept }),
  )
  for (const entry of kept) {
    fs.copyFileSync(
      path.join(MIGRATIONS_DIR, `${entry.tag}.sql`),
      path.join(dir, `${entry.tag}.sql`),
    )
  }
  return dir
}

async function withAdminClient(url: string, query: string): Promise<void> {
  const client = new Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(query)
  } finally {
    await client.end()
  }
}

/** An empty database (PGlite, or a new PostgreSQL database) and how to drop it. */
async function emptyDatabase(
  backend: string,
): Promise<{ database: Database; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL
  if (backend === 'pglite' || !adminUrl) {
    const database = await openDatabase({ memory: true })
    return { database, drop: () => database.close() }
  }
  const name = `test_${randomBytes(6).toString('hex')}`
  await withAdminClient(adminUrl, `CREATE DATABASE "${name}"`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const database = await openDatabase({ url: url.toString(), poolMax: 1 })
  return {
    database,
    drop: async () => {
      await database.close()
      await withAdminClient(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
    },
  }
}

const BACKENDS = hasTestPostgres() ? ['pglite', 'postgres'] : ['pglite']

describe.each(BACKENDS)(`migration ${MIGRATION} on %s`, (backend) => {
  it('converts existing versions', async () => {
    const before = migrationsBefore(MIGRATION)
    const { database, drop } = await emptyDatabase(backend)
    try {
      const { db } = database
      await migrate(database, before)
      // As versions were stored before: integer columns, at most 2^31 − 1.
      const old: [string, number, number, number, string][] = [
        ['1.9.0', 1, 9, 0, ''],
        ['1.10.0', 1, 10, 0, ''],
        ['1.10.0-beta.2', 1, 10, 0, 'beta.2'],
        ['1.10.0-beta.10', 1, 10, 0, 'beta.10'],
        ['1.10.0-beta', 1, 10, 0, 'beta'],
        ['1.10.0-Beta.a', 1, 10, 0, 'Beta.a'],
        ['1.10.0-1', 1, 10, 0, '1'],
        ['2147483647.0.0', 2147483647, 0, 0, ''],
      ]
      await db.execute(sql`insert into publishers (id, name) values ('p', 'p')`)
      await db.execute(sql`insert into nodes (id, publisher_id, name) values ('n', 'p', 'n')`)
      for (const [version, major, minor, patch, prerelease] of old) {
        await db.execute(
          sql`insert into node_versions (node_id, version, major, minor, patch, prerelease)
              values ('n', ${version}, ${major}, ${minor}, ${patch}, ${prerelease})`,
        )
      }
      await migrate(database)

      const columns = (await db.execute(
        sql`select column_name, data_type || coalesce('(' || numeric_precision || ')', '') as data_type
            from information_schema.columns
            where table_name = 'node_versions' and column_name in ('major', 'minor', 'patch')
            order by column_name`,
      )) as unknown as { rows: { column_name: string; data_type: string }[] }
      expect(columns.rows).toEqual([
        { column_name: 'major', data_type: 'numeric(20)' },
        { column_name: 'minor', data_type: 'numeric(20)' },
        { column_name: 'patch', data_type: 'numeric(20)' },
      ])
      // New versions beside the converted ones, with numbers an integer column could not hold.
      const added = [
        '1.10.2608210019',
        '1.10.0-beta.18446744073709551615',
        '18446744073709551615.0.0',
      ]
      await db
        .insert(nodeVersions)
        .values(added.map((version) => ({ nodeId: 'n', version, ...semverSortKey(version) })))
      const rows = await db
        .select({ version: nodeVersions.version, major: nodeVersions.major })
        .from(nodeVersions)
        .where(eq(nodeVersions.nodeId, 'n'))
        .orderBy(...versionSemverDesc)
      const all = [...old.map(([version]) => version), ...added]
      expect(rows.map((row) => row.version)).toEqual(all.sort((a, b) => compareVersions(b, a)))
      expect(rows[0].major).toBe('18446744073709551615')
      expect(rows.find((row) => row.version === '2147483647.0.0')?.major).toBe('2147483647')
    } finally {
      await drop()
      fs.rmSync(before, { recursive: true, force: true })
    }
  })
})
