import { defineConfig } from 'drizzle-kit'

/**
 * `npx drizzle-kit generate --name <change>` writes SQL migrations from server/db/schema.ts.
 * Migrations are applied from code (server/db/client.ts `migrate()`), on PGlite and PostgreSQL.
 * `npx drizzle-kit migrate|studio` work against PostgreSQL when DATABASE_URL is set.
 */
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema.ts',
  // scripts/check-migrations.ts generates into a copy to see whether the schema has drifted.
  out: process.env.DRIZZLE_OUT ?? './server/db/migrations',
  strict: true,
  verbose: true,
  ...(process.env.DATABASE_URL ? { dbCredentials: { url: process.env.DATABASE_URL } } : {}),
})
