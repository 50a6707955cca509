// Graceful shutdown of `npm run api` / the image's `api` command (server/main.ts): the order in
// which the parts stop, and what SIGTERM, a second signal and a stop that hangs do.
import { EventEmitter } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { loadConfig } from '../config'
import { openDatabase } from '../db/client'
import { isDatabaseEmpty } from '../seed/load'
import { MemoryArchiveStorage } from '../storage'
import { startMaintenance } from './maintenance'
import { closeInOrder, closeOnSignals, demoDataWanted, shutdownTimeoutMs, startApi } from '../main'

/** A promise with its resolve and reject outside, to decide when a part finishes stopping. */
function deferred() {
  let resolve!: () => void
  let reject!: (error: Error) => void
  const promise = new Promise<void>((yes, no) => {
    resolve = yes
    reject = no
  })
  return { promise, resolve, reject }
}

const flush = () => new Promise((resolve) => setImmediate(resolve))

describe('closeInOrder', () => {
  it('stops maintenance, the worker and the API together, and closes the database last', async () => {
    const events: string[] = []
    const maintenance = deferred()
    const worker = deferred()
    const app = deferred()
    const closing = closeInOrder({
      stopMaintenance: () => {
        events.push('maintenance stopping')
        return maintenance.promise.then(() => void events.push('maintenance stopped'))
      },
      worker: {
        stop: () => {
          events.push('worker stopping')
          return worker.promise.then(() => void events.push('worker stopped'))
        },
      },
      app: {
        close: () => {
          events.push('api closing')
          return app.promise.then(() => void events.push('api closed'))
        },
      },
      database: { close: async () => void events.push('database closed') },
    })
    await flush()
    // All were asked at once; the database stays open while the API still writes (onClose).
    expect(events).toEqual(['maintenance stopping', 'worker stopping', 'api closing'])
    app.resolve()
    await flush()
    worker.resolve()
    await flush()
    // A maintenance run still in progress keeps the database open until it ends.
    expect(events).not.toContain('database closed')
    maintenance.resolve()
    await closing
    expect(events).toEqual([
      'maintenance stopping',
      'worker stopping',
      'api closing',
      'api closed',
      'worker stopped',
      'maintenance stopped',
      'database closed',
    ])
  })

  it('works without an inline worker (WORKER=off)', async () => {
    const events: string[] = []
    await closeInOrder({
      stopMaintenance: async () => void events.push('maintenance'),
      worker: undefined,
      app: { close: async () => void events.push('api') },
      database: { close: async () => void events.push('database') },
    })
    expect(events).toEqual(['maintenance', 'api', 'database'])
  })
})

describe('startMaintenance', () => {
  it('runs at once, and stopping it waits for the run in progress to end', async () => {
    const database = await openDatabase({ memory: true })
    const sweep = deferred()
    let sweeps = 0
    // The store is slow to answer the first step of the run, then fails it.
    class SlowStorage extends MemoryArchiveStorage {
      override removeStaleTemporaryFiles(): Promise<number> {
        sweeps++
        return sweep.promise.then(() => 0)
      }
    }
    const logs: string[] = []
    try {
      const stop = startMaintenance(
        { db: database.db, storage: new SlowStorage() },
        (line) => void logs.push(line),
      )
      expect(sweeps).toBe(1)
      let stopped = false
      const stopping = stop().then(() => void (stopped = true))
      await flush()
      expect(stopped).toBe(false)
      sweep.reject(new Error('store down'))
      await stopping
      expect(logs).toEqual(['Maintenance failed (will retry): Error: store down'])
      expect(sweeps).toBe(1)
    } finally {
      await database.close()
    }
  }, 60_000)

  it('skips a run due while the last one is still going, and stopping waits for that one', async () => {
    const database = await openDatabase({ memory: true })
    const sweeps: ReturnType<typeof deferred>[] = []
    class SlowStorage extends MemoryArchiveStorage {
      override removeStaleTemporaryFiles(): Promise<number> {
        const sweep = deferred()
        sweeps.push(sweep)
        return sweep.promise.then(() => 0)
      }
    }
    const until = async (done: () => boolean) => {
      while (!done()) await new Promise((resolve) => setTimeout(resolve, 5))
    }
    try {
      const stop = startMaintenance({ db: database.db, storage: new SlowStorage() }, () => {}, 10)
      // Ten runs were due meanwhile: none started beside the first.
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(sweeps).toHaveLength(1)
      sweeps[0].resolve()
      // Once it ended, the next one due starts.
      await until(() => sweeps.length === 2)
      let stopped = false
      const stopping = stop().then(() => void (stopped = true))
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(stopped).toBe(false)
      expect(sweeps).toHaveLength(2)
      sweeps[1].resolve()
      await stopping
    } finally {
      await database.close()
    }
  }, 60_000)
})

describe('closeOnSignals', () => {
  function setup(timeoutMs = 0) {
    const signals = new EventEmitter()
    const stop = deferred()
    const close = jest.fn(() => stop.promise)
    const exit = jest.fn<void, [number]>()
    const log = jest.fn<void, [string]>()
    closeOnSignals({ close, exit, log, timeoutMs, signals })
    return { signals, stop, close, exit, log }
  }

  afterEach(() => jest.useRealTimers())

  it.each(['SIGTERM', 'SIGINT'])('%s closes, then exits 0 once closed', async (signal) => {
    const { signals, stop, close, exit } = setup()
    signals.emit(signal, signal)
    expect(close).toHaveBeenCalledTimes(1)
    await flush()
    expect(exit).not.toHaveBeenCalled()
    stop.resolve()
    await flush()
    expect(exit).toHaveBeenCalledWith(0)
  })

  it('a second signal exits 1 at once, without closing twice', () => {
    const { signals, close, exit } = setup()
    signals.emit('SIGTERM', 'SIGTERM')
    signals.emit('SIGINT', 'SIGINT')
    expect(close).toHaveBeenCalledTimes(1)
    expect(exit).toHaveBeenCalledWith(1)
  })

  it('a close that fails exits 1', async () => {
    const { signals, stop, exit, log } = setup()
    signals.emit('SIGTERM', 'SIGTERM')
    stop.reject(new Error('connection reset'))
    await flush()
    expect(exit).toHaveBeenCalledWith(1)
    expect(log).toHaveBeenCalledWith('Stopping failed: Error: connection reset')
  })

  it('a close that outlasts SHUTDOWN_TIMEOUT_MS exits 1', () => {
    jest.useFakeTimers()
    const { signals, exit } = setup(5000)
    signals.emit('SIGTERM', 'SIGTERM')
    jest.advanceTimersByTime(4999)
    expect(exit).not.toHaveBeenCalled()
    jest.advanceTimersByTime(1)
    expect(exit).toHaveBeenCalledWith(1)
  })

  it('SHUTDOWN_TIMEOUT_MS is a whole number of milliseconds, 25 s by default', () => {
    expect(shutdownTimeoutMs(undefined)).toBe(25_000)
    expect(shutdownTimeoutMs('0')).toBe(0)
    expect(shutdownTimeoutMs('60000')).toBe(60_000)
    expect(() => shutdownTimeoutMs('30s')).toThrow(
      "SHUTDOWN_TIMEOUT_MS must be a whole number of milliseconds; it is '30s'.",
    )
  })
})

describe('DEMO_DATA', () => {
  it('is on unless set to off, and refuses anything else', () => {
    expect(demoDataWanted(undefined)).toBe(true)
    expect(demoDataWanted('on')).toBe(true)
    expect(demoDataWanted('off')).toBe(false)
    expect(() => demoDataWanted('no')).toThrow("DEMO_DATA must be one of on, off; it is 'no'.")
  })

  it('off: the API migrates an empty database and serves it without loading the demo data', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'registry-no-demo-'))
    try {
      const config = loadConfig({ API_HOST: '127.0.0.1', API_PORT: '0', DATA_DIR: dataDir })
      const api = await startApi({ config, demoData: false })
      const health = await api.app.inject({ url: '/health' })
      await api.close()
      expect(health.statusCode).toBe(200)
      const database = await openDatabase({ dataDir: path.join(dataDir, 'pglite') })
      try {
        expect(await isDatabaseEmpty(database.db)).toBe(true)
      } finally {
        await database.close()
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
    // Migrating a fresh PGlite database takes about 8 s on an idle 2-core machine, and took more
    // than 60 s once in CI while the other Jest worker ran a PGlite suite.
  }, 180_000)
})
