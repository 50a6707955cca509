/**
 * Migration 0021 (trusted publishing): versions written before it get a provenance. One whose
 * upload link still names the personal access token that published it was published with that
 * token (method `token` and the token's name); the others say `unknown`.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { MIGRATIONS_DIR, migrate, openDatabase } from '../db/client'
import { nodeVersions } from '../db/schema'

jest.setTimeout(120_000)

const MIGRATION = '0021_trusted_publishing'

/** A copy of the migrations folder without `tag` and those after it. */
function migrationsBefore(tag: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-migrations-'))
  const journal = JSON.parse(
    fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8'),
  ) as { entries: { tag: string }[] }
  const kept = journal.entries.slice(
    0,
    journal.entries.findIndex((entry) => entry.tag === tag),
  )
  expect(kept.length).toBeGreaterThan(0)
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

describe(`migration ${MIGRATION}`, () => {
  it('backfills the provenance of existing versions', async () => {
    const before = migrationsBefore(MIGRATION)
    const database = await openDatabase({ memory: true })
    try {
      const { db } = database
      await migrate(database, before)
      await db.execute(sql`insert into publishers (id, name) values ('p', 'p')`)
      await db.execute(sql`insert into nodes (id, publisher_id, name) values ('n', 'p', 'n')`)
      await db.execute(
        sql`insert into personal_access_tokens (id, publisher_id, name, token_hash)
            values ('00000000-0000-4000-8000-000000000001', 'p', 'ci', 'hash')`,
      )
      for (const version of ['1.0.0', '1.1.0']) {
        await db.execute(
          sql`insert into node_versions (id, node_id, version, major, minor, patch)
              values (${`00000000-0000-4000-8000-00000000010${version === '1.0.0' ? 0 : 1}`}, 'n', ${version}, 1, ${version === '1.0.0' ? 0 : 1}, 0)`,
        )
      }
      // 1.1.0's link still names its token; 1.0.0's was swept long ago.
      await db.execute(
        sql`insert into pending_uploads (token, node_version_id, storage_key, token_id, expires_at)
            values ('link', '00000000-0000-4000-8000-000000000101', 'k',
                    '00000000-0000-4000-8000-000000000001', now())`,
      )
      await migrate(database)
      const rows = await db
        .select({ version: nodeVersions.version, provenance: nodeVersions.provenance })
        .from(nodeVersions)
        .orderBy(nodeVersions.version)
      expect(rows).toEqual([
        { version: '1.0.0', provenance: { method: 'unknown' } },
        { version: '1.1.0', provenance: { method: 'token', token_name: 'ci' } },
      ])
    } finally {
      await database.close()
      fs.rmSync(before, { recursive: true, force: true })
    }
  })
})
