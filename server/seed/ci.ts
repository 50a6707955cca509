/**
 * Demo CI results: commits of ComfyUI's master and a release branch, each run by a few test
 * workflows on three operating systems, some failing, with a small generated output image each.
 * Written through the same ingestion as POST /upload-artifact; the same data every time.
 */
import { crc32, deflateSync } from 'node:zlib'
import type { Db } from '../db/client'
import { DEFAULT_CI_REPO, ingestResult } from '../ci/results'
import type { ArchiveStorage } from '../storage'

const WORKFLOWS = ['sd15-basic', 'flux-dev'] as const
const SYSTEMS = [
  { os: 'linux', gpu: 'NVIDIA RTX 4090', cuda: '12.4' },
  { os: 'windows', gpu: 'NVIDIA RTX 3080', cuda: '12.1' },
  { os: 'macos', gpu: 'Apple M2 Max', cuda: '' },
] as const
const COMMITS = [
  { branch: 'master', message: 'Add flux guidance node', author: 'comfyanonymous' },
  { branch: 'master', message: 'Fix VAE tiling seams', author: 'comfyanonymous' },
  { branch: 'release/v0.3', message: 'Backport: fix VAE tiling seams', author: 'contributor-b' },
  { branch: 'release/v0.3', message: 'Release v0.3.10', author: 'comfyanonymous' },
] as const
const BASE_TIME = Date.parse('2026-11-01T09:00:00Z')

/** A tiny solid-colour PNG (8×8), so each result has a real image to show. */
export function solidPng(red: number, green: number, blue: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const out = Buffer.alloc(12 + data.length)
    out.writeUInt32BE(data.length, 0)
    body.copy(out, 4)
    out.writeUInt32BE(crc32(body), 8 + data.length)
    return out
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(8, 0)
  header.writeUInt32BE(8, 4)
  header.set([8, 2, 0, 0, 0], 8) // 8-bit RGB
  const row = Buffer.from([0, ...Array.from({ length: 8 }, () => [red, green, blue]).flat()])
  const pixels = Buffer.concat(Array.from({ length: 8 }, () => row))
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

const hashOf = (i: number) => `${(0xc0ffee00 + i).toString(16)}${'9e3779b97f4a7c15'.repeat(2)}`

/** Loads the demo CI results; `storage` null: without output images. Returns how many. */
export async function loadDemoCiResults(db: Db, storage: ArchiveStorage | null): Promise<number> {
  let count = 0
  for (const [c, commit] of COMMITS.entries()) {
    const commitTime = new Date(BASE_TIME + c * 6 * 3600_000)
    for (const [w, workflow] of WORKFLOWS.entries()) {
      for (const [s, system] of SYSTEMS.entries()) {
        // A deterministic few fail (flux on macOS), one is still running (the newest on Windows).
        const status =
          workflow === 'flux-dev' && system.os === 'macos'
            ? 'failed'
            : c === COMMITS.length - 1 && system.os === 'windows'
              ? 'started'
              : 'completed'
        const start = Math.floor(commitTime.getTime() / 1000) + 600 + w * 300
        const image = solidPng(40 + c * 30, 80 + w * 60, 120 + s * 50)
        await ingestResult(db, storage, {
          repo: DEFAULT_CI_REPO,
          branch_name: commit.branch,
          commit_hash: hashOf(c),
          commit_time: commitTime.toISOString(),
          commit_message: commit.message,
          author: commit.author,
          job_id: `demo-${c}-${workflow}-${system.os}`,
          run_id: `demo-run-${c}`,
          workflow_name: workflow,
          os: system.os,
          gpu_type: system.gpu,
          python_version: '3.12',
          pytorch_version: '2.5.1',
          cuda_version: system.cuda || undefined,
          status,
          start_time: start,
          end_time: status === 'started' ? undefined : start + 90 + w * 40 + s * 15,
          avg_vram: 4_000 + w * 3_000 + s * 200,
          peak_vram: 6_000 + w * 4_000 + s * 300,
          machine_stats: { cpu_cores: 16, ram_gb: 64, disk_free_gb: 512 - c * 3 },
          output_files:
            storage && status !== 'started'
              ? [
                  {
                    name: 'output.png',
                    content_type: 'image/png',
                    data_base64: image.toString('base64'),
                  },
                ]
              : [],
        })
        count++
      }
    }
  }
  return count
}
