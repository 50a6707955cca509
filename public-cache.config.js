// How long CDNs and Next's page cache may keep a public page: fresh for a minute, then served
// stale for up to 10 minutes while it is regenerated. Shared by next.config.js (node pages,
// which are statically regenerated) and src/lib/ssr.ts (server-rendered public pages).
const PUBLIC_PAGE_MAX_AGE_S = 60
const PUBLIC_PAGE_STALE_S = 600

module.exports = {
  PUBLIC_PAGE_MAX_AGE_S,
  PUBLIC_PAGE_STALE_S,
  PUBLIC_PAGE_CACHE_CONTROL: `public, s-maxage=${PUBLIC_PAGE_MAX_AGE_S}, stale-while-revalidate=${PUBLIC_PAGE_STALE_S}`,
}
