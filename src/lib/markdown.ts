/** The prose of a markdown description as plain text for a card: no headings, lists or code. */
export function summary(markdown: string | undefined, maxLength = 160): string {
  return plainText(markdown, maxLength, false)
}

/**
 * A changelog as plain text for a feed item: its prose and list items (changelogs are mostly
 * lists), without headings or code.
 */
export function changelogSummary(markdown: string | undefined, maxLength = 300): string {
  return plainText(markdown, maxLength, true)
}

function plainText(markdown: string | undefined, maxLength: number, lists: boolean): string {
  let inCode = false
  const prose: string[] = []
  for (const raw of (markdown ?? '').split('\n')) {
    const line = raw.trim()
    if (line.startsWith('```')) inCode = !inCode
    else if (inCode || !line || line.startsWith('#')) continue
    else if (lists) prose.push(line.replace(/^(?:[-*+]|\d+[.)]) +/, ''))
    else if (!/^[-*+] /.test(line)) prose.push(line)
  }
  const text = prose
    .join(' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`]/g, '')
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text
}
