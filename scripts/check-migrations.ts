// Fails when server/db/schema.ts has changes that no migration in server/db/migrations makes:
// drizzle-kit generates into a copy of the folder, which must come out unchanged.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const root = path.resolve(__dirname, '..')
const migrations = path.join(root, 'server/db/migrations')
// Inside the repository: drizzle-kit takes `out` relative to it.
const copyName = 'server/db/.migrations-check'
const copy = path.join(root, copyName)

const sqlFiles = (dir: string) => fs.readdirSync(dir).filter((file) => file.endsWith('.sql'))

try {
  fs.rmSync(copy, { recursive: true, force: true })
  fs.cpSync(migrations, copy, { recursive: true })
  let output = ''
  try {
    output = execFileSync(path.join(root, 'node_modules/.bin/drizzle-kit'), ['generate'], {
      cwd: root,
      env: { ...process.env, DRIZZLE_OUT: `./${copyName}` },
      stdio: 'pipe',
      encoding: 'utf8',
    })
  } catch (error) {
    // drizzle-kit asks (and fails without a terminal) when a change could be a rename.
    output = String((error as { stdout?: unknown }).stdout ?? error)
  }
  const added = sqlFiles(copy).filter((file) => !sqlFiles(migrations).includes(file))
  if (added.length > 0 || !/No schema changes/.test(output)) {
    console.error(
      'server/db/schema.ts and server/db/migrations disagree: the schema has changes without a migration.\n' +
        'Run `npx drizzle-kit generate --name <change>` and commit the migration.\n' +
        output.trim().split('\n').slice(-5).join('\n'),
    )
    process.exitCode = 1
  } else {
    console.log(
      `server/db/migrations match server/db/schema.ts (${sqlFiles(migrations).length} migrations).`,
    )
  }
} finally {
  fs.rmSync(copy, { recursive: true, force: true })
}
