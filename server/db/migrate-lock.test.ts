// Several API processes starting at once on a new release (docs/DEPLOY.md "Adding processes")
// all run the migrations: one migrates while the others wait for it, then find nothing to do.
// PostgreSQL only (PGlite is one process's own database).
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { Client } from 'pg'
import { MIGRATIONS_DIR, migrate, openDatabase } from './client'
import { hasTestPostgres } from './test-db'

const adminUrl = process.env.TEST_DATABASE_URL
const onPostgres = hasTestPostgres() ? describe : describe.skip

onPostgres('migrations from several processes at once (PostgreSQL)', () => {
  const name = `registry_migrate_lock_${randomBytes(4).toString('hex')}`
  let url = ''

  beforeAll(async () => {
    const admin = new Client({ connectionString: adminUrl })
    await admin.connect()
    await admin.query(`create database ${name}`)
    await admin.end()
    const target = new URL(adminUrl ?? '')
    target.pathname = `/${name}`
    url = target.toString()
  })

  afterAll(async () => {
    const admin = new Client({ connectionString: adminUrl })
    await admin.connect()
    await admin.query(`drop database if exists ${name} with (force)`)
    await admin.end()
  })

  test('four processes migrating an empty database at once all succeed, each migration once', async () => {
    const databases = await Promise.all([1, 2, 3, 4].map(() => openDatabase({ url })))
    try {
      const results = await Promise.allSettled(databases.map((database) => migrate(database)))
      expect(results.map((result) => result.status)).toEqual([
        'fulfilled',
        'fulfilled',
        'fulfilled',
        'fulfilled',
      ])
      const journal = JSON.parse(
        fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8'),
      ) as { entries: unknown[] }
      const client = new Client({ connectionString: url })
      await client.connect()
      const applied = await client.query<{ count: string }>(
        'select count(*) from drizzle.__drizzle_migrations',
      )
      await client.end()
      expect(Number(applied.rows[0].count)).toBe(journal.entries.length)
    } finally {
      await Promise.all(databases.map((database) => database.close()))
    }
  })
})
