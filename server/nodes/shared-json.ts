// Nodes' JSON shared by every API process through PostgreSQL (schema.ts `nodeJson`). A process
// that writes a node's JSON for the public listing stores it with the node's row stamp; a
// process reading the listing's rows (ComfyUI-Manager reads every page of the catalogue) is given
// that JSON instead of the rows where the stamp is still the node's, and sends it as it is: no
// rows to parse, no JSON to write. A freshly started process then reads the catalogue in about
// 60 % of the time it took it otherwise. See docs/ARCHITECTURE.md, "The whole catalogue from a
// freshly started API".
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { BackgroundBatches } from '../db/background-batches'
import type { Db } from '../db/client'
import { nodeJson, nodeRowChanges, nodes } from '../db/schema'

/**
 * The files whose text decides how a node's JSON is written for the listing: the contract (the
 * response schema serializes it) and the modules `toApiNode` runs (serialize.ts and what it
 * imports; shared-json.test.ts checks the list against their imports). Another build writes
 * another variant, so JSON written by older code is never sent by newer.
 */
export const NODE_JSON_SOURCES = [
  'openapi.yml',
  'server/http/serialize.ts',
  'src/lib/license-match.ts',
  'src/lib/licenses.ts',
]

const REPOSITORY_ROOT = path.join(__dirname, '..', '..')

/** The variant of the JSON this process writes: its sources' text and the public URL it links. */
export function nodeJsonVariant(publicUrl: string): string {
  const hash = createHash('sha256')
  for (const file of NODE_JSON_SOURCES) {
    hash
      .update(file)
      .update('\0')
      .update(fs.readFileSync(path.join(REPOSITORY_ROOT, file)))
  }
  return hash.update('\0').update(publicUrl).digest('base64url').slice(0, 22)
}

/** A node a listing shows from the JSON a process stored for it: its rows were not read. */
export class StoredNodeJson {
  constructor(
    readonly nodeId: string,
    readonly json: string,
  ) {}
}

/** Separators of the records and their fields a batch is sent as (ASCII's own). */
const RECORD = '\x1e'
const UNIT = '\x1f'

/** How many nodes' JSON one statement stores. */
const BATCH = 500

/**
 * Stores the JSON this process writes, in the background: batched, at most `flushMs` after it was
 * written. A failed batch is dropped (logged): the nodes are serialized again by the next reader.
 */
export class SharedNodeJson {
  private readonly batches: BackgroundBatches<{ stamp: string; json: string }>

  constructor(
    private readonly db: Db,
    readonly variant: string,
    flushMs: number,
    onError: (error: unknown) => void,
  ) {
    this.batches = new BackgroundBatches({
      batchSize: BATCH,
      flushMs,
      write: (batch) => this.store(batch),
      onError,
    })
  }

  /** The JSON written for `nodeId` from its rows stamped `stamp`. */
  keep(nodeId: string, stamp: string, json: string): void {
    this.batches.add(nodeId, { stamp, json })
  }

  /** Stores what is pending; resolves when every batch asked so far is written. */
  flush(): Promise<void> {
    return this.batches.flush()
  }

  private async store(batch: [string, { stamp: string; json: string }][]): Promise<void> {
    // One text parameter, a record per node and a unit per field, split by PostgreSQL: written
    // JSON holds no control characters, nor do ids and stamps. Sent as an array or as JSON,
    // escaping each node's JSON cost the API more than serializing it (ARCHITECTURE, "The whole
    // catalogue…").
    const given = batch.map(([id, { stamp, json }]) => `${id}${UNIT}${stamp}${UNIT}${json}`)
    // A row that holds the same already is not written again. No foreign key: checking it would
    // lock each node's row, which writes to it; a deleted node's JSON is pruned by maintenance
    // (pruneNodeJson).
    await this.db.execute(sql`
      insert into node_json (node_id, stamp, variant, json)
      select split_part(record, ${UNIT}, 1), split_part(record, ${UNIT}, 2), ${this.variant},
        split_part(record, ${UNIT}, 3)
      from string_to_table(${given.join(RECORD)}::text, ${RECORD}) as record
      on conflict (node_id) do update
        set stamp = excluded.stamp, variant = excluded.variant, json = excluded.json
        where node_json.stamp <> excluded.stamp or node_json.variant <> excluded.variant`)
  }
}

/**
 * Removes the JSON stored for nodes deleted since; how many. Maintenance calls it before it prunes
 * the change log (row-changes.ts): every node deleted or renamed since its last run is logged, so
 * only the logged ids missing from `nodes` are looked up, never the whole table (a scan of
 * node_json, 2 kB a node, took about a second at 100,000 nodes: ARCHITECTURE "Maintenance at a
 * process's start").
 */
export async function pruneNodeJson(db: Db): Promise<number> {
  const deleted = sql`array(select distinct ${nodeRowChanges.nodeId} from ${nodeRowChanges}
    where ${nodeRowChanges.nodeId} is not null
      and not exists (select 1 from ${nodes} where ${nodes.id} = ${nodeRowChanges.nodeId}))`
  const removed = await db
    .delete(nodeJson)
    .where(sql`${nodeJson.nodeId} = any(${deleted})`)
    .returning({ nodeId: nodeJson.nodeId })
  return removed.length
}
