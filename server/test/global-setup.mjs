// Jest global setup: with TEST_DATABASE_URL set, every API suite also runs on that PostgreSQL.
// If it does not answer, stop at once with the reason, rather than letting each suite fail on
// its own (or a run look green after testing PGlite only).
import pg from 'pg'

export default async function checkTestPostgres() {
  const url = process.env.TEST_DATABASE_URL
  if (!url) return
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 })
  try {
    await client.connect()
    await client.query('select 1')
  } catch (error) {
    throw new Error(
      `TEST_DATABASE_URL is set (${url}) but PostgreSQL does not answer: ${error.message}. ` +
        'Start PostgreSQL, or unset TEST_DATABASE_URL to test on PGlite only.',
    )
  } finally {
    await client.end().catch(() => {})
  }
}
