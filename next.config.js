const { i18n } = require('./next-i18next.config.js')
const withFlowbiteReact = require('flowbite-react/plugin/nextjs')

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  i18n,
  poweredByHeader: false,
  // flowbite-react requires debounce@3 (ESM only); the server tests load ESM-only fastify plugins.
  transpilePackages: ['debounce', 'fastify-openapi-glue', '@seriousme/openapi-schema-validator'],
  async redirects() {
    return [
      { source: '/discord', destination: 'https://discord.com/invite/comfyorg', permanent: false },
    ]
  },
}

module.exports = withFlowbiteReact(nextConfig)
