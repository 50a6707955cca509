// A flat shields-style badge (label | value) as SVG text, with no external fonts or scripts.
// Widths come from Verdana 11px advance widths (what shields measures with), so the text fits
// without a browser measuring it.

/** Verdana 11px advance widths (px) of printable ASCII, rounded as shields measures them. */
const WIDTHS: Record<string, number> = {
  ' ': 3.87,
  '!': 4.33,
  '"': 5.05,
  '#': 9.0,
  $: 6.99,
  '%': 11.84,
  '&': 7.99,
  "'": 2.95,
  '(': 4.99,
  ')': 4.99,
  '*': 6.99,
  '+': 9.0,
  ',': 4.0,
  '-': 4.99,
  '.': 4.0,
  '/': 4.99,
  '0': 6.99,
  '1': 6.99,
  '2': 6.99,
  '3': 6.99,
  '4': 6.99,
  '5': 6.99,
  '6': 6.99,
  '7': 6.99,
  '8': 6.99,
  '9': 6.99,
  ':': 4.99,
  ';': 4.99,
  '<': 9.0,
  '=': 9.0,
  '>': 9.0,
  '?': 6.0,
  '@': 11.0,
  A: 7.52,
  B: 7.54,
  C: 7.68,
  D: 8.48,
  E: 6.96,
  F: 6.32,
  G: 8.53,
  H: 8.27,
  I: 4.62,
  J: 5.0,
  K: 7.62,
  L: 6.12,
  M: 9.27,
  N: 8.23,
  O: 8.66,
  P: 6.63,
  Q: 8.66,
  R: 7.65,
  S: 7.52,
  T: 6.78,
  U: 8.05,
  V: 7.52,
  W: 10.88,
  X: 7.54,
  Y: 6.77,
  Z: 7.54,
  '[': 4.99,
  '\\': 4.99,
  ']': 4.99,
  '^': 9.0,
  _: 6.99,
  '`': 6.99,
  a: 6.61,
  b: 6.85,
  c: 5.73,
  d: 6.85,
  e: 6.55,
  f: 3.87,
  g: 6.85,
  h: 6.96,
  i: 3.02,
  j: 3.79,
  k: 6.51,
  l: 3.02,
  m: 10.75,
  n: 6.96,
  o: 6.68,
  p: 6.85,
  q: 6.85,
  r: 4.69,
  s: 5.73,
  t: 4.33,
  u: 6.96,
  v: 6.51,
  w: 8.98,
  x: 6.51,
  y: 6.51,
  z: 5.83,
  '{': 6.98,
  '|': 4.99,
  '}': 6.98,
  '~': 9.0,
}
/** Characters outside the table (other scripts, symbols): as wide as the widest letter. */
const FALLBACK_WIDTH = 11

export const BADGE_COLORS = {
  blue: '#007ec6',
  green: '#4c1',
  grey: '#9f9f9f',
  label: '#555',
  red: '#e05d44',
} as const

export type BadgeColor = keyof typeof BADGE_COLORS

export interface Badge {
  label: string
  value: string
  color: BadgeColor
}

/** The text's width in px at Verdana 11px. */
export function textWidth(text: string): number {
  let width = 0
  for (const char of text) width += WIDTHS[char] ?? FALLBACK_WIDTH
  return width
}

export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
}

/** Padding either side of each text, as shields draws it. */
const PADDING = 5

export function renderBadge({ label, value, color }: Badge): string {
  const labelWidth = Math.round(textWidth(label)) + 2 * PADDING
  const valueWidth = Math.round(textWidth(value)) + 2 * PADDING
  const width = labelWidth + valueWidth
  const title = escapeXml(`${label}: ${value}`)
  const labelText = escapeXml(label)
  const valueText = escapeXml(value)
  // Text is drawn at 10x scale (font-size 110, then scaled down) for crisper rendering.
  const labelX = (labelWidth / 2) * 10
  const valueX = (labelWidth + valueWidth / 2) * 10
  const text = (x: number, content: string, length: number) =>
    `<text aria-hidden="true" x="${x}" y="150" fill="#010101" fill-opacity=".3" transform="scale(.1)" textLength="${length * 10}">${content}</text>` +
    `<text x="${x}" y="140" transform="scale(.1)" fill="#fff" textLength="${length * 10}">${content}</text>`
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${title}">` +
    `<title>${title}</title>` +
    `<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>` +
    `<clipPath id="r"><rect width="${width}" height="20" rx="3" fill="#fff"/></clipPath>` +
    `<g clip-path="url(#r)">` +
    `<rect width="${labelWidth}" height="20" fill="${BADGE_COLORS.label}"/>` +
    `<rect x="${labelWidth}" width="${valueWidth}" height="20" fill="${BADGE_COLORS[color]}"/>` +
    `<rect width="${width}" height="20" fill="url(#s)"/>` +
    `</g>` +
    `<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" text-rendering="geometricPrecision" font-size="110">` +
    text(labelX, labelText, labelWidth - 2 * PADDING) +
    text(valueX, valueText, valueWidth - 2 * PADDING) +
    `</g></svg>`
  )
}

/** 950, 1.2k, 34k, 3.4M: the compact count badges show (English, like shields). */
export function compactCount(count: number): string {
  const units: [number, string][] = [
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'k'],
  ]
  for (const [size, suffix] of units) {
    if (count >= size) {
      const scaled = count / size
      // One decimal below 10 (1.2k), none above (34k); 9.96k rounds up to 10k, not 10.0k.
      const digits = scaled < 9.95 ? 1 : 0
      const text = scaled.toFixed(digits).replace(/\.0$/, '')
      // 999.95k would print 1000k: it is 1M.
      if (text === '1000' && suffix === 'k') return '1M'
      if (text === '1000' && suffix === 'M') return '1B'
      return `${text}${suffix}`
    }
  }
  return String(Math.max(0, Math.floor(count)))
}
