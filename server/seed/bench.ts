/**
 * Measures demo-data generation and loading (no archives unless --archives).
 *   npx tsx server/seed/bench.ts --nodes 10000                       # in-memory PGlite
 *   npx tsx server/seed/bench.ts --nodes 100000 --url postgres://…   # a fresh database on that server
 */
import { performance } from 'node:perf_hooks'
import { migrate, openDatabase } from '../db/client'
import { createTestDatabase } from '../db/test-db'
import { MemoryArchiveStorage } from '../storage'
import { generateDemoBase, generateNodesInBatches } from './generate'
import { loadDemoData } from './load'

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : undefined
}

async function main() {
  const nodes = Number(flag('nodes') ?? 10000)
  const publishers = Number(flag('publishers') ?? Math.max(40, Math.round(nodes / 25)))
  const url = flag('url')
  const withArchives = process.argv.includes('--archives')
  const options = { nodes, publishers, seed: 1 }

  let t = performance.now()
  let rows = 0
  for (const batch of generateNodesInBatches(options, generateDemoBase(options))) {
    rows += batch.versions.length + batch.comfyNodes.length
  }
  console.log(
    `generate ${nodes} nodes: ${((performance.now() - t) / 1000).toFixed(2)} s (${rows} version+comfy rows)`,
  )

  if (url) process.env.TEST_DATABASE_URL = url
  t = performance.now()
  const database = url
    ? await createTestDatabase({ postgres: true })
    : await openDatabase({ memory: true })
  if (!url) await migrate(database)
  console.log(`open + migrate (${database.kind}): ${((performance.now() - t) / 1000).toFixed(2)} s`)
  try {
    t = performance.now()
    const result = await loadDemoData(
      database.db,
      withArchives ? new MemoryArchiveStorage() : null,
      {
        ...options,
        withArchives,
      },
    )
    console.log(`load (${database.kind}): ${((performance.now() - t) / 1000).toFixed(2)} s`, result)
  } finally {
    await database.close()
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
