// The pipeline's job handlers, as the API process and `npm run registry -- worker` start them.
import type { ServerConfig } from '../config'
import type { Db } from '../db/client'
import type { ArchiveStorage } from '../storage'
import { nodePageRefresher } from './page-refresh'
import { PROCESS_VERSION_JOB, versionChecksHandler } from './process-version'
import type { JobHandlers } from './worker'

export function pipelineHandlers(
  db: Db,
  storage: ArchiveStorage,
  config: ServerConfig,
  log: (message: string) => void = () => undefined,
): JobHandlers {
  return {
    [PROCESS_VERSION_JOB]: versionChecksHandler({
      db,
      storage,
      settings: {
        reviewMode: config.reviewMode,
        flagSeverity: config.flagSeverity,
        maxArchiveBytes: config.maxArchiveBytes,
      },
      onActive: nodePageRefresher(config, log),
    }),
  }
}
