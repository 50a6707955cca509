/**
 * Demo release notes: a few releases of ComfyUI, the desktop app and the frontend, with Markdown
 * notes and every attention level (as the webhook's rule would set it, releases.ts attentionOf),
 * on fixed dates (the same rows every time). Written straight into the table; a release already
 * there (same project and version) is left as it is.
 */
import type { Db } from '../db/client'
import { releases } from '../db/schema'
import type { NewReleaseRow } from '../releases/releases'

const day = (month: number, date: number) => new Date(Date.UTC(2026, month - 1, date, 16, 0, 0))

export const DEMO_RELEASES: readonly (NewReleaseRow & { publishedAt: Date })[] = [
  {
    project: 'comfyui',
    version: 'v0.3.40',
    attention: 'low',
    title: 'v0.3.40',
    publishedAt: day(1, 12),
    content: [
      '## What’s new',
      '',
      '- **Subgraphs**: collapse a group of nodes into one reusable node.',
      '- New `ImageStitch` node for side-by-side comparisons.',
      '- Faster model loading on Apple Silicon (`--force-fp16` is no longer needed).',
      '',
      '## Fixes',
      '',
      '- The queue no longer stalls after a cancelled prompt.',
    ].join('\n'),
  },
  {
    project: 'comfyui',
    version: 'v0.3.41',
    attention: 'low',
    title: 'v0.3.41',
    publishedAt: day(1, 26),
    content: [
      '## Fixes',
      '',
      '- Fixed a memory leak when switching between SDXL and Flux checkpoints.',
      '- `LoadImage` keeps the alpha channel of WebP files again.',
    ].join('\n'),
  },
  {
    project: 'comfyui',
    version: 'v0.4.0',
    attention: 'high',
    title: 'v0.4.0: Python 3.10 or newer',
    publishedAt: day(2, 20),
    content: [
      '## ⚠️ Breaking changes',
      '',
      '- Python 3.9 is no longer supported: update to Python 3.10 or newer.',
      '- Custom nodes that import `comfy.samplers.KSAMPLER_NAMES` must use `comfy.samplers.SAMPLER_NAMES`.',
      '',
      '## What’s new',
      '',
      '- Native support for video models in the `SaveVideo` node.',
      '- Async node execution: custom nodes may define `async def` functions.',
    ].join('\n'),
  },
  {
    project: 'desktop',
    version: 'v0.4.60',
    attention: 'low',
    title: 'ComfyUI Desktop 0.4.60',
    publishedAt: day(1, 30),
    content: [
      '- Bundles ComfyUI v0.3.41.',
      '- The installer remembers the chosen models folder after an update.',
    ].join('\n'),
  },
  {
    project: 'desktop',
    version: 'v0.5.0',
    attention: 'medium',
    title: 'ComfyUI Desktop 0.5.0',
    publishedAt: day(2, 24),
    content: [
      '## Highlights',
      '',
      '- Bundles ComfyUI v0.4.0.',
      '- **Automatic updates** on Linux (AppImage).',
      '- A new troubleshooting page shows the log of the last start.',
    ].join('\n'),
  },
  {
    project: 'comfyui_frontend',
    version: 'v1.24.0',
    attention: 'medium',
    title: 'v1.24.0',
    publishedAt: day(2, 10),
    content: [
      '## Features',
      '',
      '- A redesigned node library sidebar with search by category.',
      '- Keyboard shortcut `Ctrl+Shift+E` converts the selection into a subgraph.',
      '',
      '## Bug fixes',
      '',
      '- Links no longer disappear when a group is moved.',
    ].join('\n'),
  },
]

/** Inserts the demo releases; the number of releases in the list. */
export async function loadDemoReleases(db: Db): Promise<number> {
  await db
    .insert(releases)
    .values([...DEMO_RELEASES])
    .onConflictDoNothing()
  return DEMO_RELEASES.length
}
