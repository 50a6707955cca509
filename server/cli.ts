// Operator commands: `npm run registry -- <command>`.
//   migrate               apply database migrations
//   seed [--nodes N]      load the demo data into an empty database
//   make-admin EMAIL      grant admin to a registered user (admins are never set by a request)
//   remove-admin EMAIL    take admin away
//   credit EMAIL AMOUNT REASON   add credits (a negative AMOUNT: an adjustment) to a user's ledger
//   worker                run the publishing pipeline's jobs (for API processes with WORKER=off)
import path from 'node:path'
import { eq, sql } from 'drizzle-orm'
import { loadConfig } from './config'
import { migrate, openDatabase } from './db/client'
import { users } from './db/schema'
import { CREDIT_USAGE, CreditRefused, creditByEmail } from './customers/credit-command'
import { microsToCredits } from '@/src/lib/credits'
import { isDatabaseEmpty, loadDemoData } from './seed/load'
import { openStorage } from './storage/from-config'
import { pipelineHandlers } from './pipeline/handlers'
import { startWorker } from './pipeline/worker'
import { poolStatsByName } from './db/client'
import { jsonLog, logSink } from './system/logging'
import { RegistryMetrics } from './system/metrics'
import { serveWorkerMetrics } from './system/worker-metrics'

async function main(argv: string[]) {
  const [command, ...args] = argv
  const config = loadConfig()
  const database = await openDatabase(
    config.databaseUrl
      ? { url: config.databaseUrl }
      : { dataDir: path.join(config.dataDir, 'pglite') },
  )
  try {
    await migrate(database)
    switch (command) {
      case 'migrate':
        console.log('Migrations applied.')
        return 0
      case 'seed': {
        if (!(await isDatabaseEmpty(database.db))) {
          console.error('The database already has data; seed only loads into an empty one.')
          return 1
        }
        const nodesFlag = args.indexOf('--nodes')
        const nodes = nodesFlag >= 0 ? Number(args[nodesFlag + 1]) : undefined
        const storage = await openStorage(config)
        await loadDemoData(
          database.db,
          storage,
          nodes ? { nodes, publishers: Math.max(40, nodes / 25) } : {},
        )
        console.log('Demo data loaded.')
        return 0
      }
      case 'make-admin':
      case 'remove-admin': {
        const email = args[0]?.toLowerCase()
        if (!email) {
          console.error(`Usage: npm run registry -- ${command} EMAIL`)
          return 2
        }
        const updated = await database.db
          .update(users)
          .set({ isAdmin: command === 'make-admin', updatedAt: sql`now()` })
          .where(eq(sql`lower(${users.email})`, email))
          .returning({ id: users.id })
        if (updated.length === 0) {
          console.error(`No user with email ${email}: they must sign in once first.`)
          return 1
        }
        console.log(`${email} is ${command === 'make-admin' ? 'now' : 'no longer'} an admin.`)
        return 0
      }
      case 'credit': {
        const [email, amount, ...reason] = args
        if (!email || !amount || reason.length === 0) {
          console.error(CREDIT_USAGE)
          return 2
        }
        try {
          const event = await creditByEmail(database.db, email, amount, reason.join(' '))
          console.log(
            `${email}: ${event.type} of ${microsToCredits(event.amountMicros)} credits; balance ${microsToCredits(event.balanceMicros)}.`,
          )
          return 0
        } catch (error) {
          if (!(error instanceof CreditRefused)) throw error
          console.error(error.message)
          return 1
        }
      }
      case 'worker': {
        const storage = await openStorage(config)
        const metrics = new RegistryMetrics()
        metrics.watchJobs(database.db)
        metrics.watchPools(() => poolStatsByName(database.db))
        const worker = startWorker({
          db: database.db,
          handlers: pipelineHandlers(database.db, storage, config, console.log),
          log: console.log,
          logger: jsonLog(config.log, logSink(config.log.format), { component: 'worker' }),
          metrics,
        })
        const listener = config.workerMetrics
          ? await serveWorkerMetrics(metrics, config.workerMetrics, config.metricsToken)
          : undefined
        console.log(
          `Pipeline worker ${worker.id} running${listener ? `; metrics at ${listener.url}/metrics` : ''}; Ctrl-C stops it.`,
        )
        await new Promise<void>((resolve) => {
          process.once('SIGINT', resolve)
          process.once('SIGTERM', resolve)
        })
        // A job still running finishes; one cut short is taken again when its lease runs out.
        await worker.stop()
        await listener?.close()
        return 0
      }
      default:
        console.error(
          'Commands: migrate | seed [--nodes N] | make-admin EMAIL | remove-admin EMAIL | credit EMAIL AMOUNT REASON | worker',
        )
        return 2
    }
  } finally {
    await database.close()
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
