// Types of cache-handler.js (CommonJS, loaded by Next through next.config.js), for its tests.
// Next's own types (next/dist/server/lib/incremental-cache CacheHandler) use const enums that
// isolated modules cannot name, so the shapes the handler relies on are spelled out here.

declare namespace RedisCacheHandler {
  interface CacheControl {
    revalidate: number | false
    expire: number | undefined
  }
  /** What Next stores: a rendered page (`kind: 'PAGES'`, html and pageData), a fetch, ... */
  interface Value {
    kind: string
    [field: string]: unknown
  }
  interface Entry {
    lastModified: number
    value: Value | null
    cacheControl?: CacheControl
  }
}

declare class RedisCacheHandler {
  constructor(ctx: { serverDistDir?: string; revalidatedTags: string[]; _requestHeaders: object })
  get(key: string, ctx: { kind: string; tags?: string[] }): Promise<RedisCacheHandler.Entry | null>
  set(
    key: string,
    data: RedisCacheHandler.Value | null,
    ctx: { cacheControl?: RedisCacheHandler.CacheControl; tags?: string[]; fetchCache?: boolean },
  ): Promise<void>
  revalidateTag(tags: string | string[], durations?: { expire?: number }): Promise<void>
  resetRequestCache(): void
  /** Closes this process's Redis connections. */
  static closeAll(): void
}

export = RedisCacheHandler
