const { i18n } = require('./next-i18next.config.js')
const {
  PUBLIC_PAGE_CACHE_CONTROL,
  PUBLIC_PAGE_MAX_AGE_S,
  PUBLIC_PAGE_STALE_S,
} = require('./public-cache.config.js')
const { securityHeaders } = require('./security-headers.config.js')
const { CompileHintsPlugin } = require('./compile-hints.config.js')
const withFlowbiteReact = require('flowbite-react/plugin/nextjs')

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  i18n,
  poweredByHeader: false,
  // No ETag: Next would hash the whole HTML of every cached page on every request (about a
  // sixth of the time it takes to serve one); pages carry s-maxage for CDNs instead.
  generateEtags: false,
  // Node pages are statically regenerated (getStaticProps + revalidate): Next keeps serving a
  // stale copy this long while it regenerates one, and CDNs get the same policy, made public.
  expireTime: PUBLIC_PAGE_MAX_AGE_S + PUBLIC_PAGE_STALE_S,
  async headers() {
    const cacheControl = [{ key: 'Cache-Control', value: PUBLIC_PAGE_CACHE_CONTROL }]
    // CSP and the other security headers on every response (security-headers.config.js).
    const security = securityHeaders({ dev: process.env.NODE_ENV === 'development' })
    return [
      { source: '/:path*', headers: security },
      { source: '/nodes/:nodeId', headers: cacheControl },
      // The home page's listings: `/` and the cached path of any other (proxy.ts).
      { source: '/', headers: cacheControl },
      { source: '/_listing/:key', headers: cacheControl },
      // The router's page data (asked with x-nextjs-data) is always fetched afresh: with stale-while-revalidate a browser
      // would answer a repeated prefetch from its cache and revalidate it in the background, a
      // request Chromium then holds open for 30 s. Server-side it comes from the page cache.
      {
        source: '/:path*',
        has: [{ type: 'header', key: 'x-nextjs-data' }],
        headers: [{ key: 'Cache-Control', value: 'no-cache' }],
      },
    ]
  },
  webpack(config, { isServer }) {
    // Eager compilation of the pages' own chunks in the browser (compile-hints.config.js).
    if (!isServer) config.plugins.push(new CompileHintsPlugin())
    return config
  },
  // flowbite-react requires debounce@3 (ESM only); the server tests load ESM-only fastify plugins.
  transpilePackages: ['debounce', 'fastify-openapi-glue', '@seriousme/openapi-schema-validator'],
  async redirects() {
    return [
      { source: '/discord', destination: 'https://discord.com/invite/comfyorg', permanent: false },
    ]
  },
}

module.exports = withFlowbiteReact(nextConfig)
