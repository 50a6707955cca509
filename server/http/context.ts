// What every operation handler receives: the app's dependencies and the caller.
import type { TokenVerifier } from '../auth/verifier'
import type { ServerConfig } from '../config'
import type { Db } from '../db/client'
import type { DownloadCounter } from '../nodes/download-counter'
import type { ArchiveStorage } from '../storage'
import type { NodeReadCaches } from '../nodes/queries'
import type { ProxyLookupLog } from '../proxy/lookup-log'
import type { PublicAnswerCache } from './public-cache'
import type { RegistryMetrics } from '../system/metrics'

export interface AppDeps {
  db: Db
  storage: ArchiveStorage
  verifier: TokenVerifier
  config: ServerConfig
  /** Wakes this process's pipeline worker after a job was queued (absent when it runs elsewhere). */
  wakeWorker?: () => void
  /** This process's metrics (the inline worker's included); buildApp makes its own when absent. */
  metrics?: RegistryMetrics
}

/** The signed-in caller, as stored in our users table. */
export interface Caller {
  id: string
  email: string
  name: string
  isAdmin: boolean
  isApproved: boolean
  /** The sign-in provider vouches for `email` (invitations go to verified addresses only). */
  emailVerified: boolean
}

export interface RequestContext {
  deps: AppDeps
  caller: Caller | null
  /** Counts installs, written in batches (server/nodes/download-counter.ts). */
  downloads: DownloadCounter
  /** Records provider lookups, written in batches (server/proxy/lookup-log.ts). */
  proxyLog: ProxyLookupLog
  /** Anonymous answers shared for a moment (server/http/public-cache.ts). */
  publicCache: PublicAnswerCache
  /**
   * Which nodes listings and searches show, in order (server/nodes/ordering-cache.ts), and their
   * rows (server/nodes/row-cache.ts), reused.
   */
  nodeCaches: NodeReadCaches
  /** This process's metrics (GET /metrics). */
  metrics: RegistryMetrics
}
