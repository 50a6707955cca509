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
import { attachDemoAdmin, attachDemoMembership } from './seed/load'
import { DEMO_PUBLISHER_ACCOUNT } from './seed/accounts'
import { LocalArchiveStorage } from './storage'
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
  const storage = new LocalArchiveStorage(path.join(config.dataDir, 'archives'))
  // Migrations and the first load of demo data may take long: they run without the time limits
  // of serving requests, on a connection of their own.
  const setup = await openDatabase(where)
  try {
    await migrate(setup)
    if (await isDatabaseEmpty(setup.db)) {
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
    close: async () => {
      stopMaintenance()
      await worker?.stop()
      await app.close()
      await database.close()
    },
  }
}

if (require.main === module) {
  startApi({ log: console.log })
    .then(({ config }) => console.log(`Registry API listening on ${config.publicUrl}`))
    .catch((error: unknown) => {
      console.error(error)
      process.exit(1)
    })
}
