// Where a README's relative link points inside its package: shared by the pipeline (which
// records the images a README shows) and the node page (which links them to the API), so both
// resolve a reference the same way.

/**
 * A reference of the README as a path inside the package, or null when it is absolute (has a
 * scheme or starts with //), only an anchor, or leaves the package. `?query` and `#anchor` are
 * dropped, %-escapes decoded.
 */
export function packagePath(reference: string, readmeDir = ''): string | null {
  const trimmed = reference.trim()
  if (!trimmed || /^[a-z][a-z0-9+.-]*:/i.test(trimmed) || trimmed.startsWith('//')) return null
  const bare = trimmed.replace(/[?#].*$/, '')
  if (!bare) return null
  let decoded: string
  try {
    decoded = decodeURIComponent(bare)
  } catch {
    return null
  }
  if (decoded.includes('\\') || decoded.includes('\0')) return null
  const parts = decoded.startsWith('/') ? [] : readmeDir.split('/').filter(Boolean)
  for (const part of decoded.split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..') {
      if (parts.length === 0) return null
      parts.pop()
    } else parts.push(part)
  }
  return parts.length ? parts.join('/') : null
}
