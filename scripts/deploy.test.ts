// The container files without a container engine: compose.yaml's services use commands the
// image's entrypoint accepts, settings docs/DEPLOY.md documents, and dependencies that exist;
// the Dockerfile runs the entrypoint as a non-root user; the entrypoint's commands run here
// from the checkout as they do in the image (`api` stops gracefully on SIGTERM).
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { parse } from 'yaml'
import { collectEnvReads, DEPLOY_DOC, readEnvTable, ROOT } from './env-vars'

/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8')
const ENTRYPOINT = path.join(ROOT, 'scripts/entrypoint.sh')
const IMAGE = 'comfy-registry:local'

/**
 * Set in compose.yaml ahead of the code that reads them (none now: the S3 archive store's are
 * read). Once the code reads one, the test below fails until it leaves this list for a row.
 */
const AHEAD_OF_CODE: string[] = []

interface Service {
  image?: string
  command?: string[]
  environment?: Record<string, string>
  depends_on?: Record<string, { condition: string }>
  healthcheck?: { test: string[] }
  ports?: string[]
  volumes?: string[]
  restart?: string
  build?: { args?: Record<string, string> }
}
interface Compose {
  services: Record<string, Service>
  volumes: Record<string, unknown>
}

const compose = parse(read('compose.yaml'), { merge: true }) as Compose
const services = Object.entries(compose.services)
const ours = services.filter(([, service]) => service.image === IMAGE)
const dockerfile = read('Dockerfile')
const documented = new Set(readEnvTable(read(DEPLOY_DOC)).flatMap((row) => row.names))

/** The entrypoint's commands: the labels of its `case "$command"`. */
const entrypointCommands = [...read('scripts/entrypoint.sh').matchAll(/^ {2}([a-z-]+)\)$/gm)].map(
  ([, name]) => name,
)

describe('compose.yaml', () => {
  it('runs PostgreSQL, Redis, an S3-compatible store and the api, worker and web from one image', () => {
    expect(Object.keys(compose.services)).toEqual(
      expect.arrayContaining(['postgres', 'redis', 'minio', 'api', 'worker', 'web']),
    )
    expect(Object.fromEntries(ours.map(([name, s]) => [name, s.command?.[0]]))).toEqual({
      migrate: 'migrate',
      api: 'api',
      worker: 'worker',
      web: 'web',
    })
  })

  it("each of the image's services runs a command the entrypoint accepts", () => {
    expect(entrypointCommands).toEqual(expect.arrayContaining(['api', 'worker', 'web', 'migrate']))
    for (const [name, service] of ours) {
      expect([name, entrypointCommands.includes(service.command?.[0] ?? '')]).toEqual([name, true])
    }
  })

  it('sets only variables documented in the table (or waiting for their code)', () => {
    const undocumented = ours.flatMap(([name, service]) =>
      Object.keys(service.environment ?? {})
        .filter((variable) => !documented.has(variable) && !AHEAD_OF_CODE.includes(variable))
        .map((variable) => `${name}: ${variable}`),
    )
    expect(undocumented).toEqual([])
    // Build arguments are the Dockerfile's, and public settings from the table.
    const args = Object.keys(compose.services.api.build?.args ?? {})
    for (const arg of args) {
      expect([arg, dockerfile.includes(`ARG ${arg}=`), documented.has(arg)]).toEqual([
        arg,
        true,
        true,
      ])
    }
  })

  it('variables set ahead of their code are not read yet (else they belong in the table)', () => {
    const { reads } = collectEnvReads()
    expect(AHEAD_OF_CODE.filter((name) => reads.has(name) || documented.has(name))).toEqual([])
  })

  it('depends on services that exist, healthy or finished as their kind allows', () => {
    const problems: string[] = []
    for (const [name, service] of services) {
      for (const [target, { condition }] of Object.entries(service.depends_on ?? {})) {
        const other = compose.services[target]
        if (!other) problems.push(`${name} depends on missing ${target}`)
        else if (condition === 'service_healthy' && !other.healthcheck && other.image !== IMAGE)
          problems.push(`${name} waits for ${target} to be healthy, which has no healthcheck`)
        else if (condition === 'service_completed_successfully' && other.restart !== 'no')
          problems.push(`${name} waits for ${target} to finish, which restarts`)
        else if (!['service_healthy', 'service_completed_successfully'].includes(condition))
          problems.push(`${name}: condition ${condition} of ${target}`)
      }
    }
    expect(problems).toEqual([])
  })

  it('publishes ports on 127.0.0.1 only and declares its volumes', () => {
    for (const [name, service] of services) {
      for (const port of service.ports ?? [])
        expect([name, port]).toEqual([name, expect.stringMatching(/^127\.0\.0\.1:\d+:\d+$/)])
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0]
        expect([name, source in compose.volumes]).toEqual([name, true])
      }
    }
  })

  it('the API and the worker share the archives and the pipeline settings', () => {
    const { api, worker } = compose.services
    expect(worker.volumes).toEqual(api.volumes)
    for (const variable of [
      'DATABASE_URL',
      'REVIEW_MODE',
      'WEB_INTERNAL_URL',
      'REVALIDATE_SECRET',
    ]) {
      expect([variable, worker.environment?.[variable]]).toEqual([
        variable,
        api.environment?.[variable],
      ])
    }
    expect(api.environment?.WORKER).toBe('off')
    expect(compose.services.web.environment?.REVALIDATE_SECRET).toBe(
      api.environment?.REVALIDATE_SECRET,
    )
  })
})

describe('Dockerfile', () => {
  it('builds on Node 20 bookworm in stages and runs the entrypoint as the node user', () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:20-bookworm-slim$/m)
    expect(dockerfile.match(/^FROM /gm)).toHaveLength(2)
    expect(dockerfile).toMatch(/^USER node$/m)
    expect(dockerfile).toMatch(/^ENTRYPOINT \["\/app\/scripts\/entrypoint\.sh"\]$/m)
    expect(dockerfile).toMatch(/CMD \["\/app\/scripts\/entrypoint\.sh", "healthcheck"\]/)
    expect(dockerfile).toMatch(/npm prune --omit=dev/)
    expect(entrypointCommands).toContain('healthcheck')
  })

  it('sets only documented variables, and passes every build argument to the build', () => {
    const envBlock = dockerfile.match(/^ENV ([\s\S]*?)(?:\n(?!\s)|$)/gm) ?? []
    const set = envBlock.flatMap((block) =>
      [...block.matchAll(/([A-Z][A-Z0-9_]*)=/g)].map((m) => m[1]),
    )
    expect(
      set.filter((name) => !documented.has(name) && name !== 'NEXT_TELEMETRY_DISABLED'),
    ).toEqual([])
    const args = [...dockerfile.matchAll(/^ARG (NEXT_PUBLIC_[A-Z_]+)=/gm)].map((m) => m[1])
    expect(args.length).toBeGreaterThan(3)
    for (const arg of args) {
      expect([arg, documented.has(arg), dockerfile.includes(`${arg}="$${arg}"`)]).toEqual([
        arg,
        true,
        true,
      ])
    }
  })

  it('.dockerignore keeps local state and installed modules out of the build', () => {
    const ignored = read('.dockerignore').split('\n')
    expect(ignored).toEqual(
      expect.arrayContaining(['.git', 'node_modules', '.next', '.data', '.env*']),
    )
  })
})

describe('scripts/entrypoint.sh', () => {
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(ENTRYPOINT, args, { encoding: 'utf8', env: { ...process.env, ...env } })

  it('refuses an unknown command with its usage', () => {
    const result = run(['serve'])
    expect(result.status).toBe(2)
    expect(result.stderr).toMatch(/^Usage: entrypoint\.sh api \| worker \| web \| migrate/)
  })

  it('migrate applies the migrations and exits 0', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'registry-entrypoint-'))
    try {
      const result = run(['migrate'], { DATA_DIR: dataDir, DATABASE_URL: '' })
      expect([result.status, result.stdout.trim()]).toEqual([0, 'Migrations applied.'])
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  }, 120_000)

  it('api serves /health, then stops gracefully on SIGTERM and exits 0', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'registry-entrypoint-'))
    const port = await freePort()
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      DEMO_DATA: 'off',
      API_HOST: '127.0.0.1',
      API_PORT: String(port),
    }
    delete env.FIREBASE_AUTH_EMULATOR_HOST
    const child = spawn(ENTRYPOINT, ['api'], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString()
          if (output.includes('Registry API listening on')) resolve()
        })
        void exited.then((code) => reject(new Error(`exited ${code}:\n${output}`)))
      })
      const health = await fetch(`http://127.0.0.1:${port}/health`)
      expect(health.status).toBe(200)
      // The image's HEALTHCHECK finds the API among the processes and asks its /health.
      expect(run(['healthcheck'], { API_PORT: String(port) }).status).toBe(0)
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
      expect(output).toContain('SIGTERM: finishing the requests and jobs in flight, then stopping…')
      expect(output).toContain('Registry API stopped.')
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
      await rm(dataDir, { recursive: true, force: true })
    }
  }, 120_000)
})
