// Housekeeping the API does by itself, at start and then every hour: temporary files left by a
// process that was killed while writing an archive (kill -9 during an upload), archives moved
// into storage by an upload killed before it committed, archives of deleted versions that could
// not be removed at the time (the store was down), upload links that expired long ago, and the
// node row changes no API process still reads (server/nodes/row-changes.ts), the JSON stored
// for nodes deleted since (server/nodes/shared-json.ts) and listing pages stored too long ago to
// answer (server/nodes/shared-pages.ts).
// Safe to run from several API processes at once.
import type { AppDeps } from '../http/context'
import { pruneRowChanges } from '../nodes/row-changes'
import { pruneNodeJson } from '../nodes/shared-json'
import { pruneListingPages } from '../nodes/shared-pages'
import {
  removeDeletedArchives,
  removeExpiredUploadLinks,
  removeUnclaimedArchives,
} from '../versions/writes'

/** An upload in progress is younger than this (50 MB at 100 kB/s takes under 9 minutes). */
export const STALE_TEMPORARY_FILE_MS = 60 * 60 * 1000
export const MAINTENANCE_INTERVAL_MS = 60 * 60 * 1000

export async function runMaintenance(deps: Pick<AppDeps, 'db' | 'storage'>, now = Date.now()) {
  const temporaryFiles = await deps.storage.removeStaleTemporaryFiles(STALE_TEMPORARY_FILE_MS, now)
  // Before the expired links go: an unclaimed archive is only found through its link.
  const unclaimedArchives = await removeUnclaimedArchives(deps.db, deps.storage)
  const deletedArchives = await removeDeletedArchives(deps.db, deps.storage)
  const uploadLinks = await removeExpiredUploadLinks(deps.db, new Date(now))
  // Before the log is pruned: it names the nodes deleted since the last run.
  const nodeJson = await pruneNodeJson(deps.db)
  const rowChanges = await pruneRowChanges(deps.db, new Date(now))
  const listingPages = await pruneListingPages(deps.db)
  return {
    temporaryFiles,
    unclaimedArchives,
    deletedArchives,
    uploadLinks,
    rowChanges,
    nodeJson,
    listingPages,
  }
}

/**
 * Runs maintenance now and every `intervalMs`; a run still going when the next is due is left to
 * end, the next skipped, so runs never overlap. Returns a function that stops it and resolves once
 * the run in progress, if any, has ended, so the database is not closed under it.
 */
export function startMaintenance(
  deps: Pick<AppDeps, 'db' | 'storage'>,
  log: (message: string) => void,
  intervalMs = MAINTENANCE_INTERVAL_MS,
): () => Promise<void> {
  let running: Promise<void> | undefined
  const run = () => {
    if (running) return
    running = runMaintenance(deps)
      .then((removed) => {
        if (Object.values(removed).some((count) => count > 0)) {
          log(
            `Maintenance: removed ${removed.temporaryFiles} stale temporary file(s), ${removed.unclaimedArchives} unclaimed archive(s), ${removed.deletedArchives} archive(s) of deleted versions, ${removed.uploadLinks} expired upload link(s), ${removed.rowChanges} node row change(s) no process still reads, the JSON of ${removed.nodeJson} deleted node(s) and ${removed.listingPages} listing page(s) too old to answer.`,
          )
        }
      })
      .catch((error: unknown) => log(`Maintenance failed (will retry): ${String(error)}`))
      .finally(() => {
        running = undefined
      })
  }
  run()
  const timer = setInterval(run, intervalMs)
  timer.unref()
  return () => {
    clearInterval(timer)
    return running ?? Promise.resolve()
  }
}
