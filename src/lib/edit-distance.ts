// Optimal string alignment distance (inserts, deletes, changes and swaps of neighbours), shared
// by the dependency scan (names imitating popular packages) and query suggestions (typos).

/**
 * The last row of the alignment table of `a` against `b`: entry j is the distance from `a` to
 * the first j letters of `b`. Undefined once a whole row exceeds `max` (no later row can do
 * better).
 */
function lastRow(a: string, b: string, max: number): number[] | undefined {
  let before: number[] = []
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    let rowMin = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, before[j - 2] + 1)
      }
      current.push(value)
      rowMin = Math.min(rowMin, value)
    }
    if (rowMin > max) return undefined
    before = previous
    previous = current
  }
  return previous
}

/** The distance between `a` and `b`, or max+1 when above `max`. */
export function editDistance(a: string, b: string, max: number): number {
  const row = lastRow(a, b, max)
  return row ? Math.min(row[b.length], max + 1) : max + 1
}

/** The distance between `typed` and the closest start of `term`, or Infinity when above `most`. */
export function editsToPrefix(typed: string, term: string, most: number): number {
  const row = lastRow(typed, term, most)
  const best = row ? Math.min(...row) : Number.POSITIVE_INFINITY
  return best <= most ? best : Number.POSITIVE_INFINITY
}
