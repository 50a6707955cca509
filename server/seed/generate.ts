/**
 * Deterministic demo data for the registry: same options → same data, byte for byte.
 * No Math.random, no Date.now: a seeded PRNG per entity and dates as offsets from DEMO_BASE_DATE.
 *
 * Small sets: generateDemoData({ publishers: 40, nodes: 300, seed: 1 }).
 * Large sets: generateDemoBase() once, then iterate generateNodesInBatches() (a generator that
 * yields self-contained batches of nodes with their versions, comfy nodes, reviews and daily
 * downloads), so 100k nodes never sit in memory at once.
 */
import { demoLicenseField } from './documents'
import type {
  AdminActionKind,
  AdminSubjectType,
  NodeStatus,
  NodeVersionStatus,
  PublisherMemberRole,
  PublisherStatus,
} from '../db/schema'
import { UNCLAIMED_PUBLISHER } from '@/src/lib/constants'
import type { Finding } from '../pipeline/findings'
import { nodeStatusState } from '../admin/moderation'
import { computeLatestVersion, semverSortKey } from '../db/semver'
import { archiveKey } from '../storage'
import { DEMO_ADMIN_ACCOUNT, DEMO_ADMIN_SEED_ID, DEMO_PUBLISHER } from './accounts'
import { EXAMPLE_WORKFLOW_PATH } from './archive'
import { DEMO_FLAG_FINDINGS } from './flagged-code'
import { Random, demoUuid, mixSeed } from './random'

export const DEMO_BASE_DATE = new Date('2026-01-01T00:00:00.000Z')
export const DEMO_ICON_COUNT = 12
export const DEFAULT_DEMO_OPTIONS = { publishers: 40, nodes: 300, seed: 1 } as const

const DAY = 24 * 60 * 60 * 1000
const HISTORY_DAYS = 730
/** Days of per-day download buckets before DEMO_BASE_DATE. */
export const DAILY_HISTORY_DAYS = 90

export interface DemoDataOptions {
  publishers?: number
  nodes?: number
  seed?: number
  /** Nodes per yielded batch (generateNodesInBatches). Does not change the data. */
  batchSize?: number
}

export interface DemoUser {
  id: string
  email: string
  name: string
  isAdmin: boolean
  isApproved: boolean
  createdAt: Date
  updatedAt: Date
}

export interface DemoPublisher {
  id: string
  name: string
  description: string
  website: string
  support: string
  sourceCodeRepo: string
  logo: string
  status: PublisherStatus
  createdAt: Date
}

export interface DemoMember {
  id: string
  publisherId: string
  userId: string
  role: PublisherMemberRole
  createdAt: Date
}

export interface DemoNode {
  id: string
  publisherId: string
  name: string
  description: string
  author: string
  license: string
  icon: string
  bannerUrl: string
  repository: string
  tags: string[]
  category: string
  downloads: number
  githubStars: number
  rating: number
  ratingCount: number
  status: NodeStatus
  statusDetail: string
  supportedOs: string[]
  supportedAccelerators: string[]
  supportedComfyuiVersion: string
  supportedComfyuiFrontendVersion: string
  deprecated: boolean
  deprecationMessage: string
  latestVersionId: string | null
  latestVersionCreatedAt: Date | null
  createdAt: Date
  updatedAt: Date
}

export interface DemoVersion {
  id: string
  nodeId: string
  version: string
  major: string
  minor: string
  patch: string
  prerelease: string
  changelog: string
  dependencies: string[]
  storageKey: string | null
  deprecated: boolean
  deprecationMessage: string
  status: NodeVersionStatus
  statusReason: string
  comfyNodeExtractStatus: string
  supportedOs: string[]
  supportedAccelerators: string[]
  supportedComfyuiVersion: string
  supportedComfyuiFrontendVersion: string
  downloads: number
  scanFindings: Finding[]
  scannedAt: Date | null
  createdAt: Date
  /**
   * Files of its archive beyond pyproject.toml, __init__.py and README.md (not a column): the
   * offending file of a flagged version, an example workflow (archive.ts writes them).
   */
  archiveExtras: string[]
}

/**
 * A row of the admin audit log (`admin_actions`): what the demo admin did, matching the
 * status_reason histories and statuses of the demo data. `actorId` is DEMO_ADMIN_SEED_ID until
 * the demo admin account exists (attachDemoAdmin points the rows at its uid).
 */
export interface DemoAdminAction {
  id: string
  actorId: string
  actorEmail: string
  action: AdminActionKind
  subjectType: AdminSubjectType
  subjectId: string
  subjectLabel: string
  fromValue: string
  toValue: string
  reason: string
  batchId: string | null
  undoes: string | null
  undoneBy: string | null
  createdAt: Date
}

export interface DemoComfyNode {
  id: string
  nodeVersionId: string
  comfyNodeName: string
  category: string
  description: string
  inputTypes: string
  returnTypes: string
  returnNames: string
  outputIsList: boolean[]
  function: string
  deprecated: boolean
  experimental: boolean
}

export interface DemoReview {
  nodeId: string
  userId: string
  star: number
  createdAt: Date
}

export interface DemoDailyDownloads {
  nodeId: string
  /** YYYY-MM-DD */
  day: string
  count: number
}

export interface DemoBase {
  users: DemoUser[]
  publishers: DemoPublisher[]
  members: DemoMember[]
  /** The demo admin's bans of the banned publishers. */
  publisherActions: DemoAdminAction[]
}

export interface DemoNodeBatch {
  nodes: DemoNode[]
  versions: DemoVersion[]
  comfyNodes: DemoComfyNode[]
  reviews: DemoReview[]
  dailyDownloads: DemoDailyDownloads[]
  /** The demo admin's decisions on these nodes and their versions. */
  adminActions: DemoAdminAction[]
}

export interface DemoData extends DemoBase, DemoNodeBatch {}

// ---------------------------------------------------------------------------------------------
// Word lists

// prettier-ignore
const FEATURES = [
  'Upscale', 'Face', 'Mask', 'Video', 'Audio', 'LoRA', 'ControlNet', 'Prompt', 'Sampler',
  'Segmentation', 'Depth', 'Inpaint', 'Style', 'Animate', 'Latent', 'Image', 'Text', 'Color',
  'Detail', 'Pose', 'Noise', 'Tile', 'Batch', 'Workflow', 'Model', 'Checkpoint', 'CLIP', 'VAE',
  'Flux', 'SDXL', 'IPAdapter', 'Motion', 'Frame', 'Background', 'Relight', 'Sketch', 'Outpaint',
  'Refiner', 'Scheduler', 'Preview', 'Loader', 'Caption', 'Translate', 'Math', 'Logic', 'Switch',
  'Seed', 'Grid', 'Crop', 'Resize', 'Blend', 'Sharpen', 'Matte', 'Restore', 'Interpolate',
  'Tracking', 'Camera', 'Mesh', '3D', 'Texture', 'Voice', 'Music', 'Subtitle', 'Tagger', 'LLM',
  'Vision', 'Wildcard', 'Regional', 'Attention', 'Guidance', 'Cache', 'GGUF', 'Memory', 'Tensor',
  'Lipsync', 'Palette', 'Film', 'Portrait', 'Anime', 'Pixel',
] as const

// prettier-ignore
const SUFFIXES = [
  'Pack', 'Nodes', 'Suite', 'Tools', 'Toolkit', 'Utils', 'Plus', 'Pro', 'Lite', 'Helper', 'Kit',
  'Essentials', 'Extras', 'Studio', 'Lab', 'Bridge',
] as const

// prettier-ignore
const ACTIONS = [
  'Sampler', 'Loader', 'Apply', 'Encode', 'Decode', 'Combine', 'Split', 'Preview', 'Save',
  'Detector', 'Refiner', 'Composite', 'Scheduler', 'Selector', 'Converter', 'Generator', 'Switch',
  'Merge', 'Batch', 'Info',
] as const

// prettier-ignore
const TAGS = [
  'image', 'video', 'audio', '3d', 'upscaling', 'face', 'mask', 'controlnet', 'lora', 'prompt',
  'sampling', 'segmentation', 'depth', 'inpainting', 'animation', 'style-transfer', 'utility',
  'workflow', 'llm', 'api', 'text', 'loaders', 'latent', 'conditioning',
] as const

// prettier-ignore
const FEATURE_TAGS: Record<string, string> = {
  Upscale: 'upscaling', Face: 'face', Mask: 'mask', Video: 'video', Audio: 'audio', LoRA: 'lora',
  ControlNet: 'controlnet', Prompt: 'prompt', Sampler: 'sampling', Segmentation: 'segmentation',
  Depth: 'depth', Inpaint: 'inpainting', Outpaint: 'inpainting', Style: 'style-transfer',
  Animate: 'animation', Motion: 'animation', Latent: 'latent', Text: 'text', Caption: 'text',
  Translate: 'text', LLM: 'llm', Vision: 'llm', Loader: 'loaders', Checkpoint: 'loaders',
  Workflow: 'workflow', Switch: 'workflow', Logic: 'workflow', Math: 'utility', Seed: 'utility',
  Guidance: 'conditioning', Regional: 'conditioning', Attention: 'conditioning', '3D': '3d',
  Mesh: '3d', Voice: 'audio', Music: 'audio', Lipsync: 'video', Film: 'video', Frame: 'video',
}

// prettier-ignore
const CATEGORIES = [
  'image', 'video', 'audio', '3d', 'utility', 'conditioning', 'sampling', 'loaders', 'text', 'api',
] as const

// prettier-ignore
const TAG_CATEGORY: Record<string, string> = {
  video: 'video', animation: 'video', audio: 'audio', '3d': '3d', llm: 'text', text: 'text',
  prompt: 'conditioning', conditioning: 'conditioning', controlnet: 'conditioning',
  sampling: 'sampling', latent: 'sampling', loaders: 'loaders', lora: 'loaders', api: 'api',
  utility: 'utility', workflow: 'utility',
}

// prettier-ignore
const LICENSES: readonly (readonly [string, number])[] = [
  ['MIT', 40], ['Apache-2.0', 18], ['GPL-3.0', 18], ['AGPL-3.0', 6], ['BSD-3-Clause', 4],
  ['MPL-2.0', 2], ['CC-BY-NC-4.0', 3], ['Unlicense', 2], ['LGPL-3.0', 2], ['', 5],
]

// prettier-ignore
const FIRST_NAMES = [
  'Alex', 'Mika', 'Jonas', 'Priya', 'Wei', 'Sofia', 'Kenji', 'Lena', 'Omar', 'Ines', 'Tariq',
  'Hana', 'Mateo', 'Yuki', 'Noah', 'Aiko', 'Lars', 'Zoe', 'Ravi', 'Elif', 'Diego', 'Sven', 'Nadia',
  'Felix', 'Chen', 'Amara', 'Ivan', 'Lucia', 'Kai', 'Maren',
] as const

// prettier-ignore
const LAST_NAMES = [
  'Schmidt', 'Tanaka', 'Okafor', 'Novak', 'Haddad', 'Silva', 'Kowalski', 'Nguyen', 'Larsen',
  'Moreau', 'Rossi', 'Kim', 'Ivanova', 'Patel', 'Andersen', 'Garcia', 'Yilmaz', 'Berg', 'Zhang',
  'Costa', 'Fischer', 'Sato', 'Mendes', 'Lindqvist', 'Ortiz', 'Weber', 'Park', 'Dubois',
] as const

// prettier-ignore
const HANDLE_WORDS = [
  'pixel', 'latent', 'neon', 'forge', 'studio', 'lab', 'works', 'diffusion', 'vision', 'render',
  'canvas', 'shader', 'flux', 'node', 'graph', 'dream', 'comfy', 'frame', 'lumen', 'vector',
  'prism', 'kiln', 'orbit', 'atlas', 'echo', 'nova', 'quartz', 'cinder', 'drift', 'ember',
] as const

// prettier-ignore
const DEPENDENCIES = [
  'numpy>=1.24', 'opencv-python>=4.8.0', 'pillow>=10.0', 'torch>=2.1', 'torchvision',
  'transformers>=4.40', 'diffusers>=0.27', 'accelerate', 'safetensors>=0.4', 'einops', 'scipy',
  'scikit-image', 'onnxruntime-gpu', 'insightface==0.7.3', 'mediapipe', 'librosa>=0.10',
  'soundfile', 'imageio[ffmpeg]', 'huggingface_hub>=0.23', 'timm', 'kornia>=0.7',
  'segment-anything', 'ultralytics>=8.0', 'requests', 'tqdm', 'color-matcher', 'rembg[gpu]',
  'spandrel', 'numba', 'av>=12.0', 'numpy<2',
] as const

const OSES = ['windows', 'macos', 'linux'] as const
const ACCELERATORS = ['cuda', 'rocm', 'mps', 'cpu', 'xpu'] as const
// prettier-ignore
const COMFYUI_VERSIONS: readonly (readonly [string, number])[] = [
  ['', 40], ['>=0.3.0', 25], ['>=0.2.0', 10], ['>=0.3.10', 10], ['>=0.3.0,<0.4.0', 5],
  ['>=0.3.27', 10],
]
// prettier-ignore
const FRONTEND_VERSIONS: readonly (readonly [string, number])[] = [
  ['', 75], ['>=1.10.0', 10], ['>=1.16.0', 10], ['>=1.20.0', 5],
]

// prettier-ignore
const CHANGE_ADDED = [
  'a strength slider to the {f} node', 'batch support for {f} inputs', 'a preview output',
  'SDXL and Flux model support', 'tiled processing for large images', 'an optional mask input',
  'translations for the node descriptions', 'a seed control widget', 'ROCm and MPS support',
  'an example workflow in `examples/`', 'a fast path for fp16 models',
] as const
// prettier-ignore
const CHANGE_FIXED = [
  'a crash when the input batch is empty', 'colour shift on 16-bit images',
  'the memory leak when switching models', 'wrong output size with odd resolutions',
  'loading models from extra_model_paths.yaml', 'Windows paths with spaces',
  'compatibility with the new ComfyUI frontend', 'a race in the model cache',
] as const

const BAN_DETAILS = [
  'Removed for distributing malicious code.',
  'Banned: the package downloaded and executed a remote script at import time.',
  'Banned after repeated licence violations reported by the original authors.',
] as const
const VERSION_BAN_REASONS = [
  'Contains an obfuscated payload that exfiltrates environment variables.',
  'Bundles a copyrighted model checkpoint without permission.',
  'Installs packages from an untrusted index at import time.',
] as const
/** Why the demo admin held each banned version (flagged it) before banning it. */
const VERSION_HOLD_REASONS: Record<(typeof VERSION_BAN_REASONS)[number], string> = {
  [VERSION_BAN_REASONS[0]]:
    'Held for review: obfuscated code runs at import time; asked the author what it does.',
  [VERSION_BAN_REASONS[1]]:
    'Held for review: the archive bundles a model checkpoint; asked the author for its licence.',
  [VERSION_BAN_REASONS[2]]:
    'Held for review: installs packages from a custom index at import time; asked the author why.',
}
const PUBLISHER_BAN_REASONS = [
  'Publishes copies of other authors’ node packs under its own name.',
  'Spam: dozens of empty node packs that link to an unrelated site.',
  'Published malware in several node packs (see the banned nodes).',
] as const
/** The demo admin's batch approval of routine updates of the demo nodes. */
const DEMO_BATCH_REASON =
  'Routine updates of the demo nodes: no scan findings; changelogs and archives checked.'
const DEMO_FALSE_POSITIVE_REASON =
  'False positive: install.py is run once by ComfyUI-Manager when the pack is installed, never imported by ComfyUI. Approved.'
const DEMO_MISTAKEN_BAN_REASON = 'Reported as a copy of another node pack with the credits removed.'

// What the scan of a flagged demo version found (the files are in its archive: flagged-code.ts).
const FLAG_FINDINGS: readonly Finding[] = DEMO_FLAG_FINDINGS
const INSTALL_FINDING = DEMO_FLAG_FINDINGS.find(
  (finding) => finding.issue_type === 'import-time-pip-install',
)

interface StatusChange {
  status: NodeVersionStatus
  message: string
}

/** An admin's decisions as `status_reason` (server/versions/status-reason.ts), oldest first. */
function adminDecision(history: readonly StatusChange[], batchId?: string): string {
  const by = DEMO_ADMIN_ACCOUNT.email
  const last = history[history.length - 1]
  return JSON.stringify({
    message: last.message,
    by,
    statusHistory: history.map((change) => ({ ...change, by })),
    ...(batchId ? { batchId } : {}),
  })
}

// prettier-ignore
const IO_TYPES = ['IMAGE', 'MASK', 'LATENT', 'CONDITIONING', 'MODEL', 'CLIP', 'VAE', 'STRING', 'INT', 'FLOAT', 'AUDIO'] as const

// ---------------------------------------------------------------------------------------------
// Helpers

function daysBefore(base: Date, days: number): Date {
  return new Date(base.getTime() - Math.round(days * DAY))
}

function slug(words: readonly string[]): string {
  return words.join('-').toLowerCase()
}

function snake(word: string): string {
  return word
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toLowerCase()
}

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10)
}

function resolveOptions(options: DemoDataOptions) {
  const publishers = Math.max(1, Math.floor(options.publishers ?? DEFAULT_DEMO_OPTIONS.publishers))
  const nodes = Math.max(0, Math.floor(options.nodes ?? DEFAULT_DEMO_OPTIONS.nodes))
  const seed = Math.floor(options.seed ?? DEFAULT_DEMO_OPTIONS.seed)
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 500))
  const extraUsers = Math.max(20, Math.ceil(publishers / 3))
  return { publishers, nodes, seed, batchSize, users: publishers - 1 + extraUsers, extraUsers }
}

const STREAM_PUBLISHER = 1
const STREAM_NODE = 2
const STREAM_USER = 3
const UUID_MEMBER = 1
const UUID_VERSION = 2
const UUID_COMFY_NODE = 3
const UUID_NODE_ACTION = 4
const UUID_PUBLISHER_ACTION = 5
const UUID_BATCH = 6

const HOUR = 60 * 60 * 1000

/** An audit row of the demo admin; the fields the demo does not use are empty. */
function demoAction(
  fields: Pick<
    DemoAdminAction,
    'id' | 'action' | 'subjectType' | 'subjectId' | 'subjectLabel' | 'fromValue' | 'toValue'
  > &
    Partial<Pick<DemoAdminAction, 'reason' | 'batchId' | 'undoes' | 'undoneBy'>> & {
      createdAt: Date
    },
): DemoAdminAction {
  return {
    actorId: DEMO_ADMIN_SEED_ID,
    actorEmail: DEMO_ADMIN_ACCOUNT.email,
    reason: '',
    batchId: null,
    undoes: null,
    undoneBy: null,
    ...fields,
  }
}

// ---------------------------------------------------------------------------------------------
// Users, publishers, members

function userId(index: number): string {
  return `seed-user-${String(index + 1).padStart(5, '0')}`
}

function personName(rng: Random): string {
  return `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`
}

/** Users, publishers (the first is always `comfy-demo`) and memberships. */
export function generateDemoBase(options: DemoDataOptions = {}): DemoBase {
  const o = resolveOptions(options)
  const users: DemoUser[] = []
  for (let i = 0; i < o.users; i++) {
    const rng = new Random(mixSeed(o.seed, STREAM_USER, i))
    const name = personName(rng)
    const createdAt = daysBefore(DEMO_BASE_DATE, 760 - rng.float() * 700)
    users.push({
      id: userId(i),
      email: `${userId(i)}@example.test`,
      name,
      isAdmin: false,
      isApproved: true,
      createdAt,
      updatedAt: createdAt,
    })
  }

  const publishers: DemoPublisher[] = [
    {
      ...DEMO_PUBLISHER,
      status: 'PublisherStatusActive',
      createdAt: daysBefore(DEMO_BASE_DATE, 700),
    },
  ]
  const members: DemoMember[] = []
  const taken = new Set<string>([DEMO_PUBLISHER.id])
  for (let i = 1; i < o.publishers; i++) {
    const rng = new Random(mixSeed(o.seed, STREAM_PUBLISHER, i))
    const owner = users[i - 1]
    const style = rng.int(0, 3)
    const [first, last] = owner.name.toLowerCase().split(' ')
    let handle =
      style === 0
        ? `${first}-${last}`
        : style === 1
          ? `${rng.pick(HANDLE_WORDS)}-${rng.pick(HANDLE_WORDS)}`
          : style === 2
            ? `${first}${rng.pick(HANDLE_WORDS)}`
            : `${rng.pick(HANDLE_WORDS)}${last}`
    handle = handle.replace(/[^a-z0-9-]/g, '')
    let id = handle
    for (let n = 2; taken.has(id); n++) id = `${handle}-${n}`
    taken.add(id)
    const isOrg = style === 1
    const name = isOrg
      ? id
          .split('-')
          .map((w) => w[0].toUpperCase() + w.slice(1))
          .join(' ')
      : owner.name
    const createdAt = daysBefore(DEMO_BASE_DATE, 20 + rng.float() * (HISTORY_DAYS - 20))
    publishers.push({
      id,
      name,
      description: isOrg
        ? `${name} builds open-source ComfyUI custom nodes for ${rng.pick(['image', 'video', 'audio', '3D', 'animation'])} workflows.`
        : rng.chance(0.3)
          ? ''
          : `Custom nodes by ${owner.name}. Issues and pull requests welcome.`,
      website: rng.chance(0.5) ? `https://${id}.example.com` : '',
      support: rng.chance(0.6) ? `https://github.com/${id}/support/issues` : '',
      sourceCodeRepo: `https://github.com/${id}`,
      logo: rng.chance(0.5) ? `/icons/node-${rng.int(0, DEMO_ICON_COUNT - 1)}.svg` : '',
      status: rng.chance(0.025) ? 'PublisherStatusBanned' : 'PublisherStatusActive',
      createdAt,
    })
    members.push({
      id: demoUuid(o.seed, UUID_MEMBER, i, 0),
      publisherId: id,
      userId: owner.id,
      role: 'owner',
      createdAt,
    })
    if (rng.chance(0.2)) {
      const extra = users[o.publishers - 1 + rng.int(0, o.extraUsers - 1)]
      members.push({
        id: demoUuid(o.seed, UUID_MEMBER, i, 1),
        publisherId: id,
        userId: extra.id,
        role: 'member',
        createdAt: new Date(createdAt.getTime() + rng.int(1, 60) * DAY),
      })
    }
  }
  // The demo admin banned the banned publishers a month after they appeared.
  const publisherActions = publishers.flatMap((publisher, i): DemoAdminAction[] =>
    publisher.status === 'PublisherStatusBanned'
      ? [
          demoAction({
            id: demoUuid(o.seed, UUID_PUBLISHER_ACTION, i, 0),
            action: 'publisher.ban',
            subjectType: 'publisher',
            subjectId: publisher.id,
            subjectLabel: publisher.id,
            fromValue: 'PublisherStatusActive',
            toValue: 'PublisherStatusBanned',
            reason: PUBLISHER_BAN_REASONS[i % PUBLISHER_BAN_REASONS.length],
            createdAt: new Date(publisher.createdAt.getTime() + 30 * DAY),
          }),
        ]
      : [],
  )
  return { users, publishers, members, publisherActions }
}

// ---------------------------------------------------------------------------------------------
// Nodes

interface VersionPlanEntry {
  version: string
  status?: NodeVersionStatus
  /**
   * The demo admin's review of an Active version: approved in the demo batch (it was Pending),
   * or approved after the scan flagged it (a false positive: it keeps its finding).
   */
  review?: 'batch-approved' | 'approved-after-flag'
  /** Deprecated by its owners, with this message. */
  deprecated?: string
}

/**
 * Messages of the randomly deprecated versions, picked by position (not drawn: the random
 * stream, and so every other demo value, stays as it was before versions had messages).
 */
const VERSION_DEPRECATION_MESSAGES = [
  'Crashes on ComfyUI 0.3 and later; upgrade to the latest version.',
  'Saved workflows lose their seed with this version. Please update.',
  'Superseded by the next release, which fixes a memory leak.',
  '',
] as const

/** Fixed nodes of the `comfy-demo` publisher (the demo publisher account owns them). */
const DEMO_NODES: readonly {
  id: string
  name: string
  features: [string, string]
  plan?: VersionPlanEntry[]
  /** The demo admin banned the node on a mistaken report, then undid the ban. */
  banUndone?: boolean
  /** The whole node is deprecated by its owners, with this message. */
  deprecated?: string
}[] = [
  {
    id: 'comfyui-demo-upscaler',
    name: 'Demo Upscaler',
    features: ['Upscale', 'Tile'],
    plan: [
      {
        version: '1.8.0',
        deprecated: 'Leaves visible seams between tiles at 4x. Use 1.10.0 or later.',
      },
      { version: '1.9.0', deprecated: 'Runs out of memory on 8 GB cards; fixed in 1.10.0.' },
      { version: '1.10.0', review: 'batch-approved' },
    ],
  },
  {
    id: 'comfyui-demo-face-restore',
    name: 'Demo Face Restore',
    features: ['Face', 'Restore'],
    // 2.0.0 waits in the review queue; against 1.3.0 (the false positive, with install.py) its
    // archive adds a file, changes some and removes one.
    plan: [
      { version: '1.2.0', review: 'batch-approved' },
      { version: '1.3.0', review: 'approved-after-flag' },
      { version: '2.0.0', status: 'NodeVersionStatusPending' },
    ],
  },
  {
    id: 'comfyui-demo-prompt-tools',
    name: 'Demo Prompt Tools',
    features: ['Prompt', 'Wildcard'],
    plan: [
      { version: '0.1.0' },
      { version: '0.2.0', review: 'batch-approved' },
      { version: '0.3.0', status: 'NodeVersionStatusFlagged' },
    ],
  },
  {
    id: 'comfyui-demo-video-helper',
    name: 'Demo Video Helper',
    features: ['Video', 'Frame'],
    banUndone: true,
  },
  { id: 'comfyui-demo-mask-editor', name: 'Demo Mask Editor', features: ['Mask', 'Segmentation'] },
  {
    id: 'comfyui-demo-audio-kit',
    name: 'Demo Audio Kit',
    features: ['Audio', 'Voice'],
    deprecated:
      'No longer maintained: its voice nodes are now part of ComfyUI itself (Audio > Voice). Use those instead.',
  },
]

/** When the demo admin approved the demo batch (after every version in it was published). */
export const DEMO_BATCH_AT = new Date(DEMO_BASE_DATE.getTime() - 2 * DAY)
/** The id of the demo admin's batch decision. */
export const DEMO_BATCH_ID = (seed: number) => demoUuid(seed, UUID_BATCH, 0, 0)

/** Number of nodes owned by `comfy-demo` (its first nodes). */
export const DEMO_NODE_COUNT = DEMO_NODES.length

function nodeIdentity(
  rng: Random,
  index: number,
): { id: string; name: string; features: string[] } {
  const demo = DEMO_NODES[index]
  if (demo) return { id: demo.id, name: demo.name, features: [...demo.features] }
  const f1 = rng.pick(FEATURES)
  let f2 = rng.pick(FEATURES)
  if (f2 === f1) f2 = FEATURES[(FEATURES.indexOf(f1) + 7) % FEATURES.length]
  const suffix = rng.pick(SUFFIXES)
  const words = rng.chance(0.45) ? [f1, f2, suffix] : rng.chance(0.5) ? [f1, suffix] : [f1, f2]
  const style = rng.weighted<number>([
    [0, 30],
    [1, 35],
    [2, 10],
    [3, 15],
    [4, 10],
  ])
  const name = style === 3 || style === 4 ? `ComfyUI ${words.join(' ')}` : words.join(' ')
  const id =
    style === 0
      ? `ComfyUI-${words.join('-')}`
      : style === 1
        ? `comfyui-${slug(words)}`
        : style === 2
          ? `${slug(words)}-comfyui`
          : style === 3
            ? `ComfyUI_${words.join('')}`
            : slug(words)
  return { id, name, features: [f1, f2] }
}

function versionPlan(rng: Random, index: number): VersionPlanEntry[] {
  const fixed = DEMO_NODES[index]?.plan
  if (fixed) return fixed
  const count = 1 + Math.floor(7 * rng.float() ** 2) // 1..8, mostly few
  let [major, minor, patch] = rng.weighted<[number, number, number]>([
    [[0, 1, 0], 35],
    [[1, 0, 0], 30],
    [[0, 0, 1], 10],
    [[1, 7, 0], 15], // long minor history: 1.9.0 → 1.10.0, string order ≠ semver order
    [[2, 3, 1], 10],
  ])
  const longMinor = major === 1 && minor === 7
  const plan: VersionPlanEntry[] = [{ version: `${major}.${minor}.${patch}` }]
  while (plan.length < count) {
    // prettier-ignore
    const step = longMinor ? 'minor' : rng.weighted<string>([['patch', 60], ['minor', 32], ['major', 8]])
    if (step === 'major') {
      major++
      minor = 0
      patch = 0
      if (rng.chance(0.3) && plan.length < count - 1) {
        plan.push({ version: `${major}.0.0-rc.1` })
      }
    } else if (step === 'minor') {
      minor++
      patch = 0
    } else {
      patch++
    }
    plan.push({ version: `${major}.${minor}.${patch}` })
  }
  return plan.slice(0, count)
}

function pickVersionStatus(
  rng: Random,
  fromNewest: number,
  fixed: NodeVersionStatus | undefined,
  isFixedPlan: boolean,
): NodeVersionStatus {
  if (fixed) return fixed
  if (isFixedPlan) return 'NodeVersionStatusActive'
  const r = rng.float()
  const pending = fromNewest === 0 ? 0.12 : fromNewest === 1 ? 0.04 : 0
  if (r < pending) return 'NodeVersionStatusPending'
  if (r < pending + 0.03) return 'NodeVersionStatusFlagged'
  if (r < pending + 0.05) return 'NodeVersionStatusBanned'
  if (fromNewest > 0 && r < pending + 0.07) return 'NodeVersionStatusDeleted'
  return 'NodeVersionStatusActive'
}

function markdownDescription(
  id: string,
  name: string,
  features: string[],
  repository: string,
  rng: Random,
): string {
  const [f1, f2] = features
  const bullets = rng.sample(
    [
      `**${f1} nodes** that work with SD1.5, SDXL and Flux models`,
      `Batch processing for ${f2.toLowerCase()} workflows`,
      'Tiled mode for images larger than your VRAM',
      'Example workflows you can drag into ComfyUI',
      `Fast ${f1.toLowerCase()} preview without re-running the graph`,
      'Works on CUDA, ROCm, Apple Silicon (MPS) and CPU',
      `Masks and regional control for ${f2.toLowerCase()}`,
    ],
    rng.int(2, 4),
  )
  const text = [
    `## ${name}`,
    '',
    `${f1} and ${f2.toLowerCase()} nodes for ComfyUI.`,
    '',
    ...bullets.map((b) => `- ${b}`),
    '',
    '### Install',
    '',
    '```bash',
    `comfy node install ${id}`,
    '```',
    '',
    `Source, issues and examples: [${repository.replace('https://', '')}](${repository}).`,
  ].join('\n')
  return text.length <= 1000 ? text : text.slice(0, 1000)
}

function changelogFor(version: string, features: string[], rng: Random, first: boolean): string {
  if (first) return `## ${version}\n\n- First release.`
  const lines = [`## ${version}`, '']
  const added = rng.int(0, 2)
  for (let i = 0; i < added; i++) {
    lines.push(`- Added ${rng.pick(CHANGE_ADDED).replace('{f}', features[0])}.`)
  }
  const fixed = rng.int(added === 0 ? 1 : 0, 2)
  for (let i = 0; i < fixed; i++) lines.push(`- Fixed ${rng.pick(CHANGE_FIXED)}.`)
  return lines.join('\n')
}

function comfyClassPrefix(features: string[], id: string, rng: Random): string {
  const base = rng.chance(0.5) ? features[0] : features[0] + features[1]
  return base.replace(/[^A-Za-z0-9]/g, '') || id.replace(/[^A-Za-z0-9]/g, '')
}

interface ComfyClassTemplate {
  name: string
  category: string
  description: string
  inputTypes: string
  returnTypes: string
  returnNames: string
  outputIsList: boolean[]
  function: string
  deprecated: boolean
  experimental: boolean
}

interface ComfyClassShape {
  inputTypes: string
  returnTypes: string
  returnNames: string
  outputIsList: boolean[]
}

const ACTION_FUNCTIONS: readonly string[] = ACTIONS.map(snake)
const FEATURE_CLASS_PARTS: readonly string[] = FEATURES.map((f) => f.replace(/[^A-Za-z0-9]/g, ''))

/**
 * Input/output signatures, built once (fixed seed) and picked by index: building them per class
 * is the slowest part of generating a 100k-node data set.
 */
const COMFY_CLASS_SHAPES: readonly ComfyClassShape[] = (() => {
  const rng = new Random(0x5eed)
  const shapes: ComfyClassShape[] = []
  for (let i = 0; i < 512; i++) {
    const inputs = rng.sample(IO_TYPES, rng.int(1, 3))
    let required = inputs.map((t) => `"${t.toLowerCase()}":["${t}"]`).join(',')
    if (rng.chance(0.6)) {
      required += ',"strength":["FLOAT",{"default":1,"min":0,"max":2,"step":0.05}]'
    }
    if (rng.chance(0.3)) required += ',"seed":["INT",{"default":0,"min":0,"max":4294967295}]'
    const optional = rng.chance(0.4) ? '"mask":["MASK"]' : ''
    const outputs = rng.sample(IO_TYPES, rng.int(1, 2))
    shapes.push({
      inputTypes: `{"required":{${required}},"optional":{${optional}}}`,
      returnTypes: `[${outputs.map((t) => `"${t}"`).join(',')}]`,
      returnNames: `[${outputs.map((t) => `"${t.toLowerCase()}"`).join(',')}]`,
      outputIsList: outputs.map(() => rng.chance(0.1)),
    })
  }
  return shapes
})()

function comfyClassTemplates(
  rng: Random,
  prefix: string,
  displayName: string,
  features: string[],
): ComfyClassTemplate[] {
  const count = 2 + Math.floor(13 * rng.float() ** 2)
  const used = new Set<string>()
  const templates: ComfyClassTemplate[] = []
  const own = features.map((f) => FEATURES.indexOf(f as (typeof FEATURES)[number]))
  for (let k = 0; templates.length < count && k < count * 4; k++) {
    const f = rng.chance(0.6) && own[k % 2] >= 0 ? own[k % 2] : rng.int(0, FEATURES.length - 1)
    const a = rng.int(0, ACTIONS.length - 1)
    const feature = FEATURES[f]
    const className = prefix + (feature === prefix ? '' : FEATURE_CLASS_PARTS[f]) + ACTIONS[a]
    if (used.has(className)) continue
    used.add(className)
    const shape = COMFY_CLASS_SHAPES[rng.int(0, COMFY_CLASS_SHAPES.length - 1)]
    templates.push({
      name: className,
      category: displayName + '/' + feature,
      description: ACTIONS[a] + ' for ' + feature.toLowerCase() + ' (' + displayName + ').',
      inputTypes: shape.inputTypes,
      returnTypes: shape.returnTypes,
      returnNames: shape.returnNames,
      outputIsList: shape.outputIsList,
      function: ACTION_FUNCTIONS[a],
      deprecated: rng.chance(0.04),
      experimental: rng.chance(0.08),
    })
  }
  return templates
}

interface NodeContext {
  seed: number
  publishers: DemoPublisher[]
  userCount: number
  takenIds: Set<string>
}

function generateNode(ctx: NodeContext, index: number, out: DemoNodeBatch): void {
  const rng = new Random(mixSeed(ctx.seed, STREAM_NODE, index))
  const isDemo = index < DEMO_NODES.length
  const identity = nodeIdentity(rng, index)
  let id = identity.id
  for (let n = 2; ctx.takenIds.has(id.toLowerCase()); n++) id = `${identity.id}-${n}`
  ctx.takenIds.add(id.toLowerCase())

  // Publisher: demo nodes → comfy-demo; ~2% unclaimed; otherwise heavy-tailed over publishers.
  let publisher: DemoPublisher | null
  if (isDemo) publisher = ctx.publishers[0]
  else if (rng.chance(0.02) || ctx.publishers.length === 1) publisher = null
  else publisher = ctx.publishers[1 + Math.floor((ctx.publishers.length - 1) * rng.float() ** 2)]

  const owner = publisher?.id ?? rng.pick(HANDLE_WORDS) + '-' + rng.pick(HANDLE_WORDS)
  const repository = `https://github.com/${owner}/${id}`
  const createdAt = isDemo
    ? daysBefore(DEMO_BASE_DATE, 400 - index * 30)
    : daysBefore(DEMO_BASE_DATE, 1 + rng.float() * (HISTORY_DAYS - 1))

  const tagSet = new Set<string>()
  for (const f of identity.features) if (FEATURE_TAGS[f]) tagSet.add(FEATURE_TAGS[f])
  for (const t of rng.sample(TAGS, rng.int(0, 2))) tagSet.add(t)
  if (tagSet.size === 0) tagSet.add('utility')
  const tags = [...tagSet].slice(0, 4)
  const category = TAG_CATEGORY[tags[0]] ?? (rng.chance(0.7) ? 'image' : rng.pick(CATEGORIES))

  const status: NodeStatus = isDemo
    ? 'NodeStatusActive'
    : rng.weighted<NodeStatus>([
        ['NodeStatusActive', 95],
        ['NodeStatusBanned', 3],
        ['NodeStatusDeleted', 2],
      ])
  const downloads = isDemo ? 1500 + index * 731 : rng.pareto(20, 0.75, 3_000_000)
  const githubStars = Math.floor(Math.pow(downloads, 0.62) * (0.3 + rng.float()))

  // Versions ----------------------------------------------------------------------------------
  const plan = versionPlan(rng, index)
  const isFixedPlan = Boolean(DEMO_NODES[index]?.plan)
  const span = DEMO_BASE_DATE.getTime() - createdAt.getTime()
  const offsets = plan.map(() => rng.float()).sort((a, b) => a - b)
  offsets[0] = 0
  const prefix = comfyClassPrefix(identity.features, id, rng)
  const templates = comfyClassTemplates(rng, prefix, identity.name, identity.features)
  const baseDeps = rng.sample(DEPENDENCIES, rng.int(0, 4))
  const os = rng.chance(0.6) ? [] : rng.sample(OSES, rng.int(1, 3))
  const accelerators = rng.chance(0.5) ? [] : rng.sample(ACCELERATORS, rng.int(1, 3))
  const comfyuiVersion = rng.weighted(COMFYUI_VERSIONS)
  const frontendVersion = rng.weighted(FRONTEND_VERSIONS)

  const versions: DemoVersion[] = []
  let comfyIndex = 0
  let actionIndex = 0
  let remainingDownloads = downloads
  for (let j = 0; j < plan.length; j++) {
    const entry = plan[j]
    const fromNewest = plan.length - 1 - j
    const versionStatus = pickVersionStatus(rng, fromNewest, entry.status, isFixedPlan)
    const versionCreatedAt = new Date(
      createdAt.getTime() + Math.floor(offsets[j] * span * 0.98) + j * 3600_000,
    )
    const key = semverSortKey(entry.version)
    const flagged = versionStatus === 'NodeVersionStatusFlagged'
    const banned = versionStatus === 'NodeVersionStatusBanned'
    const hasArchive = versionStatus !== 'NodeVersionStatusDeleted' && !banned
    const versionDownloads =
      versionStatus === 'NodeVersionStatusActive' || versionStatus === 'NodeVersionStatusDeleted'
        ? j === plan.length - 1
          ? remainingDownloads
          : Math.floor(remainingDownloads * rng.float() * 0.6)
        : 0
    remainingDownloads -= versionDownloads
    const extract =
      versionStatus === 'NodeVersionStatusPending'
        ? 'pending'
        : fromNewest >= 2
          ? ''
          : rng.chance(0.03)
            ? 'failed'
            : 'success'
    // A flagged version draws twice, as it always has, so every later draw (and the demo data
    // that tests name) stays the same; so do the draws below, in this order.
    const drawn = flagged ? (rng.float(), rng.pick(FLAG_FINDINGS)) : null
    const changelog = changelogFor(entry.version, identity.features, rng, j === 0)
    const dependencies = j === plan.length - 1 || rng.chance(0.7) ? baseDeps : baseDeps.slice(0, -1)
    const deprecated =
      (fromNewest > 0 && versionStatus === 'NodeVersionStatusActive' && rng.chance(0.06)) ||
      entry.deprecated !== undefined
    const deprecationMessage = !deprecated
      ? ''
      : (entry.deprecated ??
        VERSION_DEPRECATION_MESSAGES[(index + j) % VERSION_DEPRECATION_MESSAGES.length])
    const banReason = banned ? rng.pick(VERSION_BAN_REASONS) : null
    const versionId = demoUuid(ctx.seed, UUID_VERSION, index, j)
    const label = `${id}@${entry.version}`
    const decided = (at: Date, from: NodeVersionStatus, to: NodeVersionStatus, reason: string) =>
      demoAction({
        id: demoUuid(ctx.seed, UUID_NODE_ACTION, index, actionIndex++),
        action: 'version.status',
        subjectType: 'node_version',
        subjectId: versionId,
        subjectLabel: label,
        fromValue: from,
        toValue: to,
        reason,
        batchId: entry.review === 'batch-approved' ? DEMO_BATCH_ID(ctx.seed) : null,
        createdAt: at,
      })
    // The scan's finding: drawn for a flagged version; the demo's false positive keeps its own.
    const finding =
      drawn ?? (entry.review === 'approved-after-flag' ? (INSTALL_FINDING ?? null) : null)
    let statusReason = drawn ? JSON.stringify([drawn]) : ''
    if (banReason) {
      // Held for review first (flagged with a reason), then banned: two decisions.
      const hold = VERSION_HOLD_REASONS[banReason]
      statusReason = adminDecision([
        { status: 'NodeVersionStatusFlagged', message: hold },
        { status: 'NodeVersionStatusBanned', message: banReason },
      ])
      const heldAt = new Date(versionCreatedAt.getTime() + 6 * HOUR)
      const bannedAt = new Date(versionCreatedAt.getTime() + 2 * DAY)
      out.adminActions.push(
        decided(heldAt, 'NodeVersionStatusPending', 'NodeVersionStatusFlagged', hold),
        decided(bannedAt, 'NodeVersionStatusFlagged', 'NodeVersionStatusBanned', banReason),
      )
    } else if (entry.review === 'approved-after-flag') {
      statusReason = adminDecision([
        { status: 'NodeVersionStatusActive', message: DEMO_FALSE_POSITIVE_REASON },
      ])
      out.adminActions.push(
        decided(
          new Date(versionCreatedAt.getTime() + 5 * HOUR),
          'NodeVersionStatusFlagged',
          'NodeVersionStatusActive',
          DEMO_FALSE_POSITIVE_REASON,
        ),
      )
    } else if (entry.review === 'batch-approved') {
      statusReason = adminDecision(
        [{ status: 'NodeVersionStatusActive', message: DEMO_BATCH_REASON }],
        DEMO_BATCH_ID(ctx.seed),
      )
      out.adminActions.push(
        decided(
          DEMO_BATCH_AT,
          'NodeVersionStatusPending',
          'NodeVersionStatusActive',
          DEMO_BATCH_REASON,
        ),
      )
    }
    const version: DemoVersion = {
      id: versionId,
      nodeId: id,
      version: entry.version,
      ...key,
      changelog,
      dependencies,
      storageKey: hasArchive
        ? archiveKey(publisher?.id ?? UNCLAIMED_PUBLISHER.id, id, entry.version)
        : null,
      deprecated,
      deprecationMessage,
      status: versionStatus,
      statusReason,
      scanFindings: finding ? [finding] : [],
      // Active demo archives were checked and found clean: the node page shows "checks passed".
      scannedAt:
        finding || (hasArchive && versionStatus === 'NodeVersionStatusActive')
          ? versionCreatedAt
          : null,
      comfyNodeExtractStatus: extract,
      supportedOs: os,
      supportedAccelerators: accelerators,
      supportedComfyuiVersion: comfyuiVersion,
      supportedComfyuiFrontendVersion: frontendVersion,
      downloads: versionDownloads,
      createdAt: versionCreatedAt,
      archiveExtras: hasArchive
        ? [...(finding ? [finding.file_path] : []), ...(j >= 2 ? [EXAMPLE_WORKFLOW_PATH] : [])]
        : [],
    }
    versions.push(version)
    if (extract === 'success') {
      // Older versions expose fewer classes: the set grows over time.
      const available = Math.max(2, templates.length - fromNewest)
      for (const t of templates.slice(0, available)) {
        out.comfyNodes.push({
          id: demoUuid(ctx.seed, UUID_COMFY_NODE, index, comfyIndex++),
          nodeVersionId: version.id,
          comfyNodeName: t.name,
          category: t.category,
          description: t.description,
          inputTypes: t.inputTypes,
          returnTypes: t.returnTypes,
          returnNames: t.returnNames,
          outputIsList: t.outputIsList,
          function: t.function,
          deprecated: t.deprecated,
          experimental: t.experimental,
        })
      }
    }
  }
  const latest = computeLatestVersion(versions)
  const newest = versions[versions.length - 1]

  // Reviews -----------------------------------------------------------------------------------
  const reviewCount = Math.min(
    ctx.userCount,
    Math.min(25, Math.floor(Math.log10(downloads + 1) * 3 * rng.float())),
  )
  const quality = 3 + rng.float() * 2
  let starSum = 0
  const reviewers = new Set<number>()
  while (reviewers.size < reviewCount) reviewers.add(rng.int(0, ctx.userCount - 1))
  for (const u of [...reviewers].sort((a, b) => a - b)) {
    const star = Math.max(1, Math.min(5, Math.round(quality + (rng.float() - 0.5) * 2.5)))
    starSum += star
    out.reviews.push({
      nodeId: id,
      userId: userId(u),
      star,
      createdAt: new Date(createdAt.getTime() + Math.floor(rng.float() * span)),
    })
  }

  // Daily downloads (the 90 days before DEMO_BASE_DATE, which the loader moves to end yesterday:
  // the node page's chart shows 30 and 90 days) for popular nodes and the demo nodes -----------
  if (isDemo || downloads >= 5000) {
    const perDay = Math.max(1, downloads / HISTORY_DAYS)
    // A slow trend over the range, so the chart is not flat noise.
    const trend = 0.6 + rng.float() * 0.8
    for (let d = DAILY_HISTORY_DAYS; d >= 1; d--) {
      const day = daysBefore(DEMO_BASE_DATE, d)
      if (day < createdAt) continue
      out.dailyDownloads.push({
        nodeId: id,
        day: isoDay(day),
        count: Math.round(
          perDay *
            (0.5 + rng.float()) *
            (d % 7 < 2 ? 0.8 : 1) *
            (trend + ((1 - trend) * d) / DAILY_HISTORY_DAYS),
        ),
      })
    }
  }

  out.nodes.push({
    id,
    publisherId: publisher?.id ?? UNCLAIMED_PUBLISHER.id,
    name: identity.name,
    description: markdownDescription(id, identity.name, identity.features, repository, rng),
    author: publisher && rng.chance(0.6) ? publisher.name : personName(rng),
    license: demoLicenseField(index, rng.weighted(LICENSES)),
    icon: isDemo || rng.chance(0.85) ? `/icons/node-${rng.int(0, DEMO_ICON_COUNT - 1)}.svg` : '',
    bannerUrl: '',
    repository,
    tags,
    category,
    downloads,
    githubStars,
    rating: reviewCount > 0 ? Math.round((starSum / reviewCount) * 100) / 100 : 0,
    ratingCount: reviewCount,
    status,
    statusDetail: status === 'NodeStatusBanned' ? rng.pick(BAN_DETAILS) : '',
    supportedOs: os,
    supportedAccelerators: accelerators,
    supportedComfyuiVersion: comfyuiVersion,
    supportedComfyuiFrontendVersion: frontendVersion,
    deprecated: DEMO_NODES[index]?.deprecated !== undefined,
    deprecationMessage: DEMO_NODES[index]?.deprecated ?? '',
    latestVersionId: latest?.id ?? null,
    latestVersionCreatedAt: latest?.createdAt ?? null,
    createdAt,
    updatedAt: newest.createdAt,
  })
  out.versions.push(...versions)

  // The demo admin's bans of nodes (node.ban rows as server/admin/moderation.ts writes them).
  const node = out.nodes[out.nodes.length - 1]
  const active = nodeStatusState({ status: 'NodeStatusActive', statusDetail: '' })
  if (status === 'NodeStatusBanned') {
    out.adminActions.push(
      demoAction({
        id: demoUuid(ctx.seed, UUID_NODE_ACTION, index, actionIndex++),
        action: 'node.ban',
        subjectType: 'node',
        subjectId: id,
        subjectLabel: id,
        fromValue: active,
        toValue: nodeStatusState({ status, statusDetail: node.statusDetail }),
        reason: node.statusDetail,
        createdAt: new Date(newest.createdAt.getTime() + 3 * DAY),
      }),
    )
  } else if (DEMO_NODES[index]?.banUndone) {
    // Banned on a mistaken report, then undone (undo.ts): the node is Active again.
    const reason = DEMO_MISTAKEN_BAN_REASON
    const bannedState = nodeStatusState({ status: 'NodeStatusBanned', statusDetail: reason })
    const banId = demoUuid(ctx.seed, UUID_NODE_ACTION, index, actionIndex++)
    const undoId = demoUuid(ctx.seed, UUID_NODE_ACTION, index, actionIndex++)
    const bannedAt = new Date(DEMO_BASE_DATE.getTime() - 5 * DAY)
    out.adminActions.push(
      demoAction({
        id: banId,
        action: 'node.ban',
        subjectType: 'node',
        subjectId: id,
        subjectLabel: id,
        fromValue: active,
        toValue: bannedState,
        reason,
        undoneBy: undoId,
        createdAt: bannedAt,
      }),
      demoAction({
        id: undoId,
        action: 'undo',
        subjectType: 'node',
        subjectId: id,
        subjectLabel: id,
        fromValue: bannedState,
        toValue: active,
        reason: `Undo of node.ban: ${reason}`,
        undoes: banId,
        createdAt: new Date(bannedAt.getTime() + 2 * HOUR),
      }),
    )
  }
}

function emptyBatch(): DemoNodeBatch {
  return {
    nodes: [],
    versions: [],
    comfyNodes: [],
    reviews: [],
    dailyDownloads: [],
    adminActions: [],
  }
}

/**
 * Yields the nodes in batches of `batchSize` (default 500), each with its versions, comfy nodes,
 * reviews and daily downloads. Pass the `base` from generateDemoBase() with the same options if
 * you already have it (otherwise it is generated).
 */
export function* generateNodesInBatches(
  options: DemoDataOptions = {},
  base: DemoBase = generateDemoBase(options),
): Generator<DemoNodeBatch, void, undefined> {
  const o = resolveOptions(options)
  const ctx: NodeContext = {
    seed: o.seed,
    publishers: base.publishers,
    userCount: base.users.length,
    takenIds: new Set<string>(),
  }
  let batch = emptyBatch()
  for (let i = 0; i < o.nodes; i++) {
    generateNode(ctx, i, batch)
    if (batch.nodes.length >= o.batchSize) {
      yield batch
      batch = emptyBatch()
    }
  }
  if (batch.nodes.length > 0) yield batch
}

/** All demo data at once (fine for hundreds or a few thousand nodes). */
export function generateDemoData(options: DemoDataOptions = {}): DemoData {
  const base = generateDemoBase(options)
  const all = emptyBatch()
  for (const batch of generateNodesInBatches(options, base)) {
    all.nodes.push(...batch.nodes)
    all.versions.push(...batch.versions)
    all.comfyNodes.push(...batch.comfyNodes)
    all.reviews.push(...batch.reviews)
    all.dailyDownloads.push(...batch.dailyDownloads)
    all.adminActions.push(...batch.adminActions)
  }
  return { ...base, ...all }
}
