// What a node's `license` field means. comfy-cli sends the pyproject `license` as it is: an SPDX
// identifier (or expression), or the table as JSON text (`{"file": "LICENSE"}`, `{"text": "…"}`).
// Shared by the API (which derives `license_spdx`) and the website (names and links).

/** SPDX identifiers people use for node packs, with the names shown for them. */
export const SPDX_LICENSES: Readonly<Record<string, string>> = {
  '0BSD': 'BSD Zero Clause License',
  'AGPL-3.0': 'GNU Affero General Public License v3.0',
  'AGPL-3.0-only': 'GNU Affero General Public License v3.0 only',
  'AGPL-3.0-or-later': 'GNU Affero General Public License v3.0 or later',
  'Apache-2.0': 'Apache License 2.0',
  'Artistic-2.0': 'Artistic License 2.0',
  'BSD-2-Clause': 'BSD 2-Clause "Simplified" License',
  'BSD-3-Clause': 'BSD 3-Clause "New" or "Revised" License',
  'BSL-1.0': 'Boost Software License 1.0',
  'CC-BY-4.0': 'Creative Commons Attribution 4.0 International',
  'CC-BY-NC-4.0': 'Creative Commons Attribution Non Commercial 4.0 International',
  'CC-BY-NC-ND-4.0': 'Creative Commons Attribution Non Commercial No Derivatives 4.0 International',
  'CC-BY-NC-SA-4.0': 'Creative Commons Attribution Non Commercial Share Alike 4.0 International',
  'CC-BY-ND-4.0': 'Creative Commons Attribution No Derivatives 4.0 International',
  'CC-BY-SA-4.0': 'Creative Commons Attribution Share Alike 4.0 International',
  'CC0-1.0': 'Creative Commons Zero v1.0 Universal',
  'EPL-2.0': 'Eclipse Public License 2.0',
  'GPL-2.0': 'GNU General Public License v2.0',
  'GPL-2.0-only': 'GNU General Public License v2.0 only',
  'GPL-2.0-or-later': 'GNU General Public License v2.0 or later',
  'GPL-3.0': 'GNU General Public License v3.0',
  'GPL-3.0-only': 'GNU General Public License v3.0 only',
  'GPL-3.0-or-later': 'GNU General Public License v3.0 or later',
  ISC: 'ISC License',
  'LGPL-2.1': 'GNU Lesser General Public License v2.1',
  'LGPL-2.1-only': 'GNU Lesser General Public License v2.1 only',
  'LGPL-2.1-or-later': 'GNU Lesser General Public License v2.1 or later',
  'LGPL-3.0': 'GNU Lesser General Public License v3.0',
  'LGPL-3.0-only': 'GNU Lesser General Public License v3.0 only',
  'LGPL-3.0-or-later': 'GNU Lesser General Public License v3.0 or later',
  MIT: 'MIT License',
  'MIT-0': 'MIT No Attribution',
  'MPL-2.0': 'Mozilla Public License 2.0',
  Unlicense: 'The Unlicense',
  WTFPL: 'Do What The F*ck You Want To Public License',
  Zlib: 'zlib License',
}

const BY_LOWER = new Map(Object.keys(SPDX_LICENSES).map((id) => [id.toLowerCase(), id]))

/** Common spellings of an identifier (lower case, spaces and dashes alike) → the identifier. */
const ALIASES: Readonly<Record<string, string>> = {
  'mit license': 'MIT',
  'the mit license': 'MIT',
  'apache 2.0': 'Apache-2.0',
  'apache 2': 'Apache-2.0',
  'apache license 2.0': 'Apache-2.0',
  'apache license, version 2.0': 'Apache-2.0',
  'apache software license': 'Apache-2.0',
  gplv2: 'GPL-2.0',
  gplv3: 'GPL-3.0',
  'gpl 3.0': 'GPL-3.0',
  'gpl 3': 'GPL-3.0',
  'gpl 2.0': 'GPL-2.0',
  agplv3: 'AGPL-3.0',
  'agpl 3.0': 'AGPL-3.0',
  'bsd 3 clause': 'BSD-3-Clause',
  'bsd 2 clause': 'BSD-2-Clause',
  'the unlicense': 'Unlicense',
  'cc0 1.0': 'CC0-1.0',
}

/** The canonical identifier of one SPDX id (any case, or a common spelling), else undefined. */
export function spdxId(value: string): string | undefined {
  const lower = value.trim().toLowerCase()
  return BY_LOWER.get(lower) ?? ALIASES[lower.replace(/[\s_-]+/g, ' ')]
}

/**
 * The field as an SPDX expression of known identifiers (`MIT`, `MIT OR Apache-2.0`,
 * `(GPL-3.0-or-later)`), canonically spelt, else undefined.
 */
export function spdxExpression(value: string): string | undefined {
  const whole = spdxId(value)
  if (whole) return whole
  const tokens = value.trim().replace(/[()]/g, ' ').split(/\s+/).filter(Boolean)
  if (tokens.length < 3 || tokens.length % 2 === 0) return undefined
  const out: string[] = []
  for (const [index, token] of tokens.entries()) {
    if (index % 2 === 1) {
      const operator = token.toUpperCase()
      if (operator !== 'OR' && operator !== 'AND') return undefined
      out.push(operator)
    } else {
      const id = spdxId(token)
      if (!id) return undefined
      out.push(id)
    }
  }
  return out.join(' ')
}

export type LicenseField =
  | { kind: 'none' }
  | { kind: 'spdx'; id: string }
  | { kind: 'file'; path: string }
  | { kind: 'text'; text: string }
  /** Anything else: shown as written. */
  | { kind: 'other'; value: string }

/** What a `license` field says, from the wire string. */
export function parseLicenseField(license: string | undefined | null): LicenseField {
  const value = (license ?? '').trim()
  if (!value) return { kind: 'none' }
  if (value.startsWith('{')) {
    try {
      const table: unknown = JSON.parse(value)
      if (table && typeof table === 'object' && !Array.isArray(table)) {
        const { file, text } = table as { file?: unknown; text?: unknown }
        if (typeof file === 'string' && file.trim()) return { kind: 'file', path: file.trim() }
        if (typeof text === 'string' && text.trim()) {
          const id = spdxExpression(text)
          return id ? { kind: 'spdx', id } : { kind: 'text', text }
        }
        return { kind: 'none' }
      }
    } catch {
      // Not JSON after all: shown as written.
    }
  }
  const id = spdxExpression(value)
  return id ? { kind: 'spdx', id } : { kind: 'other', value }
}

/** The human name of a known identifier (expressions are shown as they are). */
export function licenseName(id: string): string {
  return SPDX_LICENSES[id] ?? id
}

/** SPDX's page of a single known identifier, else undefined. */
export function spdxUrl(id: string): string | undefined {
  return SPDX_LICENSES[id] ? `https://spdx.org/licenses/${id}.html` : undefined
}

/**
 * The licence for linked data (schema.org `license`: a URL or text): the SPDX page of the derived
 * identifier, or the field when it is plain words; never the JSON table comfy-cli sends.
 */
export function linkedDataLicense(
  license: string | undefined | null,
  derivedSpdx: string | undefined,
): string | undefined {
  const field = parseLicenseField(license)
  const id = derivedSpdx ?? (field.kind === 'spdx' ? field.id : undefined)
  if (id) return spdxUrl(id) ?? id
  return field.kind === 'other' ? field.value : undefined
}
