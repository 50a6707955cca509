// A token bucket per key (a client address), in the memory of one website process: `capacity`
// calls at once, refilled evenly over `perMs`. Used where one call costs real work (regenerating
// a node page in seven languages).

export interface RateLimit {
  capacity: number
  perMs: number
}

export interface RateDecision {
  allowed: boolean
  /** When refused: how long until a call is allowed again. */
  retryAfterMs: number
}

export function tokenBuckets(limit: RateLimit, maxKeys = 10_000) {
  const buckets = new Map<string, { tokens: number; at: number }>()
  const refillPerMs = limit.capacity / limit.perMs
  return function take(key: string, now = Date.now()): RateDecision {
    const previous = buckets.get(key)
    const tokens = previous
      ? Math.min(limit.capacity, previous.tokens + (now - previous.at) * refillPerMs)
      : limit.capacity
    buckets.delete(key)
    if (buckets.size >= maxKeys) buckets.delete(buckets.keys().next().value as string)
    if (tokens >= 1) {
      buckets.set(key, { tokens: tokens - 1, at: now })
      return { allowed: true, retryAfterMs: 0 }
    }
    buckets.set(key, { tokens, at: now })
    return { allowed: false, retryAfterMs: Math.ceil((1 - tokens) / refillPerMs) }
  }
}
