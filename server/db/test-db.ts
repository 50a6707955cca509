/**
 * Fresh, migrated databases for tests.
 *   createTestDatabase()                      → in-memory PGlite
 *   createTestDatabase({ postgres: true })    → a new database on TEST_DATABASE_URL (dropped on close);
 *                                               falls back to PGlite when TEST_DATABASE_URL is unset
 * Set TEST_DB=postgres to make PostgreSQL the default for every caller (when the URL is set).
 */
import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Client } from 'pg'
import {
  type Database,
  type DatabaseTimeouts,
  MIGRATIONS_DIR,
  migrate,
  openDatabase,
  pgliteClientOf,
} from './client'

export interface TestDatabaseOptions {
  /** Use PostgreSQL at TEST_DATABASE_URL if it is set. */
  postgres?: boolean
  /** The time limits the API serves with (none by default). */
  timeouts?: DatabaseTimeouts
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
  if (wantPostgres && adminUrl) return createPostgresTestDatabase(adminUrl, options.timeouts)
  return createPgliteTestDatabase(options.timeouts)
}

// A migrated PGlite is dumped once and later test databases start from the dump, which is much
// faster than running initdb + migrations each time. The dump is also kept in the OS temp dir,
// keyed by the migrations and the PGlite build, so parallel Jest workers and later runs reuse it.
let pgliteTemplate: Promise<Blob> | null = null

function templateCacheFile(): string | null {
  try {
    const hash = createHash('sha256')
    const pglite = require.resolve('@electric-sql/pglite')
    hash.update(`${pglite}:${fs.statSync(pglite).size}`)
    const files = fs
      .readdirSync(MIGRATIONS_DIR, { recursive: true, encoding: 'utf8' })
      .filter((file) => fs.statSync(path.join(MIGRATIONS_DIR, file)).isFile())
      .sort()
    for (const file of files) {
      hash.update(file).update(fs.readFileSync(path.join(MIGRATIONS_DIR, file)))
    }
    return path.join(os.tmpdir(), `registry-pglite-template-${hash.digest('hex').slice(0, 16)}.tar`)
  } catch {
    return null
  }
}

async function buildPgliteTemplate(): Promise<Blob> {
  const template = await openDatabase({ memory: true })
  try {
    await migrate(template)
    const client = pgliteClientOf(template)
    if (!client) throw new Error('expected a PGlite database')
    return await client.dumpDataDir('none')
  } finally {
    await template.close()
  }
}

async function loadPgliteTemplate(): Promise<Blob> {
  const file = templateCacheFile()
  if (file && fs.existsSync(file)) return new Blob([fs.readFileSync(file)])
  const dump = await buildPgliteTemplate()
  if (file) {
    // Write then rename: a concurrent reader never sees half a file.
    const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`
    try {
      fs.writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()))
      fs.renameSync(tmp, file)
    } catch {
      fs.rmSync(tmp, { force: true })
    }
  }
  return dump
}

async function createPgliteTestDatabase(timeouts?: DatabaseTimeouts): Promise<TestDatabase> {
  if (!pgliteTemplate) {
    pgliteTemplate = loadPgliteTemplate()
    pgliteTemplate.catch(() => {
      pgliteTemplate = null
    })
  }
  try {
    return await openDatabase({ memory: true, pgliteLoadDataDir: await pgliteTemplate, timeouts })
  } catch (error) {
    // A cached dump from an incompatible build: drop it and start again from scratch once.
    const file = templateCacheFile()
    if (!file || !fs.existsSync(file)) throw error
    fs.rmSync(file, { force: true })
    pgliteTemplate = buildPgliteTemplate()
    return openDatabase({ memory: true, pgliteLoadDataDir: await pgliteTemplate, timeouts })
  }
}

async function createPostgresTestDatabase(
  adminUrl: string,
  timeouts?: DatabaseTimeouts,
): Promise<TestDatabase> {
  const name = `test_${randomBytes(6).toString('hex')}`
  await withAdminClient(adminUrl, (c) => c.query(`CREATE DATABASE "${name}"`))
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  let database: Database
  try {
    const setup = await openDatabase({ url: url.toString(), poolMax: 1 })
    try {
      await migrate(setup)
    } finally {
      await setup.close()
    }
    database = await openDatabase({ url: url.toString(), poolMax: 4, timeouts })
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
