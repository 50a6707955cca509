// Fails when the code generated from openapi.yml and committed is stale: the website's client
// (src/api/generated, Orval) and the server's operation types (server/http/contract-types.ts,
// openapi-typescript). Orval generates into a sibling folder at the same depth, so relative
// imports come out identical.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const root = path.resolve(__dirname, '..')
const committed = path.join(root, 'src/api/generated')
const fresh = path.join(root, 'src/api/.generated-check')

function listFiles(dir: string, prefix = ''): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? listFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`)
        : [`${prefix}${entry.name}`],
    )
}

try {
  execFileSync(path.join(root, 'node_modules/.bin/orval'), ['--config', 'orval.config.ts'], {
    cwd: root,
    env: { ...process.env, ORVAL_OUTPUT_DIR: 'src/api/.generated-check' },
    stdio: 'pipe',
  })
  const a = listFiles(committed).sort()
  const b = listFiles(fresh).sort()
  const differing = [...new Set([...a, ...b])].filter((file) => {
    const left = path.join(committed, file)
    const right = path.join(fresh, file)
    return (
      !fs.existsSync(left) ||
      !fs.existsSync(right) ||
      !fs.readFileSync(left).equals(fs.readFileSync(right))
    )
  })
  if (differing.length > 0) {
    console.error(
      `src/api/generated is stale (${differing.length} files differ, e.g. ${differing.slice(0, 3).join(', ')}).\n` +
        'Run `npm run generate` and commit the result.',
    )
    process.exitCode = 1
  } else {
    console.log(`src/api/generated matches openapi.yml (${a.length} files).`)
  }
} finally {
  fs.rmSync(fresh, { recursive: true, force: true })
}

const serverTypes = path.join(root, 'server/http/contract-types.ts')
const freshTypes = path.join(root, 'server/http/.contract-types-check.ts')
try {
  execFileSync(
    path.join(root, 'node_modules/.bin/openapi-typescript'),
    ['openapi.yml', '-o', freshTypes],
    { cwd: root, stdio: 'pipe' },
  )
  if (!fs.readFileSync(serverTypes).equals(fs.readFileSync(freshTypes))) {
    console.error('server/http/contract-types.ts is stale. Run `npm run generate` and commit it.')
    process.exitCode = 1
  } else {
    console.log('server/http/contract-types.ts matches openapi.yml.')
  }
} finally {
  fs.rmSync(freshTypes, { force: true })
}
