// `npm start`: the whole product on one machine. Starts the Firebase Auth emulator (:9099), the
// registry API on embedded PGlite or DATABASE_URL (:8080, migrated and seeded on first run) and
// the Next.js production server (:3000, built when needed), then prints where everything is.
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import net from 'node:net'
import path from 'node:path'
import { emulatorSetupProblem } from '../server/auth/emulator-guard'
import { startAuthEmulator } from './auth-emulator'
import { ensureDemoAccounts } from './demo-accounts'
import { waitForPort } from './net'
import { ensureWebBuild } from './web-build'
import { DEMO_FIREBASE_PROJECT_ID, stackPorts } from './ports'

const root = path.resolve(__dirname, '..')
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name)

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })
}

async function main() {
  const ports = stackPorts()
  const dataDir = path.resolve(process.env.DATA_DIR ?? path.join(root, '.data'))
  // Sign-ins go to the Auth emulator, which accepts unsigned tokens: everything stays on loopback.
  // `localhost`, the origin Next gives the proxy (proxy.ts): with `-H 127.0.0.1` Next takes the
  // proxy's rewrites for another origin and forwards each one over HTTP to itself.
  const webHost = process.env.WEB_HOST ?? 'localhost'
  const problem = emulatorSetupProblem({
    emulatorHost: `127.0.0.1:${ports.auth}`,
    nodeEnv: process.env.NODE_ENV,
    hosts: [webHost, process.env.API_HOST ?? 'localhost'],
  })
  if (problem) {
    console.error(`Cannot start: ${problem}`)
    process.exit(1)
  }
  const busy: string[] = []
  for (const [name, port] of Object.entries(ports)) {
    if (!(await portIsFree(port))) busy.push(`${name} :${port}`)
  }
  if (busy.length > 0) {
    console.error(
      `Cannot start: port ${busy.join(', ')} is already in use. Stop what runs there ` +
        '(perhaps another `npm start`), or choose other ports with WEB_PORT, API_PORT, AUTH_EMULATOR_PORT.',
    )
    process.exit(1)
  }

  const children: ChildProcess[] = []
  let stopping = false
  const stop = async (code = 0) => {
    if (stopping) return
    stopping = true
    console.log('\nStopping…')
    await closeApi?.()
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve()
            child.once('exit', () => resolve())
            child.kill('SIGINT')
            setTimeout(() => child.kill('SIGKILL'), 15_000).unref()
          }),
      ),
    )
    process.exit(code)
  }
  let closeApi: (() => Promise<void>) | undefined
  process.on('SIGINT', () => void stop())
  process.on('SIGTERM', () => void stop())

  try {
    console.log(`Starting the Firebase Auth emulator on :${ports.auth}…`)
    const emulator = startAuthEmulator(ports.auth, dataDir)
    children.push(emulator)
    let emulatorLog = ''
    emulator.stdout?.on('data', (chunk: Buffer) => (emulatorLog += chunk.toString()))
    emulator.stderr?.on('data', (chunk: Buffer) => (emulatorLog += chunk.toString()))
    await waitForPort(ports.auth, 'The Auth emulator', emulator).catch((error: Error) => {
      throw new Error(`${error.message}\n${emulatorLog}`)
    })
    process.env.FIREBASE_AUTH_EMULATOR_HOST = `127.0.0.1:${ports.auth}`
    const accounts = await ensureDemoAccounts()

    const apiUrl = `http://localhost:${ports.api}`
    process.env.API_PORT = String(ports.api)
    process.env.ADMIN_EMAILS = [process.env.ADMIN_EMAILS, accounts.admin.email]
      .filter(Boolean)
      .join(',')
    // The pipeline asks the website to regenerate a node's page when a version goes Active.
    process.env.WEB_INTERNAL_URL ??= `http://127.0.0.1:${ports.web}`
    process.env.REVALIDATE_SECRET ??= randomBytes(24).toString('base64url')
    // The website beside it renders search pages by calling the API with each visitor's address
    // in X-Forwarded-For (src/lib/ssr.ts); trusting loopback makes per-address limits count
    // visitors rather than the website. A forged header from elsewhere is not trusted.
    process.env.TRUST_PROXY ??= 'loopback'
    process.env.CORS_ORIGINS ??= `http://localhost:${ports.web},http://127.0.0.1:${ports.web}`
    console.log(`Starting the registry API on :${ports.api}…`)
    const { startApi } = await import('../server/main')
    const api = await startApi({
      demoPublisherUid: accounts.publisher.uid,
      demoAdminUid: accounts.admin.uid,
      log: console.log,
    })
    closeApi = api.close

    const webEnv = {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: '1',
      API_URL: `http://127.0.0.1:${ports.api}`,
      NEXT_PUBLIC_API_URL: process.env.NEXT_PUBLIC_API_URL ?? apiUrl,
      NEXT_PUBLIC_SITE_URL: process.env.NEXT_PUBLIC_SITE_URL ?? `http://localhost:${ports.web}`,
      NEXT_PUBLIC_FIREBASE_AUTH_EMULATOR_HOST: `127.0.0.1:${ports.auth}`,
      NEXT_PUBLIC_FIREBASE_PROJECT_ID: DEMO_FIREBASE_PROJECT_ID,
    }
    await ensureWebBuild(root, webEnv)
    console.log(`Starting the website on :${ports.web}…`)
    const web = spawn(bin('next'), ['start', '-p', String(ports.web), '-H', webHost], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: webEnv,
    })
    children.push(web)
    await waitForPort(ports.web, 'The website', web)

    console.log(`
Comfy Registry is running.
  Website        http://localhost:${ports.web}
  Registry API   ${apiUrl}   (contract: ${apiUrl}/openapi, health: ${apiUrl}/health)
  Auth emulator  http://127.0.0.1:${ports.auth}   (project ${DEMO_FIREBASE_PROJECT_ID})
  Data           ${dataDir}${process.env.DATABASE_URL ? ' (database: DATABASE_URL)' : ' (embedded PGlite)'}

Demo accounts (sign in on the website):
  publisher  ${accounts.publisher.email} / ${accounts.publisher.password}   (owns publisher "${accounts.publisher.publisherId}"; credits and an API key on /account)
  admin      ${accounts.admin.email} / ${accounts.admin.password}

Press Ctrl-C to stop.`)
    for (const child of children) {
      child.once('exit', (code) => {
        if (!stopping) {
          console.error(`A part of the stack stopped unexpectedly (exit code ${code}).`)
          void stop(1)
        }
      })
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : error)
    await stop(1)
  }
}

void main()
