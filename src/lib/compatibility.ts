// The one place that turns the operating-system and accelerator values of a node or version
// (`supported_os`, `supported_accelerators`: free strings in the contract, the slugs of
// NODE_FILTER_OS and NODE_FILTER_ACCELERATORS by convention) into readable, translated names.
// Search filters, the edit form and the node page all name them through here. Publishers also
// write the names themselves ("Windows", "CUDA", "darwin"); those are matched too, and anything
// unknown is shown exactly as given rather than dropped or guessed at.
import type { Translate } from './api-error'
import { NODE_FILTER_ACCELERATORS, NODE_FILTER_OS } from './constants'

export type CompatibilityKind = 'os' | 'accelerator'

export type OsSlug = (typeof NODE_FILTER_OS)[number]
export type AcceleratorSlug = (typeof NODE_FILTER_ACCELERATORS)[number]

const SLUGS: Record<CompatibilityKind, readonly string[]> = {
  os: NODE_FILTER_OS,
  accelerator: NODE_FILTER_ACCELERATORS,
}

/** Other spellings seen in the wild (lower case, without spaces), by the slug they mean. */
const ALIASES: Record<CompatibilityKind, Record<string, string>> = {
  os: {
    win: 'windows',
    win32: 'windows',
    win64: 'windows',
    microsoftwindows: 'windows',
    mac: 'macos',
    macosx: 'macos',
    osx: 'macos',
    darwin: 'macos',
  },
  accelerator: {
    nvidia: 'cuda',
    nvidiacuda: 'cuda',
    amd: 'rocm',
    amdrocm: 'rocm',
    apple: 'mps',
    metal: 'mps',
    applemetal: 'mps',
    applemps: 'mps',
    intel: 'xpu',
    intelxpu: 'xpu',
  },
}

/** The translation section of each kind's names (`filters.osName.windows`…). */
const SECTIONS: Record<CompatibilityKind, string> = {
  os: 'filters.osName',
  accelerator: 'filters.acceleratorName',
}

/** The known slug `value` stands for, whatever its case or spacing; undefined when unknown. */
export function compatibilitySlug(kind: CompatibilityKind, value: string): string | undefined {
  const plain = value
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '')
  if (SLUGS[kind].includes(plain)) return plain
  return ALIASES[kind][plain]
}

/** The readable name of one value: translated when known, the value itself otherwise. */
export function compatibilityName(kind: CompatibilityKind, value: string, t: Translate): string {
  const slug = compatibilitySlug(kind, value)
  return slug ? t(`${SECTIONS[kind]}.${slug}`) : value
}

/** Readable names of a list, each known name once, in the order given. */
export function compatibilityNames(
  kind: CompatibilityKind,
  values: readonly string[],
  t: Translate,
): string[] {
  return [...new Set(values.map((value) => compatibilityName(kind, value, t)))]
}
