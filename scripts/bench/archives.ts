// `npm run bench:archives`: what checking a hostile upload costs (server/pipeline/archive.ts
// `uploadRefusals`, run at upload time before anything is stored). Each archive is checked in a
// fresh process, which reports the time and how far its peak RSS rose above its RSS before the
// check (the compressed archive is already read): a bomb must cost time bounded by the limits
// and no memory for its expansion. `--check <file>` is that child (JSON on stdout); the test
// `server/versions/hostile-archives.test.ts` uses it too.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { DEFAULT_ARCHIVE_LIMITS, uploadRefusals } from '../../server/pipeline/archive'
import { buildZip, deflatedZeros, incompressibleText } from '../../server/pipeline/test-zips'

const MB = 1024 * 1024
const MAX_ARCHIVE_BYTES = 64 * MB
const INIT = { name: '__init__.py', data: 'NODE_CLASS_MAPPINGS = {}\n' }

interface CheckFigures {
  issues: string[]
  ms: number
  /** Peak RSS during the check minus RSS just before it, in MiB. */
  peakGrowthMb: number
  peakRssMb: number
}

function check(file: string): CheckFigures {
  const bytes = new Uint8Array(fs.readFileSync(file))
  const rssBefore = process.memoryUsage().rss
  const started = performance.now()
  const refusals = uploadRefusals(bytes, {
    ...DEFAULT_ARCHIVE_LIMITS,
    maxArchiveBytes: MAX_ARCHIVE_BYTES,
  })
  const ms = performance.now() - started
  const peak = process.resourceUsage().maxRSS * 1024
  return {
    issues: refusals.map((finding) => finding.issue_type),
    ms: Math.round(ms),
    peakGrowthMb: Math.max(0, Math.round((peak - rssBefore) / MB)),
    peakRssMb: Math.round(peak / MB),
  }
}

/** Checks `file` in a fresh process (so its peak RSS is this check's alone). */
function checkInChild(file: string): CheckFigures {
  const tsx = path.join(process.cwd(), 'node_modules', '.bin', 'tsx')
  const out = execFileSync(tsx, [path.join(__dirname, 'archives.ts'), '--check', file], {
    encoding: 'utf8',
  })
  return JSON.parse(out) as CheckFigures
}

/** A 1 GiB expansion whose entry claims 500 MiB: inflated up to its claim, then refused. */
function lyingBomb(): Uint8Array {
  const stream = deflatedZeros(1024)
  // Padding after the stream brings the ratio under the limit, so the data is really inflated.
  const data = new Uint8Array(3 * MB)
  data.set(stream)
  return buildZip([
    INIT,
    { name: 'weights.bin', rawData: data, declaredUncompressedSize: 500 * MB, crc: 0 },
  ])
}

function cases(): { name: string; zip: Uint8Array; expansion: string }[] {
  const gib = deflatedZeros(1024)
  const mib = new Uint8Array(MB)
  return [
    {
      name: 'honest 1 GiB bomb (ratio)',
      zip: buildZip([
        INIT,
        { name: 'bomb.bin', rawData: gib, declaredUncompressedSize: 1024 * MB, crc: 0 },
      ]),
      expansion: '1 GiB',
    },
    { name: 'lying sizes (500 MiB claimed, 1 GiB real)', zip: lyingBomb(), expansion: '1 GiB' },
    {
      name: 'overlapping entries (100 × 1 GiB)',
      zip: buildZip([
        INIT,
        { name: 'a.bin', rawData: gib, declaredUncompressedSize: 1024 * MB, crc: 0 },
        ...Array.from({ length: 99 }, (_, i) => ({
          name: `b${i}.bin`,
          data: mib,
          sameLocalHeaderAs: 1,
        })),
      ]),
      expansion: '100 GiB',
    },
    {
      name: 'many entries (20,000)',
      zip: buildZip([
        INIT,
        ...Array.from({ length: 20_000 }, (_, i) => ({ name: `f${i}.py`, data: '' })),
      ]),
      expansion: '-',
    },
    {
      name: 'valid, 40 MB incompressible',
      zip: buildZip([
        INIT,
        ...Array.from({ length: 40 }, (_, i) => ({
          name: `assets/a${i}.txt`,
          data: incompressibleText(MB),
        })),
      ]),
      expansion: '40 MiB',
    },
  ]
}

function main() {
  const at = process.argv.indexOf('--check')
  if (at >= 0) {
    process.stdout.write(JSON.stringify(check(process.argv[at + 1])))
    return
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-archives-'))
  try {
    console.log('archive | size | expands to | refused as | check ms | peak RSS growth MiB')
    for (const { name, zip, expansion } of cases()) {
      const file = path.join(dir, 'upload.zip')
      fs.writeFileSync(file, zip)
      const figures = checkInChild(file)
      console.log(
        `${name} | ${(zip.length / MB).toFixed(2)} MB | ${expansion} | ${figures.issues[0] ?? 'accepted'} | ${figures.ms} | ${figures.peakGrowthMb}`,
      )
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

if (require.main === module) main()
