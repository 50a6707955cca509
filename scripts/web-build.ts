// Builds the website when there is no build yet or a source file is newer than the last build.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const SOURCES = [
  'pages',
  'components',
  'src',
  'public',
  'styles',
  'proxy.ts',
  'next.config.js',
  'package.json',
]

function newestMtime(target: string): number {
  if (!fs.existsSync(target)) return 0
  const stat = fs.statSync(target)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of fs.readdirSync(target)) {
    newest = Math.max(newest, newestMtime(path.join(target, entry)))
  }
  return newest
}

export async function ensureWebBuild(root: string): Promise<void> {
  const buildId = path.join(root, '.next', 'BUILD_ID')
  const builtAt = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0
  const changedAt = Math.max(...SOURCES.map((source) => newestMtime(path.join(root, source))))
  if (builtAt > changedAt) return
  console.log('Building the website (next build)…')
  const result = spawnSync(path.join(root, 'node_modules', '.bin', 'next'), ['build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  })
  if (result.status !== 0) throw new Error('The website build failed (see above).')
}
