import { compatibilityName, compatibilityNames, compatibilitySlug } from '@/src/lib/compatibility'
import { NODE_FILTER_ACCELERATORS, NODE_FILTER_OS } from '@/src/lib/constants'
import { makeTestI18n } from '../test-utils'

function translator(locale: string) {
  const i18n = makeTestI18n(locale)
  return (key: string) => i18n.t(key)
}

const t = translator('en')

describe('compatibility names', () => {
  it('names every slug the filters and the edit form offer (none falls back to its slug)', () => {
    for (const os of NODE_FILTER_OS) {
      expect(compatibilityName('os', os, t)).not.toBe(os)
      expect(compatibilityName('os', os, t)).not.toMatch(/^filters\./)
    }
    for (const accelerator of NODE_FILTER_ACCELERATORS) {
      expect(compatibilityName('accelerator', accelerator, t)).not.toMatch(/^filters\./)
    }
    expect(compatibilityName('os', 'macos', t)).toBe('macOS')
    expect(compatibilityName('accelerator', 'cuda', t)).toBe('CUDA (NVIDIA)')
    expect(compatibilityName('accelerator', 'mps', t)).toBe('MPS (Apple)')
    expect(compatibilityName('accelerator', 'cpu', t)).toBe('CPU')
  })

  it.each([
    ['os', 'Windows', 'windows'],
    ['os', ' WINDOWS ', 'windows'],
    ['os', 'Mac OS', 'macos'],
    ['os', 'darwin', 'macos'],
    ['os', 'Mac OS X', 'macos'],
    ['accelerator', 'NVIDIA', 'cuda'],
    ['accelerator', 'Apple Metal', 'mps'],
    ['accelerator', 'AMD', 'rocm'],
  ] as const)('reads %s %j as %s', (kind, value, slug) => {
    expect(compatibilitySlug(kind, value)).toBe(slug)
  })

  it('shows an unknown value exactly as given', () => {
    expect(compatibilitySlug('os', 'FreeBSD')).toBeUndefined()
    expect(compatibilityName('os', 'FreeBSD 14', t)).toBe('FreeBSD 14')
    expect(compatibilityName('accelerator', 'tpu-v5', t)).toBe('tpu-v5')
    // A slug of the other kind is not a name of this one.
    expect(compatibilityName('os', 'cuda', t)).toBe('cuda')
  })

  it('names a list in its order, each name once', () => {
    expect(compatibilityNames('os', ['linux', 'Windows', 'windows', 'Haiku'], t)).toEqual([
      'Linux',
      'Windows',
      'Haiku',
    ])
  })

  it('translates in the reader’s language', () => {
    const ru = translator('ru')
    expect(compatibilityName('accelerator', 'cpu', ru)).toBe('ЦП (CPU)')
    expect(compatibilityName('os', 'windows', ru)).toBe('Windows')
  })
})
