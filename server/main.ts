// Starts the registry API: opens the database (PGlite in DATA_DIR, or DATABASE_URL), migrates,
// loads the demo data on first run and listens. `npm start` calls this; so does `npm run api`.
import path from 'node:path'
import { buildApp } from './http/app'
import { assertEmulatorSetupIsLocal } from './auth/emulator-guard'
import { firebaseTokenVerifier } from './auth/verifier'
import { loadConfig, type ServerConfig } from './config'
import { migrate, openDatabase } from './db/client'
import { startMaintenance } from './system/maintenance'
import { isDatabaseEmpty, loadDemoData } from './seed/load'
import { attachDemoAdmin, attachDemoCustomer, attachDemoMembership } from './seed/load'
import { DEMO_PUBLISHER_ACCOUNT } from './seed/accounts'
import { openStorage } from './storage/from-config'
import { pipelineHandlers } from './pipeline/handlers'
import { startWorker, type Worker } from './pipeline/worker'
import { jsonLog, logSink } from './system/logging'
import { RegistryMetrics } from './system/metrics'

export interface StartApiOptions {
  config?: ServerConfig
  /** Firebase uid of the demo publisher account, made owner of the demo publisher. */
  demoPublisherUid?: string
  /** Firebase uid of the demo admin account, made the actor of the demo's audit rows. */
  demoAdminUid?: string
  /** Load the demo data into an empty database (default); DEMO_DATA=off for a real deployment. */
  demoData?: boolean
  log?: (message: string) => void
}

export async function startApi(options: StartApiOptions = {}) {
  const config = options.config ?? loadConfig()
  const log = options.log ?? (() => undefined)
  assertEmulatorSetupIsLocal({
    emulatorHost: process.env.FIREBASE_AUTH_EMULATOR_HOST,
    nodeEnv: process.env.NODE_ENV,
    hosts: [config.host],
  })
  const where = config.databaseUrl
    ? { url: config.databaseUrl }
    : { dataDir: path.join(config.dataDir, 'pglite') }
  const storage = await openStorage(config)
  // Migrations and the first load of demo data may take long: they run without the time limits
  // of serving requests, on a connection of their own.
  const setup = await openDatabase(where)
  try {
    await migrate(setup)
    if ((options.demoData ?? true) && (await isDatabaseEmpty(setup.db))) {
      log('First run: loading the demo data…')
      await loadDemoData(setup.db, storage, {})
    }
    if (options.demoPublisherUid) {
      await attachDemoMembership(
        setup.db,
        options.demoPublisherUid,
        DEMO_PUBLISHER_ACCOUNT.email,
        DEMO_PUBLISHER_ACCOUNT.name,
      )
      await attachDemoCustomer(setup.db, options.demoPublisherUid)
    }
    if (options.demoAdminUid) await attachDemoAdmin(setup.db, options.demoAdminUid)
  } finally {
    await setup.close()
  }
  const database = await openDatabase({ ...where, timeouts: config.databaseTimeouts })
  // One registry of metrics for the process (/metrics), the inline worker's included.
  const metrics = new RegistryMetrics()
  const logs = logSink(config.log.format)
  // The publishing pipeline runs here unless WORKER=off (then `npm run registry -- worker`).
  const worker: Worker | undefined =
    config.worker === 'inline'
      ? startWorker({
          db: database.db,
          handlers: pipelineHandlers(database.db, storage, config, log),
          log,
          logger: jsonLog(config.log, logs, { component: 'worker' }),
          metrics,
        })
      : undefined
  const app = await buildApp(
    {
      db: database.db,
      storage,
      verifier: firebaseTokenVerifier(config.firebaseProjectId),
      config,
      wakeWorker: worker?.wake,
      metrics,
    },
    { log: { settings: config.log, sink: logs } },
  )
  const stopMaintenance = startMaintenance({ db: database.db, storage }, log)
  await app.listen({ host: config.host, port: config.port })
  return {
    app,
    config,
    worker,
    close: () => closeInOrder({ stopMaintenance, worker, app, database }),
  }
}

interface RunningParts {
  stopMaintenance: () => Promise<void>
  worker: Pick<Worker, 'stop'> | undefined
  app: { close(): PromiseLike<unknown> }
  database: { close(): Promise<void> }
}

/**
 * Stops without losing work: maintenance starts no new run and ends the one in progress, the worker
 * claims no new job and finishes the one it runs, and the API refuses new requests (503), finishes
 * those in flight and writes the download counts and provider lookups it holds in memory (app.ts
 * onClose), all at once; the database closes last.
 */
export async function closeInOrder(parts: RunningParts): Promise<void> {
  await Promise.all([parts.stopMaintenance(), parts.worker?.stop(), parts.app.close()])
  await parts.database.close()
}

/** DEMO_DATA: `on` (default) loads the demo data when the database is empty; `off` never does. */
export function demoDataWanted(value: string | undefined): boolean {
  if (value === undefined || value === '' || value === 'on') return true
  if (value === 'off') return false
  throw new Error(`DEMO_DATA must be one of on, off; it is '${value}'.`)
}

/** SHUTDOWN_TIMEOUT_MS: how long a graceful stop may take before the process exits anyway. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 25_000

export function shutdownTimeoutMs(value: string | undefined): number {
  if (value === undefined) return DEFAULT_SHUTDOWN_TIMEOUT_MS
  const number = Number(value)
  if (!/^\d+$/.test(value)) {
    throw new Error(`SHUTDOWN_TIMEOUT_MS must be a whole number of milliseconds; it is '${value}'.`)
  }
  return number
}

export interface SignalOptions {
  close: () => Promise<void>
  log: (message: string) => void
  exit: (code: number) => void
  /** 0: no limit. */
  timeoutMs: number
  /** Where the signals come from (the process; an EventEmitter in tests). */
  signals?: Pick<NodeJS.EventEmitter, 'on'>
}

/**
 * SIGTERM (docker stop, Kubernetes) or SIGINT (Ctrl-C) stops the API gracefully and exits 0; a
 * second signal, or a stop that outlasts `timeoutMs`, exits 1 at once (a job cut short is taken
 * again when its lease runs out).
 */
export function closeOnSignals({
  close,
  log,
  exit,
  timeoutMs,
  signals = process,
}: SignalOptions): void {
  let closing = false
  const onSignal = (signal: string) => {
    if (closing) {
      log(`${signal} again: stopping at once.`)
      exit(1)
      return
    }
    closing = true
    log(`${signal}: finishing the requests and jobs in flight, then stopping…`)
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            log(`Not stopped within ${timeoutMs} ms (SHUTDOWN_TIMEOUT_MS): stopping at once.`)
            exit(1)
          }, timeoutMs)
        : undefined
    timer?.unref()
    close().then(
      () => {
        clearTimeout(timer)
        log('Registry API stopped.')
        exit(0)
      },
      (error: unknown) => {
        clearTimeout(timer)
        log(`Stopping failed: ${String(error)}`)
        exit(1)
      },
    )
  }
  signals.on('SIGTERM', onSignal)
  signals.on('SIGINT', onSignal)
}

if (require.main === module) {
  const timeoutMs = shutdownTimeoutMs(process.env.SHUTDOWN_TIMEOUT_MS)
  startApi({ log: console.log, demoData: demoDataWanted(process.env.DEMO_DATA) })
    .then(({ config, close }) => {
      console.log(`Registry API listening on ${config.publicUrl}`)
      closeOnSignals({ close, log: console.log, exit: (code) => process.exit(code), timeoutMs })
    })
    .catch((error: unknown) => {
      console.error(error)
      process.exit(1)
    })
}
