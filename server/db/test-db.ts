/**
 * Fresh, migrated databases for tests.
 *   createTestDatabase()                      → in-memory PGlite
 *   createTestDatabase({ postgres: true })    → a new database on TEST_DATABASE_URL (dropped on close);
 *                                               falls back to PGlite when TEST_DATABASE_URL is unset
 * Set TEST_DB=postgres to make PostgreSQL the default for every caller (when the URL is set).
 */
import { randomBytes } from 'node:crypto'
import { Client } from 'pg'
import { type Database, migrate, openDatabase, pgliteClientOf } from './client'

export interface TestDatabaseOptions {
  /** Use PostgreSQL at TEST_DATABASE_URL if it is set. */
  postgres?: boolean
}

export interface TestDatabase extends Database {
  /** For PostgreSQL: the temporary database's connection string. */
  url?: string
}

/** True when TEST_DATABASE_URL points at a PostgreSQL to test against. */
export function hasTestPostgres(): boolean {
  return Boolean(process.env.TEST_DATABASE_URL)
}

export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const wantPostgres = options.postgres ?? process.env.TEST_DB === 'postgres'
  const adminUrl = process.env.TEST_DATABASE_URL
  if (wantPostgres && adminUrl) return createPostgresTestDatabase(adminUrl)
  return createPgliteTestDatabase()
}

// A migrated PGlite is dumped once per process; later test databases start from the dump,
// which is much faster than running initdb + migrations each time.
let pgliteTemplate: Promise<Blob> | null = null

async function createPgliteTestDatabase(): Promise<TestDatabase> {
  if (!pgliteTemplate) {
    pgliteTemplate = (async () => {
      const template = await openDatabase({ memory: true })
      try {
        await migrate(template)
        const client = pgliteClientOf(template)
        if (!client) throw new Error('expected a PGlite database')
        return await client.dumpDataDir('none')
      } finally {
        await template.close()
      }
    })()
    pgliteTemplate.catch(() => {
      pgliteTemplate = null
    })
  }
  const dump = await pgliteTemplate
  return openDatabase({ memory: true, pgliteLoadDataDir: dump })
}

async function createPostgresTestDatabase(adminUrl: string): Promise<TestDatabase> {
  const name = `test_${randomBytes(6).toString('hex')}`
  await withAdminClient(adminUrl, (c) => c.query(`CREATE DATABASE "${name}"`))
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  let database: Database
  try {
    database = await openDatabase({ url: url.toString(), poolMax: 4 })
    await migrate(database)
  } catch (error) {
    await withAdminClient(adminUrl, (c) =>
      c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
    )
    throw error
  }
  let closed = false
  return {
    db: database.db,
    kind: database.kind,
    url: url.toString(),
    close: async () => {
      if (closed) return
      closed = true
      await database.close()
      await withAdminClient(adminUrl, (c) =>
        c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
      )
    },
  }
}

async function withAdminClient<T>(url: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}
