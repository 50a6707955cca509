import { formatBytes, formatDateTime } from '@/components/node/format'

describe('formatBytes', () => {
  it('uses the largest unit that keeps the number at least 1, in steps of 1000', () => {
    expect(formatBytes(0, 'en')).toBe('0 bytes')
    expect(formatBytes(120, 'en')).toBe('120 bytes')
    expect(formatBytes(4096, 'en')).toBe('4.1 kB')
    expect(formatBytes(1_400_000, 'en')).toBe('1.4 MB')
    expect(formatBytes(undefined, 'en')).toBe('0 bytes')
  })

  it('names the unit in the visitor’s language', () => {
    expect(formatBytes(1_400_000, 'fr')).toMatch(/^1,4\sMo$/)
  })
})

describe('formatDateTime', () => {
  it('writes a UTC time the same on server and browser', () => {
    expect(formatDateTime('2024-03-05T14:07:00Z', 'en', 'utc')).toContain('Mar 5, 2024')
    // An unreadable value is shown as it came rather than as "Invalid Date".
    expect(formatDateTime('not a date', 'en', 'utc')).toBe('not a date')
  })
})
