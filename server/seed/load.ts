/**
 * Loads the deterministic demo data into a database (multi-row inserts, one transaction per batch
 * of nodes) and writes a real zip for every version that has an archive.
 */
import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm'
import type { PgTable } from 'drizzle-orm/pg-core'
import { UNCLAIMED_PUBLISHER } from '@/src/lib/constants'
import type { Db } from '../db/client'
import {
  adminActions,
  comfyNodes,
  nodeDownloadsDaily,
  nodeReviews,
  nodes,
  nodeVersions,
  publisherInvitations,
  publisherMembers,
  publishers,
  users,
} from '../db/schema'
import { INVITATION_TTL_MS } from '../publishers/invitations'
import type { ArchiveStorage } from '../storage'
import { DEMO_PUBLISHER, DEMO_PUBLISHER_ACCOUNT } from './accounts'
import { buildDemoVersionArchive } from './archive'
import { checkArchive, DEFAULT_ARCHIVE_LIMITS } from '../pipeline/archive'
import { readDocuments, storeDocuments } from '../pipeline/documents'
import { loadDemoCustomers } from './customers'
import { loadDemoReleases } from './releases'
import { loadDemoCiResults } from './ci'
import { loadDemoTrustedPublishing } from './trusted-publishing'
import {
  type DemoComfyNode,
  type DemoDataOptions,
  type DemoNodeBatch,
  DEMO_BASE_DATE,
  generateDemoBase,
  generateNodesInBatches,
} from './generate'

export { attachDemoAdmin, attachDemoMembership } from './accounts'
export { attachDemoCustomer } from './customers'

export interface LoadDemoDataOptions extends DemoDataOptions {
  /** Write zips into storage (default true). Turn off for big benchmark loads. */
  withArchives?: boolean
  /** Rows per INSERT statement (default 500). */
  rowsPerInsert?: number
  /**
   * Drop the non-unique secondary indexes of the bulk-loaded tables while loading and rebuild them
   * afterwards (much faster for big loads; default: true when loading more than 2000 nodes).
   */
  deferIndexes?: boolean
  /**
   * Batches of nodes written at the same time, each in its own transaction (default 3). Helps on
   * PostgreSQL (a pool of connections); PGlite runs them one after another.
   */
  concurrency?: number
  /**
   * The day the demo download history is moved to (default: today, UTC): the generated buckets
   * end the day before DEMO_BASE_DATE, so they end the day before this one, and a fresh
   * `npm start` shows the last 90 days on the node pages' charts.
   */
  today?: Date
  /** Called after each batch of nodes. */
  onProgress?: (progress: { nodes: number; total: number }) => void
}

export interface LoadDemoDataResult {
  users: number
  publishers: number
  members: number
  nodes: number
  versions: number
  comfyNodes: number
  reviews: number
  dailyDownloads: number
  adminActions: number
  archives: number
  /** Demo users with a credit account (server/seed/customers.ts). */
  customers: number
  /** Demo CI workflow results (server/seed/ci.ts). */
  ciResults: number
}

/** True when there are no publishers and no nodes yet (first run). */
export async function isDatabaseEmpty(db: Db): Promise<boolean> {
  const [row] = await db
    .select({
      // The reserved publisher of unclaimed nodes comes with the migrations.
      any: sql<boolean>`exists (select 1 from ${publishers} where ${publishers.id} <> ${UNCLAIMED_PUBLISHER.id}) or exists (select 1 from ${nodes})`,
    })
    .from(sql`(select 1) as one`)
  return !row?.any
}

/**
 * Inserts rows in chunks with one statement per chunk: the chunk travels as a single JSON
 * parameter expanded by json_populate_recordset. That is much faster than a VALUES list with a
 * parameter per cell (on both drivers, and drizzle need not build a huge query), and it never
 * hits the 65k-parameter limit. Row keys are the schema's TypeScript names; every row of a table
 * must have the same keys (missing ones become NULL, not the column default).
 */
async function insertChunked<TTable extends PgTable>(
  db: Db,
  table: TTable,
  rows: readonly TTable['$inferInsert'][],
  rowsPerInsert: number,
): Promise<void> {
  if (rows.length === 0) return
  const columns = getTableColumns(table)
  const keys = Object.keys(rows[0]).filter((key) => key in columns)
  const names = keys.map((key) => columns[key].name)
  const columnList = sql.join(
    names.map((name) => sql.identifier(name)),
    sql`, `,
  )
  for (let i = 0; i < rows.length; i += rowsPerInsert) {
    const chunk = rows.slice(i, i + rowsPerInsert).map((row) => {
      const out: Record<string, unknown> = {}
      const record = row as Record<string, unknown>
      for (let k = 0; k < keys.length; k++) out[names[k]] = record[keys[k]]
      return out
    })
    await db.execute(
      sql`insert into ${table} (${columnList}) select ${columnList} from json_populate_recordset(null::${table}, ${JSON.stringify(chunk)}::json)`,
    )
  }
}

const BULK_TABLES = ['nodes', 'node_versions', 'comfy_nodes', 'node_reviews'] as const

/**
 * Kept while loading: the suggestion triggers look nodes up by latest version for every class
 * inserted (migration 0013), which without it reads the whole table each time.
 */
const NEEDED_WHILE_LOADING = ['nodes_latest_version_idx']

interface IndexDefinition {
  name: string
  definition: string
}

/** Drops the non-unique indexes of the bulk tables; returns their definitions to recreate them. */
async function dropSecondaryIndexes(db: Db): Promise<IndexDefinition[]> {
  const indexes = await db
    .select({ name: sql<string>`indexname`, definition: sql<string>`indexdef` })
    .from(sql`pg_indexes`)
    .where(
      sql`schemaname = current_schema() and tablename in (${sql.join(
        BULK_TABLES.map((t) => sql`${t}`),
        sql`, `,
      )}) and indexdef not like 'CREATE UNIQUE INDEX%'
        and indexname not in (${sql.join(
          NEEDED_WHILE_LOADING.map((name) => sql`${name}`),
          sql`, `,
        )})`,
    )
  for (const index of indexes) await db.execute(sql`drop index ${sql.identifier(index.name)}`)
  return indexes
}

async function recreateIndexes(
  db: Db,
  indexes: readonly IndexDefinition[],
  concurrency: number,
): Promise<void> {
  await runConcurrently(indexes, concurrency, async (index) => {
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local maintenance_work_mem = '256MB'`)
      await tx.execute(sql.raw(index.definition))
    })
  })
  for (const table of BULK_TABLES) await db.execute(sql`analyze ${sql.identifier(table)}`)
}

async function runConcurrently<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++]
      await fn(item)
    }
  })
  await Promise.all(workers)
}

/** Writes the batch's archives and records their sizes (node_versions.archive_size). */
async function writeArchives(
  db: Db,
  storage: ArchiveStorage,
  batch: DemoNodeBatch,
  rowsPerUpdate: number,
): Promise<number> {
  const nodeById = new Map(batch.nodes.map((n) => [n.id, n]))
  const comfyByVersion = new Map<string, DemoComfyNode[]>()
  for (const c of batch.comfyNodes) {
    const list = comfyByVersion.get(c.nodeVersionId)
    if (list) list.push(c)
    else comfyByVersion.set(c.nodeVersionId, [c])
  }
  const withArchive = batch.versions.filter((v) => v.storageKey)
  const sizes: { id: string; size: number }[] = []
  await runConcurrently(withArchive, 16, async (v) => {
    const node = nodeById.get(v.nodeId)
    if (!node || !v.storageKey) return
    const bytes = buildDemoVersionArchive(node, v, comfyByVersion.get(v.id) ?? [])
    await storage.put(v.storageKey, bytes)
    sizes.push({ id: v.id, size: bytes.length })
    // README and licence as the pipeline reads them (the same code), so the demo shows them.
    const checked = checkArchive(bytes, { ...DEFAULT_ARCHIVE_LIMITS, maxArchiveBytes: 64 << 20 })
    if (checked.ok) await storeDocuments(db, v.id, readDocuments(checked.archive, node.license))
  })
  for (let i = 0; i < sizes.length; i += rowsPerUpdate) {
    const rows = sizes
      .slice(i, i + rowsPerUpdate)
      .map((row) => sql`(${row.id}::uuid, ${row.size}::bigint)`)
    await db.execute(
      sql`update ${nodeVersions} set archive_size = v.size from (values ${sql.join(rows, sql`, `)}) as v(id, size) where ${nodeVersions.id} = v.id`,
    )
  }
  return withArchive.length
}

/**
 * Inserts the demo data (same options → same rows) into an empty database. `storage` may be null
 * when `withArchives` is false. Node latest_version_id/latest_version_created_at are set to the
 * newest Active version by semver.
 */
export async function loadDemoData(
  db: Db,
  storage: ArchiveStorage | null,
  options: LoadDemoDataOptions = {},
): Promise<LoadDemoDataResult> {
  const withArchives = options.withArchives ?? true
  if (withArchives && !storage) throw new Error('loadDemoData: storage is required for archives')
  const rowsPerInsert = options.rowsPerInsert ?? 500
  const base = generateDemoBase(options)
  // Whole days from DEMO_BASE_DATE to today (UTC): the generated data stays deterministic, only
  // the download history is moved at load time.
  const today = options.today ?? new Date()
  const shiftMs =
    Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) -
    DEMO_BASE_DATE.getTime()
  const shiftDay = (day: string) =>
    new Date(Date.parse(`${day}T00:00:00Z`) + shiftMs).toISOString().slice(0, 10)
  const result: LoadDemoDataResult = {
    users: base.users.length,
    publishers: base.publishers.length,
    members: base.members.length,
    nodes: 0,
    versions: 0,
    comfyNodes: 0,
    reviews: 0,
    dailyDownloads: 0,
    adminActions: base.publisherActions.length,
    archives: 0,
    customers: 0,
    ciResults: 0,
  }
  await db.transaction(async (tx) => {
    await insertChunked(tx, users, base.users, rowsPerInsert)
    await insertChunked(tx, publishers, base.publishers, rowsPerInsert)
    await insertChunked(tx, publisherMembers, base.members, rowsPerInsert)
    await insertChunked(tx, adminActions, base.publisherActions, rowsPerInsert)
    // The demo publisher account is invited into a second publisher, so /nodes shows an
    // invitation to accept (matched by its email: the account needs no row yet).
    const host = base.publishers.find(
      (publisher) =>
        publisher.id !== DEMO_PUBLISHER.id && publisher.status === 'PublisherStatusActive',
    )
    if (host) {
      await tx.insert(publisherInvitations).values({
        publisherId: host.id,
        email: DEMO_PUBLISHER_ACCOUNT.email,
        role: 'member',
        expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
      })
    }
  })
  result.customers = await loadDemoCustomers(
    db,
    base.users.map((user) => user.id),
  )
  await loadDemoReleases(db)
  result.ciResults = await loadDemoCiResults(db, withArchives ? storage : null)
  const total = Math.max(0, Math.floor(options.nodes ?? 300))
  const deferIndexes = options.deferIndexes ?? total > 2000
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 3))
  const deferred = deferIndexes ? await dropSecondaryIndexes(db) : []
  try {
    await loadNodes()
  } finally {
    if (deferred.length > 0) await recreateIndexes(db, deferred, concurrency)
  }
  await loadDemoTrustedPublishing(db)
  return result

  async function loadNodes() {
    const inFlight = new Set<Promise<void>>()
    let failure: unknown = null
    for (const batch of generateNodesInBatches(options, base)) {
      const task = loadBatch(batch).then(
        () => {
          inFlight.delete(task)
        },
        (error: unknown) => {
          inFlight.delete(task)
          failure ??= error
        },
      )
      inFlight.add(task)
      if (inFlight.size >= concurrency) await Promise.race(inFlight)
      if (failure) break
    }
    await Promise.all(inFlight)
    if (failure) throw failure
  }

  async function loadBatch(batch: DemoNodeBatch) {
    await db.transaction(async (tx) => {
      // Durability of each batch is not needed: a failed seed is simply re-run on an empty db.
      await tx.execute(sql`set local synchronous_commit = off`)
      // latest_version_id references node_versions, which need their node first:
      // insert nodes without it, then versions, then point the nodes at their latest version.
      await insertChunked(
        tx,
        nodes,
        batch.nodes.map((n) => ({ ...n, latestVersionId: null, latestVersionCreatedAt: null })),
        rowsPerInsert,
      )
      await insertChunked(tx, nodeVersions, batch.versions, rowsPerInsert)
      await insertChunked(tx, comfyNodes, batch.comfyNodes, rowsPerInsert)
      await insertChunked(tx, nodeReviews, batch.reviews, rowsPerInsert)
      await insertChunked(
        tx,
        nodeDownloadsDaily,
        batch.dailyDownloads.map((bucket) => ({ ...bucket, day: shiftDay(bucket.day) })),
        rowsPerInsert,
      )
      await insertChunked(tx, adminActions, batch.adminActions, rowsPerInsert)
      const latestIds = batch.nodes.flatMap((n) => (n.latestVersionId ? [n.latestVersionId] : []))
      for (let i = 0; i < latestIds.length; i += rowsPerInsert) {
        await tx
          .update(nodes)
          .set({
            latestVersionId: sql`${nodeVersions.id}`,
            latestVersionCreatedAt: sql`${nodeVersions.createdAt}`,
          })
          .from(nodeVersions)
          .where(
            and(
              eq(nodeVersions.nodeId, nodes.id),
              inArray(nodeVersions.id, latestIds.slice(i, i + rowsPerInsert)),
            ),
          )
      }
    })
    if (withArchives && storage)
      result.archives += await writeArchives(db, storage, batch, rowsPerInsert)
    result.nodes += batch.nodes.length
    result.versions += batch.versions.length
    result.comfyNodes += batch.comfyNodes.length
    result.reviews += batch.reviews.length
    result.dailyDownloads += batch.dailyDownloads.length
    result.adminActions += batch.adminActions.length
    options.onProgress?.({ nodes: result.nodes, total })
  }
}
