/** Deterministic pseudo-random numbers for the demo data (never Math.random). */

/** mulberry32: a small, fast 32-bit PRNG. Returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Mix several integers into one 32-bit seed (murmur3 finaliser per step). */
export function mixSeed(...values: number[]): number {
  let h = 0x9e3779b9
  for (const value of values) {
    h = Math.imul(h ^ (value >>> 0), 0x85ebca6b)
    h ^= h >>> 13
    h = Math.imul(h, 0xc2b2ae35)
    h ^= h >>> 16
  }
  return h >>> 0
}

export class Random {
  private readonly next: () => number

  constructor(seed: number) {
    this.next = mulberry32(seed)
  }

  /** [0, 1) */
  float(): number {
    return this.next()
  }

  /** Integer in [min, max] (inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  chance(probability: number): boolean {
    return this.next() < probability
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]
  }

  /** Pick by weight: entries are [value, weight]. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    let total = 0
    for (const [, w] of entries) total += w
    let r = this.next() * total
    for (const [value, w] of entries) {
      r -= w
      if (r < 0) return value
    }
    return entries[entries.length - 1][0]
  }

  /** `count` distinct items in their original order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const n = Math.min(count, items.length)
    const chosen = new Set<number>()
    while (chosen.size < n) chosen.add(Math.floor(this.next() * items.length))
    return [...chosen].sort((a, b) => a - b).map((i) => items[i])
  }

  /** Heavy-tailed (Pareto) integer >= min, capped at max. */
  pareto(min: number, alpha: number, max: number): number {
    const u = 1 - this.next() // (0, 1]
    return Math.min(max, Math.floor(min / Math.pow(u, 1 / alpha)))
  }
}

/**
 * A deterministic, version-4-shaped UUID that is unique per (seed, kind, a, b) with
 * 0 <= kind < 16, 0 <= a < 2^32, 0 <= b < 2^16. (UUIDs drawn from a 32-bit PRNG collide across
 * 100k+ entities; these cannot.) The index bits are scrambled by a bijection so ids look random.
 */
export function demoUuid(seed: number, kind: number, a: number, b: number): string {
  const noise = mixSeed(seed, kind, a, b)
  const noise2 = mixSeed(noise, 0x51ed)
  const aScrambled = Math.imul(a ^ mixSeed(seed, kind), 0x9e3779b1) >>> 0
  const bScrambled = (b ^ (mixSeed(seed, kind, 7) & 0xffff)) & 0xffff
  return (
    hex32(noise) +
    '-' +
    HEX[(noise2 >>> 24) & 0xff] +
    HEX[(noise2 >>> 16) & 0xff] +
    '-4' +
    HEX[kind & 0x0f].slice(1) +
    HEX[(noise2 >>> 8) & 0xff] +
    '-' +
    HEX[((bScrambled >>> 8) & 0x3f) | 0x80] +
    HEX[bScrambled & 0xff] +
    '-' +
    HEX[noise2 & 0xff] +
    HEX[(bScrambled >>> 14) & 0x03] +
    hex32(aScrambled)
  )
}

const HEX: readonly string[] = Array.from({ length: 256 }, (_, i) =>
  i.toString(16).padStart(2, '0'),
)

function hex32(n: number): string {
  return HEX[(n >>> 24) & 0xff] + HEX[(n >>> 16) & 0xff] + HEX[(n >>> 8) & 0xff] + HEX[n & 0xff]
}
