// Builds the website when there is no build yet, a source file is newer than the last build, or
// the public settings differ from the build's: pages prerendered at build time (404, 500) carry
// the settings they were built with, so the build runs with the same NEXT_PUBLIC_* as the server.
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
  'public-cache.config.js',
  'security-headers.config.js',
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

function publicSettings(env: NodeJS.ProcessEnv): string {
  const entries = Object.entries(env).filter(([name]) => name.startsWith('NEXT_PUBLIC_'))
  return JSON.stringify(Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b))))
}

/** Builds with `env` (the website's own environment) unless the last build is still current. */
export async function ensureWebBuild(root: string, env: NodeJS.ProcessEnv): Promise<void> {
  const buildId = path.join(root, '.next', 'BUILD_ID')
  const settingsFile = path.join(root, '.next', 'public-settings.json')
  const builtAt = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0
  const changedAt = Math.max(...SOURCES.map((source) => newestMtime(path.join(root, source))))
  const builtWith = fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : ''
  if (builtAt > changedAt && builtWith === publicSettings(env)) return
  console.log('Building the website (next build --webpack)…')
  const result = spawnSync(
    path.join(root, 'node_modules', '.bin', 'next'),
    ['build', '--webpack'],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...env, NEXT_TELEMETRY_DISABLED: '1' },
    },
  )
  if (result.status !== 0) throw new Error('The website build failed (see above).')
  fs.writeFileSync(settingsFile, publicSettings(env))
}
