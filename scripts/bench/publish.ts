// `npm run bench:publish`: how long a published version takes from its upload's 200 to Active,
// through the real pipeline (archive checks, security scan, comfy-node extraction) and the real
// HTTP API on PGlite in a temporary folder, with the worker in the same process as under
// `npm start`. Archives of 1, 20 and 50 MB (Python sources plus incompressible assets, as node
// packs ship images and web files); then the scan's throughput in files per second.
//   --runs N (default 5)
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { strToU8, zipSync, type Zippable } from 'fflate'
import { firebaseTokenVerifier } from '../../server/auth/verifier'
import { loadConfig } from '../../server/config'
import { migrate, openDatabase } from '../../server/db/client'
import { publishers } from '../../server/db/schema'
import { buildApp } from '../../server/http/app'
import { pipelineHandlers } from '../../server/pipeline/handlers'
import { checkArchive, DEFAULT_ARCHIVE_LIMITS } from '../../server/pipeline/archive'
import { examineArchive } from '../../server/pipeline/process-version'
import { scanArchive } from '../../server/pipeline/scan'
import { startWorker } from '../../server/pipeline/worker'
import { LocalArchiveStorage } from '../../server/storage'
import { createToken } from '../../server/tokens/tokens'

const args = process.argv.slice(2)
const RUNS = Number(args[args.indexOf('--runs') + 1] || 5)
const PORT = 8291
const MB = 1024 * 1024
const SIZES_MB = [1, 20, 50]

/** A node class as packs write them; `i` makes each one different. */
function nodeModule(i: number): string {
  return `import torch


class Filter${i}:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"image": ("IMAGE",), "strength": ("FLOAT", {"default": 1.0, "min": 0.0, "max": 4.0})}}

    RETURN_TYPES = ("IMAGE",)
    FUNCTION = "apply"
    CATEGORY = "bench/filters"

    def apply(self, image, strength):
        out = image * strength + ${i}
        for _ in range(3):
            out = torch.clamp(out, 0.0, 1.0)
        return (out,)
`
}

/** A node pack of about `sizeMb`: `modules` Python modules, the rest incompressible assets. */
function nodePack(sizeMb: number, modules: number, seed: number): Uint8Array {
  const files: Zippable = {}
  const names: string[] = []
  for (let i = 0; i < modules; i++) {
    files[`nodes/filter_${i}.py`] = strToU8(nodeModule(i))
    names.push(`Filter${i}`)
  }
  const imports = names.map((name, i) => `from .nodes.filter_${i} import ${name}`).join('\n')
  files['__init__.py'] = strToU8(
    `${imports}\n\nNODE_CLASS_MAPPINGS = {${names.map((n) => `"${n}": ${n}`).join(', ')}}\n`,
  )
  files['pyproject.toml'] = strToU8('[project]\nname = "bench-pack"\nversion = "1.0.0"\n')
  let state = seed
  const assetBytes = Math.max(0, sizeMb * MB - 200 * 1024)
  for (let part = 0; part * 4 * MB < assetBytes; part++) {
    const size = Math.min(4 * MB, assetBytes - part * 4 * MB)
    const bytes = new Uint8Array(size)
    for (let i = 0; i < size; i++) {
      state = (state * 1103515245 + 12345) >>> 0
      bytes[i] = state >>> 24
    }
    files[`web/assets/part-${part}.bin`] = [bytes, { level: 0 }]
  }
  return zipSync(files, { level: 6 })
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-bench-publish-'))
  const config = loadConfig({
    ...process.env,
    API_PORT: String(PORT),
    DATA_DIR: dataDir,
    MAX_ARCHIVE_MB: '64',
    REVIEW_MODE: 'auto',
  })
  const database = await openDatabase({ dataDir: path.join(dataDir, 'pglite') })
  const storage = new LocalArchiveStorage(path.join(dataDir, 'archives'))
  const worker = startWorker({
    db: database.db,
    handlers: pipelineHandlers(database.db, storage, config, console.error),
    pollMs: 1000,
  })
  const app = await buildApp({
    db: database.db,
    storage,
    verifier: firebaseTokenVerifier(config.firebaseProjectId),
    config,
    wakeWorker: worker.wake,
  })
  try {
    await migrate(database)
    await database.db.insert(publishers).values({ id: 'bench', name: 'Bench' })
    const { secret } = await createToken(database.db, 'bench', {
      name: 'bench',
      description: '',
      expiresInDays: null,
    })
    await app.listen({ host: '127.0.0.1', port: PORT })
    const base = `http://127.0.0.1:${PORT}`
    console.log(
      `Upload's 200 → Active, ${RUNS} runs per size (PGlite, worker in the API process, ${os.cpus().length} cores)`,
    )
    for (const sizeMb of SIZES_MB) {
      const times: number[] = []
      let archiveBytes = 0
      for (let run = 0; run < RUNS; run++) {
        const zip = nodePack(sizeMb, 40, sizeMb * 1000 + run)
        archiveBytes = zip.byteLength
        const nodeId = `bench-${sizeMb}mb-${run}`
        const published = await fetch(`${base}/publishers/bench/nodes/${nodeId}/versions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            personal_access_token: secret,
            node: { id: nodeId, name: nodeId, repository: `https://github.com/bench/${nodeId}` },
            node_version: { version: '1.0.0', dependencies: ['torch'] },
          }),
        })
        if (published.status !== 201) throw new Error(`publish: ${published.status}`)
        const { signedUrl } = (await published.json()) as { signedUrl: string }
        const uploaded = await fetch(signedUrl.replace(config.publicUrl, base), {
          method: 'PUT',
          headers: { 'content-type': 'application/zip' },
          body: Buffer.from(zip),
        })
        if (uploaded.status !== 200) throw new Error(`upload: ${uploaded.status}`)
        const start = performance.now()
        for (;;) {
          const answer = await fetch(`${base}/nodes/${nodeId}`)
          const node = (await answer.json()) as { latest_version?: { status: string } }
          if (node.latest_version?.status === 'NodeVersionStatusActive') break
          if (performance.now() - start > 60_000) throw new Error(`${nodeId} not Active in 60 s`)
          await new Promise((resolve) => setTimeout(resolve, 10))
        }
        times.push(performance.now() - start)
      }
      console.log(
        `  ${String(sizeMb).padStart(2)} MB (${(archiveBytes / MB).toFixed(1)} MB zip, 41 Python files): median ${median(times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms   (target ≤ 2000 ms for 20 MB)`,
      )
    }
    // The scan's throughput, and the whole examination, on a pack of many Python modules.
    const many = nodePack(1, 2000, 7)
    const checked = checkArchive(many, { ...DEFAULT_ARCHIVE_LIMITS, maxArchiveBytes: 64 * MB })
    if (!checked.ok) throw new Error('the bench pack failed its checks')
    const scanStart = performance.now()
    const scanned = scanArchive(checked.archive, ['torch'])
    const scanSeconds = (performance.now() - scanStart) / 1000
    console.log(
      `Security scan: ${scanned.filesScanned} files in ${(scanSeconds * 1000).toFixed(0)} ms, ${(scanned.filesScanned / scanSeconds).toFixed(0)} files/s`,
    )
    const start = performance.now()
    const examined = await examineArchive(many, ['torch'], { maxArchiveBytes: 64 * MB })
    console.log(
      `Checks + scan + extraction of that pack: ${(performance.now() - start).toFixed(0)} ms, ${examined.extraction?.nodes.length ?? 0} comfy nodes extracted`,
    )
  } finally {
    await worker.stop()
    await app.close()
    await database.close()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
