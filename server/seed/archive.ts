/** Builds a small but real node archive (zip) the way `comfy node publish` would package it. */
import { strToU8, zipSync } from 'fflate'
import { offendingFileText } from './flagged-code'
import { parseLicenseField } from '@/src/lib/licenses'
import {
  DEMO_LONG_README_NODE,
  DEMO_SCREENSHOT_PATH,
  demoLicenseText,
  demoScreenshot,
  longReadmeSection,
} from './documents'

export interface ArchiveNodeInfo {
  id: string
  name: string
  description: string
  license: string
  repository: string
  icon: string
}

export interface ArchiveComfyNode {
  comfyNodeName: string
  category: string
  inputTypes: string
  returnTypes: string
  returnNames: string
  function: string
}

export interface NodeArchiveInput {
  publisherId: string
  node: ArchiveNodeInfo
  version: string
  dependencies: readonly string[]
  comfyNodes: readonly ArchiveComfyNode[]
  /**
   * More files by path (the demo's: examples/workflow.json, the offending file of a flagged
   * version; see demoArchiveExtras).
   */
  extraFiles?: Readonly<Record<string, string>>
}

/** A TOML basic string (JSON string escapes are valid TOML escapes). */
function tomlString(value: string): string {
  return JSON.stringify(value)
}

function firstLine(markdown: string): string {
  const line = markdown
    .split('\n')
    .map((l) => l.replace(/^#+\s*/, '').trim())
    .find((l) => l.length > 0 && !l.startsWith('```'))
  return line ?? ''
}

/** The pyproject `license` as the author wrote it (comfy-cli sends it on as the node's field). */
function licenseLines(license: string): string[] {
  const field = parseLicenseField(license)
  if (field.kind === 'none') return []
  if (field.kind === 'file') return [`license = { file = ${tomlString(field.path)} }`]
  if (field.kind === 'text') return [`license = { text = ${tomlString(field.text)} }`]
  return [`license = ${tomlString(license)}`]
}

export function pyprojectToml(input: NodeArchiveInput): string {
  const { node } = input
  const lines = [
    '[project]',
    `name = ${tomlString(node.id.toLowerCase())}`,
    `description = ${tomlString(firstLine(node.description))}`,
    `version = ${tomlString(input.version)}`,
    ...licenseLines(node.license),
    `dependencies = [${input.dependencies.map(tomlString).join(', ')}]`,
    '',
    '[project.urls]',
    `Repository = ${tomlString(node.repository)}`,
    '',
    '[tool.comfy]',
    `PublisherId = ${tomlString(input.publisherId)}`,
    `DisplayName = ${tomlString(node.name)}`,
    `Icon = ${tomlString(node.icon)}`,
    '',
  ]
  return lines.join('\n')
}

/** A Python string literal (JSON escapes are valid in Python strings). */
function pyString(value: string): string {
  return JSON.stringify(value)
}

/** JSON text as the Python literal a node pack writes: lists become tuples, as ComfyUI's do. */
function pyLiteral(json: string): string {
  const literal = (value: unknown): string => {
    if (value === null) return 'None'
    if (value === true) return 'True'
    if (value === false) return 'False'
    if (typeof value === 'string') return pyString(value)
    if (typeof value === 'number') return String(value)
    if (Array.isArray(value)) {
      return value.length === 1 ? `(${literal(value[0])},)` : `(${value.map(literal).join(', ')})`
    }
    if (typeof value === 'object') {
      const pairs = Object.entries(value).map(([key, item]) => `${pyString(key)}: ${literal(item)}`)
      return `{${pairs.join(', ')}}`
    }
    return 'None'
  }
  return literal(JSON.parse(json))
}

export function initPy(input: NodeArchiveInput): string {
  const out = [
    `"""${input.node.name} ${input.version}: ComfyUI custom nodes (registry demo package)."""`,
    '',
  ]
  const className = (name: string) =>
    /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `_${name.replace(/[^A-Za-z0-9_]/g, '_')}`
  for (const c of input.comfyNodes) {
    const fn = /^[a-z_][a-z0-9_]*$/.test(c.function) ? c.function : 'run'
    out.push(
      `class ${className(c.comfyNodeName)}:`,
      `    CATEGORY = ${pyString(c.category)}`,
      `    RETURN_TYPES = ${pyLiteral(c.returnTypes || '[]')}`,
      `    RETURN_NAMES = ${pyLiteral(c.returnNames || '[]')}`,
      `    FUNCTION = ${pyString(fn)}`,
      '',
      '    @classmethod',
      '    def INPUT_TYPES(cls):',
      `        return ${pyLiteral(c.inputTypes || '{}')}`,
      '',
      `    def ${fn}(self, **kwargs):`,
      '        return tuple(kwargs.get(name.lower()) for name in self.RETURN_TYPES)',
      '',
      '',
    )
  }
  out.push('NODE_CLASS_MAPPINGS = {')
  for (const c of input.comfyNodes)
    out.push(`    ${pyString(c.comfyNodeName)}: ${className(c.comfyNodeName)},`)
  out.push('}', '', '__all__ = ["NODE_CLASS_MAPPINGS"]', '')
  return out.join('\n')
}

export function readme(input: NodeArchiveInput): string {
  return [
    input.node.description,
    '',
    `![${input.node.name} at work](${DEMO_SCREENSHOT_PATH})`,
    '',
    `Version ${input.version}.`,
    '',
    ...(input.node.id === DEMO_LONG_README_NODE ? [longReadmeSection(input.node.name), ''] : []),
    ...(input.comfyNodes.length > 0
      ? [
          '## Nodes',
          '',
          ...input.comfyNodes.map((c) => `- \`${c.comfyNodeName}\` (${c.category})`),
          '',
        ]
      : []),
  ].join('\n')
}

/** An example workflow the demo archives carry from a node's third version on. */
export const EXAMPLE_WORKFLOW_PATH = 'examples/workflow.json'

/** A small ComfyUI workflow using the pack's first node class (examples/workflow.json). */
export function exampleWorkflow(input: Pick<NodeArchiveInput, 'node' | 'comfyNodes'>): string {
  const first = input.comfyNodes[0]
  const nodes = [
    { id: 1, type: 'LoadImage', pos: [40, 120], widgets_values: ['example.png', 'image'] },
    ...(first ? [{ id: 2, type: first.comfyNodeName, pos: [380, 120], widgets_values: [] }] : []),
  ]
  return `${JSON.stringify({ last_node_id: nodes.length, nodes, extra: { pack: input.node.id } }, null, 2)}\n`
}

/**
 * The extra files of a demo version's archive (DemoVersion.archiveExtras): the offending source
 * its scan finding points at (flagged-code.ts) and the example workflow.
 */
export function demoArchiveExtras(
  paths: readonly string[],
  input: Pick<NodeArchiveInput, 'node' | 'comfyNodes'>,
): Record<string, string> {
  const files: Record<string, string> = {}
  for (const path of paths) {
    const text = path === EXAMPLE_WORKFLOW_PATH ? exampleWorkflow(input) : offendingFileText(path)
    if (text === undefined) throw new Error(`No demo file for '${path}'`)
    files[path] = text
  }
  return files
}

/**
 * The zip bytes: pyproject.toml, __init__.py and README.md, and the extra files. Deterministic
 * (fixed mtime).
 */
export function buildNodeArchive(input: NodeArchiveInput): Uint8Array {
  const mtime = new Date('2026-01-01T00:00:00Z')
  // `{"file": "LICENSE"}` packs carry an MIT licence file; the others the file of their id.
  const field = parseLicenseField(input.node.license)
  const license =
    field.kind === 'file'
      ? demoLicenseText('MIT', input.node.name)
      : field.kind === 'spdx'
        ? demoLicenseText(field.id, input.node.name)
        : undefined
  const extra = Object.entries(input.extraFiles ?? {}).map(
    ([path, text]): [string, [Uint8Array, { mtime: Date }]] => [path, [strToU8(text), { mtime }]],
  )
  return zipSync(
    {
      'pyproject.toml': [strToU8(pyprojectToml(input)), { mtime }],
      '__init__.py': [strToU8(initPy(input)), { mtime }],
      'README.md': [strToU8(readme(input)), { mtime }],
      [DEMO_SCREENSHOT_PATH]: [demoScreenshot(input.node.id), { mtime, level: 0 }],
      ...(license ? { LICENSE: [strToU8(license), { mtime }] } : {}),
      ...Object.fromEntries(extra),
    },
    { level: 6 },
  )
}

/** The archive of a demo version (loadDemoData writes it; tests rebuild it to check it). */
export function buildDemoVersionArchive(
  node: ArchiveNodeInfo & { publisherId: string },
  version: { version: string; dependencies: readonly string[]; archiveExtras: readonly string[] },
  comfyNodes: readonly ArchiveComfyNode[],
): Uint8Array {
  return buildNodeArchive({
    publisherId: node.publisherId,
    node,
    version: version.version,
    dependencies: version.dependencies,
    comfyNodes,
    extraFiles: demoArchiveExtras(version.archiveExtras, { node, comfyNodes }),
  })
}
